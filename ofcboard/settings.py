"""Settings for OFC Board, all driven by environment variables with safe defaults.

DEBUG is off unless asked for; in development a secret key is generated once and
kept in an ignored file so sessions survive restarts.
"""

import os
import secrets
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from scorekeeper.site.front_pass import front_secret

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG")
# `make run`: the app served to phones on the table's Wi-Fi, over plain HTTP, by a
# laptop in the room. Production settings otherwise: no debug pages for the phones.
TABLE_MODE = env_bool("OFCBOARD_TABLE")


def _development_secret_key() -> str:
    # Kept in a file so logins survive a restart of `make run`; never committed.
    key_file = BASE_DIR / ".secret_key"
    if not key_file.exists():
        key_file.write_text(secrets.token_urlsafe(50))
        key_file.chmod(0o600)
    return key_file.read_text().strip()


SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG and not TABLE_MODE:
        raise ImproperlyConfigured(
            "Set SECRET_KEY (or DEBUG=1 for development): a production server needs its own key."
        )
    SECRET_KEY = _development_secret_key()

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", "*" if DEBUG or TABLE_MODE else "localhost,127.0.0.1,[::1]"
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

OFCBOARD_OPEN_SIGNUP = env_bool("OFCBOARD_OPEN_SIGNUP")

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "scorekeeper",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages and polls gzipped (static files come compressed from whitenoise). BREACH:
    # Django masks the CSRF token afresh in every response and pads the gzip header
    # with random bytes (Heal The Breach), so compressing pages that carry secrets is safe.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "scorekeeper.site.phones.keep_signed_in",
    "scorekeeper.site.front_pass.front_pass",
    "scorekeeper.site.middleware.account_language",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "scorekeeper.site.middleware.content_security_policy",
]

ROOT_URLCONF = "ofcboard.urls"

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
                "scorekeeper.context_processors.site",
            ],
        },
    },
]

WSGI_APPLICATION = "ofcboard.wsgi.application"

# Each server thread keeps its connection open (opening one was most of a poll's cost).
# Checked before each request's first query (one more round trip on PostgreSQL, none on
# SQLite): after a database restart every thread's kept connection is broken, and
# without the check each would fail its next request before being replaced. While the
# database is gone a request is answered 503 in words (scorekeeper/views/errors.py).
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=600,
        conn_health_checks=env_bool("DATABASE_HEALTH_CHECKS", True),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets phones read while another writes; IMMEDIATE takes the write lock at the
    # start of a transaction, so two phones saving at once queue instead of failing.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": (
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;"
        ),
    }
elif env_bool("DATABASE_POOL"):
    # Several app nodes on one PostgreSQL: psycopg's pool, a few connections per process
    # that its threads share, instead of one kept open per thread.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        "pool": {"min_size": 2, "max_size": int(os.environ.get("DATABASE_POOL_SIZE", "8"))}
    }

# A cache shared by every app node (Redis, e.g. CACHE_URL=redis://cache:6379/0).
# A Redis that stops answering is given up on quickly; the app goes on without it.
REDIS_TIMEOUTS = {"socket_connect_timeout": 1, "socket_timeout": 2}
CACHE_URL = os.environ.get("CACHE_URL", "")
CACHE_KEY_PREFIX = os.environ.get("CACHE_KEY_PREFIX", "ofcboard")
# Without Redis, each process's memory: it keeps the live parts every phone of a night
# shares, one per night, version and language (scorekeeper/views/shared_parts.py). Room
# for a busy node's 400 nights in two languages, night page and settlement, where
# Django's default of 300 would drop a night's parts before its last phone asked.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "OPTIONS": {"MAX_ENTRIES": 2_000},
    }
}
# Every request reads its session. Without Redis, from the database (an indexed read
# by its key, shared by every server process, so a logout in one ends the session in
# all): it does not slow as sessions pile up. A cache of files did, as Django's file
# cache lists its whole folder on each write (measured, bench/sessions.py: the write
# that follows a restart's first read took 8 ms with 200 sessions and 109 ms with
# 10,000, the database's 5 and 7). With Redis, from Redis, written through to the
# database (a Redis emptied logs nobody out).
SESSION_ENGINE = "django.contrib.sessions.backends.db"
if CACHE_URL:
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    SESSION_CACHE_ALIAS = "sessions"
    # Losing Redis loses no session and fails no request (scorekeeper/site/redis_cache.py).
    CACHES["default"] = CACHES["sessions"] = {
        "BACKEND": "scorekeeper.site.redis_cache.RedisOrFallback",
        "LOCATION": CACHE_URL,
        "KEY_PREFIX": CACHE_KEY_PREFIX,
        "OPTIONS": REDIS_TIMEOUTS,
    }

