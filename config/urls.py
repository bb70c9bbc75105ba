from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from compliance.accounts.web import admin_login

urlpatterns = [
    path("admin/login/", admin_login),  # before the admin's own: sign-in has one door (compliance.accounts.auth)
    path("admin/", admin.site.urls),
    path("api/", include("config.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its script as a file, not inline, so script-src stays 'self'; Swagger UI
    # sets style attributes as it draws, so this one page allows inline style (never script).
    path(
        "api/docs/",
        csp_update({"style-src": ["'unsafe-inline'"]})(SpectacularSwaggerSplitView.as_view(url_name="schema")),
        name="api-docs",
    ),
    path("", include("compliance.casinos.urls")),
    path("", include("compliance.accounts.urls")),
    path("", include("compliance.approvals.urls")),
    path("", include("inspections.logbook.urls")),
    path("", include("inspections.flags.urls")),
    path("", include("inspections.reports.urls")),
]

handler404 = "config.api.errors.not_found"
handler500 = "config.api.errors.server_error"
