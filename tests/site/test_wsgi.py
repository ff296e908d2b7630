"""The WSGI application gunicorn loads: what it loaded at start-up is frozen out of the
garbage collector's passes, and it still answers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_application_freezes_what_it_loaded_and_still_answers():
    # A process of its own, as a gunicorn worker is: this test process has its own heap.
    probe = (
        "import gc, io, sefirot_site.wsgi as w\n"
        "frozen = gc.get_freeze_count()\n"
        "answer = []\n"
        "w.application({'REQUEST_METHOD': 'GET', 'PATH_INFO': '/accounts/login/', 'SERVER_NAME': 'localhost',"
        " 'SERVER_PORT': '80', 'wsgi.input': io.BytesIO(), 'wsgi.url_scheme': 'http'},"
        " lambda status, headers: answer.append(status))\n"
        "print(frozen, answer[0])\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "sefirot_site.settings"}
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    frozen, status = done.stdout.split(maxsplit=1)
    assert int(frozen) > 10_000  # Django and the apps: tens of thousands of objects
    assert status.strip().startswith("200")
