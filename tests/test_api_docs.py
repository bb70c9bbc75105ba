"""docs/api.md as executable claims (issue 30, item 8): every request example of the page, as it is
written, runs against the demo `seed_demo` makes, in the page's order, and answers as the page says.

The page says its examples "were run against the application with the demo property of `make
run`". Here they are: each request block (an ```http block "METHOD /path", its headers and its
JSON body; or a `curl` command) is sent with the test client as the person EXAMPLES names, with
the demo's password where the page writes "…". The answer must have the status EXAMPLES says the
page documents; when the page shows the answer right after the request, every field the page
shows is in the answer, with the value shown, except what the page says differs from run to run
(ids, times, hashes, counts). Ids the page shows in an answer (the entry 354 an inspection
made) stand for the ids this run made, in the requests that follow (the amendment of entry 354).
A new example on the page fails here until EXAMPLES says who sends it and what it answers.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from datetime import UTC, datetime
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection
from django.test import override_settings
from rest_framework.test import APIClient

from compliance.accounts.models import User
from inspections.logbook import demo
from tests import append_only as triggers
from tests.factories import pdf_bytes
from tests.servers import ROOT

API_MD = ROOT / "docs" / "api.md"
# When the page's examples were run (its times: the logbook from 2026-11-24 00:00 New York time, a
# Rules Submission effective 2026-12-01): the demo is seeded, and the examples sent, at that clock.
RUN_AT = datetime(2026, 11, 24, 1, 20, tzinfo=ZoneInfo("America/New_York"))

# Each example, by its request line, in the page's order: who sends it (None: nobody signed in)
# and the status the page documents for it.
EXAMPLES = [
    ("POST /api/auth/token/", None, 200),
    ("POST /api/irregularities/", "floor", 201),
    ("PATCH /api/properties/1/", "compliance", 200),
    ("POST /api/people/", "compliance", 201),
    ("PATCH /api/tables/1/", "compliance", 400),
    ("POST /api/tables/4/unlock/", "security", 201),
    ("POST /api/wheels/", "compliance", 201),
    ("POST /api/inspections/", "security", 201),
    ("POST /api/adjustments/", "maintenance", 201),
    ("POST /api/deck-changes/", "floor", 400),
    ("POST /api/amendments/", "security", 201),
    ("GET /api/logbook/?table=4&from=2026-11-24T00:00:00-05:00&page_size=2&count=true", "regulator", 200),
    ("POST /api/exceptions/1/acknowledge/", "compliance", 200),
    ("POST /api/rules-submissions/", "compliance", 201),
    ("POST /api/layouts/", "compliance", 201),
    ("POST /api/layouts/", "compliance", 400),
    ("POST /api/reports/", "compliance", 201),
]

FENCE = re.compile(r"^```(\w*)\n(.*?)^```", flags=re.S | re.M)
REQUEST_LINE = re.compile(r"^(GET|POST|PATCH|PUT|DELETE) (/api/\S*)$")
# What differs from run to run, shown on the page as the run produced it.
TIME = re.compile(r"^(\d{4}-\d{2}-\d{2}T)?\d{2}:\d{2}")
HASH = re.compile(r"^[0-9a-f]{16,}$")
VOLATILE_KEYS = {"token", "expiry", "next", "previous", "key_id", "signature", "chain_head", "head"}


@dataclass
class Example:
    line: int
    method: str
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    body: object = None
    form: dict[str, list] | None = None
    answer: object = None  # the answer the page shows right after the request, if any

    @property
    def key(self) -> str:
        return f"{self.method} {self.path}"


def jsonc(text: str):
    """The page's JSON with comments ("// …") and the gaps they leave (trailing commas) taken out."""
    text = re.sub(r"(?m)^\s*//[^\n]*", "", text)  # a comment is a line of its own (not a URL's "//")
    text = re.sub(r",(\s*[}\]])", r"\1", text)
    return json.loads(text)


