from django.urls import path

from inspections.flags import web

urlpatterns = [
    path("flags/", web.flags, name="flags"),
    path("flags/<int:pk>/resolve/", web.flag_resolve, name="flag-resolve"),
]
