from django.core.management.base import BaseCommand, CommandError

from compliance.casinos.models import Property
from inspections.logbook.chain import chain_verify_whole, held_checkpoints


class Command(BaseCommand):
    help = (
        "Recompute each property's logbook hash chain and check its signed checkpoints (signature, timestamp, "
        "the property's identity, the chain passing through each signed head, no old entry left uncovered), and "
        "compare the database with what the checkpoint signer last signed (its ledger, beside the key ring) and "
        "with any checkpoint you hold (--known): history they signed that the database lacks is counted. "
        "Exit 1 naming the first broken entry, contradicted checkpoint or missing history."
    )

    def add_arguments(self, parser):
        parser.add_argument("--property", type=int, help="only this property id")
        parser.add_argument(
            "--known",
            action="append",
            default=[],
            metavar="FILE",
            help="a checkpoint you hold (JSON: one record, a list, or a report's chain-segment.json); repeatable",
        )

    def handle(self, *args, property=None, known=(), **options):
        if property and not Property.objects.filter(pk=property).exists():
            raise CommandError(f"There is no property with id {property}.")
        held = []
        for path in known:
            try:
                held += held_checkpoints(path)
            except (OSError, ValueError) as error:
                raise CommandError(f"--known {path}: {error}") from None
        ids = [property] if property else list(Property.objects.order_by("pk").values_list("pk", flat=True))
        broken = False
        for property_id in ids:
            report = chain_verify_whole(property_id=property_id, held=held)
            if report.ok:
                self.stdout.write(self.style.SUCCESS(report.as_text()))
            else:
                broken = True
                self.stderr.write(self.style.ERROR(report.as_text()))
        if broken:
            raise SystemExit(1)
