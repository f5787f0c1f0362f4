"""Settings, read from the environment (django-environ).

``DEBUG`` is off unless the environment turns it on (``make run`` does); with it off,
``SECRET_KEY`` and ``AUDIT_KEY`` must be set. The other variables have a safe local default
so ``make run`` works with nothing else set: SQLite in the project folder and Celery tasks
run eagerly. Set ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` (Celery broker and result
backend) for the real thing. ``casino/settings_test.py`` is what the test suite uses.
"""

import math
import os
import re
from datetime import timedelta
from pathlib import Path

import environ
from celery.schedules import crontab
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()

DEBUG = env.bool("DEBUG", default=False)


def _secret(name: str, local_default: str) -> str:
    """A secret from the environment; only a local run (``DEBUG`` on) may go without."""
    value = env.str(name, default="")
    if value:
        return value
    if not DEBUG:
        raise RuntimeError(f"{name} must be set when DEBUG is off")
    return local_default


SECRET_KEY = _secret("SECRET_KEY", "local-development-only-not-secret")
# The key every audit entry is sealed with (HMAC-SHA256). Keep it out of the database: whoever
# holds it can re-seal the audit chain.
AUDIT_KEY = _secret("AUDIT_KEY", "local-development-only-audit-key")


def check_currency(code: object, exponent: object) -> tuple[str, int]:
    """The currency amounts are shown in: ``code`` an ISO 4217 code (three capital letters),
    ``exponent`` its minor-unit digits (0-4: 2 for USD cents, 0 for JPY, 3 for KWD).
    ImproperlyConfigured names the variable and the value otherwise."""
    if not isinstance(code, str) or not re.fullmatch(r"[A-Z]{3}", code):
        raise ImproperlyConfigured(
            f"CURRENCY must be an ISO 4217 currency code of three capital letters, such as "
            f"USD or EUR: {code!r}"
        )
    if isinstance(exponent, bool) or not isinstance(exponent, int) or not 0 <= exponent <= 4:
        raise ImproperlyConfigured(
            "CURRENCY_EXPONENT must be a whole number from 0 to 4, the currency's minor-unit "
            f"digits (2 for cents, 0 for a currency without minor units): {exponent!r}"
        )
    return code, exponent


def currency_from_environment() -> tuple[str, int]:
    """``CURRENCY`` (default USD) and ``CURRENCY_EXPONENT`` (default 2), checked."""
    code = env.str("CURRENCY", default="USD")
    try:
        exponent: object = env.int("CURRENCY_EXPONENT", default=2)
    except ValueError:
        exponent = env.str("CURRENCY_EXPONENT")
    return check_currency(code, exponent)


# Money is stored in integer minor units everywhere; these say how the tablet shows it
# (``CURRENCY_EXPONENT`` 2: 12345 is 123.45).
CURRENCY, CURRENCY_EXPONENT = currency_from_environment()

# The tax and cash-reporting prompts a large payout cannot pass without, in minor units
# (docs/signoff.md names each default's source; the sign-off tiers themselves are data, set
# per table, game or house on the sign-off limits page): a W-2G for a line winning at least
# PAYOUT_W2G_MIN and PAYOUT_W2G_MULTIPLE times its wager ($600 and 300x), an MTL entry for a
# win above PAYOUT_MTL_ABOVE ($3,000), a CTR for a patron's gaming day above
# PAYOUT_CTR_ABOVE ($10,000).
_MAJOR = 10**CURRENCY_EXPONENT
PAYOUT_W2G_MIN = env.int("PAYOUT_W2G_MIN", default=600 * _MAJOR)
PAYOUT_W2G_MULTIPLE = env.int("PAYOUT_W2G_MULTIPLE", default=300)
PAYOUT_MTL_ABOVE = env.int("PAYOUT_MTL_ABOVE", default=3_000 * _MAJOR)
PAYOUT_CTR_ABOVE = env.int("PAYOUT_CTR_ABOVE", default=10_000 * _MAJOR)

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "csp",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "pgtrigger",  # its first migrations refer to it; the append-only triggers are our own SQL
    "casino.core",
    "tables",
    "payouts",
    "approvals",
    "filings",
    "custody",
    "tablet",
    "desk",
    "hold",
    "reports",
    "django_htmx",
]

