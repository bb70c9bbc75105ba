"""Goal 4: a week's register as a PDF from a logbook of ENTRIES entries, request to download link,
for the latest week and for an older one (a year back): each within 3 s, the median of ROUNDS runs
alternated (BENCH_WEEK_ROUNDS; one run moves by a second on a shared 2-core machine). The request is recorded
as the API records it, and the report rendered as a worker renders it (the local pool of
`manage.py render_report`: the same steps), so the figure is the request and the rendering, without
the broker's hop. The database is kept between runs (seeding 1,000,000 entries takes minutes).

The process signs as a deployment does: a checkpoint key ring, its signer's ledger and a report
certificate of the benchmark's own (config.keyring, as `make run` makes its development keys), named by
the environment the settings read, so that the seeder signs the history every five minutes as beat does
and each report signs its checkpoint and its file. No timestamp authority (the checkpoints and the
reports say so). The keys are kept with the database: one without the other is seeded afresh."""

import os
import shutil
import time
from datetime import UTC, datetime, timedelta

from common import RESULTS, django_on, load, median, record, size, timed

ENTRIES = size(1_000_000, 50_000, "entries")
ROUNDS = size(3, 1, "week_rounds")
KEYS = RESULTS / f"keys-week_{ENTRIES}"
RING = KEYS / "checkpoint-keyring.json"


def keys_configure(*, fresh: bool) -> None:
    """The benchmark's keys (made if missing; afresh with a fresh database, as the ledger of a database
    that is gone must go with it) and the environment that names them, before Django reads its settings."""
    from config import keyring

    if fresh:
        shutil.rmtree(KEYS, ignore_errors=True)
    if not RING.exists():
        # Valid from before the seeded history's first entry (the key that signed it then).
        keyring.checkpoint_key_add(RING, now=datetime(1900, 1, 1, tzinfo=UTC))
    keyring.development_keys(KEYS, now=datetime.now(UTC), ca_directory=KEYS / "ca")
    os.environ.update(
        LOGBOOK_CHECKPOINT_KEYRING=str(RING),
        LOGBOOK_CHECKPOINT_LEDGER=str(KEYS / "checkpoint-ledger.json"),
        LOGBOOK_REPORT_SIGNING_KEY=str(KEYS / "report-signing.key"),
        LOGBOOK_REPORT_SIGNING_CERT=str(KEYS / "report-signing.pem"),
        LOGBOOK_REPORT_CA_CERT=str(KEYS / "ca" / "compliance-ca.pem"),
        LOGBOOK_REPORT_CERTIFICATES=str(KEYS / "report-certificates.pem"),
        LOGBOOK_REPORT_CA_CRL="",
        LOGBOOK_TSA_URL="",
        LOGBOOK_TSA_CERTIFICATES="",
    )


def week(prop, person, last_day) -> float:
    from inspections.reports.models import Report
    from inspections.reports.render import generate_locally
    from inspections.reports.services import report_request_local

    def requested_to_link():
        report = report_request_local(
            requested_by=person,
            property=prop,
            kind="inspection_register",
            period_from=last_day - timedelta(days=6),
            period_to=last_day,
            format="pdf",
        )
        assert generate_locally(report.pk, processes=2).status == "done", Report.objects.get(pk=report.pk).error
        assert Report.objects.get(pk=report.pk).file

    return timed(requested_to_link)


def kept(prop) -> bool:
    """Whether the kept database is whole and signed with the kept keys: its entries all there, its
    newest checkpoint's signature valid with the ring (a seed cut short, or keys made since: afresh)."""
    from inspections.logbook.checkpoints import checkpoint_check, checkpoint_keys

    if prop is None or prop.entries.count() != ENTRIES:
        return False
    newest = prop.checkpoints.order_by("-seq").first()
    return newest is not None and checkpoint_check(newest, checkpoint_keys()).ok


def main() -> None:
    keys_configure(fresh=False)
    django_on(f"week_{ENTRIES}", fresh=False)
    from django.db import connection
    from seed import seed

    from compliance.accounts.models import User
    from compliance.casinos.clock import local_date
    from compliance.casinos.models import Property

    prop = Property.objects.filter(name="Week").first()
    seeded = ""
    if not kept(prop):
        connection.close()
        keys_configure(fresh=True)  # the settings read the same paths: the files are new
        django_on(f"week_{ENTRIES}")
        started = time.perf_counter()
        prop = seed(entries=ENTRIES, tables=8, name="Week", signed=True)["property"]
        seeded = f"; seeded in {time.perf_counter() - started:.0f} s ({prop.checkpoints.count():,} checkpoints)"
        print(f"seeded {ENTRIES:,} entries{seeded}", flush=True)
    person = User.objects.filter(property=prop, role="compliance").first()
    latest = local_date(prop.entries.order_by("-seq").first().occurred_at, prop.zone)
    older = latest - timedelta(days=365)
    loads = [load()]
    week(prop, person, latest)  # warm: the first report of a process imports WeasyPrint
    times = {"latest": [], "older": []}
    for _ in range(ROUNDS):  # alternated, each week's median: one run moves by a second on a shared machine
        times["latest"].append(week(prop, person, latest))
        times["older"].append(week(prop, person, older))
    seconds = {side: median(values) for side, values in times.items()}
    loads.append(load())
    record(
        "4_older_week_register",
        figure=max(seconds.values()),
        baseline=None,
        target=3,
        unit="s",
        size=f"{ENTRIES:,} entries",
        loads=tuple(loads),
        note=f"medians of {ROUNDS}: latest week {seconds['latest']:.2f} s, a year back {seconds['older']:.2f} s (each run: "
        + "; ".join(f"{side} " + ", ".join(f"{value:.2f}" for value in values) for side, values in times.items())
        + f"){seeded}",
    )


if __name__ == "__main__":
    main()
