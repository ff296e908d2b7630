"""The README's run command really starts the whole site and stops it cleanly."""

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest

from tests.support.net import free_port

BASE_DIR = Path(__file__).resolve().parents[2]
README = (BASE_DIR / "README.md").read_text()
STAMP = BASE_DIR / ".venv" / ".sefirot-install.json"


def readme_commands():
    first_block = re.search(r"```(?:sh|bash|console)?\n(.*?)```", README, re.S).group(1)
    return [line.strip() for line in first_block.splitlines() if line.strip()]


def run_command(port):
    """The README's run command, as written, when dev.py would not reinstall first (as in
    CI, where the test command just installed); otherwise what it runs: manage.py runsite."""
    assert readme_commands()[0] == "python3.11 dev.py run"
    import importlib.util

    spec = importlib.util.spec_from_file_location("dev", BASE_DIR / "dev.py")
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    up_to_date = STAMP.exists() and json.loads(STAMP.read_text())["pyproject"] == dev.wanted_install(set())["pyproject"]
    running_in_project_venv = Path(sys.prefix).resolve() == (BASE_DIR / ".venv").resolve()
    if up_to_date and running_in_project_venv:
        return [sys.executable, "dev.py", "run", "--port", str(port)]
    return [sys.executable, "manage.py", "runsite", "--port", str(port)]


def get(url, timeout=30):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def processes_with_marker(marker):
    """Pids of processes whose environment carries marker (Linux /proc)."""
    found = []
    needle = f"SEFIROT_RUN_MARKER={marker}".encode()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if needle in (entry / "environ").read_bytes().split(b"\0"):
                    found.append(int(entry.name))
            except (FileNotFoundError, PermissionError, ProcessLookupError):
                continue
    return found


@pytest.fixture
def site(tmp_path):
    port = free_port()
    marker = uuid.uuid4().hex
    env = {**os.environ, "DATA_DIR": str(tmp_path / "data"), "SEFIROT_RUN_MARKER": marker,
           "CELERY_QUEUE": f"runsite-{marker}", "WEB_WORKERS": "1", "WORKER_CONCURRENCY": "1",
           "INBOUND_SMTP_PORT": str(free_port())}
    # The README's command runs on the embedded defaults: SQLite, the filesystem broker.
    for name in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE", "EMAIL_BACKEND"):
        env.pop(name, None)
    log = open(tmp_path / "site.log", "w+b")
    process = subprocess.Popen(run_command(port), cwd=BASE_DIR, env=env, stdin=subprocess.DEVNULL,
                               stdout=log, stderr=subprocess.STDOUT)
    process.url = f"http://127.0.0.1:{port}"
    process.marker = marker
    # The whole log: each child's banner (the worker's lists every task) would push an early
    # line such as the first "started beat" out of any tail.
    process.log = lambda: (tmp_path / "site.log").read_text(errors="replace")
    yield process
    if process.poll() is None:
        process.kill()
        process.wait()
    for pid in processes_with_marker(marker):
        os.kill(pid, signal.SIGKILL)
    log.close()


def wait_until_up(site, timeout=120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert site.poll() is None, f"the site exited with {site.returncode}:\n{site.log()}"
        try:
            status, _ = get(site.url + "/", timeout=5)
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.5)
    raise AssertionError(f"the site did not answer within {timeout}s:\n{site.log()}")


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_the_run_command_starts_web_worker_and_scheduler_and_stops_cleanly(site, stop_signal):
    wait_until_up(site)

    status, body = get(site.url + "/")
    assert status == 200 and b"Sefirot Online" in body
    deadline = time.monotonic() + 60
    while True:  # the worker may still be starting when the web server already answers
        status, body = get(site.url + "/healthz")
        if status == 200 or time.monotonic() > deadline:
            break
        time.sleep(1)
    health = json.loads(body)
    assert status == 200, health
    # A card picked from one's hand is in the address; the access log keeps only the path.
    get(site.url + "/accounts/login/?pick=M13&next=/games/")
    time.sleep(0.5)
    assert '"GET /accounts/login/ HTTP/1.1" 200' in site.log()
    assert "pick=" not in site.log()
    assert health["worker"]["ok"] is True
    assert health["database"]["vendor"] == "sqlite"
    assert "beat: Starting..." in site.log()
    # No handler of beat's start failed (RedBeat's read a lock_key the embedded scheduler
    # lacked, and its traceback pushed the lines above out of the log's tail).
    assert "Signal handler" not in site.log(), site.log()
    # Mail links of a development site point at the port it was started on.
    environments = [Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
                    for pid in processes_with_marker(site.marker) if pid != site.pid]
    assert environments and all(f"SITE_URL={site.url}".encode() in env for env in environments)

    site.send_signal(stop_signal)

    assert site.wait(60) == 0, site.log()
    deadline = time.monotonic() + 10
    while processes_with_marker(site.marker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert processes_with_marker(site.marker) == [], "processes outlived the site"
    for name in ("web", "worker", "seals", "beat", "mail-in"):
        assert re.search(rf"site +\| {name} stopped \(0\)", site.log()), site.log()


@pytest.mark.parametrize("host", ["0.0.0.0", "192.0.2.7", "::", "sefirot.example.org"])
def test_it_refuses_to_serve_a_network_with_debug_on(host, settings):
    from django.core.management import CommandError, call_command

    settings.DEBUG = True
    with pytest.raises(CommandError, match="DEBUG is on"):
        call_command("runsite", "--host", host, "--no-migrate")


@pytest.mark.long(26)
def test_a_child_that_dies_is_started_again_and_the_site_carries_on(site):
    # Issue 38, item 14: beat ending on a broker outage stopped web, worker and mail
    # receiver with it ("beat exited with 1; stopping the others").
    wait_until_up(site)
    first_beat = int(re.search(r"started beat \(pid (\d+)\)", site.log()).group(1))

    os.killpg(first_beat, signal.SIGKILL)

    # The restart waits 1 s, then beat loads Django again: seconds, more on a loaded machine.
    deadline = time.monotonic() + 60
    while len(re.findall(r"started beat \(pid \d+\)", site.log())) < 2:
        assert site.poll() is None and time.monotonic() < deadline, site.log()
        time.sleep(0.2)
    assert re.search(r"site +\| beat exited with -9; starting it again in 1 s", site.log()), site.log()
    assert "stopping the others" not in site.log()
    second_beat = int(re.findall(r"started beat \(pid (\d+)\)", site.log())[-1])
    assert second_beat != first_beat
    status, _ = get(site.url + "/")
    assert status == 200
    # The new beat runs the schedule: /healthz sees it tick.
    deadline = time.monotonic() + 60
    while True:
        status, body = get(site.url + "/healthz")
        if status == 200 or time.monotonic() > deadline:
            break
        time.sleep(1)
    assert status == 200, body

    site.send_signal(signal.SIGTERM)

    assert site.wait(60) == 0, site.log()
    assert re.search(r"site +\| beat stopped \(0\)", site.log()), site.log()