MIDDLEWARE = [
    # First: every error under /api/ (Django's own included) in the JSON error body.
    "casino.core.middleware.JSONErrorsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "casino.urls"
WSGI_APPLICATION = "casino.wsgi.application"

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
                "desk.context.desks",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# Persistent connections: each worker thread keeps its connection this many seconds (0: a new
# one per request, which costs a settle about 40% of its throughput), checked before reuse.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"].get("ENGINE") == "django.db.backends.postgresql":
    # The same backend with a health check that sends nothing to the server (no SELECT 1 per
    # request): a connection the server ended (a restart) is closed and reopened before the
    # request uses it. casino/core/postgresql/base.py says how.
    DATABASES["default"]["ENGINE"] = "casino.core.postgresql"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "en"
# The dealer tablet's languages: English and the languages of the games' original rule texts.
LANGUAGES = [
    ("en", "English"),
    ("is", "Icelandic"),
    ("hy", "Armenian"),
    ("af", "Afrikaans"),
    ("hu", "Hungarian"),
    ("el", "Greek"),
]
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
# A gaming day (a shift's reports, the pit's "today") starts at this local time, HH:MM.
GAMING_DAY_START = env.str("GAMING_DAY_START", default="06:00")
# The theoretical-hold simulations and the hold flags (hold/services.py has each default;
# only what the environment sets is given here). HOLD_FLAG_MIN_DROP is HOLD_FLAG_MIN_HANDLE's
# deprecated name, read only when the new one is not set.
for _name in (
    "HOLD_THEORY_HANDS",
    "HOLD_THEORY_INLINE_HANDS",
    "HOLD_THEORY_SEED",
    "HOLD_FLAG_MIN_HANDS",
    "HOLD_FLAG_MIN_HANDLE",
    "HOLD_FLAG_MIN_DROP",
):
    if _name in os.environ:
        globals()[_name] = env.int(_name)

# The property this installation runs: its chip set (custody), and the series its fill and
# credit slips are numbered in (per property, kind and calendar year).
CASINO_PROPERTY = env.str("CASINO_PROPERTY", default="Main floor")
USE_I18N = True
# The rules engines' explanations and errors (casino/rules writes them as message ids): the
# "django" catalogs in casino/locale, made with ``cd casino/rules && ../../manage.py
# makemessages -l <code>`` (only casino/rules is scanned) and compiled with the tablet's.
LOCALE_PATHS = [BASE_DIR / "casino" / "locale"]
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")
# WhiteNoise serves the static files from STATIC_ROOT (after ``collectstatic``) with DEBUG off;
# in production each name carries its content's hash (far-future caching). A local run and
# the tests serve them from the apps, as they are.
STATIC_MANIFEST = env.bool("STATIC_MANIFEST", default=not DEBUG)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if STATIC_MANIFEST
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = not STATIC_MANIFEST  # without collectstatic, from the apps
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"

# The largest request body read, in bytes (256 KiB; a hand record is a few KiB). The API's
# parser refuses a bigger body with a 400 naming this limit, without reading the rest.
DATA_UPLOAD_MAX_MEMORY_SIZE = 262_144

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "casino.core.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Login attempts (casino/core/accounts.py); "5/min" = 5 a minute (s, min, hour, day).
    "DEFAULT_THROTTLE_RATES": {
        "login_user": env.str("LOGIN_RATE_USER", default="5/min"),
        "login_ip": env.str("LOGIN_RATE_IP", default="30/min"),
    },
    # Proxies in front of the server: the client address is taken from X-Forwarded-For only
    # behind that many of them (0: REMOTE_ADDR; a client cannot pick its own address).
    "NUM_PROXIES": env.int("NUM_PROXIES", default=0),
    "DEFAULT_PERMISSION_CLASSES": ["casino.core.roles.RolePermission"],
    "DEFAULT_SCHEMA_CLASS": "casino.core.schema.CasinoAutoSchema",
    "EXCEPTION_HANDLER": "casino.core.errors.exception_handler",
    # JSON only, bounded: body size, nesting depth, numbers, text (casino/core/parsers.py).
    "DEFAULT_PARSER_CLASSES": ["casino.core.parsers.BoundedJSONParser"],
    # An Accept header naming nothing we render still gets JSON, not a 406.
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "casino.core.negotiation.JSONFallbackNegotiation",
    # ?limit= (50 unless given, at most 200) and a bounded ?offset= (casino/core/pagination.py).
    "DEFAULT_PAGINATION_CLASS": "casino.core.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 50,
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Casino table games API",
    "DESCRIPTION": "Dealer-assist, settlement, approvals and audit for casino table games. "
    "Every table is run through one contract whatever its game: the game's state between hands "
    "at /api/v1/tables/{id}/game/, hands opened, played action by action and settled; each "
    "game's bodies are documented below from the game registry. The rules each game enforces "
    "are written down in the repository, one numbered clause per rule, in "
    "`docs/rules/{code}.md`, the code being the game's (GET /api/v1/games/ gives each "
    "game's rules_doc).",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and ReDoc from this server (drf-spectacular-sidecar): the LAN has no internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Each registered game's bodies (limits, rules, opening, actions, record) from the registry.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "casino.core.game_schema.add_games",
    ],
    "ENUM_NAME_OVERRIDES": {
        "TableStatusEnum": "tables.models.Table.Status",
        "HandStatusEnum": "tables.models.Hand.Status",
        "ApprovalStatusEnum": "approvals.models.Approval.Status",
        "AuditCheckStatusEnum": "payouts.serializers.AUDIT_CHECK_STATUSES",
    },
}

