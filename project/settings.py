"""askapp settings: every value comes from the environment (or a `.env` file beside manage.py).

A bad value stops start-up with ImproperlyConfigured naming the variable, so a typo in a
deployment fails loudly instead of running with a silent default.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured

from project import serve

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env")

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _bool(name: str, default: bool) -> bool:
    raw = env.str(name, default=str(default)).strip().lower()
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, got {raw!r}")


def _int(name: str, default: int, *, minimum: int = 0, maximum: int | None = None) -> int:
    raw = env.str(name, default=str(default)).strip()
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, got {raw!r}") from None
    if value < minimum or (maximum is not None and value > maximum):
        bounds = f"between {minimum} and {maximum}" if maximum is not None else f">= {minimum}"
        raise ImproperlyConfigured(f"{name} must be {bounds}, got {value}")
    return value


def _float(name: str, default: float, *, minimum: float = 0.0) -> float:
    raw = env.str(name, default=str(default)).strip()
    try:
        value = float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, got {raw!r}") from None
    if value < minimum:
        raise ImproperlyConfigured(f"{name} must be >= {minimum}, got {value}")
    return value


def _choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = env.str(name, default=default).strip().lower()
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, got {value!r}")
    return value


_LEVELS = ("debug", "info", "warning", "error", "critical")


def _rate(name: str, default: str) -> str:
    value = env.str(name, default=default).strip()
    if not re.fullmatch(r"\d+/(s|sec|second|m|min|minute|h|hour|d|day)", value):
        raise ImproperlyConfigured(
            f"{name} must look like 120/min (per s, min, hour or day), got {value!r}"
        )
    return value


def _http_url(name: str, value: str | None) -> None:
    """An optional setting that, when given, must be an http:// or https:// URL with a host."""
    if value is None:
        return
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ImproperlyConfigured(
            f"{name} must be an http:// or https:// URL such as http://localhost:11434/v1, "
            f"got {value!r}"
        )


def _database(name: str, default: str) -> dict[str, Any]:
    raw = env.str(name, default=default)
    scheme = raw.partition("://")[0]
    if scheme not in environ.Env.DB_SCHEMES:
        known = "postgres://, sqlite:///, mysql://"
        raise ImproperlyConfigured(
            f"{name} names an unknown database scheme: {raw!r} (expected e.g. {known})"
        )
    try:
        config = environ.Env.db_url_config(raw)
    except Exception as exc:  # django-environ raises several types for a malformed URL
        raise ImproperlyConfigured(f"{name} is not a valid database URL: {exc}") from exc
    return config


DEBUG = _bool("DEBUG", False)
SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "insecure-development-key-only-for-debug"  # DEBUG only

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])

# Production behind HTTPS (a TLS-terminating proxy that sets X-Forwarded-Proto): HSTS for a
# year, cookies sent over HTTPS only, plain HTTP redirected (but /healthz, for load
# balancers), and the proxy's header trusted to say a request came over HTTPS.
ASKAPP_SECURE = _bool("ASKAPP_SECURE", False)
if ASKAPP_SECURE:
    SECURE_HSTS_SECONDS = 31536000
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "askapp.apps.AskappAdminConfig",  # django.contrib.admin with askapp's site
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and Redoc served from here, not from a CDN
    "askapp",
]

MIDDLEWARE = [
    # First: every response, a redirect or a refusal included, carries its request id.
    "askapp.requestid.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before anything reads a body: a charset other than UTF-8 is a 400, not a codec's 500.
    "askapp.middleware.FormCharsetMiddleware",
    # A Content-Security-Policy on every page; API responses private and never cached.
    "askapp.middleware.SecurityHeadersMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "askapp.middleware.TrailingSlashMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Django's, making a request's message storage only when a message is added or read.
    "askapp.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "project.urls"
WSGI_APPLICATION = "project.wsgi.application"
ASGI_APPLICATION = "project.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DEFAULT_DATABASE_URL = f"sqlite:///{BASE_DIR / 'var' / 'askapp.sqlite3'}"
DATABASES = {"default": _database("DATABASE_URL", DEFAULT_DATABASE_URL)}
if not env.str("DATABASE_URL", default=""):
    (BASE_DIR / "var").mkdir(exist_ok=True)  # var/ is not in git; the default file lives there
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers run beside the one writer; the busy timeout makes a second writer
    # wait for the lock instead of failing at once; IMMEDIATE takes the write lock when a
    # transaction starts, so two concurrent asks serialise instead of deadlocking. Asks
    # queue for the write in the kernel first (askapp/writer.py), across processes.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": _float("ASKAPP_SQLITE_BUSY_TIMEOUT", 20.0),
            "transaction_mode": "IMMEDIATE",
            # WAL itself is set once per file, by askapp/writer.py.
            "init_command": "PRAGMA synchronous=NORMAL;",
        }
    )
