"""Goal 4: a week's register as a PDF from a logbook of ENTRIES entries, request to download link,
for the latest week and for an older one (a year back): each within 3 s. The request is recorded
as the API records it, and the report rendered as a worker renders it (the local pool of
`manage.py render_report`: the same steps), so the figure is the request and the rendering, without
the broker's hop. The database is kept between runs (seeding 1,000,000 entries takes minutes)."""

from datetime import timedelta

from common import django_on, load, record, size, timed

ENTRIES = size(1_000_000, 50_000, "entries")


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


def main() -> None:
    django_on(f"week_{ENTRIES}", fresh=False)
    from django.db import connection
    from seed import seed

    from compliance.accounts.models import User
    from compliance.casinos.clock import local_date
    from compliance.casinos.models import Property

    prop = Property.objects.filter(name="Week").first()
    if prop is None or prop.entries.count() != ENTRIES:  # none yet, or a seed cut short: afresh
        connection.close()
        django_on(f"week_{ENTRIES}")
        prop = seed(entries=ENTRIES, tables=8, name="Week")["property"]
    person = User.objects.filter(property=prop, role="compliance").first()
    latest = local_date(prop.entries.order_by("-seq").first().occurred_at, prop.zone)
    older = latest - timedelta(days=365)
    loads = [load()]
    week(prop, person, latest)  # warm: the first report of a process imports WeasyPrint
    seconds = {"latest": week(prop, person, latest), "older": week(prop, person, older)}
    loads.append(load())
    record(
        "4_older_week_register",
        figure=max(seconds.values()),
        baseline=None,
        target=3,
        unit="s",
        size=f"{ENTRIES:,} entries",
        loads=tuple(loads),
        note=f"latest week {seconds['latest']:.2f} s, a year back {seconds['older']:.2f} s",
    )


if __name__ == "__main__":
    main()
