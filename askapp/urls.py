from django.urls import include, path

from askapp import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("v1/", include("askapp.api.urls")),
]
