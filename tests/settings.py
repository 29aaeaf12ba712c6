"""Test settings: the project's own settings, given the environment a test run lacks."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production")

from project.settings import *  # noqa: F403

# Pages render without a collectstatic run (the manifest storage needs one), and test users
# get a fast password hash.
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# No collectstatic in a test run: WhiteNoise serves from the apps' static folders instead of
# warning that STATIC_ROOT does not exist.
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True
