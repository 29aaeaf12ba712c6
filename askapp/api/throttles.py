"""Request rates per logged-in user and per anonymous client, read from settings on every
request (so a deployment's ASKAPP_THROTTLE_* and a test's override both take effect)."""

from __future__ import annotations

from django.conf import settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle


class UserThrottle(UserRateThrottle):
    def get_rate(self) -> str:
        return str(settings.ASKAPP_THROTTLE_USER)


class AnonThrottle(AnonRateThrottle):
    def get_rate(self) -> str:
        return str(settings.ASKAPP_THROTTLE_ANON)
