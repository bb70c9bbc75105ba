"""The demo as its people meet it: each demo login, in English and in Spanish, walks every page its
home reaches by links, on the data `manage.py seed_demo` makes (not a world of the tests' own).

For each person and language (the person's own choice, as `/language/` saves it), the walk signs in
through the sign-in page with the demo password and follows every same-origin link (GET; not
signing out, not the API; a file to download is fetched for its status only; ten pages of a kind at
most, e.g. ten of the 350 entries' amendment forms, and one page of a list's older pages; of the
admin site its index and each model's list). It asserts:

* no page answers a server error (5xx), and no link the person is shown is refused or not found (4xx);
* every form of every page, sent with its own defaults (the values the server wrote into it, and
  the person's own password where the form asks the signer for it), is recorded (a redirect, whose
  page is read too) or refused in words (the page again, with its refusal), never a 5xx, and never
  "this field is required" on a field the server had filled;
* no sentence on a Spanish page is English, but for citations ("58 Pa. Code § 617a.2(b)") and what
  people typed or signed (read from the demo's own rows: names, notes, references, `TYPED`). A piece
  of the page's text (an element's text, a placeholder, a title, a label) is English when it is a
  msgid of the catalogue whose Spanish differs, or when it has two words of `ENGLISH`;
* every date, date-and-time and time input's value is ISO (`YYYY-MM-DD`).

Each form is sent inside a transaction rolled back after its answer is read, so the walk goes on
from the demo as seeded. The Django test client, not a browser: the walk is one request a page;
tests/browser/test_every_page.py walks a world of its own in Chromium at three widths.

The walk's figures, as measured when this module was written (issue 30): 7 people (security,
security2, floor, maintenance, compliance, regulator, admin) × 2 languages = 14 walks; 474 page
views (per walk: 46, 45, 45, 27, 31, 21 and 22 pages), 22 files fetched for their status, 266 forms
sent with their defaults (76 recorded, 190 refused in words), 0 server errors, 0 date inputs not
ISO, 0 sentences left in English on the Spanish pages. About 70 s on one core (12 s of it seeding
the demo). Each walk prints its own figures (`pytest -s`). Before issue 30's fixes the same walk
found /rules-submissions/1/ answering 500 for the compliance manager, the regulator and the
administrator, three date inputs written "19/11/2026" on Spanish pages, and 22 to 118 English
sentences on each person's Spanish pages.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser
from io import StringIO
from urllib.parse import urlencode, urljoin, urlsplit

import polib
import pytest
from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.db import transaction
from django.test import Client, override_settings

from compliance.accounts.models import User
from compliance.accounts.services import person_language_set
from inspections.logbook import demo

LANGUAGES = ("en", "es")
PEOPLE = tuple(person.username for person in demo.DEMO_USERS)

# Not followed: signing out, the API and its documents, the admin's pages for one record (Django's
# own forms, alike for every model: the admin's index and each model's list are walked).
NOT_WALKED = re.compile(r"^/(api|logout|admin/logout)/|^/admin/(?![a-z_]+/([a-z_]+/)?$)")
# Forms not sent: signing out; the admin's own forms.
NOT_SENT = re.compile(r"^/(logout|admin/logout)/|^/admin/")
MOST_PAGES = 400
# Pages of one kind (a path whose numbers differ: /entries/<n>/amend/) walked at most this many
# times: every table of the demo (8), not each of its 350 entries' amendment forms.
PER_KIND = 10
HTML_TYPES = ("text/html",)

# ---------------------------------------------------------------- reading a page


@dataclass
class Form:
    action: str
    method: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    filled: set[str] = field(default_factory=set)  # the fields the server gave a value
    dates: list[tuple[str, str, str]] = field(default_factory=list)  # (name, type, value)
    submit: tuple[str, str] | None = None
    _select: str | None = None
    _options: list[tuple[str, bool]] = field(default_factory=list)
    _textarea: str | None = None
    _text: list[str] = field(default_factory=list)


BLOCKS = {
    "p", "li", "dt", "dd", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "div", "label", "option",
    "button", "a", "legend", "summary", "caption", "title", "small", "section", "article", "header",
    "footer", "nav", "main", "ul", "ol", "dl", "tr", "table", "form", "fieldset", "br", "figcaption",
    "strong", "em", "span", "code", "textarea", "select",
}  # fmt: skip
VOID = {"br", "hr", "img", "input", "meta", "link", "source", "wbr", "col", "area", "base"}
UNSEEN = {"script", "style", "template", "textarea"}


class Page(HTMLParser):
    """A page's links, forms and what a person reads of it, each piece of text by itself."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.forms: list[Form] = []
        self.pieces: list[str] = []
        self._text: list[str] = []
        self._unseen = 0
        self._hidden: list[str] = []  # the open elements marked hidden
        self._form: Form | None = None

    def _cut(self):
        text = " ".join("".join(self._text).split())
        if text:
            self.pieces.append(text)
        self._text = []

    def handle_starttag(self, tag, attrs):
        a = {k: (v or "") for k, v in attrs}
        if tag in BLOCKS:
            self._cut()
        if tag in UNSEEN and tag != "textarea":
            self._unseen += 1
        if "hidden" in a and tag not in VOID:
            self._hidden.append(tag)
        for attribute in ("placeholder", "aria-label", "title", "alt"):
            if a.get(attribute) and not self._hidden:
                self.pieces.append(" ".join(a[attribute].split()))
        if tag == "a" and a.get("href"):
            self.links.append(unescape(a["href"]))
        elif tag == "form":
            self._form = Form(action=a.get("action", ""), method=a.get("method", "get").lower())
            self.forms.append(self._form)
        elif self._form is not None and ("name" in a or tag in ("select", "textarea", "option", "button")):
            self._field(tag, a)

    def _field(self, tag, a):
        form = self._form
        if form is None:
            return
        name, kind = a.get("name", ""), a.get("type", "text" if tag == "input" else "").lower()
        if tag == "input":
            if kind in ("submit", "image"):
                if form.submit is None and name:
                    form.submit = (name, a.get("value", ""))
                if kind == "submit" and a.get("value") and not self._hidden:
                    self.pieces.append(a["value"])
            elif kind in ("checkbox", "radio"):
                if "checked" in a:
                    form.fields.append((name, a.get("value", "on")))
                    form.filled.add(name)
            elif kind == "file":
                pass
            else:
                value = a.get("value", "")
                form.fields.append((name, value))
                if value:
                    form.filled.add(name)
                if kind in ("date", "datetime-local", "time", "month", "week"):
                    form.dates.append((name, kind, value))
        elif tag == "button" and a.get("type", "submit") == "submit" and name and form.submit is None:
            form.submit = (name, a.get("value", ""))
        elif tag == "select":
            form._select, form._options = name, []
            self._multiple = "multiple" in a
        elif tag == "option" and form._select is not None:
            form._options.append((a.get("value", "\0"), "selected" in a))
        elif tag == "textarea":
            form._textarea, form._text = name, []
            self._unseen += 1

    def handle_endtag(self, tag):
        if tag in BLOCKS:
            self._cut()
        if tag in UNSEEN and self._unseen and tag != "textarea":
            self._unseen -= 1
        if self._hidden and self._hidden[-1] == tag:
            self._hidden.pop()
        form = self._form
        if tag == "form":
            self._form = None
        elif form is not None and tag == "select" and form._select is not None:
            chosen = [value for value, selected in form._options if selected]
            if not chosen and form._options and not getattr(self, "_multiple", False):
                chosen = [form._options[0][0]]  # a browser sends the first option
            for value in chosen:
                form.fields.append((form._select, value))
            if [value for value, selected in form._options if selected and value]:  # a placeholder is no value
                form.filled.add(form._select)
            form._select = None
        elif form is not None and tag == "textarea" and form._textarea is not None:
            value = "".join(form._text)
            form.fields.append((form._textarea, value.removeprefix("\n")))
            if value.strip():
                form.filled.add(form._textarea)
            form._textarea = None
            self._unseen -= 1

    def handle_data(self, data):
        form = self._form
        if form is not None and form._textarea is not None:
            form._text.append(data)
        if form is not None and form._select is not None and form._options and form._options[-1][0] == "\0":
            form._options[-1] = (data.strip(), form._options[-1][1])  # an option without a value: its text
        if not self._unseen and not self._hidden:
            self._text.append(data)

    def close(self):
        super().close()
        self._cut()


