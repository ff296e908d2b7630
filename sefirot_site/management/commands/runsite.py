"""manage.py runsite: the whole site in one terminal.

Runs the migrations, then starts every process of ``sefirot_site.processes`` (web server,
Celery worker, Celery beat, ...) as children, each with its output prefixed by its name.
Ctrl-C, SIGTERM or SIGHUP stops them all (SIGTERM, then SIGKILL after a grace period) and
exits 0 when each stopped cleanly. A child that dies by itself is started again after a
pause that doubles with each death in a row (1 s, 2 s, 4 s ... at most a minute), while the
others carry on: beat ending on a broker outage once took the whole site with it. Only a
child that cannot stay up at all (``MAX_DEATHS_IN_A_ROW`` deaths, each within
``STEADY_SECONDS`` of its start: a port in use, a broken setting) stops the site, exiting
1 so that a supervisor or a terminal notices.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from sefirot_site.processes import SiteProcess, site_processes

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
# Restarting a child that died: the first pause, the longest, how long a child must run
# for its next death to count as a first one again, and how many quick deaths in a row
# mean it cannot start at all.
FIRST_PAUSE_SECONDS = 1.0
LONGEST_PAUSE_SECONDS = 60.0
STEADY_SECONDS = 60.0
MAX_DEATHS_IN_A_ROW = 5


class Supervisor:
    def __init__(self, processes: list[SiteProcess], out, grace: float = 30):
        self.processes = processes
        self.out = out
        self.grace = grace
        self.children: dict[str, subprocess.Popen] = {}
        self.started_at: dict[str, float] = {}
        self.deaths_in_a_row: dict[str, int] = {}
        self.restart_at: dict[str, float] = {}  # children waiting out their pause
        self.stop_requested = threading.Event()
        self.write_lock = threading.Lock()
        self.width = max(len(p.name) for p in processes)

    def say(self, name: str, line: str) -> None:
        with self.write_lock:
            self.out.write(f"{name.ljust(self.width)} | {line.rstrip()}\n")
            self.out.flush()

    def _pump(self, name: str, stream) -> None:
        for raw in iter(stream.readline, b""):
            self.say(name, raw.decode(errors="replace"))
        stream.close()

    def start(self) -> None:
        for process in self.processes:
            self.start_one(process)

    def start_one(self, process: SiteProcess) -> None:
        child = subprocess.Popen(
            process.argv,
            cwd=settings.BASE_DIR,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            # A process group of its own: Ctrl-C in the terminal reaches only this
            # supervisor, which then stops the children in order, and a child's own
            # children (gunicorn and Celery pool workers) can be found and ended too.
            start_new_session=True,
        )
        self.children[process.name] = child
        self.started_at[process.name] = time.monotonic()
        threading.Thread(target=self._pump, args=(process.name, child.stdout), daemon=True).start()
        self.say("site", f"started {process.name} (pid {child.pid})")

    def run(self) -> int:
        previous = {sig: signal.signal(sig, self._on_signal) for sig in STOP_SIGNALS}
        try:
            self.start()
            given_up = None
            while not self.stop_requested.wait(0.2):
                given_up = self.look_after_children()
                if given_up:
                    break
            clean = self.stop()
            return 1 if given_up or not clean else 0
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def look_after_children(self) -> str | None:
        """Start again each child that died, once its pause is over; returns the name of
        one that cannot stay up, if any."""
        now = time.monotonic()
        for process in self.processes:
            name = process.name
            if name in self.restart_at:
                if now >= self.restart_at[name] and not self.stop_requested.is_set():
                    del self.restart_at[name]
                    self.start_one(process)
                continue
            child = self.children[name]
            if child.poll() is None:
                continue
            # What it left behind (gunicorn's workers still holding the port, a pool
            # worker) goes with it, before another takes its place.
            _kill_group(child.pid, signal.SIGKILL)
            if now - self.started_at[name] >= STEADY_SECONDS:
                self.deaths_in_a_row[name] = 0
            deaths = self.deaths_in_a_row[name] = self.deaths_in_a_row.get(name, 0) + 1
            if deaths > MAX_DEATHS_IN_A_ROW:
                self.say("site", f"{name} exited with {child.returncode}, {deaths} times in a row within "
                                 f"{STEADY_SECONDS:.0f} s of starting; stopping the others")
                return name
            pause = min(FIRST_PAUSE_SECONDS * 2 ** (deaths - 1), LONGEST_PAUSE_SECONDS)
            self.say("site", f"{name} exited with {child.returncode}; starting it again in {pause:.0f} s")
            self.restart_at[name] = now + pause
        return None

    def _on_signal(self, signum, frame) -> None:
        if not self.stop_requested.is_set():
            self.say("site", f"{signal.Signals(signum).name} received; stopping")
        self.stop_requested.set()

    def stop(self) -> bool:
        """SIGTERM every child, wait, SIGKILL what is left. True if all that were running
        exited with 0 or by that SIGTERM (one that had died and waited to start again is not
        asked)."""
        running = {name: child for name, child in self.children.items() if name not in self.restart_at}
        for child in running.values():
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + self.grace
        for name, child in running.items():
            try:
                child.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.say("site", f"{name} did not stop within {self.grace:.0f}s; killing it")
                _kill_group(child.pid, signal.SIGKILL)
                child.wait()
            # Whatever the leader left behind in its group (it should have reaped them).
            _kill_group(child.pid, signal.SIGKILL)
            self.say("site", f"{name} stopped ({child.returncode})")
        # Ended by the SIGTERM sent here counts as stopped cleanly: a child just started (again)
        # may not have set up its own handler yet, and then the signal's default ends it.
        return all(child.returncode in (0, -signal.SIGTERM) for child in running.values())


def _kill_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def is_loopback(host: str) -> bool:
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name: it may resolve to anything


class Command(BaseCommand):
    help = "Migrate, then run the web server, the Celery worker and Celery beat until Ctrl-C or SIGTERM."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1", help="address the web server binds (default 127.0.0.1)")
        parser.add_argument("--port", type=int, default=8000, help="web server port (default 8000)")
        parser.add_argument("--no-migrate", action="store_false", dest="migrate", help="skip the migrations")
        parser.add_argument("--reload", action="store_true", help="restart the web server when the code changes")

    def handle(self, *args, host, port, migrate, reload, **options):
        if not 0 < port < 65536:
            raise CommandError(f"--port {port} is not a TCP port.")
        if settings.DEBUG and not is_loopback(host):
            # DEBUG shows tracebacks with settings, and the development mailbox: never to a
            # network.
            raise CommandError(f"--host {host} is reachable from other machines, and DEBUG is on. "
                               "Run with DEBUG=off (and the production settings) to serve a network, "
                               "or bind 127.0.0.1.")
        if settings.DEBUG and "SITE_URL" not in os.environ:
            # In development the links in mail point at this very server, whatever port it
            # was started on (the children read the setting from the environment).
            os.environ["SITE_URL"] = settings.SITE_URL = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}"
        if migrate:
            call_command("migrate", interactive=False, verbosity=options["verbosity"])
        if not settings.DEBUG:
            # Production serves hashed, compressed files that collectstatic prepares.
            call_command("collectstatic", interactive=False, verbosity=0)
        self.stdout.write(f"Sefirot Online on http://{host}:{port}/ (data in {settings.DATA_DIR}); Ctrl-C stops it.")
        self.stdout.flush()
        code = Supervisor(site_processes(host, port, reload), sys.stdout).run()
        if code:
            raise CommandError("the site stopped because one of its processes failed", returncode=code)
