"""The logbook's proof format, defined once, and its offline verifier (`logbook-verify`).

A small pure-Python package, shared by the application (which writes the hashes, the checkpoints, the
chain segment and the register's columns through `logbook_proof.formats`) and by a regulator, who
installs it with pip (`pip install ./logbook_proof`, which brings pyHanko and pypdf) and checks a
report with `logbook-verify REPORT.pdf --key CHECKPOINT_KEYS.pem --ca COMPLIANCE_CA.pem`. Nothing in
it imports Django or the application.
"""

__version__ = "1.0.0"