def read(body: str) -> Page:
    page = Page()
    page.feed(body)
    page.close()
    return page


# ---------------------------------------------------------------- English on a Spanish page

# Words of English that Spanish does not use: a piece with two of them is an English sentence.
ENGLISH = frozenset(
    re.findall(
        r"\w+",
        "the is are was were be been has have had it its this that these those with for from which who "
        "what when where why how not at least of and or to by on you your will would can could should "
        "there their they them than then into only any each every must may after before while an as if "
        "but do does we our about also without within between during until under again once other such "
        "same own all one here yet still "
        # and the product's own words, which Spanish says otherwise (mesa, rueda, bola, política…)
        "table tables wheel ball entry policy product paragraph layout submission opened closed offered",
    )
)
WORD = re.compile(r"[A-Za-zÀ-ÿ]+")
# A citation as the law writes it: "58 Pa. Code § 617a.2(b)", "N.J.A.C. 19:47-2.1".
CITATION = re.compile(r"\d+ [A-Z][A-Za-z.]* Code § [\w.()]+|[A-Z.]+ \d+:\d+[-\d.]*|§ ?[\w.()]+")


def english_msgids() -> set[str]:
    """The catalogue's English sentences and words whose Spanish differs (a piece equal to one is English)."""
    catalogue = polib.pofile(str(settings.BASE_DIR / "locale" / "es" / "LC_MESSAGES" / "django.po"))
    return {
        entry.msgid.strip()
        for entry in catalogue
        if entry.msgstr and entry.msgstr != entry.msgid and not entry.msgid_plural and len(entry.msgid) > 3
    }


