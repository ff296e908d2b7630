"""Fixtures every test can use. Everything here is the real thing: a real database
(SQLite or PostgreSQL), a real Celery worker process, a real SMTP server on loopback and
real Chromium.

Environment (tests/support/environment.py, loaded by ``-p`` before Django reads its
settings): every pytest run gets its own temporary DATA_DIR (SQLite test database,
embedded broker, file cache, sent mail) and its own Celery queue name, so parallel runs
never share ``var/`` or steal each other's tasks. Set SEFIROT_KEEP_TEST_DATA=1 to keep
the folder for a post-mortem. With SQLite the test database is a file in DATA_DIR so
that a worker process can open it.

Users (all with a verified primary email address ``<name>@example.com`` and the
password ``PASSWORD``):
    alice, bob        two players
    outsider          someone with an account who has no business with alice's things
    make_user(username, email=None, password=PASSWORD, verified=True, **fields)
                      any further user
    alice_client, bob_client, outsider_client
                      django.test.Client objects, already logged in
    PASSWORD          ``from tests.support.users import PASSWORD``

Cache: each test gets a fresh cache namespace (so allauth's login throttle and other
cached state never leak from one test to the next, even on a shared Redis).

Mail:
    smtp_server       an aiosmtpd server on 127.0.0.1 collecting every message, with
                      ``wait_for(address, timeout=30, count=1)`` -> EmailMessage,
                      ``messages``, ``messages_to(address)``, ``clear()``,
                      ``text(message)``, ``links(message)`` and ``holding(address)``
                      (a slow server: mail to that address waits for the server's
                      answer until the ``with`` block ends), ``refusing(address,
                      at="RCPT")`` (a mailbox gone: a 550 to its RCPT, or with
                      at="DATA" a 554 after the message; each message read keeps
                      its envelope sender in a Return-Path). Requesting it switches
                      Django to the SMTP backend pointed at it. The Celery worker below
                      always sends to this same server.

Worker (tests need ``transactional_db``, since the worker's own connection cannot see a
test's uncommitted transaction):
    celery_worker_process
                      one real ``celery -A sefirot_site worker --pool=solo`` for the
                      session, on the test database and the site's broker (REDIS_URL
                      when set, else the filesystem transport in DATA_DIR); started on
                      first use, answered a ping before the test runs, stopped with a
                      warm shutdown at the end. ``.ping()`` returns the round trip in s;
                      it goes to ``.own_queue``, which only this worker reads, besides
                      the site's queues ``.queue`` and ``.seal_queue`` (seal renders,
                      settings.SEAL_QUEUE). Queue site tasks as usual
                      (``task.delay()``, ``delay_on_commit``) and wait on their effects.
    start_celery_worker(broker)
                      a further worker for one test on "redis" (REDIS_URL, or
                      TEST_REDIS_URL, default redis://127.0.0.1:6379/1) or
                      "filesystem"; its ``.app`` sends tasks over that broker.

Browser (mark the tests ``@pytest.mark.browser``; they fail on any error in the browser's
console (``CONSOLE_ERRORS``), and fail, never skip, when
/usr/bin/chromium is missing):
    browser           Playwright's Chromium, launched from /usr/bin/chromium
    page              a fresh page in a fresh context whose base_url is pytest-django's
                      ``live_server``, so ``page.goto("/accounts/login/")`` works
"""

from __future__ import annotations

import copy
import importlib
import os
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.support.environment import DATA_DIR, RUN_ID
from tests.support.smtp import SmtpCollector
from tests.support.users import PASSWORD
from tests.support.workers import CeleryWorker, client_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
TEST_REDIS_URL = os.environ.get("REDIS_URL") or os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/1")


# --- database -----------------------------------------------------------------------------

