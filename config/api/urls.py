"""The API's addresses, composed from each app's api/urls.py: one router, so GET /api/ lists every
app's resources and the URLs stay flat (/api/tables/, …), and each app's own paths besides."""

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from compliance.accounts.api import urls as accounts
from compliance.approvals.api import urls as approvals
from compliance.casinos.api import urls as casinos
from inspections.flags.api import urls as flags
from inspections.logbook.api import urls as logbook
from inspections.reports.api import urls as reports

APPS = (casinos, accounts, approvals, logbook, flags, reports)

router = DefaultRouter()
for app in APPS:
    router.registry.extend(app.router.registry)

urlpatterns = [
    *(path("", include(app)) for app in APPS if getattr(app, "urlpatterns", None)),
    *router.urls,
]
