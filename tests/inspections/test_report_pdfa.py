"""A signed report stays the PDF/A-3b it declares (ISO 19005-3, defined on PDF 1.7): the signature's
incremental update keeps the catalog at PDF 1.7, and the catalog's /AF lists each attachment once.
Checked with pyHanko's reader, poppler's pdfinfo (what a regulator's IT department runs) and pypdf."""

import re
import shutil
import subprocess

import pytest
from pypdf import PdfReader

from tests.inspections.test_signed_reports import generated


@pytest.mark.parametrize("kind", ["inspection_register", "approvals_in_effect"])
def test_the_signed_report_is_still_pdf_17_with_each_attachment_once(committed_db, media, history, kind):
    from pyhanko.pdf_utils.reader import PdfFileReader

    report = generated(history, kind=kind)
    assert report.status == "done", report.error and report.signed_by
    with open(report.file.path, "rb") as handle:
        reader = PdfFileReader(handle)  # the newest revision's catalog, as a reader uses it
        assert len(reader.embedded_signatures) == 1  # the signed file, not the unsigned one
        root = reader.root
        assert reader.input_version == (1, 7)
        # No /Version in the catalog raises it above the header's 1.7 (PDF/A-3 is PDF 1.7).
        assert str(root.get("/Version", "/1.7")) == "/1.7"
        # Nor does an extension declare PDF 2.0 as its base.
        for name, extension in dict(root.get("/Extensions", {})).items():
            for one in extension if isinstance(extension, list) else [extension]:
                assert str(one.get_object()["/BaseVersion"]) == "/1.7", name
        listed = root["/AF"]
        af = [listed.raw_get(i).reference for i in range(len(listed))]
        names = root["/Names"]["/EmbeddedFiles"]["/Names"]
        embedded = [names.raw_get(i).reference for i in range(1, len(names), 2)]
        assert len(af) == len(set(af)), "the catalog's /AF lists an attachment more than once"
        assert set(af) == set(embedded)
    # pypdf reads the same catalog
    pypdf_root = PdfReader(report.file.path).trailer["/Root"]
    assert len(pypdf_root["/AF"]) == len({ref.idnum for ref in pypdf_root["/AF"]})
    if shutil.which("pdfinfo"):
        info = subprocess.run(["pdfinfo", report.file.path], capture_output=True, text=True, check=True).stdout
        assert re.search(r"^PDF version: +1\.7$", info, re.M), info
