from datetime import UTC, datetime

from django.core.management.base import BaseCommand, CommandError

from config.keyring import KeyringError, report_certificate_issue


class Command(BaseCommand):
    help = (
        "Issue a new report-signing key and certificate from the compliance CA (its key brought from where it "
        "is kept offline). The certificate is appended to the published bundle (LOGBOOK_REPORT_CERTIFICATES), "
        "where the earlier ones stay; then point LOGBOOK_REPORT_SIGNING_KEY and _CERT at the new files."
    )

    def add_arguments(self, parser):
        parser.add_argument("--ca-key", required=True, help="the compliance CA's private key")
        parser.add_argument("--ca-cert", required=True, help="the compliance CA's certificate")
        parser.add_argument("--key", required=True, help="where the new signing key is written (must not exist)")
        parser.add_argument("--cert", required=True, help="where the new certificate is written (must not exist)")
        parser.add_argument("--published", required=True, help="the bundle of every report certificate (appended)")
        parser.add_argument("--name", required=True, help="the signer's common name, e.g. 'Keystone Casino logbook'")
        parser.add_argument("--days", type=int, default=825, help="how long it is valid (default 825 days)")

    def handle(self, *args, ca_key, ca_cert, key, cert, published, name, days, **options):
        try:
            certificate = report_certificate_issue(
                ca_key, ca_cert, key, cert, common_name=name, now=datetime.now(UTC), days=days, published=published
            )
        except (KeyringError, FileExistsError, OSError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            f"report certificate {certificate.subject.rfc4514_string()} issued by "
            f"{certificate.issuer.rfc4514_string()}, valid until {certificate.not_valid_after_utc.isoformat()}"
        )
