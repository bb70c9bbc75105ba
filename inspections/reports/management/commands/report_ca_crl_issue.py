from datetime import UTC, datetime

from django.core.management.base import BaseCommand, CommandError

from config.keyring import KeyringError, report_ca_crl_issue


class Command(BaseCommand):
    help = (
        "Issue the compliance CA's revocation list (its key brought from where it is kept offline), naming the "
        "report certificates it revoked, if any; then point LOGBOOK_REPORT_CA_CRL at it. Each B-LTA report embeds "
        "it: a validator needs it to check the report certificate after it expires. Issue a new one with each "
        "report certificate, on a revocation, and before the last one's next update."
    )

    def add_arguments(self, parser):
        parser.add_argument("--ca-key", required=True, help="the compliance CA's private key")
        parser.add_argument("--ca-cert", required=True, help="the compliance CA's certificate")
        parser.add_argument("--crl", required=True, help="where the revocation list is written (PEM)")
        parser.add_argument("--revoke", type=int, action="append", default=[], help="a revoked certificate's serial")
        parser.add_argument("--days", type=int, default=825, help="until its next update (default 825 days)")

    def handle(self, *args, ca_key, ca_cert, crl, revoke, days, **options):
        try:
            report_ca_crl_issue(ca_key, ca_cert, crl, now=datetime.now(UTC), days=days, revoked=tuple(revoke))
        except (KeyringError, ValueError, OSError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"revocation list {crl} issued, {len(revoke)} certificate(s) revoked, for {days} days")
