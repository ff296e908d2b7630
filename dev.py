#!/usr/bin/env python3.11
"""Set up and run Sefirot Online with nothing but Python 3.11 (standard library only).

    python3.11 dev.py run  [runsite options]   install into .venv, migrate, run the site
    python3.11 dev.py test [pytest arguments]  install into .venv (with test tools), run the tests

The virtual environment is .venv next to this file. pip runs only when pyproject.toml
changed since the last install (a stamp file in .venv remembers), so the second start is
quick. The test command makes sure Chromium is there for the browser tests: it installs
Debian's chromium when running as root, and stops with a message otherwise; the browser
tests are never skipped. The whole suite runs in parallel (PARALLEL: pytest-xdist's workers,
each with its own data folder, test database, Celery worker and browser), with any options
given (`dev.py test -x`); arguments that name tests (a file, a folder, a node id) run in one
process (`dev.py test tests/site -x`), as do arguments that choose the workers themselves.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
VENV_PYTHON = VENV / "bin" / "python"
STAMP = VENV / ".sefirot-install.json"
CHROMIUM = Path("/usr/bin/chromium")
USAGE = __doc__.split("\n\n")[1]
# The whole suite's default: four workers on two cores. Much of a test's time is spent
# waiting on other processes (Chromium, a Celery worker, a site started for the test,
# a poll's interval), which another worker fills. worksteal: an idle worker takes tests
# queued for a busy one, so a slow file does not hold up the end.
PARALLEL = ["-n", "4", "--dist", "worksteal"]
# A whole run ends with its twenty slowest tests, the list the README's test section
# explains; one of them is the floor of the suite's time, however many workers there are.
SLOWEST = ["--durations=20"]


def say(message: str) -> None:
    print(f"dev.py: {message}", file=sys.stderr, flush=True)


def fail(message: str, code: int = 2) -> None:
    say(message)
    raise SystemExit(code)


def run(command: list[str], **kwargs) -> None:
    result = subprocess.run(command, **kwargs)
    if result.returncode:
        fail(f"`{' '.join(map(str, command))}` failed with exit code {result.returncode}", result.returncode)


def ensure_venv() -> None:
    if VENV_PYTHON.exists():
        probe = subprocess.run([str(VENV_PYTHON), "-c", "import sys; print(sys.version_info[:2] == (3, 11))"],
                               capture_output=True, text=True)
        if probe.stdout.strip() == "True":
            return
        say(f"{VENV} is broken or not Python 3.11; making it again")
        shutil.rmtree(VENV)
    say(f"creating the virtual environment {VENV}")
    venv.EnvBuilder(with_pip=True).create(VENV)


def wanted_install(extras: set[str]) -> dict:
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    return {"pyproject": digest, "extras": sorted(extras)}


def ensure_installed(extras: set[str]) -> None:
    try:
        done = json.loads(STAMP.read_text())
    except (FileNotFoundError, ValueError):
        done = {}
    wanted = wanted_install(extras)
    # An install that had more extras (test) serves a run that needs fewer.
    if done.get("pyproject") == wanted["pyproject"] and extras <= set(done.get("extras", [])):
        return
    target = f".[{','.join(sorted(extras))}]" if extras else "."
    say(f"installing the project and its dependencies ({target}) into {VENV}")
    run([str(VENV_PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "--quiet", "-e", target], cwd=ROOT)
    STAMP.write_text(json.dumps(wanted))


# What the browser tests need of Debian's packages: the browser, and a D-Bus daemon for the
# desktop notification centre that shows its notifications (tests/support/notification_center.py).
BROWSER_PACKAGES = {"chromium": CHROMIUM, "dbus-daemon": Path("/usr/bin/dbus-daemon")}


def ensure_chromium() -> None:
    missing = [name for name, path in BROWSER_PACKAGES.items() if not path.exists()]
    if not missing:
        return
    if os.geteuid() == 0 and shutil.which("apt-get"):
        say(f"{', '.join(missing)} missing; installing Debian's package{'s' if len(missing) > 1 else ''}")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        run(["apt-get", "update"], env=env, stdin=subprocess.DEVNULL)
        run(["apt-get", "install", "-y", "--no-install-recommends", *missing], env=env, stdin=subprocess.DEVNULL)
    if not CHROMIUM.exists():
        fail(
            f"{CHROMIUM} is missing and the browser tests need it. Install Debian's chromium "
            "(sudo apt-get install chromium), or run this command as root to have it installed. "
            "The browser tests are never skipped.",
        )
    if not BROWSER_PACKAGES["dbus-daemon"].exists():
        fail("/usr/bin/dbus-daemon is missing and the notification tests need it. Install Debian's dbus-daemon "
             "(sudo apt-get install dbus-daemon), or run this command as root to have it installed.")


def parallel_unless_chosen(args: list[str]) -> list[str]:
    """PARALLEL and SLOWEST for the whole suite; nothing when args name tests or the workers."""
    names_tests = any(Path(arg.split("::")[0]).exists() for arg in args if not arg.startswith("-"))
    chooses_workers = any(arg.split("=")[0] in {"-n", "--numprocesses", "--dist"} or arg.startswith("-n")
                          or arg == "no:xdist" for arg in args)
    return [] if names_tests or chooses_workers else PARALLEL + SLOWEST


def main(argv: list[str]) -> None:
    if sys.version_info[:2] != (3, 11):
        fail(f"Sefirot Online needs Python 3.11; this is {sys.version.split()[0]}. Run: python3.11 dev.py ...")
    if not argv or argv[0] not in {"run", "test"}:
        print(USAGE, file=sys.stderr)
        raise SystemExit(2)
    command, rest = argv[0], argv[1:]
    os.chdir(ROOT)
    ensure_venv()
    if command == "run":
        ensure_installed(set())
        argv = [str(VENV_PYTHON), str(ROOT / "manage.py"), "runsite", *rest]
    else:
        ensure_installed({"test"})
        ensure_chromium()
        argv = [str(VENV_PYTHON), "-m", "pytest", *parallel_unless_chosen(rest), *rest]
    # Replace this process: Ctrl-C and SIGTERM go straight to the site or to pytest.
    os.execv(argv[0], argv)


if __name__ == "__main__":
    main(sys.argv[1:])
