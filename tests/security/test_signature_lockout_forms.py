"""The browser's side of the lockout: every form that asks for a password as a signature is found by
following the pages' links as each role (none is listed by hand), and at each one the signer's
wrong passwords lock their name, after which even the right password is refused."""

from __future__ import annotations

import re
from decimal import Decimal
from html.parser import HTMLParser
from types import SimpleNamespace
from urllib.parse import urljoin, urlparse

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import Client
from django.utils import timezone

from compliance.accounts.models import SignatureFailures
from compliance.approvals.models import LayoutSubmission, RulesSubmission
from compliance.casinos.models import Ball
from inspections.logbook.models import Entry
from tests.factories import (
    PASSWORD,
    GamingTableFactory,
    RegulatorFactory,
    configure_for_opening,
    flag_raised,
    rules_submission_version,
)
from tests.support.logbook import event, inspect

LIMIT = settings.AXES_FAILURE_LIMIT
START = ["/", "/floor/", "/flags/", "/approvals/", "/manage/", "/reports/"]
NOT_FOLLOWED = ("/logout", "/admin", "/api", "/static", "/login")


class Page(HTMLParser):
    """The links of a page, and each of its forms with the fields a person would fill in."""

    def __init__(self):
        super().__init__()
        self.links: list[str] = []
        self.forms: list[dict] = []
        self._form: dict | None = None
        self._select: str | None = None
        self._required = self._optional = False
        self._first = ""
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        elif tag == "form":
            self._form = {"action": a.get("action") or "", "method": (a.get("method") or "get").lower(), "fields": {}}
            self._form["passwords"] = []
            self.forms.append(self._form)
        elif tag == "option" and self._form is not None and self._select:
            if a.get("value"):
                self._first = self._first or a["value"]
            else:
                self._optional = True
        elif self._form is None or "name" not in a:
            return
        elif tag == "input":
            kind = a.get("type", "text")
            if kind == "password":
                self._form["passwords"].append(a["name"])
            elif kind in ("radio", "checkbox"):
                # The first choice of each group ("pass" on the checklist), the way a person might.
                if kind == "radio" and a["name"] not in self._form["fields"]:
                    self._form["fields"][a["name"]] = a.get("value", "on")
            elif kind not in ("submit", "button", "file"):
                typed = {"number": "6", "date": "", "datetime-local": "", "time": ""}.get(kind, "Checked by the test")
                self._form["fields"][a["name"]] = a.get("value") or typed
            if kind == "submit" and a.get("value"):
                self._form["fields"][a["name"]] = a["value"]
        elif tag == "button" and a.get("value"):
            self._form["fields"].setdefault(a["name"], a["value"])
        elif tag == "select":
            self._select, self._first = a["name"], ""
            # A choice with an empty option is optional (a no spin's new ball) unless it is required (a
            # ball change's): a person chooses the first option of a required one, and leaves an
            # optional one empty.
            self._required, self._optional = "required" in a, False
        elif tag == "textarea":
            self._form["fields"][a["name"]] = "Checked by the test."

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select" and self._form is not None and self._select:
            if self._first and (self._required or not self._optional):
                self._form["fields"].setdefault(self._select, self._first)
            self._select = None


def signing_forms(client: Client) -> dict[str, dict]:
    """Every form with a password field reachable from the start pages, by the page it is on."""
    seen: set[str] = set()
    queue = list(START)
    found: dict[str, dict] = {}
    while queue and len(seen) < 200:
        path = queue.pop(0)
        if path in seen:
            continue
        seen.add(path)
        response = client.get(path)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        page = Page()
        page.feed(response.content.decode())
        for form in page.forms:
            if form["passwords"] and form["method"] == "post":
                found[
                    f"{urljoin(path, form['action']) or path}#{form['fields'].get('action', '')}#{'+'.join(form['passwords'])}"
                ] = {**form, "page": path}
        for link in page.links:
            target = urlparse(urljoin(path, link))
            if not target.netloc and not target.path.startswith(NOT_FOLLOWED) and target.path not in seen:
                queue.append(target.path)
    return found


@pytest.fixture
def floor(casino):
    """Something for every signing form to act on: a filed Rules Submission, a pending layout, an
    open flag and a logbook entry to amend."""
    submission = RulesSubmission.objects.get(property=casino.property)
    rules_submission_version(submission, version=2, status="filed", created_by=casino.compliance)
    rules_submission_version(submission, version=3, status="draft", created_by=casino.compliance)
    layout = LayoutSubmission.objects.get(property=casino.property)
    pending = LayoutSubmission.objects.create(
        property=casino.property,
        name="New layout",
        features=layout.features,
        created_by=casino.compliance,
        content_hash="1" * 64,
    )
    pending.tables.add(casino.table)
    now = timezone.now()
    flag_raised(casino.table, kind="cover_overdue", due_at=now)
    # A spare ball, so that the ball change form has a ball to put on.
    Ball.objects.create(
        property=casino.property, serial="B-SPARE", material="non_metallic", diameter_inches=Decimal("0.8125")
    )
    event(casino, "cover")  # an entry to amend; R-01 is locked
    # A table in each state, so that each of the floor's actions is offered somewhere.
    for number, steps in (
        ("R-02", ["cover"]),
        ("R-03", ["cover", "unlock"]),
        ("R-04", ["cover", "unlock", "inspect", "open"]),
        ("R-05", ["cover", "unlock", "inspect"]),
    ):
        table = configure_for_opening(
            GamingTableFactory(property=casino.property, number=number), created_by=casino.compliance
        )
        at_table = SimpleNamespace(**{**vars(casino), "table": table})
        for step in steps:
            inspect(at_table) if step == "inspect" else event(at_table, step)
    casino.regulator = RegulatorFactory()
    return casino


def test_every_signing_form_locks_after_repeated_wrong_passwords_even_with_the_right_one(floor):
    checked = {}
    for role in ("security", "floorperson", "maintenance", "compliance", "regulator"):
        person = getattr(floor, role)
        client = Client()
        client.force_login(person)
        for key, form in signing_forms(client).items():
            shape = re.sub(r"/\d+/", "/{id}/", key)
            if shape in checked:
                continue
            for password_field in form["passwords"]:
                AccessAttempt.objects.all().delete()
                SignatureFailures.objects.all().delete()
                entries = Entry.objects.count()
                codes = []
                for password in ["not " + PASSWORD] * (LIMIT + 1) + [PASSWORD]:
                    passwords = {name: (password if name == password_field else PASSWORD) for name in form["passwords"]}
                    # A second signer (the witness) is another person: the caller's own success would
                    # otherwise clear the count of the name being guessed.
                    others = {
                        name: floor.security2.username
                        for name, value in form["fields"].items()
                        if name.endswith("username") and name != "username"
                    }
                    response = client.post(form["action"] or form["page"], {**form["fields"], **others, **passwords})
                    assert response.status_code in (200, 429), (key, response.status_code)
                    codes.append("locked" if "locked for 15 minutes" in response.content.decode() else "refused")
                assert codes == ["refused"] * (LIMIT - 1) + ["locked"] * 3, (key, password_field, codes)
                # The signature's own count: signing in is never locked by it.
                assert not AccessAttempt.objects.exists(), key
                assert Entry.objects.count() == entries, key
            checked[shape] = role
    assert len(checked) >= 12, checked