# The app's largest form is a few hundred bytes, and a spreadsheet to import at most
# 1 MB (the front refuses bigger bodies before they reach the app, ofcboard/front.py).
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 6},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

# A phone stays signed in while it is used (scorekeeper/site/phones.py renews its
# session once a day), and at most a year without use: nobody has a password to forget.
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"

# The table's own language: the phone's Accept-Language first, then the switcher on
# every page (kept on the account, or in a cookie before logging in). A new language
# is a folder in locale/ and a line here; see the README.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("de", "Deutsch"),
    ("nl", "Nederlands"),
    ("zh-hans", "简体中文"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Where collectstatic puts the hashed, compressed files WhiteNoise serves (`make run`
# collects them before it starts the server).
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# An out-of-date form (a new login in another tab) gets a page in plain words.
CSRF_FAILURE_VIEW = "scorekeeper.views.errors.csrf_failure"

SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
if TABLE_MODE:
    # Browsers ignore (and complain about) this header on plain HTTP.
    SECURE_CROSS_ORIGIN_OPENER_POLICY = None
if not DEBUG and not TABLE_MODE:
    # Behind a TLS proxy in production; the table's Wi-Fi has no certificate.
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)

# Behind the front (ofcboard/serve.py starts it and says so here), only nginx reaches
# the app, on loopback, and it always sets X-Forwarded-Proto: from a proxy named in
# OFCBOARD_TRUSTED_PROXY, that proxy's; from anyone else, the scheme they came by.
# Without the front nobody's is believed.
if os.environ.get("OFCBOARD_FRONT"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Invitation links, big screens' links and sign-in codes are secrets in their address,
# and Django logs the address of every 4xx: each record's are hidden on its way to the
# log (scorekeeper/site/log_secrets.py). Django's own handlers, which would write a
# record before the root's, are replaced by ones that hide them too.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"hide_secrets": {"()": "scorekeeper.site.log_secrets.HideSecrets"}},
    "formatters": {
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        }
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["hide_secrets"]},
        "django.server": {
            "class": "logging.StreamHandler",
            "formatter": "django.server",
            "filters": ["hide_secrets"],
        },
    },
    "loggers": {
        "django": {"handlers": [], "level": "INFO"},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

AUTH_USER_MODEL = "scorekeeper.User"


# --- Throttling, invitations and private pages ------------------------------
# Logins: django-axes locks a name only together with the address it is tried from,
# counting in the database (shared by every worker, nothing to install), or with
# THROTTLE_CACHE_URL (a Redis address) there; the name alone is slowed down and an
# address stopped by scorekeeper/site/throttle.py. It and sign-ups count with
# django-ratelimit in the "throttle" cache, Django's database cache unless a Redis is given.
# The port `make run` serves on, for links built on the table's Wi-Fi (views/access.py).
OFCBOARD_PORT = int(os.environ.get("PORT", "8000"))
# Several nodes sharing a Redis (CACHE_URL) count there too, unless told otherwise.
THROTTLE_CACHE_URL = os.environ.get("THROTTLE_CACHE_URL", CACHE_URL)

# Where the app publishes a page's new version to the front that holds the phones'
# streams (nginx with Nchan, ofcboard/front.py sets it when it starts one; a site with
# its own front sets it to that front's publishing address). Empty: no front, the pages
# poll (scorekeeper/services/push.py).
PUSH_URL = os.environ.get("OFCBOARD_PUSH_URL", "")
# The secret the front checks what the app signed for it with, a signed-in phone's pass
# and a live page's stream (scorekeeper/site/front_pass.py): drawn from SECRET_KEY, so
# the same at every start and on every node sharing the key. Empty: no front.
FRONT_PASS_SECRET = front_secret(SECRET_KEY) if PUSH_URL else ""
INSTALLED_APPS += ["axes"]
# Last, as axes asks: it turns a locked-out login into the page's refusal in words.
MIDDLEWARE += ["scorekeeper.site.middleware.private_pages", "axes.middleware.AxesMiddleware"]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("OFCBOARD_LOGIN_FAILURES", "10"))
AXES_COOLOFF_TIME = timedelta(minutes=15)
# The pair, never the name alone: anyone holding an invitation link sees the members'
# names, and could otherwise keep any of them out.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# The login form's field, as authenticate() is called (the account's field is "name").
AXES_USERNAME_FORM_FIELD = "username"
AXES_USERNAME_CALLABLE = "scorekeeper.site.throttle.login_name"
AXES_LOCKOUT_CALLABLE = "scorekeeper.site.throttle.locked_out"
# Counts simply run out after the cool-off: a reset on success would let someone
# clear their address's count by logging in to an account of their own.
AXES_RESET_ON_SUCCESS = False
# The phone's address is REMOTE_ADDR: behind the front, the server has put there the
# address the front passed on (ofcboard/serve.py believing_the_front).
AXES_CLIENT_IP_CALLABLE = "scorekeeper.site.throttle.client_address"
AXES_ENABLE_ADMIN = False
# Only failures are kept: nobody needs a log of when each friend logged in.
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False
AXES_HANDLER = (
    "axes.handlers.cache.AxesCacheHandler"
    if THROTTLE_CACHE_URL
    else "axes.handlers.database.AxesDatabaseHandler"
)
# The counts must outlast an attack from many addresses: Django's database cache keeps
# 300 entries by default and then drops a third of them, an address's used-up count
# among them. A million counts (each an address, a name or a link for its hour) is
# a table of about 100 MB; past it the expired go first. A site that expects more
# keeps its counts in Redis (THROTTLE_CACHE_URL).
THROTTLE_ENTRIES = 1_000_000
THROTTLE_IN_THE_DATABASE = {
    "BACKEND": "django.core.cache.backends.db.DatabaseCache",
    "LOCATION": "ofcboard_throttle",
    "OPTIONS": {"MAX_ENTRIES": THROTTLE_ENTRIES},
}
CACHES["throttle"] = (
    {
        # While Redis is gone the counts go on in the database's cache.
        "BACKEND": "scorekeeper.site.redis_cache.RedisOrFallback",
        "LOCATION": THROTTLE_CACHE_URL,
        "KEY_PREFIX": CACHE_KEY_PREFIX + "-throttle",
        "OPTIONS": {**REDIS_TIMEOUTS, "FALLBACK": "throttle-fallback"},
    }
    if THROTTLE_CACHE_URL
    # Created by `migrate` (scorekeeper/apps.py), so `make run` needs no extra step.
    else THROTTLE_IN_THE_DATABASE
)
if THROTTLE_CACHE_URL:
    CACHES["throttle-fallback"] = THROTTLE_IN_THE_DATABASE
AXES_CACHE = "throttle"
RATELIMIT_USE_CACHE = "throttle"

# --- Backups kept by themselves (scorekeeper/copies/backups_kept.py) -----------------
# After every night that ends, and once an hour while the server runs a night; the
# newest OFCBOARD_BACKUPS_KEPT are kept. An empty folder setting keeps none.
OFCBOARD_BACKUP_DIR = os.environ.get("OFCBOARD_BACKUP_DIR", str(BASE_DIR / "backups"))
OFCBOARD_BACKUPS_KEPT = int(os.environ.get("OFCBOARD_BACKUPS_KEPT", "10"))
