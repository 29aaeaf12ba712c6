"""URL wiring only: each app owns its own routes."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("askapp.urls")),
]

# Error pages carry the request id their log lines carry (askapp/requestid.py); a database
# that is busy (an empty pool), read-only or out of reach answers 503, not 500
# (askapp/outages.py).
handler400 = "askapp.views.bad_request"
handler500 = "askapp.views.server_error"
