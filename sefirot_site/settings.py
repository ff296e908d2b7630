"""Settings for Sefirot Online, all read from the environment in this one place.

Defaults are for a developer's machine (SQLite, an embedded Celery broker, mail to files);
production sets DEBUG=off, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL, REDIS_URL and SMTP.
django-environ parses the values; its casts raise on nonsense, and ``env_choice`` below
covers what it does not check, so a typo stops start-up with a message instead of running
with a surprising value.
"""

from __future__ import annotations

import re
from pathlib import Path

import environ
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
# A local .env file is optional; real environment variables win over it.
if (BASE_DIR / ".env").is_file():
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)


def env_bool(name: str, default: bool) -> bool:
    """A strict boolean: only the usual spellings count, anything else stops start-up."""
    raw = env.str(name, default="")
    if raw == "":
        return default
    lowered = raw.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean; use true/false, on/off, yes/no or 1/0.")


def env_int(name: str, default: int, minimum: int | None = None, maximum: int | None = None) -> int:
    raw = env.str(name, default="")
    if raw == "":
        return default
    try:
        number = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number.") from None
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        raise ImproperlyConfigured(f"{name}={number} is outside {minimum}..{maximum}.")
    return number


def env_choice(name: str, default: str, choices: set[str]) -> str:
    raw = env.str(name, default=default)
    if raw not in choices:
        raise ImproperlyConfigured(f"{name}={raw!r} must be one of {', '.join(sorted(choices))}.")
    return raw


DEBUG = env_bool("DEBUG", True)
DATA_DIR = Path(env.str("DATA_DIR", default=str(BASE_DIR / "var")))
try:
    DATA_DIR.mkdir(parents=True, exist_ok=True)
except OSError as error:
    raise ImproperlyConfigured(f"DATA_DIR={str(DATA_DIR)!r} cannot be created: {error.strerror}.") from None

if DEBUG:
    SECRET_KEY = env.str("SECRET_KEY", default="dev-only-insecure-key-do-not-use-in-production-0123456789")
else:
    SECRET_KEY = env.str("SECRET_KEY", default="")
    if len(SECRET_KEY) < 50:
        raise ImproperlyConfigured("SECRET_KEY must be set to at least 50 random characters when DEBUG is off.")

# In production the host names must be given: a default would either refuse every request
# or accept forged Host headers.
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must list the site's host names when DEBUG is off.")
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# The absolute address of the site, used in mail links. Production must say it: the
# development default would send every player a link to their own machine.
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000" if DEBUG else "").rstrip("/")
if not DEBUG and not SITE_URL:
    raise ImproperlyConfigured("SITE_URL must give the site's address (https://...) when DEBUG is off.")
if not re.fullmatch(r"https?://[^/\s?#]+", SITE_URL):
    raise ImproperlyConfigured(f"SITE_URL={SITE_URL!r} must be http:// or https:// and a host name, such as "
                               "https://sefirot.example.org (no path).")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "allauth",
    "allauth.account",
    "django_htmx",
    "template_partials",
    "sefirot_site",
    "sefirot_site.accounts",
    "sefirot_site.outbox",
    "games",
    "games.wizards",
    "games.ratings",
    "games.computer",
    "games.solutions",
    "games.push",
    "games.daily",
    "games.players",
    "journal",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages and htmx answers compressed (static files come compressed from WhiteNoise): a game
    # page's 33 kB of HTML is 6 kB on a phone's slow line (issue 42, bench/phone.py).  Django's
    # GZip pads each answer at random against BREACH, and CSRF tokens are masked per answer.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "sefirot_site.htmx_vary.VaryOnHtmxMiddleware",
    "sefirot_site.accounts.middleware.TimezoneMiddleware",
]

ROOT_URLCONF = "sefirot_site.urls"
WSGI_APPLICATION = "sefirot_site.wsgi.application"
ASGI_APPLICATION = "sefirot_site.asgi.application"

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
                "sefirot_site.context_processors.site",
            ],
        },
    },
]

