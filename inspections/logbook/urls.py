from django.urls import path

from inspections.logbook import web

urlpatterns = [
    path("", web.home, name="home"),
    path("floor/", web.floor, name="floor"),
    path("tables/<int:pk>/", web.table_page, name="table"),
    path("tables/<int:pk>/inspect/", web.inspection, name="inspect"),
    path("tables/<int:pk>/adjust/", web.adjustment, name="adjust"),
    path("tables/<int:pk>/ball/", web.ball_change, name="ball-change"),
    path("tables/<int:pk>/irregularity/", web.irregularity, name="irregularity"),
    path("tables/<int:pk>/<str:kind>/", web.table_event, name="table-event"),
    path("entries/<int:entry_pk>/amend/", web.amendment, name="amend"),
    path("entries/<int:entry_pk>/photos/<int:position>/", web.entry_photo, name="entry-photo"),
]
