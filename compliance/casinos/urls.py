from django.urls import path

from compliance.casinos import web

urlpatterns = [
    path("manage/tables/labels.pdf", web.table_labels, name="table-labels"),
]
