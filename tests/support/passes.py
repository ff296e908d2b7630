"""A pytest plugin loaded with ``-p tests.support.passes`` (see pyproject.toml): which tests
a second pass on other backends must repeat.

`.ci/run` runs the suite twice: on PostgreSQL and Redis, then on the embedded defaults
(SQLite, the filesystem broker, the file cache). Only a test that reaches one of those
backends can pass on one and fail on the other; the rest (the engine's rules, the bots,
the presenters, the architecture checks, ...) would only repeat themselves. So every
test that reaches a backend is marked ``backend`` here, from the fixtures it uses (its
whole fixture closure, so ``alice`` counts through ``make_user`` and ``db``) and from
``django_db`` and ``skipif``: nobody keeps a hand list, and a new test falls in the right pass by what
it asks for. ``--backend-tests-only`` runs just those, and says what it left out and
why, grouped by file, at the end of the run (also under pytest-xdist, whose workers
collect and report back here).

A test marked ``looks`` reaches a backend only to set up what it photographs: it checks
what a page looks like in Chromium (nothing wider than a phone, axe-core's findings, a
screenshot), which is markup the server drew.  The same pages are drawn on both backends
by the test client's tests, which both passes run, so the second pass leaves these out
too (they are a fifth of its time) and lists them with their own reason.

pytest-django refuses database access to a test that did not ask for it, so the
database cannot be reached unnoticed. The cache and the broker can: a test that reaches
either without one of the fixtures below takes ``@pytest.mark.backend`` by hand.
"""

from __future__ import annotations

import collections

import pytest

# A fixture in this set anywhere in a test's closure means the test reaches a backend:
# the database (pytest-django's own fixtures), a page served by the site (the test
# client, the live server: sessions, cache, database), a Celery worker (broker).
BACKEND_FIXTURES = frozenset({
    "db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback",
    "django_db_setup", "django_user_model", "django_username_field",
    "client", "async_client", "admin_client", "admin_user", "live_server",
    "celery_worker_process", "start_celery_worker",
})
OPTION = "--backend-tests-only"
WHY = ("they use no database, test client, live server or Celery worker (tests/support/passes.py), "
       "so they pass or fail alike on every backend")
WHY_LOOKS = ("they check what pages look like in Chromium (marked `looks`: width, axe-core, screenshots); "
             "the test client's tests draw those pages on this backend too")


def pytest_addoption(parser):
    parser.getgroup("sefirot").addoption(
        OPTION, action="store_true",
        help="run only the tests that reach a database, cache or broker (marked `backend` from "
             "their fixtures): the second pass of .ci/run, on other backends",
    )


def pytest_configure(config):
    config.addinivalue_line("markers", "backend: reaches a database, cache or broker (set from the fixtures a test uses)")
    config.addinivalue_line("markers", "looks: checks only what pages look like in Chromium (width, axe-core, "
                                       "screenshots); the second pass leaves it out (tests/support/passes.py)")
    config._sefirot_left_out = None


def reaches_a_backend(item) -> bool:
    # A skipif counts too: such a test may run on one backend only (test_pg_timestamps
    # skips on SQLite), so both passes keep it and neither loses it.
    return (item.get_closest_marker("backend") is not None
            or item.get_closest_marker("django_db") is not None
            or item.get_closest_marker("skipif") is not None
            or not BACKEND_FIXTURES.isdisjoint(getattr(item, "fixturenames", ())))


# tryfirst: the marks are in place before pytest's own -m selection reads them.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        if reaches_a_backend(item) and item.get_closest_marker("backend") is None:
            item.add_marker("backend")
    if not config.getoption(OPTION):
        return
    kept, left_out = [], []
    for item in items:
        repeats = item.get_closest_marker("backend") and not item.get_closest_marker("looks")
        (kept if repeats else left_out).append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept
    by_file = collections.Counter((item.nodeid.split("::")[0], bool(item.get_closest_marker("looks")))
                                  for item in left_out)
    config._sefirot_left_out = sorted([path, looks, count] for (path, looks), count in by_file.items())
    if hasattr(config, "workerinput"):  # an xdist worker: its controller prints the report
        config.workeroutput["sefirot_left_out"] = config._sefirot_left_out


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """xdist's controller collects nothing itself: take the report from the first worker."""
    left_out = getattr(node, "workeroutput", {}).get("sefirot_left_out")
    if left_out is not None and node.config._sefirot_left_out is None:
        node.config._sefirot_left_out = left_out


def pytest_terminal_summary(terminalreporter, config):
    left_out = config._sefirot_left_out
    if left_out is None:
        return
    total = sum(count for _, _, count in left_out)
    terminalreporter.section(f"{OPTION}: {total} tests left out")
    for looks, why in ((False, WHY), (True, WHY_LOOKS)):
        rows = [(path, count) for path, is_looks, count in left_out if is_looks == looks]
        if rows:
            terminalreporter.write_line(f"Left out because {why}; the first pass ran them:")
            for path, count in rows:
                terminalreporter.write_line(f"  {count:5d}  {path}")
