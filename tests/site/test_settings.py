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
    ("LOGIN_FAILED_RATE_LIMIT", "lots", "LOGIN_FAILED_RATE_LIMIT='lots' must be rates such as 10/m/ip,5/5m/key"),
    ("SITE_URL", "sefirot.example.org", "SITE_URL='sefirot.example.org' must be http:// or https:// and a host name"),
    ("DATA_DIR", "/proc/no/such/folder", "DATA_DIR='/proc/no/such/folder' cannot be created"),
    ("TRUSTED_PROXY_COUNT", "-1", "TRUSTED_PROXY_COUNT=-1 is outside 0..10."),
])
def test_other_bad_values_stop_start_up_too(name, value, message):
    result = manage("check", **{name: value})

    assert result.returncode != 0
    assert message in result.stderr


@pytest.mark.parametrize(("value", "problem"), [
    ("nonsense", "it has no scheme"),
    ("mysql://sefirot:hunter2@db.example.org/sefirot", "the scheme 'mysql' is neither"),
    ("postgres://postgres@127.0.0.1:5432", "it names no database"),
])
def test_a_database_url_the_site_cannot_use_stops_start_up_without_showing_its_password(value, problem):
    result = manage("check", DATABASE_URL=value)

    assert result.returncode != 0
    assert ("DATABASE_URL must be postgres://user:password@host:5432/name or sqlite:////absolute/path.sqlite3; "
            f"{problem}.") in result.stderr
    assert "hunter2" not in result.stderr and "Traceback" not in result.stderr


def test_production_refuses_to_start_without_a_secret_key_host_names_or_the_sites_address():
    no_key = manage("check", **{**PRODUCTION, "SECRET_KEY": ""})
    no_hosts = manage("check", **{**PRODUCTION, "ALLOWED_HOSTS": ""})
    no_address = manage("check", **{**PRODUCTION, "SITE_URL": ""})

    assert "SECRET_KEY must be set to at least 50 random characters when DEBUG is off." in no_key.stderr
    assert "ALLOWED_HOSTS must list the site's host names when DEBUG is off." in no_hosts.stderr
    # Otherwise every link in the site's mail would point at 127.0.0.1:8000.
    assert "SITE_URL must give the site's address (https://...) when DEBUG is off." in no_address.stderr


def setting(name, **env):
    """The value a fresh process computes for a setting under ``env``."""
    result = subprocess.run(
        [sys.executable, "-c", f"from django.conf import settings; print(repr(settings.{name}))"],
        cwd=BASE_DIR, env={**os.environ, "DJANGO_SETTINGS_MODULE": "sefirot_site.settings", **env},
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return eval(result.stdout)  # noqa: S307 - the repr of a setting we printed ourselves


def test_behind_a_proxy_allauth_takes_the_client_address_the_proxy_passes_on():
    assert setting("ALLAUTH_TRUSTED_PROXY_COUNT") == 0  # nobody's X-Forwarded-For is believed
    assert setting("ALLAUTH_TRUSTED_PROXY_COUNT", BEHIND_PROXY="on") == 1
    assert setting("ALLAUTH_TRUSTED_PROXY_COUNT", BEHIND_PROXY="on", TRUSTED_PROXY_COUNT="2") == 2


def test_redis_url_makes_redis_the_broker_and_the_result_store(tmp_path):
    with_redis = {"REDIS_URL": "redis://127.0.0.1:6379/7", "DATA_DIR": str(tmp_path)}

    assert setting("CELERY_BROKER_URL", **with_redis) == "redis://127.0.0.1:6379/7"
    assert setting("CELERY_RESULT_BACKEND", **with_redis) == "redis://127.0.0.1:6379/7"


def test_without_redis_the_broker_lives_in_the_data_folder(tmp_path):
    without = {"REDIS_URL": "", "DATA_DIR": str(tmp_path)}

    assert setting("CELERY_BROKER_URL", **without) == "filesystem://localhost/"
    assert setting("CELERY_BROKER_TRANSPORT_OPTIONS['data_folder_in']", **without) == str(tmp_path / "broker" / "queue")
    assert setting("CELERY_RESULT_BACKEND", **without) == (tmp_path / "results").as_uri()


@pytest.mark.parametrize("redis_url", ["", "redis://127.0.0.1:6379/7"], ids=["embedded", "redis"])
def test_the_cache_of_the_login_throttle_is_the_database_with_redis_or_without(tmp_path, redis_url):
    # Counters in Redis stopped counting while it was away (issue 38, item 19).
    assert setting("CACHES['default']['BACKEND']", REDIS_URL=redis_url, DATA_DIR=str(tmp_path)) == \
        "django.core.cache.backends.db.DatabaseCache"


def test_development_mail_is_written_to_files_in_the_data_folder(tmp_path):
    result = manage("sendtestemail", "someone@example.com", DATA_DIR=str(tmp_path))

    assert result.returncode == 0, result.stderr
    [sent] = list((tmp_path / "sent-mail").iterdir())
    assert "To: someone@example.com" in sent.read_text()


def test_production_mail_goes_by_smtp_to_the_server_the_environment_names(smtp_server, tmp_path):
    result = manage("sendtestemail", "someone@example.com", DATA_DIR=str(tmp_path), **PRODUCTION,
                    EMAIL_HOST=smtp_server.host, EMAIL_PORT=str(smtp_server.port),
                    DEFAULT_FROM_EMAIL="Sefirot Online <play@sefirot.example.org>")

    assert result.returncode == 0, result.stderr
    message = smtp_server.wait_for("someone@example.com")
    assert message["From"] == "Sefirot Online <play@sefirot.example.org>"
    assert not (tmp_path / "sent-mail").exists()


def test_the_deployment_checks_pass_with_production_values():
    result = manage("check", "--deploy", "--fail-level", "DEBUG", **PRODUCTION)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
    assert "WARNINGS" not in result.stderr


@pytest.mark.parametrize(("setting", "value", "check"), [
    ("SITE_URL", "http://sefirot.example.org", "sefirot.W001"),
    ("ALLOWED_HOSTS", "*", "sefirot.W002"),
])
def test_the_deployment_checks_warn_of_a_plain_http_site_url_and_any_host(setting, value, check):
    result = manage("check", "--deploy", **{**PRODUCTION, setting: value})

    assert check in result.stderr, result.stdout + result.stderr


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
