"""The only write path of the logbook, by job: the entries (entries.py), their amendments
(amendments.py) and the checkpoints signed over the chain (checkpoints.py); _append.py is what the
entry services share (lock, time, sign, chain, move the table)."""

from inspections.logbook.services._append import Signer, entry_append, history_signed_when_it_happened
from inspections.logbook.services.amendments import CORRECTABLE, amendment_record
from inspections.logbook.services.checkpoints import (
    CheckpointRefused,
    HistoryLossRefused,
    checkpoint_grown,
    checkpoint_history_loss_accept,
    checkpoint_sign,
)
from inspections.logbook.services.entries import (
    BALL_PART,
    EVENT_DESCRIPTIONS,
    adjustment_record,
    ball_change_record,
    deck_change_record,
    inspection_record,
    irregularity_record,
    table_event_record,
)

__all__ = [
    "BALL_PART",
    "CORRECTABLE",
    "EVENT_DESCRIPTIONS",
    "CheckpointRefused",
    "HistoryLossRefused",
    "Signer",
    "adjustment_record",
    "amendment_record",
    "ball_change_record",
    "checkpoint_grown",
    "checkpoint_history_loss_accept",
    "checkpoint_sign",
    "deck_change_record",
    "entry_append",
    "history_signed_when_it_happened",
    "inspection_record",
    "irregularity_record",
    "table_event_record",
]