def _http(block: str, line: int) -> Example:
    first, _, rest = block.partition("\n")
    method, path = REQUEST_LINE.match(first.strip()).groups()
    example = Example(line=line, method=method, path=path)
    lines = rest.splitlines()
    while lines and re.match(r"^[A-Za-z-]+: ", lines[0]):
        name, _, value = lines.pop(0).partition(": ")
        example.headers[name] = value
    text = "\n".join(lines).strip()
    if text:
        example.body = json.loads(text)
    return example


def _curl(block: str, line: int) -> Example:
    words = shlex.split(block.replace("\\\n", " "))
    assert words[0] == "curl"
    method, headers, form, url = "GET", {}, {}, None
    index = 1
    while index < len(words):
        word = words[index]
        if word in ("-H", "-F", "-X"):
            value = words[index + 1]
            index += 2
            if word == "-H":
                name, _, text = value.partition(": ")
                headers[name] = text
            elif word == "-X":
                method = value
            else:
                method = "POST" if method == "GET" else method
                name, _, text = value.partition("=")
                form.setdefault(name, []).append(text)
        else:
            url, index = word, index + 1
    path = "/api/" + url.split("/api/", 1)[1]
    return Example(line=line, method=method, path=path, headers=headers, form=form)


def examples() -> list[Example]:
    """The request examples of docs/api.md, in order, each with the answer shown right after it."""
    text = API_MD.read_text(encoding="utf-8")
    found: list[Example] = []
    fences = list(FENCE.finditer(text))
    for number, fence in enumerate(fences):
        block = fence.group(2)
        line = text.count("\n", 0, fence.start()) + 1
        first = block.strip().splitlines()[0] if block.strip() else ""
        if REQUEST_LINE.match(first):
            example = _http(block, line)
        elif first.startswith("curl "):
            example = _curl(block, line)
        else:
            continue
        following = fences[number + 1] if number + 1 < len(fences) else None
        if following and following.group(1) in ("json", "jsonc") and not text[fence.end() : following.start()].strip():
            example.answer = jsonc(following.group(2))
        found.append(example)
    return found


