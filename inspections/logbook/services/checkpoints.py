"""Checkpoints: the property's chain head signed with the checkpoint key (and timestamped), on an
interval or for a report, and the acceptance of history a restore could not bring back."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.db.models import F, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from compliance.casinos.models import Property
from config.keyring import signing_key
from inspections.logbook import chain, checkpoints, ledger
from inspections.logbook.models import (
    ChainHead,
    Checkpoint,
    Entry,
)
from inspections.logbook.timestamps import TimestampUnavailable, timestamp_fetch

logger = logging.getLogger(__name__)


class CheckpointRefused(Exception):
    """The chain since the last checkpoint does not verify: nothing is signed over it."""

    def __init__(self, report: chain.ChainReport):
        super().__init__(report.as_text())
        self.report = report


def checkpoint_sign(*, property_id: int, reason: str = "interval") -> Checkpoint | None:
    """Sign the property's chain head with the checkpoint key, after checking the chain from the last
    checkpoint to it; None when the interval's checkpoint has nothing new to cover (a report's is always
    made). Raises checkpoints.CheckpointKeyMissing without a key ring, CheckpointRefused when the chain
    since the last checkpoint is broken or contradicts it, or when the database does not extend what
    the signer last signed for the property (its ledger, outside the database: deleted checkpoints or
    entries, an older backup, another property's identity), so nothing is signed over it.

    The chain's lock is held only to read the head and to append the checkpoint: the check and the
    timestamp authority's answer (a network call) come in between, and if another checkpoint was
    appended meanwhile, this one is made again over the newer head.
    """
    keys = checkpoints.checkpoint_keys()
    while True:
        with transaction.atomic():
            head = ChainHead.objects.select_for_update().filter(property_id=property_id).first()
            if head is None or head.length == 0:
                return None
            last = Checkpoint.objects.filter(property_id=property_id).order_by("-seq").first()
        if reason == "interval" and last is not None and last.entry_seq == head.length:
            return None
        # What the signer itself last signed, outside the database (its ledger): the chain must extend
        # it. Without it, a database whose checkpoints were all deleted would be checked against itself
        # alone, and its rewritten history signed.
        try:
            signed_before = ledger.ledger_read().get(property_id)
        except ledger.LedgerUnreadable as unreadable:
            refusal = chain.ChainReport(property_id=property_id, entries_checked=0, head_hash=chain.GENESIS)
            refusal.checkpoint_problem, refusal.reason = "unverifiable", str(unreadable)
            raise CheckpointRefused(refusal) from None
        verified = chain.chain_verify(
            property_id=property_id,
            since=last,
            upto=(head.length, head.head),
            known=[("the signer's ledger", signed_before)] if signed_before else [],
        )
        if not verified.ok:
            raise CheckpointRefused(verified)
        prop = Property.objects.get(pk=property_id)
        now = timezone.now()
        key = signing_key(keys, now)
        if key.private_key is None:  # signing_key answers only keys that have one
            raise RuntimeError(f"the signing key {key.key_id} has no private key")
        seq = last.seq + 1 if last else 1
        message = checkpoints.checkpoint_message(
            property_id=property_id,
            licence=prop.licence_number,
            jurisdiction=prop.jurisdiction,
            seq=seq,
            entry_seq=head.length,
            head=head.head,
            signed_at=now,
            key_id=key.key_id,
        )
        signature = key.private_key.sign(message)
        token, note = None, ""
        try:
            token = timestamp_fetch(signature)
        except TimestampUnavailable as unavailable:
            note = str(unavailable)[:300]
        with transaction.atomic():
            ChainHead.objects.select_for_update().filter(property_id=property_id).first()
            newest = Checkpoint.objects.filter(property_id=property_id).order_by("-seq").first()
            if (newest.seq if newest else 0) != seq - 1:
                continue  # another checkpoint came first: sign again over the head as it is now
            checkpoint = Checkpoint.objects.create(
                property_id=property_id,
                licence_number=prop.licence_number,
                jurisdiction=prop.jurisdiction,
                seq=seq,
                entry=Entry.objects.get(property_id=property_id, seq=head.length),
                entry_seq=head.length,
                head=head.head,
                signed_at=now,
                reason=reason,
                key_id=key.key_id,
                signature=signature.hex(),
                timestamp_token=token,
                timestamp_note=note,
            )
        # Into the ledger once the checkpoint is committed (at once here, or when an enclosing transaction
        # commits): it never records a checkpoint the database rolled back. A crash in between leaves it
        # one checkpoint behind, which the next one makes good.
        transaction.on_commit(partial(ledger.ledger_record, checkpoints.checkpoint_record(checkpoint)))
        return checkpoint


class HistoryLossRefused(Exception):
    """Nothing to accept: the database is not missing history the signer signed, or is broken otherwise."""


def checkpoint_history_loss_accept(*, property_id: int, reason: str) -> dict:
    """After restoring a backup older than the signer's ledger (README, Restore): the history the
    restore could not bring back is accepted as lost, so that the property's logbook is signed again
    from what the database holds. Only a loss is accepted: the database must otherwise verify (its
    chain whole, its checkpoints valid) and hold nothing that contradicts the ledger. The ledger keeps
    the lost record, the counts and `reason`, and verify_logbook names it from then on. Answers the loss."""
    if not reason.strip():
        raise HistoryLossRefused("say why the history is lost (the restore, its date)")
    keys = checkpoints.checkpoint_keys()
    lost = ledger.ledger_read().get(property_id)
    if lost is None:
        raise HistoryLossRefused(f"the signer's ledger holds nothing for property {property_id}")
    held = chain.known_checkpoint_check(property_id=property_id, record=lost, keys=keys, source="the signer's ledger")
    if held.problem != "missing_history":
        raise HistoryLossRefused(f"no history is missing to accept: {held.reason or 'the database reaches the ledger'}")
    verified = chain.chain_verify(property_id=property_id)
    # Entries the restore brought back after its last checkpoint may be old and uncovered: the next
    # checkpoint covers them.
    if not verified.ok and verified.checkpoint_problem != "uncovered":
        raise HistoryLossRefused(f"the database's own chain does not verify: {verified.as_text()}")
    last = Checkpoint.objects.filter(property_id=property_id).order_by("-seq").first()
    counts = {"missing_entries": held.missing_entries, "missing_checkpoints": held.missing_checkpoints}
    ledger.ledger_loss_accept(
        property_id=property_id,
        lost=lost,
        now=timezone.now().isoformat(),
        reason=reason.strip(),
        counts=counts,
        current=checkpoints.checkpoint_record(last) if last else None,
    )
    return {"lost": lost, **counts}


def checkpoint_grown(*, now: datetime | None = None, every: timedelta | None = None) -> dict[str, list[int]]:
    """Beat's task (every minute): a checkpoint for every property whose logbook grew since its last
    one, once that one is `every` old (LOGBOOK_CHECKPOINT_MINUTES unless given), so the setting alone
    sets the interval, whatever beat's schedule. Answers which were signed, and which were refused
    (their chain does not verify: logged as an error)."""
    now = now or timezone.now()
    every = timedelta(minutes=settings.LOGBOOK_CHECKPOINT_MINUTES) if every is None else every
    newest = Checkpoint.objects.filter(property_id=OuterRef("property_id")).order_by("-seq")
    grown = (
        ChainHead.objects.annotate(
            covered=Coalesce(Subquery(newest.values("entry_seq")[:1]), Value(0)),
            last_signed=Subquery(newest.values("signed_at")[:1]),
        )
        .filter(length__gt=F("covered"))
        .filter(Q(last_signed__isnull=True) | Q(last_signed__lte=now - every))
        .order_by("property_id")
        .values_list("property_id", flat=True)
    )
    done: dict[str, list[int]] = {"signed": [], "refused": []}
    for property_id in grown:
        try:
            if checkpoint_sign(property_id=property_id, reason="interval") is not None:
                done["signed"].append(property_id)
        except CheckpointRefused as refused:
            logger.error("checkpoint refused: %s", refused.report.as_text())
            done["refused"].append(property_id)
    return done