# --- database ------------------------------------------------------------------------
def env_database(name: str, default: str) -> dict:
    """A database URL for SQLite or PostgreSQL, the two the site runs on. django-environ
    returns an empty config for a URL it cannot read; say so instead. The value itself
    is not repeated, since it may hold a password."""
    raw = env.str(name, default="") or default
    scheme = raw.split("://", 1)[0] if "://" in raw else ""
    config = env.db_url_config(raw) if scheme else {}
    if config.get("ENGINE") not in {"django.db.backends.sqlite3", "django.db.backends.postgresql"}:
        problem = f"the scheme {scheme!r} is neither" if scheme else "it has no scheme"
    elif not config.get("NAME"):
        problem = "it names no database"
    else:
        return config
    raise ImproperlyConfigured(
        f"{name} must be postgres://user:password@host:5432/name or sqlite:////absolute/path.sqlite3; {problem}."
    )


DATABASES = {
    "default": env_database("DATABASE_URL", default=f"sqlite:///{DATA_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Web, worker and beat share one SQLite file: wait for a lock rather than fail, and
    # take the write lock when a transaction begins (IMMEDIATE): a transaction that read
    # first and writes later could otherwise not wait for it and fail at once with
    # "database is locked" whenever another process wrote meanwhile.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env_int("CONN_MAX_AGE", 60, minimum=0)
# The hot statements of sefirot_site.prepared prepared on the PostgreSQL server, once per
# connection.  Off where a pooler in transaction mode (PgBouncer before 1.21) hands each
# transaction another server connection, which would not know the statement's name.
PREPARED_STATEMENTS = env_bool("PREPARED_STATEMENTS", True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: the broker, or an embedded stand-in; the cache ------------------------------
def embedded_broker(data_dir: Path) -> tuple[str, dict, str]:
    """kombu's filesystem transport and Celery's file result backend under ``data_dir``: a
    real broker between separate processes, with no server to run. Returns the broker URL,
    its transport options and the result backend URL. Every process (web, worker, beat)
    must compute the same folders, which is why this is a function of DATA_DIR alone."""
    queue_folder = data_dir / "broker" / "queue"
    processed_folder = data_dir / "broker" / "processed"
    control_folder = data_dir / "broker" / "control"
    results_folder = data_dir / "results"
    # kombu does not create the queue folder and Celery refuses a missing results folder.
    for folder in (queue_folder, processed_folder, control_folder, results_folder):
        folder.mkdir(parents=True, exist_ok=True)
    options = {
        # A producer writes to data_folder_out, a consumer reads data_folder_in: with
        # one folder for both, every process sees every message.
        "data_folder_in": str(queue_folder),
        "data_folder_out": str(queue_folder),
        # Exchange bindings live here; broadcasts (celery inspect/control) need it.
        "control_folder": str(control_folder),
        # A consumer claims a message by moving its file out of the queue folder. Without
        # store_processed kombu moves it to the system temp folder, often another file
        # system, where a move is copy-and-delete and two consumers can both get the
        # message. A folder beside the queue keeps the move an atomic rename; the
        # scheduler's sweep_file_stores task deletes the old files.
        "store_processed": True,
        "processed_folder": str(processed_folder),
        # The worker polls the folder; the default second makes every round trip slow.
        "polling_interval": 0.1,
    }
    # A host name (which the transport ignores) keeps kombu from warning "No hostname was
    # supplied" on every connection.
    return "filesystem://localhost/", options, results_folder.as_uri()


REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL and not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
    raise ImproperlyConfigured(f"REDIS_URL={REDIS_URL!r} must start with redis://, rediss:// or unix://.")
# Lets several sites (or test runs) share one Redis database without reading each other's keys.
CACHE_KEY_PREFIX = env.str("CACHE_KEY_PREFIX", default="")
# A Redis that does not answer must cost a request a moment, not kombu's default of
# several seconds of reconnecting: publishing after a commit is best effort (the outbox
# sweep publishes again). The worker's own reconnecting is set apart and keeps trying.
REDIS_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 2, "socket_timeout": 5,
                                  "max_retries": 1, "interval_start": 0, "interval_step": 0.2}

if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS = REDIS_BROKER_TRANSPORT_OPTIONS
else:
    CELERY_BROKER_URL, CELERY_BROKER_TRANSPORT_OPTIONS, CELERY_RESULT_BACKEND = embedded_broker(DATA_DIR)

# The cache holds allauth's rate limits (failed logins, sign-ups, password resets) and
# the count of answers to inbound mail (games.mail.inbound), nothing else. It lives in
# the database (the table of sefirot_site.models.CacheEntry), shared by every process
# and node like the rest: in Redis the login throttle stopped counting while Redis was
# away (15 wrong passwords, then the right one, went through).
# Room for many counters, so an attack from many addresses does not cull its own.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "sefirot_cache",
        "KEY_PREFIX": CACHE_KEY_PREFIX,
        "OPTIONS": {"MAX_ENTRIES": 50_000},
    }
}

CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 300
CELERY_TASK_SOFT_TIME_LIMIT = 240
# Celery's Django fix-up closes the database connection around every task unless told to
# keep it for this many tasks; sefirot_site.worker_database applies CONN_MAX_AGE and
# checks the connection before each task instead (a backlog of mails otherwise pays a
# PostgreSQL connect per mail).
CELERY_DB_REUSE_MAX = 1000
CELERY_RESULT_EXPIRES = 3600
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "celerybeat-schedule")
if REDIS_URL:
    # Beat may run on every node: RedBeat keeps the schedule in Redis and lets only the
    # holder of a lock there send tasks. The others wait for the lock; it lapses
    # BEAT_LOCK_SECONDS after its holder died, so one of them takes over within that
    # and one loop (the loop is short so the holder extends the lock in time).
    # sefirot_site.beat: RedBeat that waits out a Redis outage and takes its lock again
    # (RedBeat's own ends beat at the first Redis error), recording each tick.
    CELERY_BEAT_SCHEDULER = "sefirot_site.beat.SiteRedBeatScheduler"
    CELERY_REDBEAT_REDIS_URL = REDIS_URL
    CELERY_REDBEAT_KEY_PREFIX = f"{CACHE_KEY_PREFIX}redbeat"
    CELERY_REDBEAT_LOCK_TIMEOUT = env_int("BEAT_LOCK_SECONDS", 30, minimum=10, maximum=600)
else:
    # Celery's own scheduler (its state in a file in DATA_DIR), recording each tick.
    CELERY_BEAT_SCHEDULER = "sefirot_site.beat.LocalScheduler"
# Beat looks at the schedule (and records that it did, for /healthz) at least this often.
CELERY_BEAT_MAX_LOOP_INTERVAL = 5
# /healthz calls the schedule stopped when beat has not ticked for this long: a few loops,
# and with Redis the time a standby beat needs to take over a dead one's lock.
SCHEDULE_LATE_SECONDS = 3 * CELERY_BEAT_MAX_LOOP_INTERVAL + (CELERY_REDBEAT_LOCK_TIMEOUT if REDIS_URL else 0)
CELERY_TIMEZONE = "UTC"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker (and beat) that lost the broker tries again for as long as it takes (Celery's
# default gives up after 100 tries, some 50 minutes, and the process exits); publishing
# from a request keeps its own short limit (REDIS_BROKER_TRANSPORT_OPTIONS).
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Where tasks go and where workers listen; tests give each run its own queue.
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="celery")
# Seal renders (seconds of CPU each, hundreds at once from a journal import) wait on a
# queue of their own, read by a worker of their own (runsite's "seals"), so a turn mail
# never waits behind them. A worker started without -Q reads both queues.
SEAL_QUEUE = env.str("CELERY_SEAL_QUEUE", default=f"{CELERY_TASK_DEFAULT_QUEUE}-seals")
CELERY_TASK_QUEUES = [Queue(name, Exchange(name), routing_key=name) for name in (CELERY_TASK_DEFAULT_QUEUE, SEAL_QUEUE)]
# By task name; the outbox publishes a pending task where its task is routed
# (sefirot_site.outbox.tasks.publish).
# The solver's searches (tens of seconds of CPU each, games.solutions) wait there too: the
# queue of long computations, so a turn mail never waits behind a search.
CELERY_TASK_ROUTES = {"journal.tasks.render_seal_task": {"queue": SEAL_QUEUE},
                      "games.solve_deal": {"queue": SEAL_QUEUE}}