# SQLite: a thread keeps its connection (10 minutes by default) instead of opening one per
# request, which cost an ask about 1.8 ms (the open, the init command, the WAL probe).
# Safe beside the writers' queue: it locks a file of its own, not the connection, and a
# stream thread or a thread about to wait on a model closes its connection (askapp/database.py).
SQLITE_CONN_MAX_AGE = 600
DATABASES["default"]["CONN_MAX_AGE"] = _int("CONN_MAX_AGE", SQLITE_CONN_MAX_AGE)
# PostgreSQL: every process borrows connections from one pool of at most ASKAPP_DB_POOL_SIZE
# (psycopg's pool, through Django), so WEB_CONCURRENCY x ASKAPP_DB_POOL_SIZE bounds what the
# server holds, however many threads and streams it runs, and below max_connections. A
# request that finds the pool empty waits ASKAPP_DB_POOL_TIMEOUT seconds for a connection,
# then gets 503 with Retry-After. The pool keeps connections open, so CONN_MAX_AGE (which
# Django's pool refuses) does not apply; it still applies to SQLite. See docs/adr/0032.
ASKAPP_DB_POOL_SIZE = _int("ASKAPP_DB_POOL_SIZE", 10, minimum=1, maximum=1000)
ASKAPP_DB_POOL_TIMEOUT = _float("ASKAPP_DB_POOL_TIMEOUT", 3.0, minimum=0.01)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": min(2, ASKAPP_DB_POOL_SIZE),
        "max_size": ASKAPP_DB_POOL_SIZE,
        "timeout": ASKAPP_DB_POOL_TIMEOUT,
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Django's ModelBackend, reading a user's INTERNAL clearance in the same query (askapp/auth.py).
AUTHENTICATION_BACKENDS = ["askapp.auth.ClearanceBackend"]

