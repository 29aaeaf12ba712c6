"""ASGI entry point: the production server (`bin/serve`, granian) runs this; see docs/adr/0032.

Django's sync middleware and views run in a pool of ASKAPP_WEB_THREADS threads per process
(project/handler.py), not on asgiref's one thread-sensitive thread; answer streams keep their
async body on the event loop.
"""

import gc
import os
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")
django.setup(set_prefix=False)

from django.conf import settings  # noqa: E402

from project.handler import ThreadedASGIHandler  # noqa: E402

application = ThreadedASGIHandler(threads=settings.ASKAPP_WEB_THREADS)
# How long a thread may keep the interpreter lock while another waits for it: Python's 5 ms
# unless ASKAPP_SWITCH_INTERVAL says otherwise (docs/adr/0045 measured both).
sys.setswitchinterval(settings.ASKAPP_SWITCH_INTERVAL)
# What start-up built (Django, the app, the engine and its OpenAI client) lives as long as the
# process: out of the collector's way, a full collection during a request walks only what
# requests made, instead of pausing an answer's first event for tens of milliseconds.
gc.freeze()
