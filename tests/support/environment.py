"""A pytest plugin loaded with ``-p tests.support.environment`` (see pyproject.toml).

It runs before pytest-django reads the Django settings, which is the only moment at which
environment variables still shape them. Conftest files load too late for this.

Each pytest process gets its own DATA_DIR (SQLite test database, embedded broker folders,
file cache, sent mail), so two runs side by side never share state, and its own Celery
queue name, so two runs against one Redis never take each other's tasks.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from pathlib import Path

DATA_DIR = Path(tempfile.mkdtemp(prefix="sefirot-test-"))
RUN_ID = uuid.uuid4().hex[:12]

os.environ["DATA_DIR"] = str(DATA_DIR)
os.environ["CELERY_QUEUE"] = f"test-{RUN_ID}"
os.environ["CACHE_KEY_PREFIX"] = f"test-{RUN_ID}"
# Development defaults, whatever the shell exported: tests set production values
# themselves where they test them.
os.environ["DEBUG"] = "on"
os.environ.pop("EMAIL_BACKEND", None)
# A finished solo game asks the worker to search its deal (games.solutions). At the site's
# budget, up to 30 CPU seconds, the one worker of a test (a solo pool) would spend that long
# on it ahead of the mail, seals and computer moves the test waits for; a small budget
# settles or gives up in about a second. The solver's own specs set the budgets they need.
os.environ.setdefault("SOLVER_MAX_NODES", "20000")
os.environ.setdefault("SOLVER_MAX_SECONDS", "3")
# The solo games' advisor (hint and review) on a small budget, the same in the test process
# and in the workers it starts, so a review a worker makes agrees with the hints the test
# followed; the advisor's specs set their own.
os.environ.setdefault("ADVICE_ITERATIONS", "10")
# Playwright's sync API runs an asyncio loop in the test thread; Django's guard would
# otherwise refuse ORM calls from tests that drive a browser. The usual setting with
# pytest-django + Playwright.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"


def pytest_report_header(config):
    return [f"sefirot: DATA_DIR={DATA_DIR} celery queue={os.environ['CELERY_QUEUE']}"]


def pytest_unconfigure(config):
    if os.environ.get("SEFIROT_KEEP_TEST_DATA"):
        print(f"\nsefirot: test data kept in {DATA_DIR}")
        return
    shutil.rmtree(DATA_DIR, ignore_errors=True)
