"""What the casinos' services tell the apps above them, which they do not import: the logbook keeps
each table's state and deadlines, and moves them when a table or its property's policy changes
(inspections.logbook connects in its AppConfig.ready()).

Both are sent synchronously, inside the service's transaction, with the rows it changes locked, so a
receiver's writes commit or roll back with the change.

- `table_configuring`: a table is about to be written (new: `changed` is None; else the changed
  field names; `actor`, who makes the change). A receiver sets the columns it derives on `table` and returns their names; the
  service writes them in the same statement as its own.
- `property_policy_changed`: a property's fields in `changed` were written; `tables` are its
  tables, locked before the property when its overdue policy changed (else empty); `actor`, who
  changed it.
"""

from django.dispatch import Signal

table_configuring = Signal()
property_policy_changed = Signal()
