from datetime import UTC, datetime

from django.core.management.base import BaseCommand

from config.keyring import checkpoint_key_add


class Command(BaseCommand):
    help = (
        "Make a new Ed25519 checkpoint key in the key ring's directory (the ring made if missing), valid from now; "
        "the key that signed until now is valid until now and keeps verifying what it signed."
    )

    def add_arguments(self, parser):
        parser.add_argument("--keyring", required=True, help="the key ring's JSON file (LOGBOOK_CHECKPOINT_KEYRING)")

    def handle(self, *args, keyring, **options):
        key = checkpoint_key_add(keyring, now=datetime.now(UTC))
        self.stdout.write(f"new checkpoint key {key.key_id}, valid from {key.valid_from.isoformat()}\n{key.public_pem}")
