from django.conf import settings
from django.core.management.base import BaseCommand

from compliance.approvals.services import rejected_artwork_purge


class Command(BaseCommand):
    help = (
        "Remove the artwork files of layouts rejected more than LAYOUT_ARTWORK_REJECTED_RETENTION_DAYS ago "
        "(product policy, compliance/rulebook/artwork.py); the layouts keep their artwork's SHA-256. "
        "Beat runs it daily (compliance.approvals.tasks.rejected_artwork_purge); this runs it now."
    )

    def handle(self, *args, **options):
        removed = rejected_artwork_purge()
        days = settings.LAYOUT_ARTWORK_REJECTED_RETENTION_DAYS
        self.stdout.write(f"{len(removed)} artwork file(s) of layouts rejected more than {days} days ago removed")
