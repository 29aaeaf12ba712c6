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

FULL_COLLECTION_AFTER = 1000  # middle-generation collections (Python's default: 10)

application = ThreadedASGIHandler(threads=settings.ASKAPP_WEB_THREADS)
# How long a thread may keep the interpreter lock while another waits for it: Python's 5 ms
# unless ASKAPP_SWITCH_INTERVAL says otherwise (docs/adr/0045 measured both).
sys.setswitchinterval(settings.ASKAPP_SWITCH_INTERVAL)
# What start-up built (Django, the app, the engine and its OpenAI client) lives as long as the
# process: out of the collector's way, a full collection during a request walks only what
# requests made, instead of pausing an answer's first event for tens of milliseconds.
gc.freeze()
# A full collection walks every object the process holds, with the interpreter lock held: with
# a thousand answer streams open it paused every stream and request of the process for
# 88-140 ms at a time (docs/adr/0070). Young collections stay as Python makes them (short, and
# they free the request cycles Django makes); a full one comes after 1,000 of the middle
# generation's instead of 10, so the few cycles that outlive both wait longer to be freed.
gc.set_threshold(700, 10, FULL_COLLECTION_AFTER)
