"""Settings, every knob read from the environment with a default that makes `make run` work.

A bad value fails at start-up, not at the first request.
"""

import ipaddress
import logging
import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue

from config import keyring
from config.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str) -> bool:
    value = os.getenv(name, default).strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off", ""):
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (true/false), not {value!r}")


def envint(name: str, default: str) -> int:
    value = os.getenv(name, default)
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {value!r}") from None


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.getenv(name, default).split(",") if item.strip()]


def envnetworks(name: str, default: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    try:
        return [ipaddress.ip_network(item, strict=False) for item in envlist(name, default)]
    except ValueError as error:
        raise ImproperlyConfigured(f"{name} must be addresses or networks (10.0.0.5, 10.0.0.0/24): {error}") from None


DEBUG = envbool("DEBUG", "true")
SECRET_KEY = os.getenv("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "insecure-development-key-set-SECRET_KEY-in-production"
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")


def envurl(name: str, default: str) -> str:
    """An absolute http(s) address without a trailing slash."""
    value = os.getenv(name, default).strip().rstrip("/")
    parsed = urlsplit(value)
    if parsed.scheme not in ("http", "https") or not parsed.netloc or parsed.query or parsed.fragment:
        raise ImproperlyConfigured(
            f"{name} must be an absolute http(s) address such as https://logbook.example, not {value!r}"
        )
    return value


# Where the staff's tablets reach this site: the tables' QR labels open {SITE_URL}/tables/<id>/.
SITE_URL = envurl("SITE_URL", "http://127.0.0.1:8000")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "django_htmx",
    "csp",
    "axes",
    "compliance.casinos",
    "compliance.accounts",
    "compliance.approvals",
    "inspections.logbook",
    "inspections.flags",
    "inspections.reports",
]

MIDDLEWARE = [
    "config.middleware.RequestLogMiddleware",
    # Outside the rest, so that it sees the final response of every signed-in request.
    "config.middleware.NoStoreMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "config.middleware.SessionIdleMiddleware",
    # The browser's language (Accept-Language), then English; the signed-in person's own choice
    # overrides it once they are known (PreferredLanguageMiddleware). No language in the URLs.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.middleware.PreferredLanguageMiddleware",
    # After authentication and CSRF: an API write's Idempotency-Key is kept per person.
    "compliance.accounts.middleware.IdempotencyKeyMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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
            # Every date and time a person reads, in the one format (|local:property): no template loads it.
            # A citation in the reader's language (|cited): a product policy's words translated.
            "builtins": ["compliance.casinos.templatetags.moments", "compliance.casinos.templatetags.citations"],
        },
    },
]

