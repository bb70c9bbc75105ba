from django.urls import path

from compliance.accounts import web

urlpatterns = [
    path("floor/locks/", web.locks, name="locks"),
    path("language/", web.language, name="language"),
]