@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """Give the SQLite test database a file, so a worker process can open it too."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        database.setdefault("TEST", {})["NAME"] = str(DATA_DIR / "test-db.sqlite3")


def _flush_retried_after_a_database_error():
    """A transactional test ends with a flush that empties every table in one transaction
    (``_flush_by_delete_keeping_the_content_types``).  A real worker still finishing a task
    of the test (a computer's move, a mail) can meet it two ways: it holds a row of one
    table and waits for another, and PostgreSQL breaks the deadlock by failing the flush;
    or it commits a row the flush's DELETE did not see, pointing at a row the flush deleted,
    and the deferred foreign-key check fails the flush at its commit (seen in a fresh-clone
    run: the six seats' round sent its mails while the test ended).  Either way the flush
    changed nothing, and the rows left would break the next test of the worker: the
    worker's transaction is the one to wait for, then the flush runs again."""
    import time

    from django.core.management.commands import flush
    from django.db import DatabaseError

    handle = flush.Command.handle

    def handle_retrying(self, **options):
        for attempt in range(6):
            try:
                return handle(self, **options)
            except Exception as error:  # flush wraps the database error in a CommandError
                cause = error.__cause__ or error
                if attempt == 5 or not isinstance(cause, DatabaseError):
                    raise
                time.sleep(0.5 * (attempt + 1))

    flush.Command.handle = handle_retrying


_flush_retried_after_a_database_error()


def _flush_by_delete_keeping_the_content_types():
    """A transactional test's flush deletes the rows of every table in one transaction, on
    PostgreSQL too, instead of truncating them: TRUNCATE makes each of the ~50 tables'
    files anew, which took 1.2 to 1.9 s of wall time a test at a load near 10 (DELETE:
    0.15 s), and a pass has a few hundred transactional tests.  The foreign keys Django
    makes are DEFERRABLE INITIALLY DEFERRED, so the order of the deletes does not matter;
    they are checked at the commit, when every table is empty.  On both backends the
    content types and permissions stay, and the post_migrate signal that would make them
    again is not sent (0.6 to 1.1 s a test on PostgreSQL, about 0.6 s on SQLite): they are
    the migrations' own rows, which no test changes.  A flush that resets the sequences
    (``reset_sequences=True``, the default of ``manage.py flush``) is Django's own."""
    from django.core.management.commands import flush
    from django.db.backends.sqlite3.base import DatabaseWrapper as SQLite

    kept = {"django_content_type", "auth_permission"}
    operations = [SQLite.ops_class]
    try:
        from django.db.backends.postgresql.base import DatabaseWrapper as PostgreSQL
    except ImportError:  # no psycopg: the embedded defaults only
        PostgreSQLOperations = None
    else:
        PostgreSQLOperations = PostgreSQL.ops_class
        operations.append(PostgreSQLOperations)

    def keeping(own):
        def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
            if reset_sequences or not tables:
                return own(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
            tables = [table for table in tables if table not in kept]
            if type(self) is not PostgreSQLOperations:
                return own(self, style, tables, reset_sequences=False, allow_cascade=allow_cascade)
            return ["SET CONSTRAINTS ALL DEFERRED;"] + [
                f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};" for table in tables]
        return sql_flush

    for ops in operations:
        ops.sql_flush = keeping(ops.sql_flush)

    handle = flush.Command.handle

    def handle_keeping_the_content_types(self, **options):
        if not options.get("reset_sequences", True):
            options["inhibit_post_migrate"] = True
        return handle(self, **options)

    flush.Command.handle = handle_keeping_the_content_types



@pytest.fixture(scope="session", autouse=True)
def _fast_flush():
    # Once Django is set up (the backends' modules cannot be imported while the conftest is).
    _flush_by_delete_keeping_the_content_types()


def database_url(settings_dict: dict) -> str:
    """A DATABASE_URL for another process to reach the database described by settings_dict."""
    engine = settings_dict["ENGINE"]
    if engine == "django.db.backends.sqlite3":
        return f"sqlite:///{settings_dict['NAME']}"
    if engine == "django.db.backends.postgresql":
        userinfo = quote(settings_dict.get("USER") or "", safe="")
        if settings_dict.get("PASSWORD"):
            userinfo += ":" + quote(settings_dict["PASSWORD"], safe="")
        host = settings_dict.get("HOST") or ""
        port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
        return f"postgres://{userinfo}@{host}{port}/{quote(settings_dict['NAME'], safe='')}"
    raise NotImplementedError(f"no DATABASE_URL spelling for {engine}")


# --- cache --------------------------------------------------------------------------------

@pytest.fixture(autouse=True)
def _fresh_cache_namespace(settings):
    caches = copy.deepcopy(settings.CACHES)
    caches["default"]["KEY_PREFIX"] = f"test-{RUN_ID}-{uuid.uuid4().hex[:8]}"
    settings.CACHES = caches


# --- users --------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def password_hash():
    # Argon2 is slow on purpose; hash the shared password once per run. Logging in
    # through the forms still verifies it with Argon2.
    from django.contrib.auth.hashers import make_password

    return make_password(PASSWORD)


@pytest.fixture
def make_user(db, password_hash):
    return user_maker(password_hash)


def user_maker(password_hash):
    """make_user's function, for a fixture of a wider scope that opens the database itself
    (the axe walk's cast, tests/site/test_accessibility.py)."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    def make(username, email=None, password=PASSWORD, verified=True, **fields):
        email = email or f"{username}@example.com"
        user = get_user_model().objects.create(
            username=username,
            email=email,
            password=password_hash if password == PASSWORD else make_password(password),
            **fields,
        )
        EmailAddress.objects.create(user=user, email=email, verified=verified, primary=True)
        return user

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice", display_name="Alice", time_zone="Europe/Paris")


@pytest.fixture
def bob(make_user):
    return make_user("bob", display_name="Bob")


@pytest.fixture
def outsider(make_user):
    return make_user("outsider", display_name="Olive Outsider")


def _logged_in(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def alice_client(alice):
    return _logged_in(alice)


@pytest.fixture
def bob_client(bob):
    return _logged_in(bob)


@pytest.fixture
def outsider_client(outsider):
    return _logged_in(outsider)


# --- mail ---------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def _smtp_collector():
    collector = SmtpCollector().start()
    yield collector
    collector.stop()


@pytest.fixture
def smtp_server(_smtp_collector, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = _smtp_collector.host
    settings.EMAIL_PORT = _smtp_collector.port
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    _smtp_collector.clear()
    yield _smtp_collector
    _smtp_collector.clear()


# --- Celery worker ------------------------------------------------------------------------

def _worker_env(broker: str, smtp: SmtpCollector) -> dict[str, str]:
    from django.db import connection

    env = dict(os.environ)
    # The test database exists by now (the fixtures below depend on django_db_setup),
    # and the connection's settings name it (test_<name> on PostgreSQL).
    env["DATABASE_URL"] = database_url(connection.settings_dict)
    env["DJANGO_SETTINGS_MODULE"] = "sefirot_site.settings"
    env["EMAIL_BACKEND"] = "smtp"
    env["EMAIL_HOST"] = smtp.host
    env["EMAIL_PORT"] = str(smtp.port)
    # A heartbeat a second (sefirot_site.heartbeat), so /healthz sees a worker soon after
    # a transactional test's flush wiped its row.
    env["WORKER_HEARTBEAT_SECONDS"] = "1"
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    if broker == "redis":
        env["REDIS_URL"] = TEST_REDIS_URL
    elif broker == "filesystem":
        env.pop("REDIS_URL", None)
    else:
        raise ValueError(f"unknown broker {broker!r}: use 'redis' or 'filesystem'")
    return env


def _sending_app(broker: str):
    """The Celery app that reaches a worker on ``broker`` from this test process."""
    from django.conf import settings

    from sefirot_site.celery import app as site_app

    site_broker = "redis" if settings.REDIS_URL else "filesystem"
    if broker == site_broker:
        return site_app
    if broker == "redis":
        return client_app(TEST_REDIS_URL, TEST_REDIS_URL, settings.CELERY_TASK_DEFAULT_QUEUE)
    site_settings = importlib.import_module(os.environ["DJANGO_SETTINGS_MODULE"])
    broker_url, options, backend = site_settings.embedded_broker(Path(settings.DATA_DIR))
    app = client_app(broker_url, backend, settings.CELERY_TASK_DEFAULT_QUEUE)
    app.conf.broker_transport_options = options
    return app


def _start_worker(broker: str, smtp: SmtpCollector, name: str) -> CeleryWorker:
    return CeleryWorker(
        env=_worker_env(broker, smtp),
        app=_sending_app(broker),
        log_path=DATA_DIR / f"{name}.log",
        name=f"{name}-{RUN_ID}",
    ).start()


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker, _smtp_collector):
    from django.conf import settings

    broker = "redis" if settings.REDIS_URL else "filesystem"
    with django_db_blocker.unblock():
        worker = _start_worker(broker, _smtp_collector, "worker")
    yield worker
    # Stopped before django_db_setup drops the test database (it depends on it), so
    # PostgreSQL does not refuse to drop a database the worker is still connected to.
    worker.stop()


@pytest.fixture
def start_celery_worker(django_db_setup, django_db_blocker, _smtp_collector):
    started: list[CeleryWorker] = []

    def start(broker: str) -> CeleryWorker:
        with django_db_blocker.unblock():
            worker = _start_worker(broker, _smtp_collector, f"worker-{broker}-{len(started)}")
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


# --- browser ------------------------------------------------------------------------------

# What the pages of a browser test wrote to the console as errors (console.error, an
# uncaught exception); the test fails on any (issue 12).  Every context made from the
# ``browser`` fixture is watched, the ``page`` fixture's and a test's own alike.
CONSOLE_ERRORS: list[str] = []


def watch_console(context) -> None:
    def on_page(page):
        def on_console(message):
            if message.type != "error":
                return
            # Chromium's own network line for an answer the site gives on purpose (400 for a
            # refused move, 409 for a stale one, 404 for a page one may not see) is not a
            # script's error; every other line is.
            if "the server responded with a status of 4" in message.text:
                return
            CONSOLE_ERRORS.append(f"{page.url}: {message.text}")

        page.on("console", on_console)
        page.on("pageerror", lambda error: CONSOLE_ERRORS.append(f"{page.url}: uncaught {error}"))

    context.on("page", on_page)


@pytest.fixture(autouse=True)
def _no_console_errors(request):
    if request.node.get_closest_marker("browser") is None:
        yield
        return
    CONSOLE_ERRORS.clear()
    yield
    if CONSOLE_ERRORS:
        errors, CONSOLE_ERRORS[:] = list(CONSOLE_ERRORS), []
        pytest.fail("the browser's console showed errors:\n" + "\n".join(errors[:20]))


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium), "
            "or run the tests with `python3.11 dev.py test`, which does. Browser tests never skip."
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        new_context = chromium.new_context

        def watched_context(*args, **kwargs):
            context = new_context(*args, **kwargs)
            watch_console(context)
            return context

        chromium.new_context = watched_context
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(base_url=live_server.url)
    context.set_default_timeout(20_000)
    page = context.new_page()
    yield page
    context.close()