# Celery: a real broker when REDIS_URL is set, otherwise tasks run eagerly in-process.
REDIS_URL = env.str("REDIS_URL", default="")
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
# The queue tasks go to and workers take from: deployments sharing one Redis name their own.
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="celery")
# A process reserves one task at a time: an audit check's chunks run for seconds to minutes,
# and one reserved behind another would wait while a sibling process sat idle.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_TIME_LIMIT = 600
CELERY_TASK_SOFT_TIME_LIMIT = 540
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE  # beat runs the nightly jobs at the casino's local time

# Audit checkpoints (payouts/checkpoints.py, docs/audit-verify.md): every
# AUDIT_ANCHOR_INTERVAL seconds Celery beat signs a statement of every chain's head and the
# settlements' Merkle root with the Ed25519 key in AUDIT_SIGNING_KEY_FILE (a PEM file kept
# outside the database; `manage.py audit_keygen` makes one), stores it, appends it to
# AUDIT_ANCHOR_FILE (put it on append-only storage) and logs it to "casino.audit.anchor".
AUDIT_ANCHOR_FILE = env.str("AUDIT_ANCHOR_FILE", default=str(BASE_DIR / "audit-anchors.jsonl"))
AUDIT_ANCHOR_INTERVAL = env.int("AUDIT_ANCHOR_INTERVAL", default=300)
if AUDIT_ANCHOR_INTERVAL < 1:
    raise RuntimeError("AUDIT_ANCHOR_INTERVAL must be at least 1 (seconds)")
AUDIT_SIGNING_KEY_FILE = env.str("AUDIT_SIGNING_KEY_FILE", default="") or (
    str(BASE_DIR / "audit-signing-key.pem") if DEBUG else ""
)
if not AUDIT_SIGNING_KEY_FILE:
    raise RuntimeError(
        "AUDIT_SIGNING_KEY_FILE must be set when DEBUG is off: the Ed25519 key audit "
        "checkpoints are signed with (manage.py audit_keygen PATH makes one)"
    )
# A local run makes its own signing key on first use; anywhere else a missing key is an error.
AUDIT_SIGNING_KEY_AUTOCREATE = env.bool("AUDIT_SIGNING_KEY_AUTOCREATE", default=DEBUG)


def _schedule(name: str, default: str) -> float | crontab:
    """A beat schedule from the environment: seconds (``3600``), or a crontab line of five
    fields, minute hour day-of-month month day-of-week (``30 8 * * mon``), local time."""
    text = env.str(name, default=default).strip()
    if re.fullmatch(r"[0-9]+(\.[0-9]+)?", text):
        if float(text) <= 0:
            raise RuntimeError(f"{name} must be a positive number of seconds: {text!r}")
        return float(text)
    fields = text.split()
    if len(fields) != 5:
        raise RuntimeError(
            f"{name} must be seconds or five crontab fields (minute hour day month weekday): "
            f"{text!r}"
        )
    minute, hour, day, month, weekday = fields
    try:
        return crontab(
            minute=minute, hour=hour, day_of_month=day, month_of_year=month, day_of_week=weekday
        )
    except ValueError as exc:
        raise RuntimeError(f"{name} is not a crontab line: {text!r} ({exc})") from None


