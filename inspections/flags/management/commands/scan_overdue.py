"""The overdue scan once, now (or as of --at), as the Celery beat task runs it every minute."""

from django.core.management.base import BaseCommand, CommandError
from django.utils.dateparse import parse_datetime

from inspections.flags import services


class Command(BaseCommand):
    help = "Raise the flags whose deadline has passed (an entry cures a flag, never the scan), and mail the new ones."

    def add_arguments(self, parser):
        parser.add_argument("--at", help="Scan as of this ISO 8601 time with its offset (default: now).")
        parser.add_argument("--no-mail", action="store_true", help="Do not mail the new flags.")

    def handle(self, *args, at=None, no_mail=False, **options):
        now = None
        if at:
            now = parse_datetime(at)
            if now is None or now.tzinfo is None:
                raise CommandError(
                    f"--at {at!r} is not an ISO 8601 time with an offset, e.g. 2026-11-23T09:00:00-05:00."
                )
        found = services.scan(now=now)
        notified = 0 if no_mail else services.notify_new_flags()
        self.stdout.write(f"{found['raised']} raised, {notified} mailed.")
