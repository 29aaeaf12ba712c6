"""ASGI entry point (the production server runs this; see docs/adr)."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")

application = get_asgi_application()
# What start-up built (Django, the app, the engine and its OpenAI client) lives as long as the
# process: out of the collector's way, a full collection during a request walks only what
# requests made, instead of pausing an answer's first event for tens of milliseconds.
gc.freeze()
