"""The demo property and its people: one list read by `manage.py seed_demo` and by `make run`.

Plain data, no Django import, so scripts/run.py can print the logins without setting Django up.
The password is the same for every demo login; set DEMO_PASSWORD before the first `make run`
(seed_demo stores it then; changing the variable later changes only what is printed).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

DEMO_PASSWORD = os.getenv("DEMO_PASSWORD", "demo-logbook-2026")

PROPERTY_NAME = "Keystone Demo Casino"
PROPERTY_LICENCE = "PA-DEMO-001"
PROPERTY_JURISDICTION = "PA"
PROPERTY_TIME_ZONE = "America/New_York"
# The product's default grace period to cover a wheel (§ 617a.2(f)): unlock, inspect and open fit in it.
COVER_GRACE_MINUTES = 15
SUPERVISORS_EMAIL = "security-supervisors@keystone-demo.example"  # the console shows what is mailed


@dataclass(frozen=True)
class DemoUser:
    username: str
    full_name: str
    role: str  # a compliance.accounts.models.Role value
    role_label: str
    credential_number: str
    at_property: bool = True  # regulators and the administrator belong to no property
    jurisdiction: str = ""  # regulators only
    superuser: bool = False
    supervisor: bool = False  # a security officer who is the security supervisor: lifts locks on the floor


DEMO_USERS = (
    DemoUser("security", "Dana Whitfield", "security", "Security officer", "PGCB-SEC-20417", supervisor=True),
    DemoUser("security2", "Marcus Oyelaran", "security", "Security officer", "PGCB-SEC-20588"),
    DemoUser("floor", "Rosa Delgado", "floorperson", "Floorperson", "PGCB-FLR-31102"),
    DemoUser("maintenance", "Tom Brennan", "maintenance", "Table game maintenance", "PGCB-TGM-40736"),
    DemoUser("compliance", "Priya Raman", "compliance", "Compliance manager", "PGCB-CMP-52019"),
    DemoUser(
        "regulator",
        "Agent Helen Kowalski",
        "regulator",
        "Regulator (Board agent)",
        "PGCB-BEA-60311",
        at_property=False,
        jurisdiction="PA",
    ),
    DemoUser(
        "admin", "Site Administrator", "admin", "Administrator", "PGCB-ADM-70001", at_property=False, superuser=True
    ),
)
