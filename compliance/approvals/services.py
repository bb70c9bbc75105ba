"""The approvals' only write paths: Rules Submissions and layouts drafted, filed and decided (the
API and the pages call these), each under its row's lock, by the rulebook, signed."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta

from django.conf import settings
from django.core.files import File
from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from compliance.accounts.models import User
from compliance.accounts.signatures import SignatureInput, content_digest, signer_authenticate
from compliance.approvals.artwork import artwork_content_check, artwork_name, artwork_read
from compliance.approvals.models import (
    ApprovalSignature,
    LayoutStatus,
    LayoutSubmission,
    RulesSubmission,
    SubmissionStatus,
)
from compliance.approvals.selectors import layout_violations, submission_content
from compliance.approvals.signals import approval_decided
from compliance.casinos.models import GamingTable, Property
from compliance.rulebook import malformed, raise_if_any, rulebook_for
from compliance.rulebook.artwork import artwork_quota_check, layout_artwork_check
from compliance.rulebook.configurations import configuration_missing, index_of
from compliance.rulebook.submissions import rules_submission_check


def _violations(*, prop: Property, game: str, wheel_types, payout_odds, options, configurations) -> list[dict]:
    """The draft's violations to save with it; a malformed draft is refused (400) and not saved."""
    found = rules_submission_check(
        jurisdiction=prop.jurisdiction,
        game=game,
        wheel_types=wheel_types,
        payout_odds=payout_odds,
        options=options,
        configurations=configurations,
    )
    raise_if_any(malformed(found))
    return [v.as_dict() for v in found]


@transaction.atomic
def rules_submission_draft(
    *,
    prop: Property,
    game: str,
    effective_from: date,
    wheel_types: list,
    payout_odds: dict,
    options: dict,
    created_by: User,
    configurations: list | None = None,
) -> RulesSubmission:
    """A new version, saved with its violations listed (a draft may break rules; filing may not)."""
    # Lock the property: two drafts at once must not take the same version number.
    Property.objects.select_for_update().get(pk=prop.pk)
    latest = RulesSubmission.objects.filter(property=prop, game=game).aggregate(v=Max("version"))["v"] or 0
    return RulesSubmission.objects.create(
        property=prop,
        game=game,
        version=latest + 1,
        effective_from=effective_from,
        wheel_types=wheel_types,
        payout_odds=payout_odds,
        options=options,
        configurations=configurations or [],
        violations=_violations(
            prop=prop,
            game=game,
            wheel_types=wheel_types,
            payout_odds=payout_odds,
            options=options,
            configurations=configurations or [],
        ),
        created_by=created_by,
    )


@transaction.atomic
def rules_submission_update(*, submission_id: int, **changes) -> RulesSubmission:
    """Change a draft and check it again; a filed version is never rewritten."""
    submission = (
        RulesSubmission.objects.select_for_update(of=("self",)).select_related("property").get(pk=submission_id)
    )
    raise_if_any([rulebook_for(submission.property.jurisdiction).may_edit_submission(submission=submission)])
    changed = [
        name
        for name in ("effective_from", "wheel_types", "payout_odds", "options", "configurations")
        if name in changes
    ]
    for name in changed:
        setattr(submission, name, changes[name])
    submission.violations = _violations(
        prop=submission.property,
        game=submission.game,
        wheel_types=submission.wheel_types,
        payout_odds=submission.payout_odds,
        options=submission.options,
        configurations=submission.configurations,
    )
    submission.save(update_fields=[*changed, "violations"])
    return submission


@transaction.atomic
def rules_submission_configuration_save(
    *, submission_id: int, configuration: dict, key: str | None = None
) -> RulesSubmission:
    """Add a table configuration to a draft (`key` None), or change the one whose key is `key` (the
    key stays: tables name it). The draft is changed and checked whole by rules_submission_update,
    as the API's PATCH of its configurations is; only the list is read here, under the same lock."""
    submission = (
        RulesSubmission.objects.select_for_update(of=("self",)).select_related("property").get(pk=submission_id)
    )
    raise_if_any([rulebook_for(submission.property.jurisdiction).may_edit_submission(submission=submission)])
    configurations = list(submission.configurations)
    if key is None:
        configurations.append(configuration)
    else:
        raise_if_any([configuration_missing(configurations=configurations, key=key)])
        configurations[index_of(configurations, key)] = {**configuration, "key": key}  # type: ignore[index]
    return rules_submission_update(submission_id=submission_id, configurations=configurations)


