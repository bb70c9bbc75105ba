"""Every page of every role on a phone, a tablet and a desktop: nothing wider than the screen, every
control of the floor at least 44×44 px, and no serious or critical axe-core violation.

Each test signs in as one role at one width and walks every page that role reaches from its home by
following the links, plus the forms that the table's state does not offer now (every action form,
an amendment, a flag's resolution) and the refusal pages (403, 404). What fails is listed page by
page, so that one run names every page to fix.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from inspections.flags.models import ComplianceException
from inspections.logbook.models import Entry
from tests.browser.conftest import TIMEOUT_MS, login, screenshot
from tests.factories import (
    PASSWORD,
    GamingTableFactory,
)
from tests.worlds import every_page_world, walk_links

WIDTHS = {
    "phone": {"width": 390, "height": 844},
    "tablet": {"width": 768, "height": 1024},
    "desktop": {"width": 1280, "height": 800},
}
ROLES = ("security", "floorperson", "maintenance", "compliance", "regulator", "admin", "anonymous")
# Pages the walk does not follow: the API and its documentation, files to download, signing out;
# of Django's admin site (the administrator's pages) its index and each model's list, not every
# record's form (Django's own templates, alike for every model).
# Not pages: the API, signing out, files (downloads, artwork, the tables' QR labels as a PDF).
NOT_WALKED = re.compile(
    r"^/(api|logout|admin/logout)/|/(download|artwork)/|\.pdf$|/row/$|^/admin/(?![a-z_]+/([a-z_]+/)?$)"
)
FLOOR_PAGES = re.compile(r"^/(floor|tables|flags|entries)/")
MOST_PAGES = 80
# The smallest target a finger hits on the floor (WCAG 2.5.5's 44 CSS px).
TOUCH = 44

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"

# The element that sticks out furthest past the right edge of the screen, to say what to fix.
WIDEST = """() => {
  const width = document.documentElement.clientWidth;
  let worst = null, right = width;
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (box.width && box.right > right + 0.5) { right = box.right; worst = el; }
  }
  const name = worst ? worst.tagName.toLowerCase() + (worst.className ? '.' + String(worst.className).trim().split(/\\s+/).join('.') : '')
    + ' "' + (worst.innerText || '').trim().slice(0, 40) + '"' : '';
  return {scroll: document.documentElement.scrollWidth, width, worst: name, right: Math.round(right)};
}"""

# Each visible control with its tap target: a radio button or a checkbox is tapped by its label.
SMALL_CONTROLS = """(touch) => {
  const small = [];
  const controls = document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary');
  for (const el of controls) {
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || el.closest('[hidden], .visually-hidden')) continue;
    let target = el;
    if (el.type === 'radio' || el.type === 'checkbox') target = el.closest('label') || el;
    const box = target.getBoundingClientRect();
    if (!box.width && !box.height) continue;  // not displayed
    if (box.width < touch - 0.5 || box.height < touch - 0.5) {
      const text = (el.innerText || el.value || el.name || '').trim().slice(0, 30);
      small.push(`${el.tagName.toLowerCase()} "${text}" ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
  }
  return small;
}"""

# Words cut across two lines ("Am/en/d", an entry's number a digit a line): each word of the page's
# text (between spaces, hyphens and slashes, where a line may break) must sit on one line. A hash in
# <code> is no word: its 64 digits are wider than a phone, and break where they must.
BROKEN_WORDS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node && broken.length < 5; node = walker.nextNode()) {
    if (!node.parentElement || node.parentElement.closest('script, style, code, [hidden], .visually-hidden')) continue;
    for (const word of node.data.matchAll(/[^\\s\\-\\/–—]+/g)) {
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const tops = new Set(Array.from(range.getClientRects(), rect => Math.round(rect.top)));
      if (tops.size > 1) { broken.push(word[0]); break; }
    }
  }
  return broken;
}"""

AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v =>
    `${v.id} (${v.impact}): ${v.help} — ` + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '));
}"""


def axe_violations(page) -> list[str]:
    """The serious and critical violations axe-core finds in the page as it is now."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text())  # by the DevTools protocol: the page's CSP does not apply
    return page.evaluate(AXE_RUN)


def floor(path: str) -> bool:
    return bool(FLOOR_PAGES.match(path))


def page_problems(page, path: str, *, floor: bool) -> list[str]:
    problems = []
    fit = page.evaluate(WIDEST)
    if fit["scroll"] > fit["width"]:
        problems.append(
            f"{fit['scroll']} px wide on a {fit['width']} px screen ({fit['worst']} ends at {fit['right']})"
        )
    if not path.startswith("/admin/"):  # Django's admin lists dotted names (a task's) in narrow columns
        problems += [f"a word cut across lines: {word!r}" for word in page.evaluate(BROKEN_WORDS)]
    if floor:
        problems += [f"smaller than {TOUCH}×{TOUCH}: {control}" for control in page.evaluate(SMALL_CONTROLS, TOUCH)]
    problems += [f"axe: {violation}" for violation in axe_violations(page)]
    return [f"{path}: {problem}" for problem in problems]


@pytest.fixture
def world(site):
    """A property with something on every page: tables in each state, entries to amend, a flag, a
    Rules Submission draft and one filed, a layout waiting for the regulator; and one person of
    each role."""
    staff = every_page_world()
    GamingTableFactory(property=staff.property, number="BS-1", game="big_six", wheel_type="")
    staff.flag = ComplianceException.objects.get()
    staff.entry = Entry.objects.filter(kind="inspection").get()
    return staff


def extra_paths(role: str, world) -> list[str]:
    """The pages no link leads to right now: each action form, whatever the table's state, the
    amendment, a flag's resolution; and a 403 and a 404."""
    table = world.table.pk
    paths = []
    if role in ("security", "floorperson", "maintenance", "compliance", "admin"):
        paths += [
            f"/tables/{table}/{kind}/" for kind in ("unlock", "inspect", "adjust", "ball", "open", "close", "cover")
        ]
        paths += [f"/tables/{table}/irregularity/", f"/entries/{world.entry.pk}/amend/"]
    if role == "compliance":
        paths += [f"/flags/{world.flag.pk}/resolve/", "/manage/rules/new/", "/manage/layouts/new/"]
    if role in ("security", "regulator"):
        paths.append("/manage/")  # not theirs: the 403 page
    if role != "anonymous":
        paths.append("/tables/999999/")  # the 404 page
    return paths


def pictures(role: str, world) -> dict[str, str]:
    """The pages whose screenshots docs/screenshots.md shows on a tablet and a phone, by path."""
    table = world.table.pk
    if role == "security":
        return {"/floor/": "floor", f"/tables/{table}/": "table", f"/tables/{table}/inspect/": "inspection"}
    if role == "compliance":
        return {"/flags/": "flags", "/manage/layouts/new/": "layout-form", "/manage/rules/new/": "rules-editor"}
    return {}


def walk(page, site: str, start: list[str], check) -> list[str]:
    """The paths reached from `start` by following the page's own links, each once, `check`ed as
    they are reached."""

    def visit(path: str) -> list:
        page.goto(site + path)
        check(path)
        links = [urlsplit(href) for href in page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")]
        return [link for link in links if link.netloc == urlsplit(site).netloc]

    return walk_links(start, visit, skip=NOT_WALKED, most=MOST_PAGES)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("role", ROLES)
def test_every_page_fits_and_passes_axe(site, browser, world, role, width):
    context = browser.new_context(viewport=WIDTHS[width])
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        if role == "anonymous":
            start = ["/login/"]
        else:
            person = getattr(world, role)
            login(page, site, person.username, PASSWORD)
            start = [urlsplit(page.url).path, *extra_paths(role, world)]
            if role == "admin":
                start.append("/admin/")
        problems = []
        named = pictures(role, world) if width != "desktop" else {}

        def check(path: str) -> None:
            problems.extend(page_problems(page, path, floor=floor(path)))
            if path in named:
                screenshot(page, f"{named[path]}-{width}")

        walked = walk(page, site, start, check)
        assert len(walked) >= (1 if role == "anonymous" else 5), walked
        assert len(walked) < MOST_PAGES, f"the walk stopped before the end: raise MOST_PAGES ({walked})"
        assert not problems, "\n".join(problems)
    finally:
        context.close()


@pytest.mark.parametrize(
    ("role", "width"),
    [
        *((role, "phone") for role in ("security", "floorperson", "maintenance")),
        # An upright tablet shows tables as rows, their Spanish headings longer than the English.
        *((role, "tablet") for role in ("security", "compliance", "regulator")),
    ],
)
def test_the_pages_in_spanish_fit_a_phone_and_a_tablet(site, browser, world, role, width):
    """Spanish is longer than English ("Cubrir la rueda y echar la llave"): the pages, in the language
    the browser asks for (Accept-Language: es-ES), still fit 390 px (the floor roles) and 768 px,
    cut no word, keep every control 44×44 px and pass axe-core."""
    context = browser.new_context(viewport=WIDTHS[width], locale="es-ES")
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        person = getattr(world, role)
        login(page, site, person.username, PASSWORD)
        problems, spoken = [], []

        def check(path: str) -> None:
            problems.extend(page_problems(page, path, floor=floor(path)))
            spoken.append((path, page.evaluate("() => document.documentElement.lang")))

        walked = walk(page, site, [urlsplit(page.url).path, *extra_paths(role, world)], check)
        assert len(walked) >= 5, walked
        assert len(walked) < MOST_PAGES, f"the walk stopped before the end: raise MOST_PAGES ({walked})"
        assert [path for path, lang in spoken if lang != "es"] == []
        page.goto(site + "/floor/")
        assert page.get_by_role("heading", name="Sala").is_visible()
        assert not problems, "\n".join(problems)
    finally:
        context.close()


# Each date ("2026-11-24"), time ("01:25 EST"), table number ("R-01") and credential number
# ("BC-100034") of the page's text that is cut across two lines (where a hyphen let the line break);
# a date and its time may sit on two lines, in a table's narrow column.
DATES_ON_TWO_LINES = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const found of node.data.matchAll(/\\d{4}-\\d{2}-\\d{2}|\\d{2}:\\d{2} [A-Z]+|\\b[A-Z]{1,4}-\\d{1,8}\\b/g)) {
      range.setStart(node, found.index);
      range.setEnd(node, found.index + found[0].length);
      const tops = new Set(Array.from(range.getClientRects(), rect => Math.round(rect.top)));
      if (tops.size > 1) broken.push(found[0]);
    }
  }
  return broken;
}"""


@pytest.mark.parametrize(("language", "width"), [("en-US", "phone"), ("es-ES", "phone"), ("en-US", "tablet")])
def test_a_date_is_never_cut_across_two_lines_on_a_phone(site, browser, world, language, width):
    """A date is never split at its hyphens ("deadline 2026-" / "11-24 10:46 EST"), nor its time, in a
    flag, the next step's due time, a tile, a table's cell; nor a table's number ("R-01") or a
    credential's ("BC-100034", in the logbook's Signed column on a tablet)."""
    context = browser.new_context(viewport=WIDTHS[width], locale=language)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        login(page, site, world.security.username, PASSWORD)
        broken = {}
        for path in ("/floor/", f"/tables/{world.table.pk}/", f"/tables/{world.locked.pk}/", "/flags/"):
            page.goto(site + path)
            broken[path] = page.evaluate(DATES_ON_TWO_LINES)
        context.clear_cookies()
        login(page, site, world.compliance.username, PASSWORD)
        page.goto(f"{site}/flags/{world.flag.pk}/resolve/")
        broken["resolve"] = page.evaluate(DATES_ON_TWO_LINES)
        assert {path: dates for path, dates in broken.items() if dates} == {}
    finally:
        context.close()


# A serial of the equipment register ("WH-R-01", "BL-R-05-S3") cut at one of its hyphens.
SERIALS_ON_TWO_LINES = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const found of node.data.matchAll(/\\b[A-Z]{1,4}(?:-[A-Z0-9]{1,8}){2,}\\b/g)) {
      range.setStart(node, found.index);
      range.setEnd(node, found.index + found[0].length);
      const tops = new Set(Array.from(range.getClientRects(), rect => Math.round(rect.top)));
      if (tops.size > 1) broken.push(found[0]);
    }
  }
  return broken;
}"""


@pytest.mark.parametrize("language", ["en-US", "es-ES"])
def test_a_wheels_and_a_balls_serial_stay_on_one_line_on_a_tablet(site, browser, world, language):
    """The walk of the demo in Chromium found the compliance manager's tables on a 768 px tablet
    reading "WH-R-" / "01" and "BL-R-" / "05-" / "S3": a serial is read and compared whole."""
    context = browser.new_context(viewport=WIDTHS["tablet"], locale=language)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        login(page, site, world.compliance.username, PASSWORD)
        page.goto(site + "/manage/")
        assert page.evaluate(SERIALS_ON_TWO_LINES) == []
    finally:
        context.close()


# Each drop-down whose chosen words are wider than the room it gives them (its width less its
# padding and its arrow): the person reads "Registro de inspeccior" and cannot tell what is chosen.
CHOICES_CUT = """() => {
  const cut = [];
  const canvas = document.createElement('canvas').getContext('2d');
  for (const select of document.querySelectorAll('main select')) {
    const option = select.options[select.selectedIndex];
    if (!option || !select.offsetWidth) continue;
    const style = getComputedStyle(select);
    canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
    if (canvas.measureText(option.text).width > room) cut.push(`${select.name}: ${option.text}`);
  }
  return cut;
}"""


@pytest.mark.parametrize("language", ["en-US", "es-ES"])
def test_a_drop_downs_chosen_words_are_not_cut_on_a_tablet(site, browser, world, language):
    """The walk of the demo in Chromium found the report form on a 768 px tablet reading "Registro
    de inspeccior", "Keystone Demo Casin", "PDF (con su CSV dent" and a Rules Submission's options
    "— (not in this submiss": a grid of fields 180 px wide holds a text box, not a choice's words."""
    context = browser.new_context(viewport=WIDTHS["tablet"], locale=language)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        login(page, site, world.compliance.username, PASSWORD)
        cut = {}
        for path in ("/reports/", "/manage/rules/new/"):
            page.goto(site + path)
            cut[path] = page.evaluate(CHOICES_CUT)
        assert {path: found for path, found in cut.items() if found} == {}
    finally:
        context.close()