# manage.py runsite: web server processes and Celery worker processes.
WEB_WORKERS = env_int("WEB_WORKERS", 2, minimum=1, maximum=64)
WORKER_CONCURRENCY = env_int("WORKER_CONCURRENCY", 2, minimum=1, maximum=64)
# A move's request plays a quick computer player's answer itself, so both come in one
# answer (games.computer.answer); off, the worker alone plays it and the page's poll finds it.
COMPUTER_MOVES_IN_REQUEST = env_bool("COMPUTER_MOVES_IN_REQUEST", True)
# ISMCTS iterations a move of the solo games' advisor (the hint and the review ask the same
# one); 0 keeps each game's own budget for the advisor's level (games.bots.advice).  Tests
# set a few to keep a whole game's review quick; hint and review still agree.
ADVICE_ITERATIONS = env_int("ADVICE_ITERATIONS", 0, minimum=0, maximum=100_000)
# Each worker writes a heartbeat this often; /healthz calls a worker alive while its last
# one is at most three periods old (it reads a row: no ping waits on a worker).
WORKER_HEARTBEAT_SECONDS = env_int("WORKER_HEARTBEAT_SECONDS", 10, minimum=1, maximum=300)
# Celery beat's timetable. Apps add their entries with CELERY_BEAT_SCHEDULE.update(...)
# below, never by assigning a new dict.
CELERY_BEAT_SCHEDULE = {
    # The embedded broker and the file result backend never delete old files themselves.
    "sweep-file-stores": {"task": "sefirot_site.sweep_file_stores", "schedule": 3600.0},
}
# The outbox (sefirot_site.outbox): a pending task whose publish was lost is published
# again by the sweep once this many seconds passed; the sweep runs this often.
OUTBOX_LEASE_SECONDS = env_int("OUTBOX_LEASE_SECONDS", 120, minimum=5, maximum=3600)
# How long a worker's claim on a pending task holds: a worker killed mid-task leaves its
# claim, and the sweep hands the task on once it lapsed. At least the task time limit.
OUTBOX_CLAIM_SECONDS = env_int("OUTBOX_CLAIM_SECONDS", 150, minimum=5, maximum=3600)
OUTBOX_SWEEP_SECONDS = env_int("OUTBOX_SWEEP_SECONDS", 60, minimum=5, maximum=3600)
CELERY_BEAT_SCHEDULE["sweep-outbox"] = {"task": "sefirot_site.outbox.tasks.sweep_outbox",
                                        "schedule": float(OUTBOX_SWEEP_SECONDS)}
# The solver's search of each finished solo deal (games.solutions): at most this many
# positions and CPU seconds, and this much time on the clock (a busy machine's CPU
# seconds take longer; the task must end within the outbox's run limit, 120 s).  A job
# whose worker has not reported for SOLVER_LOST_AFTER_SECONDS was lost with it, and the
# sweep queues it again.
SOLVER_MAX_NODES = env_int("SOLVER_MAX_NODES", 3_000_000, minimum=1, maximum=10**9)
SOLVER_MAX_SECONDS = env_int("SOLVER_MAX_SECONDS", 30, minimum=1, maximum=100)
SOLVER_WALL_SECONDS = env_int("SOLVER_WALL_SECONDS", 100, minimum=1, maximum=110)
SOLVER_LOST_AFTER_SECONDS = env_int("SOLVER_LOST_AFTER_SECONDS", 180, minimum=10, maximum=86400)
CELERY_BEAT_SCHEDULE["sweep-solver-jobs"] = {"task": "games.sweep_solver_jobs", "schedule": 300.0}
# Tasks always run in a worker, never inside the web request.
CELERY_TASK_ALWAYS_EAGER = False

