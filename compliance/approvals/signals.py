"""What the approvals' services tell the apps above them, which they do not import.

`approval_decided` is sent synchronously inside the decision's transaction, once the Rules
Submission or layout (`submission`) has its new status (`actor`: the regulator who decided): the logbook moves the open tables' approval
deadline from what is now approved (inspections.logbook connects in its AppConfig.ready())."""

from django.dispatch import Signal

approval_decided = Signal()
