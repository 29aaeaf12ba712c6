"""WSGI entry point, kept for hosts that only speak WSGI."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")

application = get_wsgi_application()
gc.freeze()  # start-up objects live as long as the process: see project/asgi.py