# What people type or sign, by model and field: kept as written on a Spanish page. Not the rows the
# product writes itself (a flag's citation, a submission's violations, an amendment's or an
# inspection's description, a report's error), which are read in the reader's language.
TYPED = {
    "casinos.Property": ("name", "licence_number", "time_zone"),
    "casinos.Wheel": ("serial",),
    "casinos.Ball": ("serial",),
    "casinos.GamingTable": ("number", "configuration"),
    "accounts.User": ("username", "first_name", "last_name", "full_name", "credential_number", "email"),
    "accounts.LockLift": ("lifter_name", "lifter_credential", "reason"),
    "approvals.RulesSubmission": ("configurations", "decision_reference"),
    "approvals.LayoutSubmission": ("name", "decision_reference"),
    "approvals.ApprovalSignature": ("reference", "note", "signer_name", "credential_number"),
    "logbook.Entry": ("table_number", "details"),
    "logbook.Signature": ("signer_name", "credential_number"),
    "flags.ComplianceException": ("resolver_name", "resolver_credential", "resolution_note"),
}
# The entries whose description is what the person typed (an adjustment's or replacement's work).
TYPED_DESCRIPTIONS = ("adjustment", "replacement")


def typed_texts() -> set[str]:
    """What people typed or signed in the demo, kept as written: names, notes, references, serials."""
    typed: set[str] = set()
    for label, names in TYPED.items():
        for row in apps.get_model(label).objects.values_list(*names):
            for value in row:
                typed.update(strings(value))
    entries = apps.get_model("logbook.Entry").objects.filter(kind__in=TYPED_DESCRIPTIONS)
    for description in entries.values_list("description", flat=True):
        typed.update(strings(description))
    return {text for text in typed if len(text) > 2}


def strings(value: object) -> list[str]:
    """The strings inside a value (a JSON document's, at any depth), spaces normalised."""
    if isinstance(value, str):
        return [" ".join(value.split())]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def english_left(pieces: list[str], *, msgids: set[str], typed: set[str]) -> list[str]:
    """The pieces of a Spanish page that are English sentences the product wrote."""
    left = []
    for piece in pieces:
        text = piece
        for kept in sorted((t for t in typed if t in text), key=len, reverse=True):
            text = text.replace(kept, " ")
        text = CITATION.sub(" ", text)
        words = [w.lower() for w in WORD.findall(text)]
        if not words:
            continue
        if text.strip(' .:,;()“”"') in msgids or len({w for w in words if w in ENGLISH}) >= 2:
            left.append(piece)
    return left


def test_the_detector_finds_english_and_keeps_citations_and_typed_text():
    msgids = {"Not open to you now, and why"}
    typed = {"Dealer under-spun; player at seat 3 disputed the result"}
    pieces = [
        "Not open to you now, and why",
        "Product policy: the table's states (no paragraph governs opening an open table)",
        "at least 35 to 1",
        "No puede abrir la mesa R-07. (58 Pa. Code § 617a.2(a))",
        "Nota: Dealer under-spun; player at seat 3 disputed the result",
        "58 Pa. Code § 617a.2(b)",
        "Mesa R-01 · Sala",
    ]
    assert english_left(pieces, msgids=msgids, typed=typed) == pieces[:3]


