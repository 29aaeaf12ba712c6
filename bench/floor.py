"""The framework floor: a plain Django view returning a JsonResponse, and nothing else.

The bench serves it with exactly the server and settings `bin/serve` uses for askapp (granian
through project.serve, the same workers, the same threaded handler and thread count), so
askapp's rate over the floor's says what askapp costs over Django itself, on the same
machine in the same run. Served as `bench.floor:application` with
DJANGO_SETTINGS_MODULE=bench.floor.
"""

from __future__ import annotations

import os

from django.http import HttpRequest, JsonResponse
from django.urls import path

from project import serve

SECRET_KEY = "floor-benchmark-only"
DEBUG = False
ALLOWED_HOSTS = ["*"]
ROOT_URLCONF = __name__
MIDDLEWARE: list[str] = []
INSTALLED_APPS: list[str] = []
DATABASES: dict[str, dict[str, str]] = {}
USE_TZ = True
# The threaded handler marks each request urgent among answer streams' later work (ADR 0070):
# the floor pays for that mark as askapp does, with askapp's default slot count.
ASKAPP_STREAM_RUNNING = 2


def floor(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


urlpatterns = [path("healthz", floor), path("floor", floor)]

if os.environ.get("DJANGO_SETTINGS_MODULE") == __name__:
    import django

    from project.handler import ThreadedASGIHandler

    django.setup(set_prefix=False)
    threads = int(os.environ.get("ASKAPP_WEB_THREADS") or serve.WEB_THREADS)
    application = ThreadedASGIHandler(threads=threads)