# Request counts live in the cache (askapp/api/throttles.py): Redis when REDIS_URL is set, so
# every server process counts together; the process's own memory otherwise (one process).
REDIS_URL = env.str("REDIS_URL", default="").strip()
if REDIS_URL:
    if urlsplit(REDIS_URL).scheme not in ("redis", "rediss", "unix"):
        raise ImproperlyConfigured(
            f"REDIS_URL must look like redis://host:6379/0 (or rediss://), got {REDIS_URL!r}"
        )
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "askapp",
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# One line per record on stderr, each with the id of the request it was written in (also
# sent as X-Request-ID and shown on error pages): 500s on pages are logged by django.request,
# on the API by its exception handler.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "askapp.requestid.RequestIdFilter"}},
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"}
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id"],
            "formatter": "plain",
        }
    },
    "root": {"handlers": ["console"], "level": _choice("LOG_LEVEL", "info", _LEVELS).upper()},
    # Django's own default handlers print only in DEBUG; its records go to the root instead.
    "loggers": {"django": {"handlers": [], "level": "INFO", "propagate": True}},
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# --- askapp -----------------------------------------------------------------------------
ASKAPP_PROVIDER = _choice("ASKAPP_PROVIDER", "mock", ("mock", "openai"))
ASKAPP_OPENAI_BASE_URL = env.str("ASKAPP_OPENAI_BASE_URL", default="").strip() or None
ASKAPP_OPENAI_API_KEY = env.str("ASKAPP_OPENAI_API_KEY", default="")
ASKAPP_OPENAI_MODEL = env.str("ASKAPP_OPENAI_MODEL", default="gpt-4o-mini").strip()
ASKAPP_OPENAI_TIMEOUT = _float("ASKAPP_OPENAI_TIMEOUT", 30.0, minimum=0.1)
ASKAPP_OPENAI_MAX_RETRIES = _int("ASKAPP_OPENAI_MAX_RETRIES", 2, maximum=10)
# Azure OpenAI's deployment API takes the resource endpoint and an api-version instead of a base
# URL (ASKAPP_OPENAI_MODEL is then the deployment name). Azure's v1 API needs neither: it is an
# ordinary base URL, https://<resource>.openai.azure.com/openai/v1/.
ASKAPP_OPENAI_AZURE_ENDPOINT = env.str("ASKAPP_OPENAI_AZURE_ENDPOINT", default="").strip() or None
ASKAPP_OPENAI_API_VERSION = env.str("ASKAPP_OPENAI_API_VERSION", default="").strip() or None
_http_url("ASKAPP_OPENAI_BASE_URL", ASKAPP_OPENAI_BASE_URL)
_http_url("ASKAPP_OPENAI_AZURE_ENDPOINT", ASKAPP_OPENAI_AZURE_ENDPOINT)
if ASKAPP_OPENAI_API_VERSION and not re.fullmatch(
    r"\d{4}-\d{2}-\d{2}(-preview)?", ASKAPP_OPENAI_API_VERSION
):
    raise ImproperlyConfigured(
        "ASKAPP_OPENAI_API_VERSION must look like 2024-10-21 or 2025-04-01-preview, "
        f"got {ASKAPP_OPENAI_API_VERSION!r}"
    )
if bool(ASKAPP_OPENAI_AZURE_ENDPOINT) != bool(ASKAPP_OPENAI_API_VERSION):
    raise ImproperlyConfigured(
        "ASKAPP_OPENAI_AZURE_ENDPOINT and ASKAPP_OPENAI_API_VERSION must be set together"
    )
if ASKAPP_OPENAI_AZURE_ENDPOINT and ASKAPP_OPENAI_BASE_URL:
    raise ImproperlyConfigured(
        "set ASKAPP_OPENAI_BASE_URL or ASKAPP_OPENAI_AZURE_ENDPOINT, not both"
    )
if ASKAPP_PROVIDER == "openai" and not ASKAPP_OPENAI_API_KEY:
    raise ImproperlyConfigured("ASKAPP_OPENAI_API_KEY must be set when ASKAPP_PROVIDER is openai")
if ASKAPP_PROVIDER == "openai" and not ASKAPP_OPENAI_MODEL:
    raise ImproperlyConfigured("ASKAPP_OPENAI_MODEL must be set when ASKAPP_PROVIDER is openai")