# ---------------------------------------------------------------- the walk


@pytest.fixture(scope="module")
def demo_media(tmp_path_factory):
    return tmp_path_factory.mktemp("demo-media")


@pytest.fixture
def media_root(settings, demo_media):
    """The demo's files (its layouts' artwork) where the seeding put them, for every walk."""
    settings.MEDIA_ROOT = demo_media
    return demo_media


@pytest.fixture(scope="module")
def seeded(django_db_setup, django_db_blocker, demo_media):
    """`manage.py seed_demo` once for the module, rolled back at its end; each test in a savepoint."""
    with django_db_blocker.unblock(), override_settings(MEDIA_ROOT=demo_media):
        outer = transaction.atomic()
        outer.__enter__()
        try:
            call_command("seed_demo", stdout=StringIO())
            yield {"typed": typed_texts(), "msgids": english_msgids()}
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@dataclass
class Walk:
    pages: int = 0
    files: int = 0
    forms: int = 0
    recorded: int = 0  # forms answered by a redirect
    refused: int = 0  # forms answered by the page again, with the refusal in words
    problems: list[str] = field(default_factory=list)
    english: list[str] = field(default_factory=list)
    left_over: int = 0  # pages still queued when MOST_PAGES was reached


def same_origin(href: str, base: str) -> str | None:
    url = urlsplit(urljoin(base, href))
    if url.scheme not in ("", "http") or url.netloc not in ("", "testserver") or not url.path.startswith("/"):
        return None
    query = url.query if url.query and not url.path.startswith("/admin/") else ""
    return url.path + (f"?{query}" if query else "")


def check_dates(path: str, forms: list[Form], walk: Walk) -> None:
    iso = {
        "date": r"\d{4}-\d{2}-\d{2}",
        "datetime-local": r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?",
        "time": r"\d{2}:\d{2}(:\d{2})?",
    }
    for form in forms:
        for name, kind, value in form.dates:
            if value and not re.fullmatch(iso.get(kind, ".*"), value):
                walk.problems.append(f"{path}: <input type={kind} name={name}> value={value!r} is not ISO")


REQUIRED = ("This field is required.", "Este campo es obligatorio.", "Este campo es requerido.")


def send(client: Client, path: str, form: Form, walk: Walk, language: str, seeded: dict) -> None:
    """The form with its own defaults: recorded, or refused in words; rolled back either way."""
    target = same_origin(form.action or path, path)
    if target is None or NOT_SENT.search(urlsplit(target).path):
        return
    # The form as the server wrote it, and the person's own password where it asks for one (a signature
    # is the signer's password typed again; a witness's stays blank: the walk has no second person).
    data = [(name, value or (demo.DEMO_PASSWORD if name == "password" else "")) for name, value in form.fields if name]
    if form.submit:
        data.append(form.submit)
    walk.forms += 1
    where = f"{path} → {form.method.upper()} {target}"
    with transaction.atomic():
        if form.method == "post":
            response = client.post(target, urlencode(data), content_type="application/x-www-form-urlencoded")
        else:
            response = client.get(urlsplit(target).path, dict(data) if data else None)
        after = None
        if response.status_code in (301, 302, 303) and form.method == "post":
            # What was recorded is said on the page the form leads to (its messages), in the same
            # transaction, before it is rolled back.
            next_page = same_origin(response["Location"], target)
            after = client.get(next_page) if next_page and not NOT_WALKED.search(urlsplit(next_page).path) else None
        transaction.set_rollback(True)
    if response.status_code >= 500:
        walk.problems.append(f"{where}: answered {response.status_code}")
        return
    if response.status_code in (301, 302, 303):
        walk.recorded += 1
        if after is not None and after.status_code >= 400:
            walk.problems.append(f"{where} → {response['Location']}: answered {after.status_code}")
        elif after is not None and language == "es" and "html" in after.get("Content-Type", ""):
            pieces = read(after.content.decode(errors="replace")).pieces
            left = english_left(pieces, msgids=seeded["msgids"], typed=seeded["typed"])
            walk.english += [f"{where} → {response['Location']}: {piece}" for piece in left]
        return
    if form.method == "get":
        return
    walk.refused += 1
    body = response.content.decode(errors="replace")
    if "html" not in response.get("Content-Type", ""):
        return
    page = read(body)
    for name in form.filled:
        # The field's own error block follows its input: a required error there means the default was lost.
        block = re.search(rf'name="{re.escape(name)}"[^>]*>(?:(?!<div class="field).){{0,2000}}', body, re.S)
        if block and any(required in block.group(0) for required in REQUIRED):
            walk.problems.append(f"{where}: “required” on {name!r}, which the server had filled")
    if response.status_code < 400 and not re.search(r'role="alert"|class="[^"]*\berror', body):
        walk.problems.append(f"{where}: answered {response.status_code} with no refusal in words")
    if language == "es":
        walk.english += [
            f"{where}: {piece}" for piece in english_left(page.pieces, msgids=seeded["msgids"], typed=seeded["typed"])
        ]


