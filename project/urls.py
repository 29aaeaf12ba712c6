"""URL wiring only: each app owns its own routes."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("askapp.urls")),
]

# A request that found the database pool empty answers 503, not 500 (askapp/database.py).
handler500 = "askapp.views.server_error"
