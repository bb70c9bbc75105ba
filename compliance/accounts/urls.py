from django.contrib.auth import views as auth_views
from django.urls import path

from compliance.accounts import web

urlpatterns = [
    path("login/", web.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("floor/locks/", web.locks, name="locks"),
    path("language/", web.language, name="language"),
]
