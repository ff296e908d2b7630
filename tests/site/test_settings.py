"""Settings come from the environment through strict helpers: a bad value stops start-up
with a message that names it, and production values pass Django's deployment checks."""

import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

BASE_DIR = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "off",
    "SECRET_KEY": secrets.token_urlsafe(64),
    "ALLOWED_HOSTS": "sefirot.example.org",
    "SITE_URL": "https://sefirot.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://sefirot.example.org",
}


def manage(*args, **env):
    environment = {**os.environ, **env}
    environment.pop("DJANGO_SETTINGS_MODULE", None)
    environment.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=BASE_DIR, env=environment,
        capture_output=True, text=True, timeout=120,
    )


def test_a_bad_boolean_stops_start_up_with_a_clear_message():
    result = manage("check", DEBUG="perhaps")

    assert result.returncode != 0
    assert "DEBUG='perhaps' is not a boolean; use true/false, on/off, yes/no or 1/0." in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(("name", "value", "message"), [
    ("EMAIL_PORT", "twenty-five", "EMAIL_PORT='twenty-five' is not a whole number."),
    ("EMAIL_BACKEND", "pigeon", "EMAIL_BACKEND='pigeon' must be one of console, file, locmem, smtp."),
    ("REDIS_URL", "http://127.0.0.1:6379", "REDIS_URL='http://127.0.0.1:6379' must start with redis://"),
    ("WEB_WORKERS", "0", "WEB_WORKERS=0 is outside 1..64."),
])
def test_other_bad_values_stop_start_up_too(name, value, message):
    result = manage("check", **{name: value})

    assert result.returncode != 0
    assert message in result.stderr


def test_production_refuses_to_start_without_a_secret_key_or_host_names():
    no_key = manage("check", **{**PRODUCTION, "SECRET_KEY": ""})
    no_hosts = manage("check", **{**PRODUCTION, "ALLOWED_HOSTS": ""})

    assert "SECRET_KEY must be set to at least 50 random characters when DEBUG is off." in no_key.stderr
    assert "ALLOWED_HOSTS must list the site's host names when DEBUG is off." in no_hosts.stderr


def test_the_deployment_checks_pass_with_production_values():
    result = manage("check", "--deploy", "--fail-level", "DEBUG", **PRODUCTION)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
    assert "WARNINGS" not in result.stderr


def test_tasks_never_run_eagerly_inside_a_request():
    from sefirot_site.celery import app

    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    assert app.conf.task_always_eager is False


def test_the_scheduler_keeps_the_sites_own_entries():
    # Apps extend CELERY_BEAT_SCHEDULE; replacing it would silently drop these.
    assert settings.CELERY_BEAT_SCHEDULE["sweep-file-stores"]["task"] == "sefirot_site.sweep_file_stores"


def test_old_results_and_delivered_messages_are_swept_from_the_file_stores(settings, tmp_path):
    from sefirot_site.tasks import sweep_file_stores

    results, processed = tmp_path / "results", tmp_path / "processed"
    results.mkdir()
    processed.mkdir()
    settings.CELERY_RESULT_BACKEND = results.as_uri()
    settings.CELERY_BROKER_URL = "filesystem://"
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {"processed_folder": str(processed)}
    old = [results / "celery-task-meta-old", processed / "1_old.celery.msg"]
    fresh = [results / "celery-task-meta-fresh", processed / "2_fresh.celery.msg"]
    for path in old + fresh:
        path.write_text("{}")
    an_hour_and_more_ago = time.time() - settings.CELERY_RESULT_EXPIRES - 60
    for path in old:
        os.utime(path, (an_hour_and_more_ago, an_hour_and_more_ago))

    assert sweep_file_stores() == 2
    assert sweep_file_stores() == 0  # running it twice is harmless
    assert [path.exists() for path in old + fresh] == [False, False, True, True]
