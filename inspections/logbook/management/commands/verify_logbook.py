from django.core.management.base import BaseCommand, CommandError

from compliance.casinos.models import Property
from inspections.logbook.chain import chain_verify


class Command(BaseCommand):
    help = (
        "Recompute each property's logbook hash chain and check its signed checkpoints (signature, timestamp, "
        "the chain passing through each signed head, no old entry left uncovered); exit 1 naming the first "
        "broken entry or contradicted checkpoint."
    )

    def add_arguments(self, parser):
        parser.add_argument("--property", type=int, help="only this property id")

    def handle(self, *args, property=None, **options):
        if property and not Property.objects.filter(pk=property).exists():
            raise CommandError(f"There is no property with id {property}.")
        ids = [property] if property else list(Property.objects.order_by("pk").values_list("pk", flat=True))
        broken = False
        for property_id in ids:
            report = chain_verify(property_id=property_id)
            if report.ok:
                self.stdout.write(self.style.SUCCESS(report.as_text()))
            else:
                broken = True
                self.stderr.write(self.style.ERROR(report.as_text()))
        if broken:
            raise SystemExit(1)
