"""What the casinos' services tell the apps above them, which they do not import: the logbook keeps
each table's status (its state and deadlines), and moves it when a table or its property's policy
changes (inspections.logbook connects in its AppConfig.ready()).

Both are notifications: a receiver returns nothing to the sender. Both are sent synchronously,
inside the service's transaction, with the rows it changes locked, so a receiver's writes commit or
roll back with the change.

- `table_configured`: a table was written (new: `changed` is None; else the changed field names;
  `actor`, who made the change).
- `property_policy_changed`: a property's fields in `changed` were written; `tables` are its
  tables, locked before the property when its overdue policy changed (else empty); `actor`, who
  changed it.
"""

from django.dispatch import Signal

table_configured = Signal()
property_policy_changed = Signal()