# SQLite by default (make run); PostgreSQL in production and CI through DATABASE_URL.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=envint("DB_CONN_MAX_AGE", "0"),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE takes the write lock at BEGIN: SQLite's stand-in for the row locks the services
    # take on PostgreSQL, so two writers queue instead of failing with "database is locked".
    DATABASES["default"]["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}
    DATABASES["default"]["TEST"] = {"NAME": os.getenv("SQLITE_TEST_NAME", "")}

AUTH_USER_MODEL = "accounts.User"
# The logbook's table index carries property_id as a non-key column for PostgreSQL's index-only
# count; SQLite (make run's default) ignores it, as intended: no need to warn at every command.
# axes.W002 asks for axes' middleware, which this project does without (see Lockout below).
SILENCED_SYSTEM_CHECKS = ["models.W040", "axes.W002"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# Argon2 for new and changed passwords; older hashes still verify, and are upgraded at sign-in.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
# NIST SP 800-63B (§ 3.1.1.2) for a password that is the only factor: at least 15 characters; any
# length up to 64 and well beyond accepted (up to 1,024: beyond, hashing it is a way to burn the
# server's CPU, refused wherever a password is typed), spaces and any Unicode too; no
# composition rules (so no "not entirely numeric" rule); refused when it is a commonly used password
# or too close to the person's own name. Enforced wherever a password is set: the people API, the
# admin, `createsuperuser --noinput` (compliance.accounts.models) and the demo's DEMO_PASSWORD (seed_demo).
PASSWORD_MIN_LENGTH = 15
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": PASSWORD_MIN_LENGTH},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    # At most 1,024 characters (config.validators.PASSWORD_MAX_LENGTH), as everywhere one is typed.
    {"NAME": "config.validators.PasswordMaximumLength"},
]
LOGIN_URL = "/login/"

# ---- Lockout (django-axes) ----
# After LOCKOUT_FAILURES wrong passwords for one username from one address, that username is locked
# there for LOCKOUT_MINUTES: at the sign-in page, the API's token endpoint and every signature
# (compliance.accounts.auth). The name and the address together: by address alone, one guesser would lock
# out every tablet behind a casino's shared address; by name alone, anyone anywhere could lock a
# person out of signing.
# The lockout first (a locked name is refused before any password is checked, local or the directory's),
# then local accounts, then the casino's directory when one is configured (the LDAP block below).
AUTHENTICATION_BACKENDS = [
    "compliance.accounts.auth.LockoutBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = envint("LOCKOUT_FAILURES", "5")
# A signature's own count (compliance.accounts.signatures), apart from sign-in's: the same limit and
# cool-off by default, so that a witness's wrong passwords never lock their signing in.
SIGNATURE_LOCKOUT_FAILURES = envint("SIGNATURE_LOCKOUT_FAILURES", str(AXES_FAILURE_LIMIT))
AXES_COOLOFF_TIME = timedelta(minutes=envint("LOCKOUT_MINUTES", "15"))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "config.network.client_ip"
# Each entry point answers a lockout itself (the sign-in page, the token endpoint, the signature's
# refusal that keeps the form), so axes' middleware, which replaces whole responses, is not used.
# An administrator lifts a lock in the admin (Access attempts) or with `manage.py axes_reset_username`.

# ---- The casino's directory (LDAP, django-auth-ldap) ----
# Off unless LDAP_SERVER_URI is set: `make run` and the demo use local accounts only.
# docs/configuration.md, "The casino's directory", says how a casino connects its own. A group DN setting is `key=DN` pairs
# separated by `;` (a DN has commas): LDAP_ROLE_GROUPS by role (the first matching wins),
# LDAP_PROPERTY_GROUPS by the property's licence number.


def envgroups(name: str) -> dict[str, str]:
    pairs = [item.strip() for item in os.getenv(name, "").split(";") if item.strip()]
    if any("=" not in pair for pair in pairs):
        raise ImproperlyConfigured(f"{name} must be key=DN pairs separated by ';', not {os.getenv(name)!r}")
    return {key.strip(): dn.strip() for key, dn in (pair.split("=", 1) for pair in pairs)}


AUTH_LDAP_SERVER_URI = os.getenv("LDAP_SERVER_URI", "").strip()
AUTH_LDAP_START_TLS = envbool("LDAP_START_TLS", "false")
LDAP_CA_FILE = os.getenv("LDAP_CA_FILE", "")
AUTH_LDAP_BIND_DN = os.getenv("LDAP_BIND_DN", "")
AUTH_LDAP_BIND_PASSWORD = os.getenv("LDAP_BIND_PASSWORD", "")
LDAP_ROLE_GROUPS = envgroups("LDAP_ROLE_GROUPS")
LDAP_PROPERTY_GROUPS = envgroups("LDAP_PROPERTY_GROUPS")
LDAP_CREDENTIAL_ATTRIBUTE = os.getenv("LDAP_CREDENTIAL_ATTRIBUTE", "")
LDAP_NAME_ATTRIBUTE = os.getenv("LDAP_NAME_ATTRIBUTE", "cn")
# A regulator from the directory (LDAP_ROLE_GROUPS' `regulator`) is of this jurisdiction.
LDAP_REGULATOR_JURISDICTION = os.getenv("LDAP_REGULATOR_JURISDICTION", "PA")
if AUTH_LDAP_SERVER_URI:
    try:
        import ldap
        from django_auth_ldap.config import GroupOfNamesType, LDAPSearch, NestedActiveDirectoryGroupType
    except ImportError as missing:
        raise ImproperlyConfigured(
            "LDAP_SERVER_URI is set but the directory's libraries are not installed: "
            "apt-get install libldap2-dev libsasl2-dev, then pip install -r requirements-directory.txt "
            f"({missing})"
        ) from missing
    AUTHENTICATION_BACKENDS.append("compliance.accounts.directory_backend.DirectoryBackend")

    if not os.getenv("LDAP_USER_SEARCH_BASE") or not os.getenv("LDAP_GROUP_SEARCH_BASE") or not LDAP_ROLE_GROUPS:
        raise ImproperlyConfigured(
            "LDAP_SERVER_URI needs LDAP_USER_SEARCH_BASE, LDAP_GROUP_SEARCH_BASE and LDAP_ROLE_GROUPS"
        )
    AUTH_LDAP_USER_SEARCH = LDAPSearch(
        os.environ["LDAP_USER_SEARCH_BASE"], ldap.SCOPE_SUBTREE, os.getenv("LDAP_USER_FILTER", "(uid=%(user)s)")
    )
    AUTH_LDAP_GROUP_SEARCH = LDAPSearch(
        os.environ["LDAP_GROUP_SEARCH_BASE"], ldap.SCOPE_SUBTREE, os.getenv("LDAP_GROUP_FILTER", "(objectClass=*)")
    )
    AUTH_LDAP_GROUP_TYPE = (
        NestedActiveDirectoryGroupType()
        if os.getenv("LDAP_GROUP_TYPE", "groupOfNames") == "activeDirectory"
        else GroupOfNamesType()
    )
    # A directory that does not answer is a refusal within seconds, not a hung sign-in page. The
    # directory's certificate is always checked (LDAPS, StartTLS), against LDAP_CA_FILE if given, else
    # the system's CAs; NEWCTX last makes the connection's own TLS context of the options before it.
    AUTH_LDAP_CONNECTION_OPTIONS = {
        ldap.OPT_NETWORK_TIMEOUT: envint("LDAP_TIMEOUT_SECONDS", "5"),
        ldap.OPT_TIMEOUT: envint("LDAP_TIMEOUT_SECONDS", "5"),
        ldap.OPT_REFERRALS: 0,
        ldap.OPT_X_TLS_REQUIRE_CERT: ldap.OPT_X_TLS_DEMAND,
        **({ldap.OPT_X_TLS_CACERTFILE: LDAP_CA_FILE} if LDAP_CA_FILE else {}),
        ldap.OPT_X_TLS_NEWCTX: 0,
    }
    AUTH_LDAP_USER_ATTR_MAP = {"first_name": "givenName", "last_name": "sn", "email": "mail"}
    AUTH_LDAP_ALWAYS_UPDATE_USER = True
# ---- end of the directory ----

# ---- Sessions and HTTPS ----
# A session ends after SESSION_IDLE_MINUTES without a request: config.middleware moves its expiry
# on at most once a minute (rather than writing the session at every request).
SESSION_COOKIE_AGE = envint("SESSION_IDLE_MINUTES", "30") * 60
SESSION_EXPIRE_AT_BROWSER_CLOSE = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if not DEBUG:
    # Production: cookies only over HTTPS, every request redirected to HTTPS, and browsers told to
    # come back over HTTPS only for a year (HSTS).
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", "true")
    SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", "31536000")
    SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", "true")
    SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", "true")
BEHIND_TLS_PROXY = envbool("BEHIND_TLS_PROXY", "false")


# The addresses our own proxies connect from. X-Forwarded-For is believed only on a connection from
# one of them (config.network.client_ip), so a client that reaches gunicorn directly cannot choose
# the address its failed passwords and throttles are counted against.
TRUSTED_PROXIES = envnetworks("TRUSTED_PROXIES", "")
if BEHIND_TLS_PROXY and not TRUSTED_PROXIES:
    # Otherwise every person would be counted as the proxy's one address (one throttle for all).
    raise ImproperlyConfigured("BEHIND_TLS_PROXY needs TRUSTED_PROXIES: the addresses the proxy connects from")
if BEHIND_TLS_PROXY:
    # Behind a proxy that ends TLS and says so in X-Forwarded-Proto (and strips it from clients).
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Content Security Policy: every page's script and style are our own files; nothing inline.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/login/"

# The staff's languages (docs/guide.md, "Languages"): a person's own choice (accounts.User.language), else
# their browser's, else English. The catalogue is locale/es/LC_MESSAGES/django.po, its compiled .mo
# committed beside it (make messages refreshes both).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"  # stored in UTC; shown in each property's own time zone
USE_I18N = True
USE_TZ = True
# Django's own rendering of dates and times in the logbook's one format, in every language (a person
# reads them through compliance.casinos.clock and the `local` filter; this covers the admin's own).
FORMAT_MODULE_PATH = ["config.formats"]

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# Generated reports (never served as static files: downloads go through a view that checks and
# logs them). With several machines, a shared directory.
MEDIA_ROOT = Path(os.getenv("MEDIA_ROOT", str(BASE_DIR / "var" / "media")))
# Reports are rendered in pieces of at most this many rows, by this many processes at once
# (render_report's pool; a Celery worker's --concurrency, which should match it). A report shorter
# than REPORT_PROCESSES full pieces is still cut into one piece a process, each of at least
# REPORT_PIECE_MIN_ROWS rows (0: never), so that a week's register is laid out by both processes.
# A piece is the unit of the report's progress: 200 register rows take about 2 s to lay out on an
# idle core, 6-7 s at a load of 6 on 2 cores (400 took twice that; bench/README.md, goal 5).
REPORT_CHUNK_ROWS = envint("REPORT_CHUNK_ROWS", "200")
REPORT_PROCESSES = envint("REPORT_PROCESSES", str(os.cpu_count() or 2))
REPORT_PIECE_MIN_ROWS = envint("REPORT_PIECE_MIN_ROWS", "100")
# Product policy: how many reports one person, and one property, may have queued or running at once
# (beyond them HTTP 429), and the longest period one report covers, in days (beyond it HTTP 400).
REPORT_MAX_PENDING_PER_PERSON = envint("REPORT_MAX_PENDING_PER_PERSON", "3")
REPORT_MAX_PENDING_PER_PROPERTY = envint("REPORT_MAX_PENDING_PER_PROPERTY", "10")
REPORT_MAX_DAYS = envint("REPORT_MAX_DAYS", "366")
# Product policy (compliance/rulebook/labels.py): the tables' QR label sheet is rendered by the
# reports' workers, never in a web request; one sheet holds at most LABELS_PER_SHEET labels (a
# larger property prints by pages), and one person has at most LABELS_MAX_PENDING_PER_PERSON sheets
# waiting or being rendered at once.
LABELS_PER_SHEET = envint("LABELS_PER_SHEET", "100")
LABELS_MAX_PENDING_PER_PERSON = envint("LABELS_MAX_PENDING_PER_PERSON", "2")
# Product policy: the largest artwork file a layout is submitted with, in bytes (kept under
# MEDIA_ROOT/layouts/, served only through the layout's own page to those who may see the layout).
LAYOUT_ARTWORK_MAX_BYTES = envint("LAYOUT_ARTWORK_MAX_BYTES", str(10 * 1024 * 1024))
# Product policy (compliance/rulebook/artwork.py): an artwork picture's pixels, read from its header
# (the reports worker draws it: 100 megapixels cost it 750 MB); what a property keeps of artwork, each
# file once by its SHA-256; and the days a rejected layout's artwork is kept after the rejection
# (beat removes it daily, manage.py purge_rejected_artwork at once; the layout keeps its hash).
LAYOUT_ARTWORK_MAX_PIXELS = envint("LAYOUT_ARTWORK_MAX_PIXELS", str(25_000_000))
LAYOUT_ARTWORK_QUOTA_BYTES = envint("LAYOUT_ARTWORK_QUOTA_BYTES", str(500 * 1024 * 1024))
LAYOUT_ARTWORK_REJECTED_RETENTION_DAYS = envint("LAYOUT_ARTWORK_REJECTED_RETENTION_DAYS", "365")
# Product policy (compliance/rulebook/photos.py): the photos attached to an entry, each at most
# PHOTO_MAX_BYTES and PHOTO_MAX_PIXELS (width times height: no decompression bomb is decoded), at most
# PHOTO_MAX_COUNT to an entry; shown as a copy at most PHOTO_DISPLAY_SIDE pixels a side. Kept through
# the default storage (MEDIA_ROOT/photos/, or an S3-compatible store by STORAGES, django-storages).
PHOTO_MAX_BYTES = envint("PHOTO_MAX_BYTES", str(15 * 1024 * 1024))
PHOTO_MAX_PIXELS = envint("PHOTO_MAX_PIXELS", str(50_000_000))
PHOTO_MAX_COUNT = envint("PHOTO_MAX_COUNT", "6")
PHOTO_DISPLAY_SIDE = envint("PHOTO_DISPLAY_SIDE", "1600")
# Product policy (compliance/rulebook/photos.py): what a property keeps of photos, each file once by
# its SHA-256 (photos are part of signed entries: never removed, so the bound is on what comes in).
PHOTO_QUOTA_BYTES = envint("PHOTO_QUOTA_BYTES", str(20 * 1024 * 1024 * 1024))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# The cache lives in the database, shared by every web process: the request path never depends on
# Redis. Its table is made by a migration (accounts 0002). The throttles keep their counts in a table
# of their own, a row locked and written a request (compliance.accounts.throttles), not in this cache.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "logbook_cache"}}

# The largest API request body (413 beyond it) and how deep its JSON may nest (400 beyond it): the
# largest honest request, an amendment's 20,000-character correction, fits many times over.
API_MAX_BODY_BYTES = envint("API_MAX_BODY_BYTES", str(256 * 1024))
API_MAX_JSON_DEPTH = envint("API_MAX_JSON_DEPTH", "32")
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "compliance.accounts.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "config.api.pagination.PageNumberPagination",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.api.errors.exception_handler",
    # DRF's parsers with a bound on the body's size and JSON's nesting (API_MAX_BODY_BYTES, below).
    "DEFAULT_PARSER_CLASSES": [
        "config.api.parsers.JSONParser",
        "config.api.parsers.FormParser",
        "config.api.parsers.MultiPartParser",
    ],
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # Per person when signed in, per address otherwise, and the token endpoint on its own: counted in
    # the database (compliance.accounts.throttles), so no request waits on Redis.
    # An address is the client's as our proxy appended it, never what a client says it is: the
    # project's throttles count by config.network.client_ip (TRUSTED_PROXIES), not DRF's NUM_PROXIES.
    "DEFAULT_THROTTLE_CLASSES": [
        "compliance.accounts.throttles.AnonRateThrottle",
        "compliance.accounts.throttles.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.getenv("API_THROTTLE_ANON", "60/minute"),
        "user": os.getenv("API_THROTTLE_USER", "600/minute"),
        "token": os.getenv("API_THROTTLE_TOKEN", "20/minute"),
        # The sign-in page (compliance.accounts.auth), per address: a shift change behind one address fits.
        "login": os.getenv("SIGN_IN_THROTTLE", "60/minute"),
    },
}
# A field's refusal names its citation, and a field refused twice for one cause says so once: the
# product's policy on typed text, kept by the rulebook (config.api.errors reads it by name: the API's
# kernel imports no app).
API_ERROR_CITATION = "compliance.rulebook.text.citation_of"
API_ERROR_SAME_CAUSE = "compliance.rulebook.text.SAME_CAUSE"
# API tokens (django-rest-knox): kept as a SHA-512 hash, never the token itself; each expires after
# API_TOKEN_HOURS (a shift and a half by default), and all of a person's are revoked when their
# password changes (compliance.accounts.auth). `Authorization: Token <token>`, as before.
API_TOKEN_HOURS = envint("API_TOKEN_HOURS", "12")
if API_TOKEN_HOURS < 1:
    raise ImproperlyConfigured("API_TOKEN_HOURS must be at least 1: API tokens always expire")
REST_KNOX = {"TOKEN_TTL": timedelta(hours=API_TOKEN_HOURS), "AUTO_REFRESH": False}
SPECTACULAR_SETTINGS = {
    "TITLE": "Roulette compliance logbook API",
    "DESCRIPTION": (
        "The § 617a.2 inspection logbook (58 Pa. Code § 617a.2) and the approvals around it. "
        'Every refusal is HTTP 400 with `{"errors": [{code, message, citation, field}]}`.'
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI served from our own static files: casino networks are often closed.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "EntryKindEnum": "inspections.logbook.models.EntryKind",
        "AdjustmentKindEnum": ["adjustment", "replacement"],
        # A table's game (three) and a wheel's (the two played on a wheel): two sets, two names.
        "GameEnum": "compliance.casinos.models.Game",
        "WheelGameEnum": ["roulette", "big_six"],
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "compliance.accounts.middleware.schema_idempotency_key",
    ],
}

# Celery: Redis is the broker; `make run` starts an embedded one when REDIS_URL is unset.
REDIS_URL = os.getenv("REDIS_URL", "redis://127.0.0.1:6380/0")
CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Beat sends only the tasks config.beat names, without arguments, whatever the schedule's rows say.
CELERY_BEAT_SCHEDULER = "config.beat:AllowlistScheduler"
# What beat runs and when. django-celery-beat writes it into its tables each time beat starts (a row
# of the same name is brought back to it), where the admin shows it read-only; each task decides its
# own work from the database, so every minute is cheap when there is nothing to do.
CELERY_BEAT_SCHEDULE = {
    "Overdue scan": {"task": "inspections.flags.tasks.scan_overdue", "schedule": timedelta(minutes=1)},
    # Checked every minute, sent from each property's own 07:00 (inspections.flags.services.send_digests).
    "Morning digest of open flags (sent at 07:00 property time)": {
        "task": "inspections.flags.tasks.send_digests",
        "schedule": timedelta(minutes=1),
    },
    # Signs a logbook that grew once its last checkpoint is LOGBOOK_CHECKPOINT_MINUTES old.
    "Logbook checkpoints": {"task": "inspections.logbook.tasks.checkpoint_grown", "schedule": timedelta(minutes=1)},
    "Reports sent again": {"task": "inspections.reports.tasks.reports_requeue", "schedule": timedelta(minutes=1)},
    "Idempotency keys purged": {
        "task": "compliance.accounts.tasks.idempotency_keys_purge",
        "schedule": timedelta(hours=1),
    },
    # Daily, at a quiet hour: a rejected layout's artwork removed after LAYOUT_ARTWORK_REJECTED_RETENTION_DAYS.
    "Rejected layouts' artwork removed after its retention": {
        "task": "compliance.approvals.tasks.rejected_artwork_purge",
        "schedule": crontab(minute="30", hour="4"),
    },
}
# Two queues, so that reports never hold back a compliance control: "control" (the overdue scan, the
# flags' mail, the morning digest, and any task not routed) and "reports" (a report and its pieces,
# and the tables' QR label sheets).
# Production and `make run` start a worker for each (`-Q control`, `-Q reports`); a worker started
# without -Q takes both.
# Each queue with an exchange and key of its own: a message for one never lands in the other.
CELERY_TASK_QUEUES = tuple(Queue(name, Exchange(name), routing_key=name) for name in ("control", "reports"))
CELERY_TASK_DEFAULT_QUEUE = "control"
CELERY_TASK_ROUTES = {
    "inspections.reports.tasks.report_*": {"queue": "reports"},
    "compliance.casinos.tasks.label_sheet_*": {"queue": "reports"},
}
CELERY_TIMEZONE = "UTC"
CELERY_TASK_REJECT_ON_WORKER_LOST = True  # a worker's process killed mid-task: the task goes back to the queue
# A whole worker killed mid-task (its machine lost): Redis hands the unacknowledged task to another
# worker once CELERY_VISIBILITY_TIMEOUT seconds have passed since it was taken. Keep it longer than
# any one task (the longest is a report's chain verification, about 25 s per 100,000 entries), or a
# task still running would be handed out twice. Workers look for such tasks every 10 s.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": envint("CELERY_VISIBILITY_TIMEOUT", "900"),
    "unacked_restore_interval": 10,
    "unacked_restore_throttle": 1,
}

