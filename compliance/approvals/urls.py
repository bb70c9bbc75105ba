from django.urls import path

from compliance.approvals import web

urlpatterns = [
    path("manage/", web.manage, name="manage"),
    path("manage/rules/new/", web.rules_new, name="rules-new"),
    path("manage/properties/<int:property_pk>/rules/check/", web.rules_check, name="rules-check"),
    path("manage/layouts/new/", web.layout_new, name="layout-new"),
    path("rules-submissions/<int:pk>/", web.rules_submission, name="rules-submission"),
    path("rules-submissions/<int:pk>/configurations/new/", web.configuration_new, name="configuration-new"),
    path("rules-submissions/<int:pk>/configurations/check/", web.configuration_check, name="configuration-check"),
    path(
        "rules-submissions/<int:pk>/configurations/<str:key>/edit/", web.configuration_edit, name="configuration-edit"
    ),
    path("manage/tables/<int:pk>/configuration/", web.table_configuration, name="table-configuration"),
    path("layouts/<int:pk>/", web.layout, name="layout"),
    path("layouts/<int:pk>/artwork/", web.layout_artwork, name="layout-artwork"),
    path("approvals/", web.approvals, name="approvals"),
]