def _with_password(value):
    """The page's "…" for a password is the demo's."""
    if isinstance(value, dict):
        return {
            key: demo.DEMO_PASSWORD if key == "password" and item == "…" else _with_password(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_with_password(item) for item in value]
    return value


def _with_ids(value, ids: dict[int, int]):
    """The ids the page's earlier answers showed, as this run made them (an entry's `entry`)."""
    if isinstance(value, dict):
        return {key: ids.get(item, item) if key == "entry" else _with_ids(item, ids) for key, item in value.items()}
    if isinstance(value, list):
        return [_with_ids(item, ids) for item in value]
    return value


def differences(shown, got, where: str = "", ids: dict[int, int] | None = None) -> list[str]:
    """What the page shows that the answer does not say (ids, times, hashes and counts aside; an
    entry's number in words, "#354", as this run numbered it)."""
    ids = ids or {}
    if isinstance(shown, str):
        shown = re.sub(r"#(\d+)", lambda number: f"#{ids.get(int(number.group(1)), int(number.group(1)))}", shown)
    if isinstance(shown, dict):
        if not isinstance(got, dict):
            return [f"{where}: the page shows an object, the answer {got!r}"]
        found = []
        for key, value in shown.items():
            if key not in got:
                found.append(f"{where}.{key}: missing from the answer")
            elif key not in VOLATILE_KEYS:
                found += differences(value, got[key], f"{where}.{key}", ids)
        return found
    if isinstance(shown, list):
        if not isinstance(got, list):
            return [f"{where}: the page shows a list, the answer {got!r}"]
        if where.endswith(".errors") and len(shown) != len(got):
            return [f"{where}: the page shows {len(shown)} refusal(s), the answer {got!r}"]
        if shown and all(isinstance(item, dict) for item in shown):
            # Each object the page shows is one of the answer's (the page may leave some out).
            return [
                f"{where}: no item of the answer is {item!r} (the answer: {got!r})"
                for item in shown
                if not any(not differences(item, other, where, ids) for other in got)
            ]
        return [] if shown == got else [f"{where}: the page shows {shown!r}, the answer {got!r}"]
    if isinstance(shown, bool):
        return [] if shown is got else [f"{where}: the page shows {shown!r}, the answer {got!r}"]
    if shown is None or isinstance(shown, int | float):
        return []  # ids, counts, measures of this run
    if isinstance(shown, str) and (TIME.match(shown) or HASH.match(shown) or "…" in shown or shown.startswith("http")):
        return []
    return [] if shown == got else [f"{where}: the page shows {shown!r}, the answer {got!r}"]


def collected_ids(shown, got, ids: dict[int, int]) -> None:
    """The page's ids (an answer's `id`) and this run's, for the requests that follow."""
    shown_id = shown.get("id") if isinstance(shown, dict) else None
    got_id = got.get("id") if isinstance(got, dict) else None
    if isinstance(shown_id, int) and isinstance(got_id, int):
        ids[shown_id] = got_id


# A file for the curl's `-F artwork=@layout.pdf`: a PDF is recognised by its first bytes.
ARTWORK = pdf_bytes()


def send(client: APIClient, example: Example, ids: dict[int, int]):
    headers = {
        f"HTTP_{name.upper().replace('-', '_')}": value
        for name, value in example.headers.items()
        if name.lower() not in ("authorization", "content-type")
    }
    if example.form is not None:
        data = {}
        for name, values in example.form.items():
            files = [SimpleUploadedFile(v[1:], ARTWORK) for v in values if v.startswith("@")]
            data[name] = files[0] if files else (values if len(values) > 1 else values[0])
        return (
            client.generic(example.method, example.path, **headers)
            if not data
            else client.post(example.path, data, format="multipart", **headers)
        )
    body = _with_ids(_with_password(example.body), ids)
    call = getattr(client, example.method.lower())
    if body is None:
        return call(example.path, **headers)
    return call(example.path, body, format="json", **headers)


@pytest.fixture
def the_demo(_logbook_triggers_restored, django_db_reset_sequences, django_db_blocker):
    """The demo of `make run` at the page's clock, after its first overdue scan: committed, with
    the ids a fresh database gives (the property 1, its tables 1 to 8), as `make run` makes it.
    Emptied after the test as committed_db does (tests/conftest.py)."""
    fast = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    with time_machine.travel(RUN_AT.astimezone(UTC), tick=True), fast:
        call_command("seed_demo", stdout=StringIO())
        call_command("scan_overdue", "--no-mail", stdout=StringIO())
        yield
    with django_db_blocker.unblock():
        triggers.drop(connection)


def test_the_page_has_an_example_for_each_and_says_who_sends_it():
    found = [example.key for example in examples()]
    assert found == [key for key, _username, _status in EXAMPLES], (
        "docs/api.md's examples and EXAMPLES differ: say who sends each and its status"
    )


def test_every_request_example_answers_as_the_page_says(the_demo):
    ids: dict[int, int] = {}
    problems = []
    for example, (key, username, status) in zip(examples(), EXAMPLES, strict=True):
        assert example.key == key
        client = APIClient()
        if username:
            client.force_authenticate(User.objects.get(username=username))
        answer = send(client, example, ids)
        content = answer.json() if answer.get("Content-Type", "").startswith("application/json") else None
        where = f"docs/api.md:{example.line} {example.key}"
        if answer.status_code != status:
            problems.append(f"{where}: answered {answer.status_code}, the page says {status}: {content}")
            continue
        if "Idempotency-Key" in example.headers:
            # "sending exactly the same again answers 201 with the same body … and Idempotent-Replayed: true"
            again = send(client, example, ids)
            if (again.status_code, again.get("Idempotent-Replayed"), again.json()) != (status, "true", content):
                problems.append(f"{where}: sent again, answered {again.status_code} {again.json()}, not a replay")
        if example.answer is not None:
            collected_ids(example.answer, content, ids)
            problems += [f"{where}: {problem}" for problem in differences(example.answer, content, ids=ids)]
    assert not problems, "\n".join(problems)