@transaction.atomic
def rules_submission_configuration_remove(*, submission_id: int, key: str) -> RulesSubmission:
    """Remove a table configuration from a draft (its tables are then named in the draft's warnings)."""
    submission = (
        RulesSubmission.objects.select_for_update(of=("self",)).select_related("property").get(pk=submission_id)
    )
    raise_if_any([rulebook_for(submission.property.jurisdiction).may_edit_submission(submission=submission)])
    raise_if_any([configuration_missing(configurations=submission.configurations, key=key)])
    configurations = [raw for raw in submission.configurations if not (isinstance(raw, dict) and raw.get("key") == key)]
    return rules_submission_update(submission_id=submission_id, configurations=configurations)


def _sign(
    *, submission: RulesSubmission | LayoutSubmission, signer: User, action: str, reference: str = "", note: str = ""
) -> None:
    ApprovalSignature.objects.create(
        rules_submission=submission if isinstance(submission, RulesSubmission) else None,
        layout=submission if isinstance(submission, LayoutSubmission) else None,
        action=action,
        reference=reference,
        note=note,
        signer=signer,
        signer_name=signer.display_name,
        credential_number=signer.credential_number,
        signed_at=timezone.now(),
        content_hash=submission.content_hash,
    )


def rules_submission_file(*, submission_id: int, signature: SignatureInput) -> RulesSubmission:
    """The compliance manager files a draft without violations; its content is frozen and hashed."""
    jurisdiction = RulesSubmission.objects.values_list("property__jurisdiction", flat=True).get(pk=submission_id)
    rules = rulebook_for(jurisdiction)
    signer = signer_authenticate(signature=signature, field="signature", jurisdiction=jurisdiction, in_logbook=False)
    with transaction.atomic():
        submission = (
            RulesSubmission.objects.select_for_update(of=("self",)).select_related("property").get(pk=submission_id)
        )
        raise_if_any(rules.may_file(submission=submission, signer=signer))
        submission.status = SubmissionStatus.FILED
        submission.content_hash = content_digest(submission_content(submission))
        submission.save(update_fields=["status", "content_hash"])
        _sign(submission=submission, signer=signer, action="filed")
    return submission


def rules_submission_decide(
    *, submission_id: int, decision: str, reference: str, signature: SignatureInput, note: str = ""
) -> RulesSubmission:
    """The regulator approves or rejects a filed submission, signed, with the Board's reference."""
    return _decide(
        model=RulesSubmission,
        pk=submission_id,
        check=lambda rules, submission, signer: rules.may_decide(submission, signer=signer),
        status=SubmissionStatus(decision),
        reference=reference,
        signature=signature,
        note=note,
    )


def _decide(*, model, pk: int, check: Callable, status: str, reference: str, signature: SignatureInput, note: str):
    """Authenticate the regulator, lock the submission, ask the rule, record and sign the decision."""
    jurisdiction = model.objects.values_list("property__jurisdiction", flat=True).get(pk=pk)
    rules = rulebook_for(jurisdiction)
    signer = signer_authenticate(signature=signature, field="signature", jurisdiction=jurisdiction, in_logbook=False)
    with transaction.atomic():
        submission = model.objects.select_for_update(of=("self",)).select_related("property").get(pk=pk)
        raise_if_any(check(rules, submission, signer))
        submission.status = status
        submission.decision_reference = reference
        submission.save(update_fields=["status", "decision_reference"])
        _sign(submission=submission, signer=signer, action=str(status), reference=reference, note=note)
        # What is in effect for the open tables may change from today or a later date (the logbook's).
        approval_decided.send(sender=model, submission=submission, actor=signer)
    return submission


def _artwork_kept_bytes(property_id: int) -> int:
    """What the property's artwork takes in the store, each stored file once."""
    names = set(
        LayoutSubmission.objects.filter(property_id=property_id).exclude(artwork="").values_list("artwork", flat=True)
    )
    return sum(default_storage.size(name) for name in names if default_storage.exists(name))


