"""Every violation the rulebook answers: its code, its message template and its citation.

A rule names the entry and supplies the template's values (`violation("table_already_open",
field="table", table=table.number)`). A key is the violation's code, or `code/variant` where one
code is said in more than one way. The citation is a paragraph of the Code or a product policy
stated as such; GIVEN where it is the jurisdiction's or the item's own, which the rule passes (a
wager's minimum, a checklist item, a flag); None only for the request's own form (see
compliance.rulebook.MALFORMED), which no rule cites.
"""

from __future__ import annotations

from dataclasses import dataclass

from compliance.rulebook.jurisdictions import pennsylvania as pa
from compliance.rulebook.violations import Violation, gettext_noop

# The citation is given by the rule that answers the violation (the jurisdiction's, the item's).
GIVEN = "(given by the rule)"


@dataclass(frozen=True)
class Entry:
    template: str
    citation: str | None


CATALOGUE: dict[str, Entry] = {
    # ---- § 617a.1: the wheel, the ball and the table's configuration (equipment.py) ----
    "wheel_too_small": Entry(
        gettext_noop("A Roulette wheel is at least 30 inches in diameter; this one is {diameter}."), pa.WHEEL_DIAMETER
    ),
    "wheel_compartments": Entry(
        gettext_noop("A {zeros}-zero wheel has {required} compartments; {entered} numbers were entered."), GIVEN
    ),
    "wheel_number_order": Entry(
        gettext_noop("Read clockwise from 0, compartment {position} must be {required}, not {entered}."), GIVEN
    ),
    "ball_metallic": Entry(gettext_noop("A Roulette ball is made completely of a non-metallic substance."), pa.BALL),
    "ball_diameter": Entry(
        gettext_noop(
            "A Roulette ball is 12/16 to 14/16 inch (0.75 to 0.875 inch) in diameter; this one is {diameter}."
        ),
        pa.BALL,
    ),
    "equipment_change_while_inspected": Entry(
        gettext_noop(
            "Table {table} is {state}: change its wheel or ball when it is closed, before the inspection that must "
            "follow (§ 617a.2(d))."
        ),
        pa.EQUIPMENT_CHANGE_POLICY,
    ),
    "equipment_in_use": Entry(gettext_noop("{item} is on table {elsewhere}; take it off there first."), GIVEN),
    "equipment_of_other_property/wheel": Entry(
        gettext_noop("The wheel belongs to another property."), pa.OWN_EQUIPMENT_POLICY
    ),
    "equipment_of_other_property/ball": Entry(
        gettext_noop("The ball belongs to another property."), pa.OWN_EQUIPMENT_POLICY
    ),
    "wheel_type_mismatch": Entry(
        gettext_noop("Table {table} is a {table_wheel} table; wheel {serial} is a {wheel} wheel."), pa.WHEELS
    ),
    "ball_already_on_table": Entry(
        gettext_noop("Ball {serial} is already table {table}'s ball: put on a spare ball."), pa.REPLACED_BALL_POLICY
    ),
    "ball_in_use": Entry(
        gettext_noop("Ball {serial} is the ball of table {tables}: choose a spare ball."), pa.BALL_ONE_TABLE_POLICY
    ),
    "wheel_type_required": Entry(gettext_noop("A Roulette table has a single-zero or a double-zero wheel."), pa.WHEELS),
    "wheel_type_not_applicable": Entry(
        gettext_noop("Only a Roulette table has a Roulette wheel (type and external movable parts)."), pa.WHEELS
    ),
    "configuration_change_while_inspected": Entry(
        gettext_noop(
            "Table {table} is {state}: its configuration changes only while it is closed, and it is then inspected "
            "again before it opens."
        ),
        pa.CONFIGURATION_WHILE_CLOSED,
    ),
    "wheel_type_required/wheel": Entry(
        gettext_noop("A Roulette wheel is a single-zero or a double-zero wheel."), pa.WHEELS
    ),
    "wheel_colours": Entry(
        gettext_noop(
            "Give the colour of the ring's area of each of the {required} compartments, in the order of the numbers "
            "(0 and 00 green, 1 to 36 alternately red and black); {entered} were given."
        ),
        GIVEN,
    ),
    "wheel_compartment_colours": Entry(
        gettext_noop(
            "Say how the compartments are colored: as the ring's areas, or a neutral colour approved by the Bureau."
        ),
        GIVEN,
    ),
    "wheel_compartment_colours_neutral": Entry(
        gettext_noop(
            "Compartments of a neutral colour are as approved by the Bureau: give the colour and the approval's reference."
        ),
        GIVEN,
    ),
    "wheel_compartment_colours_as_ring": Entry(
        gettext_noop(
            "Compartments colored as the ring's areas have no neutral colour or approval of one: leave them empty."
        ),
        GIVEN,
    ),
    "wheel_colour_green": Entry(
        gettext_noop("Compartment {position} ({number}) is colored green, not {entered}."), GIVEN
    ),
    "wheel_colour_red_or_black": Entry(
        gettext_noop("Compartment {position} ({number}) is colored red or black, not {entered}."), GIVEN
    ),
    "wheel_colours_alternate": Entry(
        gettext_noop(
            "The numbers 1 to 36 are colored alternately red and black: {first} and {second}, side by side, are both "
            "{colour}."
        ),
        GIVEN,
    ),
    "wheel_game_mismatch": Entry(
        gettext_noop("Table {table} is a {table_game} table; wheel {serial} is a {wheel_game} wheel."), GIVEN
    ),
    "big_six_not_roulette": Entry(gettext_noop("A Big Six wheel has no {what}: leave it empty."), pa.BIG_SIX_WHEEL),
    "big_six_wheel_part": Entry(gettext_noop("A Big Six wheel is registered only if {part}: confirm it."), GIVEN),
    "roulette_not_big_six": Entry(
        gettext_noop("A Roulette wheel is registered without what a Big Six wheel states ({part}): leave it empty."),
        GIVEN,
    ),
    "big_six_wheel_too_small": Entry(
        gettext_noop("A Big Six wheel is at least 5 feet (60 inches) in diameter; this one is {diameter}."),
        pa.BIG_SIX_WHEEL,
    ),
    "big_six_sections": Entry(
        gettext_noop("A Big Six wheel has {required} sections, read clockwise from the joker; {entered} were entered."),
        pa.BIG_SIX_WHEEL,
    ),
    "big_six_symbol_unknown": Entry(
        gettext_noop("Section {position} is “{entered}”: a section carries one of {symbols}."), pa.BIG_SIX_WHEEL
    ),
    "big_six_symbol_count": Entry(
        gettext_noop("A Big Six wheel has {required} sections with the {symbol} symbol; {entered} were entered."),
        pa.BIG_SIX_WHEEL,
    ),
    "big_six_order": Entry(
        gettext_noop("Read clockwise from the joker, section {position} must be {required}, not {entered}."),
        pa.BIG_SIX_WHEEL_ORDER,
    ),
    # ---- Records stay where they were signed (records.py) ----
    "table_has_history": Entry(
        gettext_noop(
            "Table {table} has logbook entries, flags or layouts at {property}: it stays there. "
            "Add a new table at the other property instead."
        ),
        pa.TABLE_STAYS_AT_PROPERTY,
    ),
    "table_number_in_logbook": Entry(
        gettext_noop(
            "Table {table} has logbook entries that name it by this number: it keeps it. "
            "Add a new table with the new number instead."
        ),
        pa.TABLE_KEEPS_NUMBER,
    ),
    "property_has_records": Entry(
        gettext_noop(
            "{property} has logbook entries, flags or submissions kept under its jurisdiction: it keeps it. "
            "Add a new property for the other jurisdiction instead."
        ),
        pa.PROPERTY_KEEPS_JURISDICTION,
    ),
    "licence_has_records": Entry(
        gettext_noop(
            "{property} has logbook entries, flags or submissions kept under licence {licence}, and its signed "
            "checkpoints name it by that number: it keeps it. Add a new property for the new licence instead."
        ),
        pa.PROPERTY_KEEPS_LICENCE,
    ),
    "credential_number_signed": Entry(
        gettext_noop(
            "{name} has signed the log with credential number {credential_number}: it stays as it is. "
            "A person with a new Board credential is added as a new person."
        ),
        pa.CREDENTIAL_NUMBER_KEPT,
    ),
    "person_has_signed": Entry(
        gettext_noop(
            "{name} has signed or recorded entries where they work now: they stay there. "
            "Add them as a new person at the other {where} instead."
        ),
        pa.PERSON_STAYS_AT_PROPERTY,
    ),
    # ---- § 617a.2(a)–(d): inspection and adjustments (procedure.py) ----
    "signer_not_at_property": Entry(gettext_noop("{signer} is not a member of the staff of {property}."), GIVEN),
    "not_a_roulette_table": Entry(
        gettext_noop("Table {table} is a {game} table; this procedure is for Roulette."), GIVEN
    ),
    "wheel_covered_and_locked": Entry(
        gettext_noop("The wheel of table {table} is still covered and locked: unlock it before the {action}."),
        pa.UNLOCK_FIRST_POLICY,
    ),
    "inspector_role": Entry(
        gettext_noop("Only a {roles} may inspect a Roulette table; {inspector} is {role}."), pa.INSPECTION
    ),
    "checklist_item_missing": Entry(gettext_noop("Answer the item “{label}”."), GIVEN),
    "checklist_item_not_applicable": Entry(
        gettext_noop(
            "{item} (item (5): the 00 cover and signage) applies only to a double-zero wheel used as a single-zero "
            "wheel; table {table} has a {wheel} wheel."
        ),
        pa.INSPECTION_ITEM_5,
    ),
    "checklist_item_unknown": Entry(
        gettext_noop("“{item}” is not an item of the § 617a.2(a) checklist."), pa.INSPECTION
    ),
    "no_external_movable_parts": Entry(
        gettext_noop("Table {table}'s wheel has no external movable parts to adjust or replace."), pa.ADJUSTMENT
    ),
    "adjustment_signer_role": Entry(
        gettext_noop(
            "An adjustment or replacement is made by a {adjusters} in the presence of a {witnesses}; {person} is {role}, "
            "so signs it as neither."
        ),
        pa.ADJUSTMENT,
    ),
    "adjustment_while_open": Entry(
        gettext_noop(
            "Table {table} is open for play: an adjustment or replacement now voids its inspection. Play stops until "
            "the wheel is inspected again."
        ),
        pa.ADJUSTMENT_OR_REPLACEMENT,
    ),
    "inspection_void_in_play/adjustment": Entry(
        gettext_noop(
            "Inspection void: stop play at table {table} and inspect it. Its wheel was adjusted after its inspection, "
            "and all adjustments are completed before the inspection."
        ),
        pa.ADJUSTMENTS_BEFORE_INSPECTION,
    ),
    "inspection_void_in_play/replacement": Entry(
        gettext_noop(
            "Inspection void: stop play at table {table} and inspect it. A movable part of its wheel was replaced, and "
            "an inspection is completed before the table reopens for play."
        ),
        pa.REPLACEMENT,
    ),
    "performer_role": Entry(
        gettext_noop("Adjustments and replacements are made by a {roles}; {performer} is {role}."), pa.ADJUSTMENT
    ),
    "witness_required": Entry(
        gettext_noop(
            "An adjustment or replacement is made in the presence of a security department member: name the "
            "witness, who signs it too."
        ),
        pa.ADJUSTMENT,
    ),
    "witness_is_performer": Entry(
        gettext_noop("The witness must be a different person from the one making the adjustment."), pa.ADJUSTMENT
    ),
    "witness_not_security": Entry(
        gettext_noop("Adjustments are made in the presence of a security department member; {witness} is {role}."),
        pa.ADJUSTMENT,
    ),
    "signer_role": Entry(gettext_noop("A {roles} records this; {signer} is {role}."), GIVEN),
    # ---- § 617a.2(a), (c), (d), (f), § 617a.6, § 651a.3(d): the table's events (procedure.py) ----
    "table_already_open": Entry(gettext_noop("Table {table} is already open."), pa.TABLE_STATES_POLICY),
    "wheel_covered_and_locked/opening": Entry(
        gettext_noop("The wheel of table {table} is covered and locked: unlock it and inspect it before opening."),
        pa.INSPECTION,
    ),
    "configuration_changed": Entry(
        gettext_noop(
            "Table {table}'s configuration changed after it was closed: inspect it again, with the checklist of its "
            "new configuration, before opening."
        ),
        pa.CONFIGURATION_WHILE_CLOSED,
    ),
    "adjustment_after_inspection": Entry(
        gettext_noop(
            "Table {table}'s wheel was adjusted after its last inspection: all adjustments are completed before the "
            "inspection, so inspect it again before opening."
        ),
        pa.ADJUSTMENTS_BEFORE_INSPECTION,
    ),
    "replacement_without_inspection": Entry(
        gettext_noop(
            "A movable part of table {table}'s wheel was replaced: an inspection must be completed before the table "
            "reopens."
        ),
        pa.REPLACEMENT,
    ),
    "inspection_amended_away": Entry(
        gettext_noop(
            "The inspection table {table} was to open on {reason}, so it does not count: inspect the table again "
            "before opening."
        ),
        pa.INSPECTION,
    ),
    "inspection_failed": Entry(
        gettext_noop(
            "The last inspection of table {table} failed an item: it may not open until an inspection passes."
        ),
        pa.INSPECTION,
    ),
    "inspection_failed/in_play": Entry(
        gettext_noop(
            "The inspection of table {table} failed an item while it is open: stop play; it goes on only after an "
            "inspection passes."
        ),
        pa.INSPECTION,
    ),
    "no_inspection": Entry(
        gettext_noop("Table {table} has no passing inspection since it was last closed: inspect it before opening."),
        pa.INSPECTION,
    ),
    "table_not_open": Entry(gettext_noop("Table {table} is not open, so it cannot be closed."), pa.TABLE_STATES_POLICY),
    "table_open": Entry(
        gettext_noop("Table {table} is open for play: close it before covering and locking the wheel."),
        pa.TABLE_STATES_POLICY,
    ),
    "wheel_already_locked": Entry(
        gettext_noop("The wheel of table {table} is already covered and locked."), pa.TABLE_STATES_POLICY
    ),
    "wheel_not_locked": Entry(
        gettext_noop("The wheel of table {table} is not covered and locked, so there is nothing to unlock."),
        pa.TABLE_STATES_POLICY,
    ),
    "table_not_open/irregularity": Entry(
        gettext_noop("Table {table} is not open: a “no spin” irregularity is recorded during play."), pa.IRREGULARITIES
    ),
    "irregularity_kind_not_in_jurisdiction": Entry(
        gettext_noop("“{kind}” is not a “no spin” the rules of {jurisdiction} list; they list {kinds}."), GIVEN
    ),
    "new_ball_required": Entry(
        gettext_noop("The ball was replaced: name the new ball, one of this property's registered spare balls."),
        pa.REPLACED_BALL_POLICY,
    ),
    "new_ball_without_replacement": Entry(
        gettext_noop(
            "A new ball is named only with a replacement of the ball: choose Replacement, or leave the new ball empty."
        ),
        pa.REPLACED_BALL_POLICY,
    ),
    # ---- A ball change: product policy, § 617a.2(b), (d) applied to the ball (procedure.py) ----
    "ball_change_signer_role": Entry(
        gettext_noop(
            "A ball change is made by a {adjusters} in the presence of a {witnesses}; {person} is {role}, "
            "so signs it as neither."
        ),
        pa.BALL_CHANGE_POLICY,
    ),
    "ball_change_while_open": Entry(
        gettext_noop(
            "Table {table} is open for play: a ball change now voids its inspection. Play stops until the table is "
            "inspected again."
        ),
        pa.BALL_CHANGE_POLICY,
    ),
    "inspection_void_in_play/ball_change": Entry(
        gettext_noop(
            "Inspection void: stop play at table {table} and inspect it. Its ball was changed, and an inspection is "
            "completed before the table reopens for play."
        ),
        pa.BALL_CHANGE_POLICY,
    ),
    "ball_changed_without_inspection": Entry(
        gettext_noop("Table {table}'s ball was changed: an inspection must be completed before the table reopens."),
        pa.BALL_CHANGE_POLICY,
    ),
    "not_a_casino_war_table": Entry(gettext_noop("Table {table} is not a Casino War table."), pa.CASINO_WAR_DECKS),
    # ---- § 617a.2(e): the log's times (procedure.py) ----
    "time_in_future": Entry(
        gettext_noop(
            "{at} is in the future: the server's time is {now} and a device's clock may be at most {skew} seconds ahead."
        ),
        pa.INSPECTION_LOG,
    ),
    "time_too_old": Entry(
        gettext_noop(
            "{at} is more than {hours} hours before the entry is recorded (the server's time is {now}): check the date "
            "and time. Something that happened longer ago is reported to the compliance manager, not logged."
        ),
        pa.ENTRY_TIME_PLAUSIBLE,
    ),
    "time_before_last_entry": Entry(
        gettext_noop(
            "The time is before the last entry of table {table}; record entries in the order they happened "
            "(correct an earlier entry with an amendment)."
        ),
        pa.ENTRY_ORDER_POLICY,
    ),
    # ---- Amendments (amendments.py): product policy, derived from § 617a.2(e) ----
    "signer_not_at_property/amendment": Entry(
        gettext_noop("{signer} is not a member of this property's staff."), pa.AMENDMENT_POLICY
    ),
    "amender_role": Entry(
        gettext_noop("An entry is amended by one of the people who signed it or by a compliance manager."),
        pa.AMENDMENT_POLICY,
    ),
    "correction_empty": Entry(gettext_noop("Say what the correct values are."), pa.AMENDMENT_POLICY),
    "correction_value/items": Entry(
        gettext_noop("Give the corrected checklist items as item → true (passed) or false (failed)."),
        pa.AMENDMENT_POLICY,
    ),
    "correction_value/items_unknown": Entry(
        gettext_noop("This table's checklist has no {unknown}; it has {checklist}."), pa.AMENDMENT_POLICY
    ),
    "correction_value/items_results": Entry(
        gettext_noop("Each checklist item is true (passed) or false (failed)."), pa.AMENDMENT_POLICY
    ),
    "correction_value/text": Entry(
        gettext_noop("The corrected {name} is text of at most {limit:,} characters."), pa.AMENDMENT_POLICY
    ),
    "correction_value/kind": Entry(gettext_noop("The corrected kind is one of these: {choices}."), pa.AMENDMENT_POLICY),
    "correction_value/ball_replaced": Entry(
        gettext_noop("Whether the ball was replaced is true or false."), pa.AMENDMENT_POLICY
    ),
    "correction_value/new_ball": Entry(
        gettext_noop("The new ball is the id of a ball registered at this property, or null."), pa.AMENDMENT_POLICY
    ),
    "correction_value/decks": Entry(
        gettext_noop("The corrected number of decks is a whole number from 1 to 16."), pa.AMENDMENT_POLICY
    ),
    "correction_value/correction": Entry(
        gettext_noop("The corrected correction is an object of field → value."), pa.AMENDMENT_POLICY
    ),
    "correction_field_unknown": Entry(
        gettext_noop("A {kind} entry has no “{name}”; it has {fields}."), pa.AMENDMENT_POLICY
    ),
    "correction_time": Entry(gettext_noop("Give the corrected time in ISO 8601 with its offset."), pa.AMENDMENT_POLICY),
    # The log states when things happened (§ 617a.2(e)): a corrected time in the future is no such time.
    "time_in_future/correction": Entry(gettext_noop("The corrected time is in the future."), pa.INSPECTION_LOG),
    "time_too_old/correction": Entry(
        gettext_noop(
            "The corrected time is more than {hours} hours before the entry was recorded ({recorded_at}): check the "
            "date and time."
        ),
        pa.ENTRY_TIME_PLAUSIBLE,
    ),
    "entry_already_voided": Entry(
        gettext_noop("Entry #{seq} is already marked entered in error or a duplicate (by amendment #{voided_by})."),
        pa.AMENDMENT_POLICY,
    ),
    "correction_with_void": Entry(
        gettext_noop(
            "An entry entered in error or a duplicate is marked as such, not corrected: leave the correction empty."
        ),
        pa.AMENDMENT_POLICY,
    ),
    "duplicate_of_without_duplicate": Entry(
        gettext_noop("Name the entry it repeats only when marking a duplicate."), pa.AMENDMENT_POLICY
    ),
    "duplicate_of_required": Entry(
        gettext_noop("Say which earlier entry #{seq} repeats (its number in the logbook)."), pa.AMENDMENT_POLICY
    ),
    "duplicate_of_unknown": Entry(
        gettext_noop(
            "Table {table} has no entry #{duplicate_of} before #{seq}: a duplicate repeats an earlier entry of the same "
            "table."
        ),
        pa.AMENDMENT_POLICY,
    ),
    "duplicate_of_other_kind": Entry(
        gettext_noop(
            "Entry #{duplicate_seq} is a {duplicate_kind} and #{seq} a {kind}: a duplicate repeats an entry of the same "
            "kind."
        ),
        pa.AMENDMENT_POLICY,
    ),
    # ---- Signatures (signatures.py): § 617a.2(e) in the logbook, product policy elsewhere ----
    "signature_invalid": Entry(gettext_noop("The username or password given to sign as “{username}” is wrong."), GIVEN),
    "signature_invalid/remaining": Entry(
        gettext_noop(
            "The username or password given to sign as “{username}” is wrong. {remaining} more wrong password(s) "
            "from this device lock signing as “{username}” for {minutes} minutes (signing in stays open)."
        ),
        GIVEN,
    ),
    "signature_locked_out": Entry(
        gettext_noop(
            "Too many wrong passwords for “{username}” from this device: signing as “{username}” is locked for "
            "{minutes} minutes (signing in stays open). A security supervisor or an administrator can lift the lock."
        ),
        GIVEN,
    ),
    "signature_directory_unavailable": Entry(
        gettext_noop(
            "The casino's directory cannot be reached, so the password given to sign as “{username}” cannot be "
            "checked now: nothing was recorded. Try again in a minute."
        ),
        GIVEN,
    ),
    "max_length/password": Entry(gettext_noop("A password is at most {limit:,} characters."), GIVEN),
    # ---- § 601a.2: Rules Submissions (approvals.py) ----
    "game_not_in_jurisdiction": Entry(
        gettext_noop("The rules of {jurisdiction} in this product have no Casino War."), GIVEN
    ),
    "wheel_types_required": Entry(gettext_noop("Name the wheel types the rules are for."), pa.WHEEL_TYPES_NAMED_POLICY),
    "payout_odds_required": Entry(gettext_noop("List the wagers offered and their payout odds."), pa.PAYOUT_ODDS),
    "wheel_type_unknown": Entry(gettext_noop("“{wheel_type}” is not a wheel type."), pa.WHEELS),
    "submission_not_draft": Entry(
        gettext_noop("Version {version} was {status}; it is never rewritten: make a new version instead."),
        pa.SUBMISSION_VERSIONS_POLICY,
    ),
    "filer_role": Entry(
        gettext_noop("The Rules Submission is filed by a compliance manager of {property}."), pa.FILER_POLICY
    ),
    "submission_has_violations": Entry(
        gettext_noop("The draft still breaks {count} rule(s); correct them before filing. {rules}"), pa.RULES_SUBMISSION
    ),
    "submission_not_filed": Entry(
        gettext_noop("Only a filed submission is decided; this one is {status}."), pa.RULES_SUBMISSION
    ),
    "approver_role": Entry(
        gettext_noop("A regulator of the property's jurisdiction decides on a Rules Submission."), pa.RULES_SUBMISSION
    ),
    "rules_submission_not_in_effect": Entry(
        gettext_noop("{property} has no approved {game} Rules Submission in effect today."), pa.RULES_SUBMISSION
    ),
    "table_configuration_not_approved": Entry(
        gettext_noop(
            "Table {table} uses the configuration “{configuration}”, which the {game} Rules Submission in effect "
            "(version {version}) does not approve: choose one of its configurations ({keys}) or file a version "
            "that has it."
        ),
        pa.RULES_SUBMISSION,
    ),
    # The configurations' own form (configurations.py): the request's, so uncited.
    "configurations_format": Entry(
        gettext_noop(
            "Give the configurations as a list of objects, each with a key, a name, wheel_types, payout_odds and options."
        ),
        None,
    ),
    "configurations_too_many": Entry(
        gettext_noop("A Rules Submission has at most {most} configurations besides the standard one."), None
    ),
    "configuration_key": Entry(
        gettext_noop(
            "“{value}” is not a configuration key: lower-case letters, digits, “-” and “_”, starting with a letter, "
            "at most 40 characters."
        ),
        None,
    ),
    "configuration_key_taken": Entry(
        gettext_noop(
            "The key “{value}” names another configuration of this submission (“standard” is the submission's own)."
        ),
        None,
    ),
    "configuration_name": Entry(
        gettext_noop("A configuration's name is one printable line of at most {most} characters."), None
    ),
    "configuration_field_unknown": Entry(
        gettext_noop("A configuration has key, name, wheel_types, payout_odds and options; not {fields}."), None
    ),
    "configuration_missing": Entry(
        gettext_noop(
            "This Rules Submission has no configuration “{configuration}” besides the standard one: it was removed, or never made."
        ),
        None,
    ),
    "rules_submission_wheel_type": Entry(
        gettext_noop(
            "Table {table}'s configuration “{configuration}” in the Rules Submission in effect (version {version}) "
            "does not cover {wheel} tables."
        ),
        pa.RULES_SUBMISSION,
    ),
    # ---- § 617a.1(f), § 617c, § 619a.1(g), § 651a.2(b): layouts (approvals.py) ----
    # The layout paragraph of the layout's game (§ 617a.1(f), § 619a.1(g), § 651a.2(b)): given.
    "layout_feature_unknown": Entry(gettext_noop("“{feature}” is not a layout feature."), GIVEN),
    "layout_feature_missing": Entry(
        gettext_noop("The layout must have “{feature}” for what is offered on its tables."), GIVEN
    ),
    "touchdown_not_electronic": Entry(
        gettext_noop("Touchdown Roulette is offered on a fully automated electronic table; {tables} is not."),
        pa.TOUCHDOWN_TABLE,
    ),
    "layout_artwork_missing": Entry(gettext_noop("Attach the layout's artwork (a PDF, PNG or JPEG file)."), GIVEN),
    "layout_artwork_too_large": Entry(gettext_noop("The artwork is {size}; it may be at most {max_size}."), GIVEN),
    "layout_artwork_type": Entry(
        gettext_noop("The artwork is not a PDF, PNG or JPEG file (judged by its content, not its name)."), GIVEN
    ),
    "layout_artwork_too_many_pixels": Entry(
        gettext_noop(
            "The artwork is a picture of {megapixels} megapixels; a layout's picture may have at most {max_megapixels} "
            "megapixels."
        ),
        GIVEN,
    ),
    "layout_artwork_unreadable": Entry(
        gettext_noop(
            "The artwork cannot be read as the file its first bytes announce, so what it holds cannot be checked: "
            "save it again as a plain PDF, PNG or JPEG file."
        ),
        GIVEN,
    ),
    "layout_artwork_active": Entry(
        gettext_noop(
            "The artwork's PDF carries active content ({found}): a layout's PDF holds no JavaScript, no action run "
            "on opening, no launched program and no embedded file. Print it again to a plain PDF."
        ),
        GIVEN,
    ),
    "layout_artwork_quota": Entry(
        gettext_noop(
            "With this artwork the property's layout artwork would take {total}; a property keeps at most {quota}."
        ),
        GIVEN,
    ),
    # ---- Product policy: photos on an entry (photos.py) ----
    "photo_too_large": Entry(gettext_noop("The photo {name} is {size}; a photo may be at most {max_size}."), GIVEN),
    "photo_too_many_pixels": Entry(
        gettext_noop(
            "The photo {name} is {megapixels} megapixels; a photo may have at most {max_megapixels} megapixels."
        ),
        GIVEN,
    ),
    "photos_quota": Entry(
        gettext_noop("With these photos the property's photos would take {total}; a property keeps at most {quota}."),
        GIVEN,
    ),
    "photo_type": Entry(
        gettext_noop("The photo {name} is not a JPEG, PNG or WebP image (judged by its content, not its name)."), GIVEN
    ),
    "photos_too_many": Entry(gettext_noop("{count} photos were attached; an entry takes at most {max_count}."), GIVEN),
    "photo_item_unknown": Entry(gettext_noop("“{item}” is not an item of this table's checklist."), GIVEN),
    "layout_not_pending": Entry(gettext_noop("This layout was already {status}."), GIVEN),
    "approver_role/layout": Entry(
        gettext_noop("A regulator of the property's jurisdiction decides on a layout."), GIVEN
    ),
    "layout_not_approved": Entry(
        gettext_noop("Table {table} has no approved layout: a layout is approved before use."), GIVEN
    ),
    "touchdown_table": Entry(
        gettext_noop(
            "Table {table}'s configuration “{configuration}” offers Touchdown Roulette, which is played on a fully "
            "automated electronic table with a double-zero wheel."
        ),
        pa.TOUCHDOWN_TABLE,
    ),
    "wheel_not_registered": Entry(
        gettext_noop("Table {table} has no registered wheel."), pa.REGISTERED_EQUIPMENT_POLICY
    ),
    "procedure_required": Entry(
        gettext_noop(
            "A Pennsylvania property keeps the inspection procedure: the Code sets it. Only a property whose "
            "jurisdiction's text sets none (New Jersey, Section 4) may keep a log without it."
        ),
        pa.PROCEDURE,
    ),
    "wheel_not_registered/big_six": Entry(
        gettext_noop(
            "Table {table} has no registered Big Six wheel: register its wheel (54 sections in the order of "
            "§ 619a.1(b)) and put it on the table."
        ),
        pa.REGISTERED_BIG_SIX_WHEEL_POLICY,
    ),
    "ball_not_applicable": Entry(
        gettext_noop("Table {table} plays {game}, which has no ball: only a Roulette table has one."),
        pa.BALL_ROULETTE_ONLY_POLICY,
    ),
    "ball_not_registered": Entry(gettext_noop("Table {table} has no registered ball."), pa.REGISTERED_EQUIPMENT_POLICY),
    # ---- Wagers and options: each jurisdiction's own citations (games/) ----
    "wager_not_in_jurisdiction": Entry(gettext_noop("“{wager}” is not a {game} wager of {jurisdiction}."), GIVEN),
    "odds_format": Entry(gettext_noop("Give the odds of {wager} as [X, Y] for “X to Y”."), None),
    "odds_below_minimum": Entry(gettext_noop("{wager} pays at least {minimum}; {given} was given."), GIVEN),
    "wager_wheel_type": Entry(gettext_noop("{wager} is not offered on a {wheels} wheel."), GIVEN),
    "option_not_in_jurisdiction": Entry(gettext_noop("“{option}” is not an option {jurisdiction} allows."), GIVEN),
    "option_value": Entry(gettext_noop("“{option}” is one of {values}."), GIVEN),
    "double_zero_loss_required": Entry(
        gettext_noop("On a double-zero wheel, say whether even-money wagers lose half or all on 0 and 00."), GIVEN
    ),
    "wager_unknown": Entry(gettext_noop("“{wager}” is not a wager code: see the API's documentation."), GIVEN),
    "option_unknown": Entry(gettext_noop("“{option}” is not an option: see the API's documentation."), GIVEN),
    # ---- Side wagers' paytables: § 617a.4(d), Chapter 617c (games/side_wagers.py) ----
    "lightning_straight_odds": Entry(
        gettext_noop("With Lightning Roulette a straight wager not on a Lucky Number is paid {odds}."), GIVEN
    ),
    "payouts_incomplete": Entry(
        gettext_noop("All of the possible payouts are included, and no others: {listed}."), GIVEN
    ),
    "payouts_incomplete/missing": Entry(
        gettext_noop("All of the possible payouts are included, and no others: {listed} (missing: {missing})."), GIVEN
    ),
    "paytable_not_listed": Entry(gettext_noop("Choose one of the paytables the rule lists: {choices}."), GIVEN),
    "option_wheel_type": Entry(gettext_noop("“{option}” is not played on a {wheels} wheel."), GIVEN),
    # ---- N.J.A.C. 19:47-5.1(g): colour wagers (jurisdictions/new_jersey.py) ----
    "color_wager_with_red_black": Entry(
        gettext_noop("A table that offers a colour wager does not offer the red and black wagers."), GIVEN
    ),
    "color_wager_with_dozen": Entry(
        gettext_noop("A table that offers the seven or eight numbers colour wager does not offer the dozen wager."),
        GIVEN,
    ),
    # ---- Big Six (games/big_six.py) ----
    "clapper_option": Entry(
        gettext_noop("When the clapper stops between two sections, big_six_clapper_between is {choices} here."), GIVEN
    ),
    "big_six_odds_wording": Entry(
        gettext_noop("Big Six odds are stated with {choices}, never with “for”: big_six_odds_wording is {choices}."),
        GIVEN,
    ),
    "option_not_in_jurisdiction/big_six": Entry(gettext_noop("“{option}” is not a Big Six option."), GIVEN),
    # ---- Casino War, Chapter 651a (games/casino_war.py) ----
    "casino_war_decks/shuffler": Entry(
        gettext_noop("With an automated card shuffling device Casino War uses 12 to 16 decks in two equal batches."),
        pa.CASINO_WAR_SHUFFLER,
    ),
    "casino_war_decks": Entry(gettext_noop("Casino War is played with six or eight decks."), pa.CASINO_WAR_DECK_COUNT),
    "casino_war_decks/missing": Entry(gettext_noop("State how many decks are used."), pa.CASINO_WAR_DECK_COUNT),
    "wager_not_in_jurisdiction/casino_war": Entry(
        gettext_noop("“{wager}” is not a Casino War wager."), pa.CASINO_WAR_WAGERS
    ),
    "casino_war_odds": Entry(gettext_noop("The {wager} wager is paid {odds}."), GIVEN),
    "casino_war_odds/missing": Entry(gettext_noop("State the {wager} wager's odds."), GIVEN),
    "adjacent_boxes_required": Entry(
        gettext_noop("State on how many adjacent boxes (1 to 7) a player may wager in one round."), pa.CASINO_WAR_BOXES
    ),
    "option_not_in_jurisdiction/casino_war": Entry(
        gettext_noop("“{option}” is not a Casino War option."), pa.RULES_SUBMISSION
    ),
    # ---- Flags of the overdue scan: the flag's own citation (flags.py) ----
    "flag_not_open": Entry(gettext_noop("This flag is already resolved."), GIVEN),
    "resolver_role": Entry(
        gettext_noop("A flag is resolved by hand by a compliance manager of the table's property."), GIVEN
    ),
    "note_required": Entry(gettext_noop("Say in the note how the problem was dealt with."), GIVEN),
    # ---- The product's limits on audit reports: the policy, with its numbers (reports.py) ----
    "report_period_too_long": Entry(
        gettext_noop(
            "A report covers at most {max_days} days; this one asks for {days}. Ask for it in shorter periods."
        ),
        GIVEN,
    ),
    "too_many_reports_pending": Entry(
        gettext_noop(
            "You already have {mine} reports waiting or being generated (at most {max_mine} at once). "
            "Ask for this one when one of them is done."
        ),
        GIVEN,
    ),
    "too_many_reports_pending/property": Entry(
        gettext_noop(
            "{property} already has {of_property} reports waiting or being generated (at most {max_of_property} at "
            "once). Ask for this one when one of them is done."
        ),
        GIVEN,
    ),
    "label_sheet_too_large": Entry(
        gettext_noop(
            "One label sheet holds at most {max_labels} labels; {property} has {labels} tables: print them a page "
            "of {max_labels} at a time."
        ),
        GIVEN,
    ),
    "too_many_label_sheets_pending": Entry(
        gettext_noop(
            "You already have {mine} label sheets waiting or being rendered (at most {max_mine} at once). "
            "Ask for this one when one of them is done."
        ),
        GIVEN,
    ),
    "report_period_implausible": Entry(
        gettext_noop("{day} is before {earliest}, when no logbook was kept here: check the year."), GIVEN
    ),
    "report_period_implausible/future": Entry(
        gettext_noop("{day} is after {latest}: a report covers days that have begun at the property. Check the year."),
        GIVEN,
    ),
    # ---- Casino War deck changes against the table's approved configuration (games/casino_war.py) ----
    "casino_war_decks/shuffler_not_approved": Entry(
        gettext_noop(
            "Table {table} has no automated card shuffling device approved in its Rules Submission in effect: "
            "{decks} decks are used only with one. A manual shoe takes six or eight decks."
        ),
        pa.CASINO_WAR_SHUFFLER,
    ),
    # ---- Lightning Roulette is a variation of the straight wager (games/roulette.py) ----
    "lightning_without_straight": Entry(
        gettext_noop(
            "Lightning Roulette raises the payout of a winning straight wager: offer the straight wager with it."
        ),
        "58 Pa. Code § 617c.3(a), (f)",
    ),
    # ---- Irregularities by game: § 617a.6 (Roulette), § 651a.11 (Casino War) (games/casino_war.py) ----
    "irregularity_kind_for_game": Entry(
        gettext_noop("Table {table} is a {game} table: its irregularities are: {kinds}."), GIVEN
    ),
    "table_not_open/casino_war_irregularity": Entry(
        gettext_noop("Table {table} is not open: a Casino War irregularity is recorded during play."),
        pa.proposed("651a.11"),
    ),
    "cards_at_opening": Entry(
        gettext_noop(
            "Table {table} is a Casino War table: its opening states how its cards were inspected: {choices}."
        ),
        pa.proposed("651a.4"),
    ),
    "cards_at_opening/not_casino_war": Entry(
        gettext_noop("Table {table} is not a Casino War table: it has no cards to inspect at opening."),
        pa.proposed("651a.4"),
    ),
    # ---- § 651a.3(a), (c)(2): what the decks of a deck change are (games/casino_war.py) ----
    "deck_cards/missing": Entry(
        gettext_noop(
            "State how many cards and cover cards each deck has: each deck of cards must consist of 52 cards and "
            "2 cover cards."
        ),
        pa.CASINO_WAR_DECK_COUNT,
    ),
    "deck_cards": Entry(
        gettext_noop(
            "Each deck of cards must consist of 52 cards and 2 cover cards; these decks have {cards} cards and "
            "{cover} cover cards."
        ),
        pa.CASINO_WAR_DECK_COUNT,
    ),
    "deck_backs/manual": Entry(
        gettext_noop(
            "The six or eight decks of a manual dealing shoe are identical in appearance: give the one colour of "
            "their backs."
        ),
        pa.CASINO_WAR_DECK_COUNT,
    ),
    "deck_backs": Entry(
        gettext_noop(
            "With an automated card shuffling device the cards are in two batches, the backs of one of a different "
            "colour than the other's: give the two batches' colours."
        ),
        pa.CASINO_WAR_BATCH_BACKS,
    ),
    "deck_backs/same": Entry(
        gettext_noop(
            "Both batches' backs are {colour}: the backs of the cards in one batch must be of a different colour "
            "than the cards in the other batch."
        ),
        pa.CASINO_WAR_BATCH_BACKS,
    ),
    "correction_value/cards": Entry(
        gettext_noop("The corrected number of cards or cover cards a deck has is a whole number from 0 to 99."),
        pa.AMENDMENT_POLICY,
    ),
    "correction_value/back_colours": Entry(
        gettext_noop("The corrected backs' colours are a list of one or two colours, each of at most 40 characters."),
        pa.AMENDMENT_POLICY,
    ),
    # § 651a.11 lists no ball: a Casino War table has none (§ 651a.2, proposed, describes its table).
    "irregularity_kind_for_game/ball": Entry(
        gettext_noop("Table {table} is a Casino War table: there is no ball to replace."), pa.BALL_ROULETTE_ONLY_POLICY
    ),
}


def code_of(key: str) -> str:
    """The violation's code: the key without its variant."""
    return key.split("/", 1)[0]


def violation(key: str, *, field: str | None, citation: str | None = None, **values: object) -> Violation:
    """The catalogue's violation `key`, its template filled with `values`; `citation` where the entry's
    is GIVEN (and only there)."""
    entry = CATALOGUE[key]
    if (entry.citation == GIVEN) != (citation is not None):
        raise TypeError(f"{key}: pass citation= exactly where the catalogue's is given by the rule")
    return Violation(
        code_of(key),
        entry.template.format(**values),
        citation if entry.citation == GIVEN else entry.citation,
        field,
        template=entry.template,
        values=values,
    )
