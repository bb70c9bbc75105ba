"""A report written synchronously, for operators: the same steps as the background task, with the
pieces rendered by a local process pool."""

import shutil
from datetime import date

from django.core.management.base import BaseCommand, CommandError

from compliance.accounts.models import User
from compliance.casinos.models import Property
from inspections.reports.models import ReportKind, ReportStatus
from inspections.reports.render import generate_locally
from inspections.reports.services import report_request_local


class Command(BaseCommand):
    help = "Render a report now (PDF or CSV) and write it to a file; it is also kept with its SHA-256."

    def add_arguments(self, parser):
        parser.add_argument("--property", required=True, help="The property's id or licence number.")
        parser.add_argument("--kind", choices=ReportKind.values, default=ReportKind.INSPECTION_REGISTER)
        parser.add_argument(
            "--from", dest="period_from", required=True, help="First day, YYYY-MM-DD, on the property's calendar."
        )
        parser.add_argument(
            "--to", dest="period_to", required=True, help="Last day, YYYY-MM-DD, on the property's calendar."
        )
        parser.add_argument("--tables", default="", help="Table numbers, comma-separated (default: all).")
        parser.add_argument("--format", choices=["pdf", "csv"], default="pdf")
        parser.add_argument("--as", dest="username", required=True, help="Who asks for it (printed on the cover).")
        parser.add_argument("--processes", type=int, default=None, help="Pieces rendered at once (default: cores).")
        parser.add_argument("--output", help="Where to copy the file (default: only kept in MEDIA_ROOT).")

    def handle(self, *args, **options):
        prop = Property.objects.filter(licence_number=options["property"]).first()
        if prop is None and options["property"].isdigit():
            prop = Property.objects.filter(pk=int(options["property"])).first()
        if prop is None:
            raise CommandError(f"No property {options['property']!r} (give its id or licence number).")
        requester = User.objects.filter(username=options["username"]).first()
        if requester is None:
            raise CommandError(f"No user {options['username']!r}.")
        try:
            period = date.fromisoformat(options["period_from"]), date.fromisoformat(options["period_to"])
        except ValueError as error:
            raise CommandError(f"Dates are YYYY-MM-DD: {error}") from None
        numbers = [n.strip() for n in options["tables"].split(",") if n.strip()]
        tables = list(prop.tables.filter(number__in=numbers))
        if len(tables) != len(numbers):
            raise CommandError(
                f"Unknown table(s) at {prop.name}: {', '.join(set(numbers) - {t.number for t in tables})}"
            )
        report = report_request_local(
            property=prop,
            kind=options["kind"],
            format=options["format"],
            period_from=period[0],
            period_to=period[1],
            requested_by=requester,
            tables=tables,
        )
        report = generate_locally(report.pk, processes=options["processes"])
        if report.status != ReportStatus.DONE:
            raise CommandError(f"Report {report.pk} failed: {report.error}")
        if options["output"]:
            shutil.copyfile(report.file.path, options["output"])
        self.stdout.write(
            f"Report {report.pk}: {report.rows} rows, {report.pages or '-'} pages, {report.size} bytes, "
            f"sha256 {report.sha256}, chain {report.chain_verdict}"
            + (f" -> {options['output']}" if options["output"] else f" -> {report.file.path}")
        )
