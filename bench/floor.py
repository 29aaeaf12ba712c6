"""The framework floor: a plain Django view returning a JsonResponse, nothing else.

The bench serves it with exactly the server and settings `bin/serve` uses for askapp (same
server, workers, threads), so the ratio askapp/floor says what askapp costs over Django
itself on the same machine in the same run. DJANGO_SETTINGS_MODULE=bench.floor selects it;
`bench.floor:application` is its WSGI application and `bench.floor:asgi_application` its ASGI one.
"""

from __future__ import annotations

import os

from django.http import HttpRequest, JsonResponse
from django.urls import path

SECRET_KEY = "floor-benchmark-only"
DEBUG = False
ALLOWED_HOSTS = ["*"]
ROOT_URLCONF = __name__
MIDDLEWARE: list[str] = []
INSTALLED_APPS: list[str] = []
DATABASES: dict[str, dict[str, str]] = {}
USE_TZ = True


def floor(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


urlpatterns = [path("healthz", floor), path("floor", floor)]

os.environ.setdefault("DJANGO_SETTINGS_MODULE", __name__)
if os.environ["DJANGO_SETTINGS_MODULE"] == __name__:
    from django.core.asgi import get_asgi_application
    from django.core.wsgi import get_wsgi_application

    application = get_wsgi_application()
    asgi_application = get_asgi_application()
