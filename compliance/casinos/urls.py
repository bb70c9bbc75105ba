from django.urls import path

from compliance.casinos import web

urlpatterns = [
    path("manage/tables/labels/", web.table_labels, name="table-labels"),
    path("manage/tables/labels/<int:pk>/row/", web.table_labels_row, name="table-labels-row"),
    path("manage/tables/labels/<int:pk>/download/", web.table_labels_file, name="table-labels-download"),
]