# Content-Security-Policy (django-csp): scripts only from our own files (htmx included),
# no eval, nothing framed or framing. Inline style attributes stay allowed: the boards
# and mails set a few, and a style cannot run code.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# --- accounts ------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
# Django's database sessions, read through a statement made once (sefirot_site.sessions).
SESSION_ENGINE = "sefirot_site.sessions"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
ACCOUNT_LOGIN_METHODS = {"email", "username"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_CHANGE_EMAIL = True
# Tell the owner by mail when their password or address changes (a hijack shows at once).
ACCOUNT_EMAIL_NOTIFICATIONS = True
ACCOUNT_FORMS = {"login": "sefirot_site.accounts.forms.LoginForm"}
# Counts failed logins per account and address together (see the adapter).
ACCOUNT_ADAPTER = "sefirot_site.accounts.adapter.AccountAdapter"
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"
# No django.contrib.sites: allauth names the site from the request, and we name it here.
ACCOUNT_EMAIL_SUBJECT_PREFIX = "Sefirot Online: "
# allauth's own throttle (kept in the cache above, in the database: shared by every
# process, and counting through a Redis outage). The admin's login goes through it too
# (sefirot_site.urls).
# Checked here, since allauth reads the value only at the first failed login, as a 500.
LOGIN_FAILED_RATE_LIMIT = env.str("LOGIN_FAILED_RATE_LIMIT", default="10/m/ip,5/5m/key")
if not re.fullmatch(r"\d+/\d*(\.\d+)?[smhd]/(ip|key)(,\d+/\d*(\.\d+)?[smhd]/(ip|key))*",
                    LOGIN_FAILED_RATE_LIMIT.replace(" ", "")):
    raise ImproperlyConfigured(f"LOGIN_FAILED_RATE_LIMIT={LOGIN_FAILED_RATE_LIMIT!r} must be rates such as "
                               "10/m/ip,5/5m/key (attempts/period/ip or key, period in s, m, h or d).")
ACCOUNT_RATE_LIMITS = {"login_failed": LOGIN_FAILED_RATE_LIMIT}

# --- mail ----------------------------------------------------------------------------
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Sefirot Online <play@sefirot.localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
EMAIL_BACKEND_CHOICE = env_choice("EMAIL_BACKEND", "file" if DEBUG else "smtp", {"file", "console", "smtp", "locmem"})
EMAIL_BACKEND = {
    "file": "django.core.mail.backends.filebased.EmailBackend",
    "console": "django.core.mail.backends.console.EmailBackend",
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
    "locmem": "django.core.mail.backends.locmem.EmailBackend",
}[EMAIL_BACKEND_CHOICE]
EMAIL_FILE_PATH = str(DATA_DIR / "sent-mail")
EMAIL_HOST = env.str("EMAIL_HOST", default="localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25, minimum=1, maximum=65535)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 20, minimum=1)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL cannot both be on.")

# --- play by mail and clocks (games.mail, games.clocks) ------------------------------------
# Turn mail's Reply-To is play+<seat token>.<version>@MAIL_DOMAIN; the inbound receiver
# accepts mail for this domain only.
MAIL_DOMAIN = env.str("MAIL_DOMAIN", default="sefirot.localhost").strip().lower()
if not re.fullmatch(r"(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*",
                    MAIL_DOMAIN):
    raise ImproperlyConfigured(f"MAIL_DOMAIN={MAIL_DOMAIN!r} is not a domain name such as play.example.org.")
# The inbound SMTP receiver (manage.py run_mail_receiver, started by the run command).
INBOUND_SMTP_HOST = env.str("INBOUND_SMTP_HOST", default="127.0.0.1")
INBOUND_SMTP_PORT = env_int("INBOUND_SMTP_PORT", 8025, minimum=1, maximum=65535)
INBOUND_MAX_MESSAGE_BYTES = env_int("INBOUND_MAX_MESSAGE_BYTES", 1_000_000, minimum=10_000)
# Answers to inbound mail saying nothing was played (or telling a player of a stranger's
# mail to their seat) that one address gets per hour at most; past it, none until the hour
# is over (games.mail.inbound). A move played is answered regardless.
INBOUND_REFUSALS_PER_HOUR = env_int("INBOUND_REFUSALS_PER_HOUR", 10, minimum=1, maximum=10_000)
# Searches for players by name one account may make per minute (games.players): enough
# for anyone typing, too few to read out the list of players.
PLAYER_SEARCHES_PER_MINUTE = env_int("PLAYER_SEARCHES_PER_MINUTE", 30, minimum=1, maximum=10_000)
# Daily digests go out once a day, at the first scheduler run after this hour of each
# player's own time zone.
# A turn mail waits while the player's page of that game asked for news within this many
# seconds (they are looking at it); it goes once they left without playing.
TURN_MAIL_LOOKING_SECONDS = env_int("TURN_MAIL_LOOKING_SECONDS", 45, minimum=5, maximum=3600)
TURN_MAIL_DIGEST_HOUR = env_int("TURN_MAIL_DIGEST_HOUR", 7, minimum=0, maximum=23)
# Vacation: days a player may pause their clocks per calendar year (a started day counts).
VACATION_DAYS_PER_YEAR = env_int("VACATION_DAYS_PER_YEAR", 21, minimum=0, maximum=366)
# How often the scheduler looks for reminders due, overdue games and spent vacations.
CLOCK_CHECK_SECONDS = env_int("CLOCK_CHECK_SECONDS", 300, minimum=10, maximum=3600)
CELERY_BEAT_SCHEDULE.update({
    "check-clocks": {"task": "games.check_clocks", "schedule": float(CLOCK_CHECK_SECONDS)},
    "daily-digests": {"task": "games.send_daily_digests", "schedule": crontab(minute=0)},
    "wizards-table-digests": {"task": "wizards.send_table_digests", "schedule": crontab(minute=30)},
    # The daily deals whose UTC day ended are handed to the solver (games.daily).
    "daily-deal-solver": {"task": "daily.queue_solves", "schedule": crontab(minute=5)},
})

# --- Web Push (games.push) ----------------------------------------------------------------
# The site's VAPID key: push services take a push only when it is signed by the key the
# browser subscribed with. Unset, one is made on first use and kept in
# DATA_DIR/vapid-private.pem; several nodes must share one (PEM, or base64url of the raw 32
# bytes or DER; `vapid --gen` makes one).
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
# Who push services may write to about the site's pushes (RFC 8292): mailto: or https:.
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default="mailto:" + (
    re.search(r"<([^<>@\s]+@[^<>\s]+)>", DEFAULT_FROM_EMAIL) or re.search(r"(\S+@\S+)", DEFAULT_FROM_EMAIL)).group(1))
