from django.core.management.base import BaseCommand, CommandError

from inspections.logbook import checkpoints, ledger, services


class Command(BaseCommand):
    help = (
        "After restoring a backup older than the checkpoint signer's ledger: accept that the history verify_logbook "
        "says is missing for a property is lost, so that its logbook is signed again from what the database holds. "
        "The ledger keeps the lost checkpoint, the counts and your reason, and verify_logbook names the loss from "
        "then on. Refused unless history is missing and the database otherwise verifies."
    )

    def add_arguments(self, parser):
        parser.add_argument("--property", type=int, required=True, help="the property id")
        parser.add_argument("--reason", required=True, help="why it is lost (the restore, the backup's date)")

    def handle(self, *args, property, reason, **options):
        try:
            loss = services.checkpoint_history_loss_accept(property_id=property, reason=reason)
        except (services.HistoryLossRefused, checkpoints.CheckpointKeyMissing, ledger.LedgerUnreadable) as refused:
            raise CommandError(f"Not accepted: {refused}") from None
        self.stdout.write(
            f"property {property}: accepted as lost {loss['missing_entries']} entries and "
            f"{loss['missing_checkpoints']} checkpoints, up to checkpoint #{loss['lost']['seq']} over entry "
            f"#{loss['lost']['entry_seq']} (signed {loss['lost']['signed_at']}); the logbook is signed again from "
            "the database's last checkpoint"
        )
