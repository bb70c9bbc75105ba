"""What each kind of report holds: its columns, its rows (fetched a piece at a time) and its charts.

A kind lists the keys of its rows in order first (small: ids), then builds the rows of any slice
of those keys; so a worker rendering rows 40,001–40,400 reads just those from the database, and
a 100,000-entry register never sits whole in one process's memory.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from string import Formatter
from zoneinfo import ZoneInfo

from compliance.approvals.models import LayoutSubmission
from compliance.approvals.selectors import layout_approved_for, rules_submission_in_effect
from compliance.casinos.clock import date_text, local_date, local_midnight, local_text, local_time_text
from compliance.casinos.models import Game, GamingTable, WheelType
from compliance.rulebook import game_rules_for, rulebook_for
from compliance.rulebook.configurations import Configuration, configuration_of
from compliance.rulebook.submissions import submission_house_edges
from compliance.rulebook.words import options_text, wager_label
from inspections.flags.models import ComplianceException
from inspections.flags.text import flag_history_text, flag_label, flag_resolution_text, flag_status_text
from inspections.logbook.models import Entry, EntryKind, SignatureMeaning, amendment_label
from inspections.logbook.register import REGISTER_FIELDS, register_row
from inspections.reports import charts
from inspections.reports.models import Report, ReportKind
from logbook_proof.formats import REGISTER_LABELS, ROW_FIRST_CELL, ROW_FIRST_LINE


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    width: str = "auto"  # CSS width in the PDF


@dataclass(frozen=True)
class Cell:
    """A cell of a row in the PDF: one column's value, or a few short columns' together, each on a
    line of its own (`lines`: format strings over the row's fields; a line whose fields are all
    empty is left out). WeasyPrint's time goes by the box (style, layout and drawing of every
    cell), so the register prints its 11 fields in 6 cells; the CSV keeps one column a field."""

    lines: tuple[str, ...]
    label: str
    width: str = "auto"

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(name for line in self.lines for _, name, _, _ in Formatter().parse(line) if name)

    def text(self, row: dict) -> str:
        shown = []
        for line in self.lines:
            fields = [name for _, name, _, _ in Formatter().parse(line) if name]
            if any(row[name] not in ("", None) for name in fields):
                shown.append(line.format_map(row))
        return "\n".join(shown)


def cells_of(kind) -> list[Cell]:
    """The PDF's cells of a kind: its own (the register's), else one a column."""
    return getattr(kind, "cells", None) or [
        Cell((f"{{{column.key}}}",), column.label, column.width) for column in kind.columns
    ]


def _period(report: Report) -> tuple[datetime, datetime]:
    """The report's dates as a half-open interval of instants, in the property's time zone."""
    zone = report.property.zone
    start = local_midnight(report.period_from, zone)
    end = local_midnight(report.period_to + timedelta(days=1), zone)
    return start, end


def period_bounds(report: Report) -> tuple[datetime, datetime]:
    """The report's period as two instants: the property's local midnights that begin and end it."""
    return _period(report)


def _of_report(rows, report: Report, *, at: str):
    """The report's property's rows whose `at` falls in its period, of its tables if it names any."""
    start, end = _period(report)
    rows = rows.filter(property=report.property, **{f"{at}__gte": start, f"{at}__lt": end})
    tables = _table_ids(report)
    return rows.filter(table_id__in=tables) if tables else rows


def _table_ids(report: Report) -> list[int]:
    return list(report.tables.values_list("pk", flat=True))


# ---- The § 617a.2(e) register, and a table's history ----

# Each of the register's fields (the API's names, in their order) and its column in the PDF and the CSV:
# the headings are the proof format's (logbook_proof.formats, which the offline verifier reads them by).
COLUMN_WIDTHS = {
    "seq": "4%",
    "date": "8%",
    "time": "6%",
    "table_number": "5%",
    "kind": "9%",
    "part": "8%",
    "ball": "8%",
    "description": "19%",
    "failed_items": "9%",
    "notes": "10%",
    "inspection_certified": "7%",
    "signatures": "15%",
    "photos": "10%",
}
COLUMN_OF = {field: (REGISTER_LABELS[field], width) for field, width in COLUMN_WIDTHS.items()}
REGISTER_COLUMNS = [Column(field, *COLUMN_OF[field]) for field in REGISTER_FIELDS]
# The PDF's cells of the register: the same fields, in the same order, the short ones together.
REGISTER_CELLS = [
    Cell((ROW_FIRST_LINE, "{date} {time}"), ROW_FIRST_CELL, "14%"),
    Cell(
        ("{kind}", "{part}", "{ball}"),
        "Entry (adjustment or replacement), part adjusted or replaced, ball taken off and put on",
        "10%",
    ),
    Cell(("{description}", "{photos}"), f"{COLUMN_OF['description'][0]}, photos (SHA-256)", "22%"),
    Cell(
        ("{inspection_certified}", "{failed_items}"),
        f"{COLUMN_OF['inspection_certified'][0]}, {COLUMN_OF['failed_items'][0].lower()}",
        "16%",
    ),
    Cell(("{notes}",), COLUMN_OF["notes"][0], "12%"),
    Cell(("{signatures}",), COLUMN_OF["signatures"][0], "26%"),
]
MEANINGS = dict(SignatureMeaning.choices)
KINDS = dict(EntryKind.choices)


def _signature_text(signature: dict, zone) -> str:
    signed = datetime.fromisoformat(signature["signed_at"].replace("Z", "+00:00"))
    return (
        f"{signature['signer_name']}, {signature['credential_number']}, "
        f"{MEANINGS.get(signature['meaning'], signature['meaning']).lower()}, {local_text(signed, zone)}"
    )


class Register:
    """Every logbook entry of the period (and tables), in time order, as § 617a.2(e) lists them."""

    kind = ReportKind.INSPECTION_REGISTER
    title = "Inspection log register"

    def citation(self, report: Report) -> str:
        return rulebook_for(report.property.jurisdiction).INSPECTION_LOG

    columns = REGISTER_COLUMNS
    cells = REGISTER_CELLS
    # The PDF prints the entries' photos small beside their hashes (render.photo_prints).
    prints = True

    def entries(self, report: Report):
        entries = _of_report(Entry.objects, report, at="occurred_at")
        # Up to the entry the report's checkpoint signed: the rows are those its chain segment covers.
        if report.checkpoint_id is not None:
            entries = entries.filter(seq__lte=report.checkpoint.entry_seq)
        return entries

    def keys(self, report: Report) -> list[int]:
        return list(self.entries(report).order_by("occurred_at", "seq").values_list("pk", flat=True))

    def rows(self, report: Report, keys: list[int]) -> list[dict]:
        entries = {e.pk: e for e in Entry.objects.filter(pk__in=keys).for_register()}
        # Amendments beside what they correct: each row names the amendments made to it.
        amended_by = defaultdict(list)
        for amendment in Entry.objects.filter(amends_id__in=keys).order_by("seq").only("seq", "amends_id", "details"):
            label = amendment_label(amendment.details)
            if label == "correction":
                text = (
                    f"amended by #{amendment.seq}: {amendment.details.get('reason', '')} "
                    f"(correction: {_correction_text(amendment.details.get('correction', {}))})"
                )
            else:  # entered in error, a duplicate: the row stays, marked so
                text = f"amended by #{amendment.seq}: {label.upper()}, {amendment.details.get('reason', '')}"
            amended_by[amendment.amends_id].append(text)
        amended = dict(
            Entry.objects.filter(pk__in=[e.amends_id for e in entries.values() if e.amends_id]).values_list("pk", "seq")
        )
        zone = report.property.zone
        rows = []
        for key in keys:
            api = register_row(entries[key])
            notes = list(amended_by.get(key, []))
            if api["amends"]:
                notes.insert(0, f"amends #{amended.get(api['amends'])}")
            # Each of the API row's register fields, in words: an adjustment or replacement shows
            # as the entry itself (with its part), and amendments stand with the description they
            # correct.
            text = {
                "kind": KINDS.get(api["kind"], api["kind"]),
                "description": " — ".join([api["description"], *notes]) if notes else api["description"],
                "failed_items": "; ".join(
                    f"{item['label']} ({item['citation']})" if item["citation"] else item["label"]
                    for item in api["failed_items"]
                ),
                "inspection_certified": {True: "yes, every item passed", False: "no: an item failed"}.get(
                    api["inspection_certified"], ""
                ),
                # The time a person reads names its zone ("01:25 EST"), the entry's as its date is.
                "time": local_time_text(entries[key].occurred_at, ZoneInfo(entries[key].time_zone)),
                "signatures": "; ".join(_signature_text(s, zone) for s in api["signatures"]),
                "photos": "; ".join(f"photo {n}: {sha256}" for n, sha256 in enumerate(api["photos"], start=1)),
            }
            rows.append({field: text.get(field, api[field]) for field in REGISTER_FIELDS})
        return rows

    def charts(self, report: Report) -> list[tuple[str, str]]:
        zone = report.property.zone
        per_day = Counter()
        for occurred in self.entries(report).filter(kind=EntryKind.INSPECTION).values_list("occurred_at", flat=True):
            per_day[local_date(occurred, zone)] += 1
        days = []
        day = report.period_from
        while day <= report.period_to and len(days) < 62:
            days.append((date_text(day), per_day.get(day, 0)))
            day += timedelta(days=1)
        return [("Inspections per day", charts.bars(days, unit="inspections"))]


def _correction_text(correction: dict) -> str:
    return ", ".join(f"{name} → {value}" for name, value in correction.items()) or "none"


class TableHistory(Register):
    """Every entry of the chosen tables over the period (all their history when the period covers it)."""

    kind = ReportKind.TABLE_HISTORY
    title = "Table history"


# ---- Flags ----


class Exceptions:
    kind = ReportKind.EXCEPTIONS
    title = "Flags and their resolution"

    def citation(self, report: Report) -> str:
        return "each flag's rule in its row"

    columns = [
        Column("table_number", "Table", "5%"),
        Column("what", "Flag", "14%"),
        Column("citation", "Rule", "10%"),
        Column("due_at", "Deadline missed", "8%"),
        Column("detected_at", "Detected", "8%"),
        Column("status", "Status", "7%"),
        Column("resolved_at", "Resolved", "8%"),
        Column("time_to_resolve", "Time from the missed deadline to resolution", "8%"),
        Column("resolution", "How it was resolved", "16%"),
        Column("history", "History: deadlines moved, acknowledgements", "16%"),
    ]

    def flags(self, report: Report):
        return _of_report(ComplianceException.objects, report, at="detected_at")

    def keys(self, report: Report) -> list[int]:
        return list(self.flags(report).order_by("detected_at", "pk").values_list("pk", flat=True))

    def rows(self, report: Report, keys: list[int]) -> list[dict]:
        zone = report.property.zone
        flags = {
            f.pk: f
            for f in ComplianceException.objects.filter(pk__in=keys)
            .select_related("table", "property", "cured_by_entry")
            .prefetch_related("history")
        }

        def local(moment):
            return local_text(moment, zone)

        rows = []
        for key in keys:
            flag = flags[key]
            # Counted from the deadline the table missed, not from when the scan noticed (or from the
            # detection, when a policy change moved the deadline later than it).
            took = flag.resolved_at - min(flag.due_at, flag.detected_at) if flag.resolved_at else None
            # Each deadline a change moved, each acknowledgement, in time order.
            history = [f"{local(at)}: {text}" for at, text in flag_history_text(flag, zone)]
            rows.append(
                {
                    "table_number": flag.table.number,
                    "what": flag_label(flag),
                    "citation": flag.citation,
                    "due_at": local(flag.due_at),
                    "detected_at": local(flag.detected_at),
                    "resolved_at": local(flag.resolved_at) or "open",
                    "time_to_resolve": _duration(took) if took is not None else "",
                    "status": flag_status_text(flag),
                    "resolution": flag_resolution_text(flag, zone),
                    "history": " ".join(history),
                }
            )
        return rows

    def charts(self, report: Report) -> list[tuple[str, str]]:
        zone = report.property.zone
        per_week = Counter()
        hours = []
        for detected, due, resolved in self.flags(report).values_list("detected_at", "due_at", "resolved_at"):
            day = local_date(detected, zone)
            per_week[day - timedelta(days=day.weekday())] += 1
            if resolved:
                hours.append((resolved - min(due, detected)).total_seconds() / 3600)
        weeks = [(f"w. {date_text(week)}", count) for week, count in sorted(per_week.items())]
        buckets = [("< 1 h", 0), ("1–4 h", 0), ("4–24 h", 0), ("> 24 h", 0)]
        counts = Counter("< 1 h" if h < 1 else "1–4 h" if h < 4 else "4–24 h" if h < 24 else "> 24 h" for h in hours)
        return [
            ("Flags per week", charts.bars(weeks or [("none", 0)], unit="flags")),
            (
                "Time from the missed deadline to resolution",
                charts.bars([(label, counts[label]) for label, _ in buckets], unit="flags"),
            ),
        ]


def _duration(took: timedelta) -> str:
    minutes = int(took.total_seconds() // 60)
    return f"{minutes // 60} h {minutes % 60:02d} min" if minutes >= 60 else f"{minutes} min"


# ---- What the regulator approved, in effect on the last day of the period ----


class ApprovalsInEffect:
    kind = ReportKind.APPROVALS_IN_EFFECT
    title = "Layouts and Rules Submissions in effect"

    def citation(self, report: Report) -> str:
        """The approval paragraphs of the games of the report's tables (each game's layout has its own:
        § 617a.1(f), § 619a.1(g), § 651a.2(b)), with the Rules Submission's, each once."""
        games = GamingTable.objects.filter(pk__in=self.keys(report)).values_list("game", flat=True).distinct()
        citations = [self.approved_under(report, game) for game in sorted(set(games))]
        return "; ".join(dict.fromkeys(citations)) or self.approved_under(report, Game.ROULETTE)

    @staticmethod
    def approved_under(report: Report, game: str) -> str:
        """What a table of `game` is approved under: the citation its not_approved flag carries."""
        return rulebook_for(report.property.jurisdiction).FLAG_KINDS_BY_CODE["not_approved"].citation_for(game)

    columns = [
        Column("table_number", "Table", "6%"),
        Column("game", "Game and wheel", "12%"),
        Column("layout", "Approved layout", "16%"),
        Column("approval_citation", "Approved under"),
        Column("artwork", "Layout artwork (SHA-256)", "14%"),
        Column("rules", "Rules Submission in effect", "14%"),
        Column("paytable", "Wagers, payout odds and house edge", "26%"),
        Column("options", "Options", "12%"),
    ]
    # The PDF prints each game's approval paragraph under its layout (the CSV keeps one column a field).
    cells = [
        Cell(
            ("{layout}", "{approval_citation}") if column.key == "layout" else (f"{{{column.key}}}",),
            column.label,
            column.width,
        )
        for column in columns
        if column.key != "approval_citation"
    ]

    def keys(self, report: Report) -> list[int]:
        tables = GamingTable.objects.filter(property=report.property)
        chosen = _table_ids(report)
        return list(
            (tables.filter(pk__in=chosen) if chosen else tables).order_by("number").values_list("pk", flat=True)
        )

    def rows(self, report: Report, keys: list[int]) -> list[dict]:
        tables = {t.pk: t for t in GamingTable.objects.filter(pk__in=keys)}
        wheels = dict(WheelType.choices)
        rows = []
        for key in keys:
            table = tables[key]
            layout = layout_approved_for(table_id=table.pk)
            rules = rules_submission_in_effect(property_id=table.property_id, game=table.game, on=report.period_to)
            # What the table offers: the configuration of that submission it uses.
            offered = configuration_of(rules, table.configuration)
            edges = (
                submission_house_edges(
                    jurisdiction=report.property.jurisdiction,
                    game=table.game,
                    wheel_types=offered.wheel_types,
                    payout_odds=offered.payout_odds,
                    options=offered.options,
                )
                if offered
                else {}
            )
            wheel = table.wheel_type if table.wheel_type in (offered.wheel_types if offered else []) else None
            paytable = "; ".join(
                f"{wager_label(_wagers_of(report.property.jurisdiction, table.game), code)} {odds[0]} to {odds[1]}"
                + (
                    f" ({edges[code][wheel]:.2f} %)"
                    if wheel and edges.get(code, {}).get(wheel) is not None
                    else " (house edge not determinable from the text)"
                    if wheel and wheel in edges.get(code, {})
                    else ""
                )
                for code, odds in (_in_wager_order(report, table.game, offered) if offered else [])
            )
            rows.append(
                {
                    "table_number": table.number,
                    "game": f"{table.get_game_display()}"
                    + (f", {wheels.get(table.wheel_type)}" if table.wheel_type else ""),
                    "layout": f"{layout.name} ({layout.decision_reference or 'approved'})"
                    if layout
                    else "none approved",
                    "approval_citation": self.approved_under(report, table.game),
                    "artwork": _artwork_text(layout),
                    "rules": (
                        f"version {rules.version} from {rules.effective_from} ({rules.decision_reference or 'approved'})"
                        + (
                            f"; configuration {offered.name}"
                            if offered
                            else f"; the table's configuration “{table.configuration}” is not in it"
                        )
                        if rules
                        else "none in effect"
                    ),
                    "paytable": paytable,
                    "options": options_text(offered.options) if offered else "",
                }
            )
        return rows

    def charts(self, report: Report) -> list[tuple[str, str]]:
        return []

    def artworks(self, report: Report) -> list[LayoutSubmission]:
        """The approved layouts of the report's tables that carry artwork, each once, by name."""
        layouts = {}
        for key in self.keys(report):
            layout = layout_approved_for(table_id=key)
            if layout and layout.artwork:
                layouts[layout.pk] = layout
        return sorted(layouts.values(), key=lambda layout: (layout.name, layout.pk))


