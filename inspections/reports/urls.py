from django.urls import path

from inspections.reports import web

urlpatterns = [
    path("reports/", web.report_list, name="reports"),
    path("reports/<int:pk>/row/", web.report_row, name="report-row"),
    path("reports/<int:pk>/download/", web.report_file, name="report-download"),
]
