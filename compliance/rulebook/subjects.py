"""What the rules are asked about: the records the callers pass (the Django models, or anything of
the same shape; the rulebook imports none of them). Each alias names the attributes the rules read.
"""

from __future__ import annotations

from typing import Any, TypeAlias

# A table: pk, number, property (name, jurisdiction), property_id, game, wheel_type,
# has_external_movable_parts, electronic, state, inspection_void_reason, last_entry_at, wheel_id,
# ball_id, and get_state_display(), get_game_display(), get_wheel_type_display().
Table: TypeAlias = Any
# A person: pk, username, full_name, display_name, role, credential_number, property_id,
# jurisdiction, and get_role_display().
Person: TypeAlias = Any
# A wheel (serial, wheel_type, property_id, tables) or a ball (serial, property_id, tables).
Equipment: TypeAlias = Any
# A property: name, jurisdiction.
Property: TypeAlias = Any
# A logbook entry: seq, kind, table_id, table_number, property_id, get_kind_display().
Entry: TypeAlias = Any
# A Rules Submission (version, status, property, property_id, violations, options, wheel_types,
# get_status_display()) or a layout (status, game, property, features, get_status_display()).
Submission: TypeAlias = Any
# A flag of the overdue scan: status, citation, property_id.
Flag: TypeAlias = Any
