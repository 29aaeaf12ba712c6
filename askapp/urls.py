from django.urls import path

from askapp import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
]
