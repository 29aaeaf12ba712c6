"""Test settings: the project's own settings, given the environment a test run lacks."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production")

from project.settings import *  # noqa: E402,F403