ASKAPP_HISTORY_TURNS = _int("ASKAPP_HISTORY_TURNS", 20, minimum=0, maximum=200)
ASKAPP_ANONYMOUS_CHAT = _bool("ASKAPP_ANONYMOUS_CHAT", False)
ASKAPP_THROTTLE_USER = _rate("ASKAPP_THROTTLE_USER", "120/min")
ASKAPP_THROTTLE_ANON = _rate("ASKAPP_THROTTLE_ANON", "30/min")
# Failed logins allowed per account, and per client address, in the window (site and admin).
ASKAPP_THROTTLE_LOGIN = _rate("ASKAPP_THROTTLE_LOGIN", "10/min")
# How many proxies in front of the server append the client's address to X-Forwarded-For
# (0: the socket's address is the client's, and X-Forwarded-For is ignored).
ASKAPP_TRUSTED_PROXIES = _int("ASKAPP_TRUSTED_PROXIES", 0, maximum=10)
# Seconds of silence after which an answer stream sends a `: keepalive` comment, so proxies and
# browsers keep a slow stream open.
ASKAPP_SSE_KEEPALIVE = _float("ASKAPP_SSE_KEEPALIVE", 15.0, minimum=0.05)
# Requests run Django's sync stack in a pool of this many threads per server process
# (project/handler.py, docs/adr/0032): at most this many requests of a process at once,
# answer streams not counted (their bodies run on the event loop and in stream threads).
ASKAPP_WEB_THREADS = _int("ASKAPP_WEB_THREADS", serve.WEB_THREADS, minimum=1, maximum=256)
# Answer streams run the engine in worker threads (docs/adr/0019, 0032); at most this many at
# once per process. A stream beyond it waits, with keepalives, for a free thread.
ASKAPP_STREAM_THREADS = _int("ASKAPP_STREAM_THREADS", 1024, minimum=1, maximum=4096)
# Of those, how many may run Python at once per process; the others wait (first events
# first) for a slot, and none is held while a stream waits on the model (askapp/lanes.py,
# docs/adr/0045).
ASKAPP_STREAM_RUNNING = _int("ASKAPP_STREAM_RUNNING", 2, minimum=1, maximum=256)
# Seconds a served thread may hold the interpreter lock while another waits (project/asgi.py).
# Python's own 5 ms: 0.5 ms cost /healthz a third of its rate for little gain (docs/adr/0045).
ASKAPP_SWITCH_INTERVAL = _float("ASKAPP_SWITCH_INTERVAL", 0.005, minimum=0.0001)
# On a SQLite file database, an embedded tantivy index ranks passages (docs/adr/0018); the
# database's FTS5 index answers when it is off. Its folder defaults to `<database>.search`.
ASKAPP_SEARCH_ACCELERATOR = _bool("ASKAPP_SEARCH_ACCELERATOR", True)
ASKAPP_SEARCH_INDEX_DIR = env.str("ASKAPP_SEARCH_INDEX_DIR", default="").strip()
# `import_companyfacts --cik` fetches from SEC EDGAR, which requires a User-Agent naming the
# requester and a contact e-mail; the command refuses to fetch without one.
ASKAPP_SEC_USER_AGENT = " ".join(env.str("ASKAPP_SEC_USER_AGENT", default="").split())
if ASKAPP_SEC_USER_AGENT and not re.search(r"\S@\S+\.\S", ASKAPP_SEC_USER_AGENT):
    raise ImproperlyConfigured(
        "ASKAPP_SEC_USER_AGENT must name you and a contact e-mail address, such as "
        f"'Example Corp analyst@example.com', got {ASKAPP_SEC_USER_AGENT!r}"
    )
ASKAPP_SEC_BASE_URL = env.str("ASKAPP_SEC_BASE_URL", default="https://data.sec.gov").strip()
_http_url("ASKAPP_SEC_BASE_URL", ASKAPP_SEC_BASE_URL)

REST_FRAMEWORK = {
    # Token first: its WWW-Authenticate header makes a missing login a 401, not a 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "askapp.api.authentication.TokenAuthentication",
        # An Authorization header no authenticator took is a 401, never a silent anonymous.
        "askapp.api.authentication.UnknownAuthorization",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["askapp.api.permissions.MayChat"],
    "DEFAULT_PARSER_CLASSES": ["askapp.api.parsers.BoundedJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # DRF's, without parsing an absent or catch-all Accept header on every request.
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "askapp.api.negotiation.ContentNegotiation",
    "DEFAULT_THROTTLE_CLASSES": [
        "askapp.api.throttles.UserThrottle",
        "askapp.api.throttles.AnonThrottle",
    ],
    "URL_FORMAT_OVERRIDE": None,
    "DEFAULT_SCHEMA_CLASS": "askapp.api.schema.ApiSchema",
    "EXCEPTION_HANDLER": "askapp.api.errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "askapp API",
    "DESCRIPTION": (
        "Ask plain-language questions of the financial knowledge base. Every figure in an "
        "answer comes from the knowledge base and names its sources; when the knowledge base "
        "does not hold the answer, the answer says so (status not_found) with no figure."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SCHEMA_PATH_PREFIX": "/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "askapp.api.schema.forbid_conversation_with_history",
    ],
    "ENUM_NAME_OVERRIDES": {
        "TurnStatusEnum": "askapp.models.conversations.Turn.Status",
        "FeedbackValueEnum": "askapp.models.conversations.Feedback.Value",
    },
}
