"""What the logbook tells the apps above it, which it does not import (inspections.flags connects in
its AppConfig.ready()).

`entry_recorded` is sent by the logbook's services once an entry is appended and its table's state
stored, synchronously, inside the entry's transaction and with the table still locked: a receiver's
writes commit or roll back with the entry, and a receiver's exception refuses the entry.
Arguments: `entry`, `table` (its table as just stored, still locked, with its `status`), `missed`, the
deadline columns of the status the entry moved, each with the deadline it held before (column → that
deadline), and `state_before`, the table's state before the entry.

`deadlines_moved` is sent when something other than an entry moved a table's deadlines (a policy, an
approval, a configuration change), in that change's transaction, with the table locked.
Arguments: `table` (with its new deadlines), `moved` (column → the deadline it held before), `cause`
("policy", "approval" or "configuration") and `actor` (the person who made the change, or None).
"""

from django.dispatch import Signal

entry_recorded = Signal()
deadlines_moved = Signal()