@transaction.atomic
def layout_submit(
    *,
    prop: Property,
    game: str,
    name: str,
    features: list[str],
    tables: list[GamingTable],
    artwork: File | None,
    created_by: User,
) -> LayoutSubmission:
    """Submit a layout with its artwork for approval; refused, with every violation, unless it has what
    its tables offer and its artwork is a PDF without active content, or a PNG or JPEG within the
    pixels, within the size allowed and the property's quota (compliance/rulebook/artwork.py).

    The property's row is locked: its artwork is stored once per SHA-256 (the same content submitted
    again is the file already kept), which the quota and the retention rule count and remove under
    the same lock."""
    picture = artwork_read(artwork)
    artwork_violation = layout_artwork_check(
        head=picture.head, size=picture.size, max_bytes=settings.LAYOUT_ARTWORK_MAX_BYTES
    ) or artwork_content_check(picture)
    raise_if_any([*layout_violations(prop=prop, game=game, features=features, tables=tables), artwork_violation])
    if picture.file is None or picture.kind is None:  # layout_artwork_check refused it just above
        raise RuntimeError("a layout's artwork passed its check without being read")
    Property.objects.select_for_update().only("pk").get(pk=prop.pk)
    stored_name = artwork_name(property_id=prop.pk, picture=picture)
    already_kept = default_storage.exists(stored_name)
    raise_if_any(
        [
            artwork_quota_check(
                kept=_artwork_kept_bytes(prop.pk),
                added=0 if already_kept else picture.size,
                quota=settings.LAYOUT_ARTWORK_QUOTA_BYTES,
            )
        ]
    )
    layout = LayoutSubmission(
        property=prop,
        game=game,
        name=name,
        features=sorted(set(features)),
        created_by=created_by,
        artwork_kind=picture.kind,
        artwork_sha256=picture.sha256,
        content_hash=content_digest(
            {
                "property": prop.pk,
                "game": game,
                "name": name,
                "features": sorted(set(features)),
                "tables": sorted(t.pk for t in tables),
                # The signatures bind the artwork through its hash.
                "artwork_sha256": picture.sha256,
            }
        ),
    )
    # Named by the property and its hash, never by the uploader's file name: the file already kept is
    # the same content, so it is referenced again; a new one is written before the row is, and removed
    # again if the row is not written (under the property's lock: no other layout took it meanwhile).
    if already_kept:
        layout.artwork.name = stored_name
    else:
        layout.artwork.name = default_storage.save(stored_name, picture.file)
    try:
        with transaction.atomic():
            layout.save()
            layout.tables.set(tables)
    except BaseException:
        if not already_kept:
            default_storage.delete(layout.artwork.name)
        raise
    return layout


def rejected_artwork_purge(*, now=None) -> list[str]:
    """The retention rule (compliance/rulebook/artwork.py, ARTWORK_RETENTION_POLICY): the artwork file
    of a layout rejected more than LAYOUT_ARTWORK_REJECTED_RETENTION_DAYS ago is removed from the
    store, unless a layout not so rejected keeps the same file; the layout keeps its name, kind and
    SHA-256 (the signatures bind them). Each property's under its row's lock, the lock a submission
    takes. Returns the names removed."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.LAYOUT_ARTWORK_REJECTED_RETENTION_DAYS)
    expired = (
        LayoutSubmission.objects.filter(status=LayoutStatus.REJECTED, signatures__action="rejected")
        .filter(signatures__signed_at__lte=cutoff)
        .exclude(artwork="")
    )
    removed = []
    for property_id in sorted(set(expired.values_list("property_id", flat=True))):
        with transaction.atomic():
            Property.objects.select_for_update().only("pk").get(pk=property_id)
            names = set(expired.filter(property_id=property_id).values_list("artwork", flat=True))
            kept = set(
                LayoutSubmission.objects.filter(property_id=property_id, artwork__in=names)
                .exclude(pk__in=expired.values("pk"))
                .values_list("artwork", flat=True)
            )
            for name in sorted(names - kept):
                if default_storage.exists(name):
                    default_storage.delete(name)
                    removed.append(name)
    return removed


def layout_decide(
    *, layout_id: int, decision: str, reference: str, signature: SignatureInput, note: str = ""
) -> LayoutSubmission:
    """The regulator approves or rejects a pending layout, signed, with the Bureau's reference."""
    return _decide(
        model=LayoutSubmission,
        pk=layout_id,
        check=lambda rules, layout, signer: rules.may_decide_layout(layout, signer=signer),
        status=LayoutStatus(decision),
        reference=reference,
        signature=signature,
        note=note,
    )