_day_hour, _day_minute = int(GAMING_DAY_START[:2]), int(GAMING_DAY_START[3:5])
CELERY_BEAT_SCHEDULE = {
    "audit-anchor": {"task": "payouts.audit_anchor", "schedule": float(AUDIT_ANCHOR_INTERVAL)},
    # An incremental audit check (what was written since the last passed one) every hour ...
    "audit-check": {
        "task": "payouts.audit_check_scheduled",
        "schedule": _schedule("AUDIT_CHECK_SCHEDULE", "3600"),
        "kwargs": {"full": False},
    },
    # ... and a full one each week, on Monday two hours into the gaming day (the quiet hours).
    "audit-full-check": {
        "task": "payouts.audit_check_scheduled",
        "schedule": _schedule(
            "AUDIT_FULL_CHECK_SCHEDULE", f"{_day_minute} {(_day_hour + 2) % 24} * * mon"
        ),
        "kwargs": {"full": True},
    },
    # Each night, an hour after the gaming day ends: flag the tables whose hold strayed.
    "hold-flag-tables": {
        "task": "hold.flag_tables",
        "schedule": _schedule("HOLD_FLAG_SCHEDULE", f"{_day_minute} {(_day_hour + 1) % 24} * * *"),
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
}

# ---- Accounts and security
# Token login, login throttling, demo users: casino/core/accounts.py. Every setting below can
# be set from the environment; the defaults are the secure ones when DEBUG is off and relaxed
# for a local run (DEBUG on). README "Accounts and security" lists a production environment
# with which `manage.py check --deploy` is clean.
_secure = not DEBUG

AUTHENTICATION_BACKENDS = ["casino.core.accounts.DemoAwareBackend"]

# django-rest-knox: one token per login (only its hash is stored), expiring after one shift.
TOKEN_TTL_HOURS = env.int("TOKEN_TTL_HOURS", default=10)
if TOKEN_TTL_HOURS < 1:
    raise RuntimeError("TOKEN_TTL_HOURS must be at least 1")
# Token authentication caches each token with its user and roles in the server process for
# at most this many seconds (0: no cache, two queries a request). A logout, or a user or role
# changed, through the same process takes effect at once; anything done elsewhere (another
# server process, a command, SQL) within this bound. casino/core/authentication.py.
_auth_cache = env.str("AUTH_CACHE_SECONDS", default="10")
try:
    AUTH_CACHE_SECONDS = float(_auth_cache)
except ValueError:
    AUTH_CACHE_SECONDS = math.nan
if not 0 <= AUTH_CACHE_SECONDS <= 3600:  # NaN too
    raise RuntimeError(
        f"AUTH_CACHE_SECONDS must be a number of seconds from 0 (no cache) to 3600: {_auth_cache!r}"
    )
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=TOKEN_TTL_HOURS),
    "AUTO_REFRESH": False,
    "AUTH_HEADER_PREFIX": "Token",
}

for _variable, _scope in [("LOGIN_RATE_USER", "login_user"), ("LOGIN_RATE_IP", "login_ip")]:
    _rate = REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"][_scope]
    if not re.fullmatch(r"[0-9]+/(s|sec|m|min|h|hour|d|day)", _rate):
        raise RuntimeError(f"{_variable} must look like 5/min (per s, min, hour or day): {_rate!r}")

# The login throttles count in this cache. Local memory is per process: with several server
# processes use Redis (e.g. redis://127.0.0.1:6379/1) so that the limits hold across them.
CACHES = {"default": env.cache("CACHE_URL", default="locmemcache://")}

SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=_secure)
SECURE_REDIRECT_EXEMPT = [r"^health/$"]  # a load balancer's plain-http health check
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31_536_000 if _secure else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=_secure)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=_secure)
# Behind a TLS-terminating proxy, e.g. HTTP_X_FORWARDED_PROTO,https (the proxy must set it).
SECURE_PROXY_SSL_HEADER = env.tuple("SECURE_PROXY_SSL_HEADER", default=None)
if SECURE_PROXY_SSL_HEADER is not None and len(SECURE_PROXY_SSL_HEADER) != 2:
    raise RuntimeError("SECURE_PROXY_SSL_HEADER must be a header and a value: HTTP_X_...,https")
SECURE_REFERRER_POLICY = env.str("SECURE_REFERRER_POLICY", default="same-origin")
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=_secure)
SESSION_COOKIE_AGE = env.int("SESSION_COOKIE_AGE", default=TOKEN_TTL_HOURS * 3600)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=_secure)
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# django-csp: everything from this server only (the floor's LAN has no internet). The pages'
# one <style> block carries the request's nonce.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "style-src": [SELF, NONCE],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
