#!/usr/bin/env python3
"""Check a logbook report offline: `logbook-verify` (logbook_proof.verify) run from a checkout,
without installing it. A regulator installs the verifier with `pip install ./logbook_proof` instead
and runs `logbook-verify REPORT.pdf --key KEYS.pem --ca COMPLIANCE_CA.pem`."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from logbook_proof.verify import main

if __name__ == "__main__":
    sys.exit(main())