# The overdue scan's mail to security supervisors: printed on the console unless an SMTP
# server is configured (EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend, EMAIL_HOST…).
EMAIL_BACKEND = os.getenv("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.getenv("EMAIL_HOST", "localhost")
EMAIL_PORT = envint("EMAIL_PORT", "25")
EMAIL_HOST_USER = os.getenv("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.getenv("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", "false")
DEFAULT_FROM_EMAIL = os.getenv("DEFAULT_FROM_EMAIL", "logbook@localhost")
# Seconds to wait for the SMTP server: a server that hangs must not hold the overdue scan.
EMAIL_TIMEOUT = envint("EMAIL_TIMEOUT", "10")

# Entries may carry a time of their own; a tablet's clock a little ahead of the server's is
# tolerated, a time further in the future is refused.
LOGBOOK_CLOCK_SKEW_SECONDS = envint("LOGBOOK_CLOCK_SKEW_SECONDS", "60")
# Product policy: how far back an entry's own time may be (or a correction's, from when the entry
# was recorded). Further back is a mistyped date, never a shift's late entry; refused with 400.
ENTRY_MAX_BACKDATE_HOURS = envint("ENTRY_MAX_BACKDATE_HOURS", "24")
if ENTRY_MAX_BACKDATE_HOURS < 1:
    raise ImproperlyConfigured("ENTRY_MAX_BACKDATE_HOURS must be at least 1")

# Signed checkpoints (docs/architecture.md, "Proof outside the database"): the Ed25519 keys that sign
# the chain's head live in files named by a key ring (config/keyring.py), never in the database.
# `make run` makes a development ring under var/keys/ (git-ignored); production names its own.
# A ring named but unusable stops the start; none at all (or the variable set empty) leaves the
# logbook unsigned (and `check --deploy` says so).
LOGBOOK_CHECKPOINT_KEYRING = os.getenv("LOGBOOK_CHECKPOINT_KEYRING", "")
if LOGBOOK_CHECKPOINT_KEYRING:
    try:
        keyring.keyring_load(LOGBOOK_CHECKPOINT_KEYRING)
    except keyring.KeyringError as error:
        raise ImproperlyConfigured(f"LOGBOOK_CHECKPOINT_KEYRING: {error}") from None
elif (
    os.getenv("LOGBOOK_CHECKPOINT_KEYRING") is None and (BASE_DIR / "var" / "keys" / "checkpoint-keyring.json").exists()
):
    LOGBOOK_CHECKPOINT_KEYRING = str(BASE_DIR / "var" / "keys" / "checkpoint-keyring.json")
# The signer's own record of what it last signed for each property (checkpoint number, entry, head,
# time, the property's licence and jurisdiction), kept outside the database beside the key ring
# (inspections/logbook/ledger.py): the signer refuses to sign a chain that does not extend it, and
# verify_logbook says how much history a database lacks against it. Beside the ring unless named.
LOGBOOK_CHECKPOINT_LEDGER = os.getenv("LOGBOOK_CHECKPOINT_LEDGER", "")
# Product policy: a growing logbook is checkpointed at least this often (beat's task runs at this
# interval); an entry older than twice it that no signed checkpoint covers is reported by
# verify_logbook as tampering (its checkpoints deleted).
LOGBOOK_CHECKPOINT_MINUTES = envint("LOGBOOK_CHECKPOINT_MINUTES", "5")
if LOGBOOK_CHECKPOINT_MINUTES < 1:
    raise ImproperlyConfigured("LOGBOOK_CHECKPOINT_MINUTES must be at least 1")
# An RFC 3161 timestamp authority for the checkpoints and the reports' signatures; none by default
# (each checkpoint then says it carries no trusted time). Its certificates (PEM, the TSA's own or its
# CA's) are what verify_logbook trusts a token from.
LOGBOOK_TSA_URL = os.getenv("LOGBOOK_TSA_URL", "")
LOGBOOK_TSA_CERTIFICATES = os.getenv("LOGBOOK_TSA_CERTIFICATES", "")
LOGBOOK_TSA_TIMEOUT_SECONDS = envint("LOGBOOK_TSA_TIMEOUT_SECONDS", "10")
if LOGBOOK_TSA_CERTIFICATES and not Path(LOGBOOK_TSA_CERTIFICATES).is_file():
    raise ImproperlyConfigured(f"LOGBOOK_TSA_CERTIFICATES: no file {LOGBOOK_TSA_CERTIFICATES}")
# The key and certificate (PEM) that sign every PDF report (PAdES), the certificate issued by the
# compliance CA below; `make run` makes a pair under var/keys/, issued by a development CA under
# var/ca/. Without them a report is not signed (and `check --deploy` says so).
LOGBOOK_REPORT_SIGNING_KEY = os.getenv("LOGBOOK_REPORT_SIGNING_KEY", "")
LOGBOOK_REPORT_SIGNING_CERT = os.getenv("LOGBOOK_REPORT_SIGNING_CERT", "")
if os.getenv("LOGBOOK_REPORT_SIGNING_KEY") is None and (BASE_DIR / "var" / "keys" / "report-signing.key").exists():
    LOGBOOK_REPORT_SIGNING_KEY = str(BASE_DIR / "var" / "keys" / "report-signing.key")
    LOGBOOK_REPORT_SIGNING_CERT = str(BASE_DIR / "var" / "keys" / "report-signing.pem")
for _name, _path in (("LOGBOOK_REPORT_SIGNING_KEY", LOGBOOK_REPORT_SIGNING_KEY),
                     ("LOGBOOK_REPORT_SIGNING_CERT", LOGBOOK_REPORT_SIGNING_CERT)):  # fmt: skip
    if bool(LOGBOOK_REPORT_SIGNING_KEY) != bool(LOGBOOK_REPORT_SIGNING_CERT) or (_path and not Path(_path).is_file()):
        raise ImproperlyConfigured(f"{_name}: the report's signing key and certificate are two readable files")
# The compliance certificate authority's certificate (PEM; an enterprise CA's chain, root last, may
# stand in its place): what a regulator's validator trusts, published at /api/report-ca/ and carried
# in each signature. Its key is never configured here. And the bundle of every report certificate
# ever issued (public halves), published at /api/report-certificates/.
LOGBOOK_REPORT_CA_CERT = os.getenv("LOGBOOK_REPORT_CA_CERT", "")
if os.getenv("LOGBOOK_REPORT_CA_CERT") is None and (BASE_DIR / "var" / "ca" / "compliance-ca.pem").exists():
    LOGBOOK_REPORT_CA_CERT = str(BASE_DIR / "var" / "ca" / "compliance-ca.pem")
LOGBOOK_REPORT_CERTIFICATES = os.getenv("LOGBOOK_REPORT_CERTIFICATES", "")
if (
    os.getenv("LOGBOOK_REPORT_CERTIFICATES") is None
    and (BASE_DIR / "var" / "keys" / "report-certificates.pem").exists()
):
    LOGBOOK_REPORT_CERTIFICATES = str(BASE_DIR / "var" / "keys" / "report-certificates.pem")
# The compliance CA's revocation list (PEM), issued offline with the report certificate
# (`manage.py report_ca_crl_issue`): embedded in each B-LTA report's Document Security Store, it is
# what lets a validator check the report certificate long after it expired. Unset: none embedded.
LOGBOOK_REPORT_CA_CRL = os.getenv("LOGBOOK_REPORT_CA_CRL", "")
for _name, _path in (("LOGBOOK_REPORT_CA_CERT", LOGBOOK_REPORT_CA_CERT),
                     ("LOGBOOK_REPORT_CERTIFICATES", LOGBOOK_REPORT_CERTIFICATES),
                     ("LOGBOOK_REPORT_CA_CRL", LOGBOOK_REPORT_CA_CRL)):  # fmt: skip
    if _path and not Path(_path).is_file():
        raise ImproperlyConfigured(f"{_name}: no file {_path}")

# How long the answer to an API write sent with an Idempotency-Key (and a signed form's one-time
# token) is kept: a repeat within it gets the same answer instead of a second entry.
IDEMPOTENCY_KEY_HOURS = envint("IDEMPOTENCY_KEY_HOURS", "24")
if IDEMPOTENCY_KEY_HOURS < 1:
    raise ImproperlyConfigured("IDEMPOTENCY_KEY_HOURS must be at least 1.")

# One JSON object per line in production (config.logs); each request is one line of its own
# (logbook.request: method, path, status, duration, who).
LOG_FORMAT = os.getenv("LOG_FORMAT", "text" if DEBUG else "json")
try:
    LOGGING = logging_config(
        fmt=LOG_FORMAT,
        level=os.getenv("LOG_LEVEL", "INFO"),
        # WeasyPrint logs every step of every page at INFO; its warnings still show.
        quiet={
            "weasyprint.progress": "WARNING",
            "fontTools": "WARNING",
            # On a developer's console the development server prints each request already.
            **({"logbook.request": "WARNING"} if LOG_FORMAT == "text" else {}),
        },
    )
except ValueError as error:
    raise ImproperlyConfigured(str(error)) from None
# Python's warnings go through logging too (logger py.warnings), so they are JSON like the rest.
logging.captureWarnings(True)
# Celery's workers log through the same configuration instead of replacing it with their own.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
