"""URL wiring only: each app owns its own routes."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("askapp.urls")),
]

# Error pages carry the request id their log lines carry (askapp/requestid.py).
handler400 = "askapp.views.bad_request"
handler500 = "askapp.views.server_error"