def artwork_attachment_name(layout: LayoutSubmission) -> str:
    return f"layout-{layout.pk}-artwork.pdf"


def _wagers_of(jurisdiction: str, game: str) -> dict:
    """The wagers (code → Wager, with its label) of the game in the jurisdiction."""
    game_rules = game_rules_for(jurisdiction)
    return dict(game_rules.BIG_SIX_WAGERS if game == "big_six" else game_rules.WAGERS)


def _in_wager_order(report: Report, game: str, configuration: Configuration) -> list[tuple[str, list[int]]]:
    """A configuration's payout odds in the order its game's rules list the wagers (a JSON object's
    keys come back in another order from PostgreSQL), then any other by name."""
    known = list(_wagers_of(report.property.jurisdiction, game))
    return sorted(
        configuration.payout_odds.items(),
        key=lambda item: (known.index(item[0]) if item[0] in known else len(known), item[0]),
    )


def _artwork_text(layout: LayoutSubmission | None) -> str:
    if layout is None or not layout.artwork:
        return "none" if layout is None else "none kept (submitted before artwork was asked for)"
    where = "printed on the cover" if layout.artwork_is_image() else f"attached ({artwork_attachment_name(layout)})"
    return f"{layout.get_artwork_kind_display()}, {where}; {layout.artwork_sha256}"


KINDS_BY_CODE = {kind.kind: kind() for kind in (Register, TableHistory, Exceptions, ApprovalsInEffect)}


def kind_of(report: Report):
    return KINDS_BY_CODE[report.kind]


# The kinds whose rows are logbook entries, one each (the offline verifier matches them to the chain).
ENTRY_KINDS = (ReportKind.INSPECTION_REGISTER, ReportKind.TABLE_HISTORY)