def kind_of(path: str) -> str:
    """A page's kind: its path with its numbers as N and its query's names (the next pages of a
    list, `?before=…`, are one kind)."""
    url = urlsplit(path)
    names = ",".join(sorted({name.split("=")[0] for name in url.query.split("&") if name}))
    return re.sub(r"/\d+/", "/N/", url.path) + "?" + names


def walk_demo(client: Client, language: str, seeded: dict) -> Walk:
    walk, seen, queue, sent = Walk(), set(), ["/"], set()
    kinds: dict[str, int] = {}
    while queue and len(seen) < MOST_PAGES:
        path = queue.pop(0)
        kind = kind_of(path)
        if path in seen or kinds.get(kind, 0) >= (1 if urlsplit(path).query else PER_KIND):
            continue
        seen.add(path)
        kinds[kind] = kinds.get(kind, 0) + 1
        response = client.get(path)
        if response.status_code in (301, 302, 303):
            target = same_origin(response["Location"], path)
            if target and target not in seen and not NOT_WALKED.search(urlsplit(target).path):
                queue.append(target)
            continue
        if response.status_code >= 400:
            # A link the product shows to this person leads somewhere: never a server error, nor a
            # page refused or not found.
            walk.problems.append(f"{path}: answered {response.status_code}")
            continue
        if not response.get("Content-Type", "").startswith(HTML_TYPES):
            walk.files += 1  # a download: its status only
            continue
        walk.pages += 1
        body = response.content.decode(errors="replace")
        page = read(body)
        check_dates(path, page.forms, walk)
        if language == "es":
            left = english_left(page.pieces, msgids=seeded["msgids"], typed=seeded["typed"])
            walk.english += [f"{path}: {piece}" for piece in left]
        for href in page.links:
            found = same_origin(href, path)
            if found and not NOT_WALKED.search(urlsplit(found).path) and found not in seen and found not in queue:
                queue.append(found)
        for form in page.forms:
            key = (form.method, form.action or urlsplit(path).path, tuple(sorted(n for n, _ in form.fields)))
            if key not in sent:
                sent.add(key)
                send(client, path, form, walk, language, seeded)
    walk.left_over = len([path for path in queue if path not in seen])
    return walk


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("username", PEOPLE)
def test_each_demo_person_walks_every_page_and_form_in_their_language(seeded, username, language):
    started = time.monotonic()
    person = User.objects.get(username=username)
    person_language_set(person_id=person.pk, actor=person, language=language)
    # A server error is recorded and the walk goes on (every page that fails is named at once).
    client = Client(HTTP_ACCEPT_LANGUAGE="en" if language == "es" else "es", raise_request_exception=False)
    signed_in = client.post("/login/", {"username": username, "password": demo.DEMO_PASSWORD})
    assert signed_in.status_code == 302, signed_in.content.decode()[:2000]

    walk = walk_demo(client, language, seeded)

    print(
        f"\n{username} ({language}): {walk.pages} pages, {walk.files} files, {walk.forms} forms sent "
        f"({walk.recorded} recorded, {walk.refused} refused in words), "
        f"{len(walk.english)} sentences left in English, {time.monotonic() - started:.1f} s"
    )
    assert walk.pages >= 3, "the walk saw too little to judge"
    assert not walk.left_over, f"{walk.left_over} pages not walked: raise MOST_PAGES"
    # One message for all that failed, so that one run names every page to fix.
    english = [f"{len(walk.english)} English sentences on Spanish pages:", *walk.english] if walk.english else []
    assert not (walk.problems or walk.english), "\n".join([*walk.problems, *english])
