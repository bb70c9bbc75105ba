from django.urls import path

from inspections import views

urlpatterns = [path("", views.home, name="home")]
