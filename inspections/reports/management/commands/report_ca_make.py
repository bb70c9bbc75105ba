from datetime import UTC, datetime

from django.core.management.base import BaseCommand, CommandError

from config.keyring import KeyringError, report_ca_make


class Command(BaseCommand):
    help = (
        "Make the deployment's compliance certificate authority: a key (keep it offline, never beside the "
        "application's keys) and its certificate (publish it: LOGBOOK_REPORT_CA_CERT). It issues the report "
        "certificates (report_certificate_issue). An existing enterprise CA does as well: configure its "
        "certificate instead."
    )

    def add_arguments(self, parser):
        parser.add_argument("--key", required=True, help="where the CA's private key is written (must not exist)")
        parser.add_argument("--cert", required=True, help="where the CA's certificate is written (PEM)")
        parser.add_argument("--name", required=True, help="the CA's common name, e.g. 'Keystone Casino compliance CA'")
        parser.add_argument("--days", type=int, default=7300, help="how long it is valid (default 20 years)")

    def handle(self, *args, key, cert, name, days, **options):
        try:
            certificate = report_ca_make(key, cert, common_name=name, now=datetime.now(UTC), days=days)
        except (KeyringError, FileExistsError, OSError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            f"compliance CA {certificate.subject.rfc4514_string()}, valid until "
            f"{certificate.not_valid_after_utc.isoformat()}: certificate {cert}, key {key} (move it offline)"
        )
