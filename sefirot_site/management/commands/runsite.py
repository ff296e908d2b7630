"""manage.py runsite: the whole site in one terminal.

Runs the migrations, then starts every process of ``sefirot_site.processes`` (web server,
Celery worker, Celery beat, ...) as children, each with its output prefixed by its name.
Ctrl-C, SIGTERM or SIGHUP stops them all (SIGTERM, then SIGKILL after a grace period) and
exits 0 when each stopped cleanly; if one dies by itself, the others are stopped and the
command exits 1, so a supervisor or a terminal notices.
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


class Supervisor:
    def __init__(self, processes: list[SiteProcess], out, grace: float = 30):
        self.processes = processes
        self.out = out
        self.grace = grace
        self.children: dict[str, subprocess.Popen] = {}
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
            threading.Thread(target=self._pump, args=(process.name, child.stdout), daemon=True).start()
            self.say("site", f"started {process.name} (pid {child.pid})")

    def run(self) -> int:
        previous = {sig: signal.signal(sig, self._on_signal) for sig in STOP_SIGNALS}
        try:
            self.start()
            died = None
            while not self.stop_requested.wait(0.2):
                died = next((name for name, child in self.children.items() if child.poll() is not None), None)
                if died:
                    self.say("site", f"{died} exited with {self.children[died].returncode}; stopping the others")
                    break
            clean = self.stop()
            return 1 if died or not clean else 0
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def _on_signal(self, signum, frame) -> None:
        if not self.stop_requested.is_set():
            self.say("site", f"{signal.Signals(signum).name} received; stopping")
        self.stop_requested.set()

    def stop(self) -> bool:
        """SIGTERM every child, wait, SIGKILL what is left. True if all exited with 0."""
        for child in self.children.values():
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + self.grace
        for name, child in self.children.items():
            try:
                child.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.say("site", f"{name} did not stop within {self.grace:.0f}s; killing it")
                _kill_group(child.pid, signal.SIGKILL)
                child.wait()
            # Whatever the leader left behind in its group (it should have reaped them).
            _kill_group(child.pid, signal.SIGKILL)
            self.say("site", f"{name} stopped ({child.returncode})")
        return all(child.returncode == 0 for child in self.children.values())


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