if not re.fullmatch(r"mailto:[^@\s]+@[^@\s]+|https://[^/\s]+(/\S*)?", VAPID_SUBJECT):
    raise ImproperlyConfigured(f"VAPID_SUBJECT={VAPID_SUBJECT!r} must be mailto:someone@example.org or an https:// address.")
# The push services a subscription may name (a host, or any host under it): the site posts
# only there. The browsers' own: Chrome's and Edge's (FCM), Firefox's, Windows', Safari's.
PUSH_SERVICE_HOSTS = [host.strip().lower() for host in env.list("PUSH_SERVICE_HOSTS", default=[
    "fcm.googleapis.com", "push.services.mozilla.com", "notify.windows.com", "push.apple.com"]) if host.strip()]

# --- internationalisation --------------------------------------------------------------
LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- static and media ------------------------------------------------------------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
if DEBUG:
    # WhiteNoise warns about a missing STATIC_ROOT on every start; in development it
    # serves from the apps' folders (finders) and the root stays empty.
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default=str(DATA_DIR / "media")))
MEDIA_URL = "/media/"  # never served directly: files go through owner-checking views
# Seal files: on local disk under MEDIA_ROOT, or, with AWS_STORAGE_BUCKET_NAME set, in an
# S3-compatible bucket (django-storages) that every web and worker node shares. The bucket
# stays private: a download is a redirect to a URL signed for SEAL_URL_SECONDS, handed out
# only after the journal's own access checks.
AWS_STORAGE_BUCKET_NAME = env.str("AWS_STORAGE_BUCKET_NAME", default="")
SEAL_URL_SECONDS = env_int("SEAL_URL_SECONDS", 60, minimum=5, maximum=3600)
if AWS_STORAGE_BUCKET_NAME:
    SEAL_STORAGE = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": AWS_STORAGE_BUCKET_NAME,
            "endpoint_url": env.str("AWS_S3_ENDPOINT_URL", default="") or None,
            "region_name": env.str("AWS_S3_REGION_NAME", default="") or None,
            "access_key": env.str("AWS_ACCESS_KEY_ID", default="") or None,
            "secret_key": env.str("AWS_SECRET_ACCESS_KEY", default="") or None,
            "default_acl": "private",
            "querystring_auth": True,
            "querystring_expire": SEAL_URL_SECONDS,
            "file_overwrite": True,
            "signature_version": "s3v4",
        },
    }
else:
    SEAL_STORAGE = {"BACKEND": "journal.seal_files.LocalSealStorage"}  # under MEDIA_ROOT
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
    "seals": SEAL_STORAGE,
}

# --- security (production) --------------------------------------------------------------
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_PROXY else None
# allauth's throttle counts per client address. Behind a proxy every request comes from
# the proxy's address, so without this one stranger's failed logins would lock everyone
# out; with it, allauth takes the address the proxy (the last one in X-Forwarded-For)
# says the request came from.
ALLAUTH_TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 1 if BEHIND_PROXY else 0, minimum=0, maximum=10)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_choice("LOG_LEVEL", "INFO", {"DEBUG", "INFO", "WARNING", "ERROR"})},
}
