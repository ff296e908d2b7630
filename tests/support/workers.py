"""A real Celery worker in a child process, bound to the test database and a broker."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from celery import Celery

BASE_DIR = Path(__file__).resolve().parents[2]
PING_TASK = "sefirot_site.ping"


def celery_command() -> list[str]:
    """The venv's ``celery`` script, next to the Python that runs the tests."""
    script = Path(sys.executable).parent / "celery"
    return [str(script)] if script.exists() else [sys.executable, "-m", "celery"]


def client_app(broker_url: str, backend_url: str, queue: str) -> Celery:
    """A Celery app that only sends: for talking to a worker on a broker other than the site's."""
    app = Celery("sefirot-test-client", broker=broker_url, backend=backend_url, set_as_current=False)
    app.conf.update(
        task_default_queue=queue,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        broker_connection_retry_on_startup=True,
    )
    return app


class CeleryWorker:
    """``start()`` launches ``celery -A sefirot_site worker --pool=solo`` and returns once a
    ping task has made the round trip; ``stop()`` asks for a warm shutdown (SIGTERM) and
    kills the process group only if that does not finish in time.

    Besides the site's queues (its default one and the seals') the worker reads a queue of
    its own, and ``ping()`` goes there: with several workers on one broker, an answer
    proves that this one is up."""

    def __init__(self, *, env: dict[str, str], app: Celery, log_path: Path, name: str):
        self.env = env
        self.app = app
        self.log_path = log_path
        self.name = name
        self.process: subprocess.Popen | None = None
        self.returncode: int | None = None
        self.queue = env.get("CELERY_QUEUE") or "celery"
        # Named as sefirot_site.settings.SEAL_QUEUE names it from the same environment.
        self.seal_queue = env.get("CELERY_SEAL_QUEUE") or f"{self.queue}-seals"
        self.own_queue = f"{name}-own"

    def start(self, timeout: float = 120) -> "CeleryWorker":
        command = [
            *celery_command(), "-A", "sefirot_site", "worker",
            "--pool=solo", "--loglevel=INFO", f"--hostname={self.name}@%h",
            f"--queues={self.queue},{self.seal_queue},{self.own_queue}",
            # Nothing to gossip with in a test: skip the chatter and the start-up wait.
            "--without-gossip", "--without-mingle", "--without-heartbeat",
        ]
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                command, cwd=BASE_DIR, env=self.env, stdin=subprocess.DEVNULL,
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the Celery worker exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                self.ping(timeout=min(10, max(1, deadline - time.monotonic())))
                return self
            except Exception as error:  # noqa: BLE001 - any failure means "not ready yet"
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"the Celery worker did not answer within {timeout}s ({error!r}):\n{self.log_tail()}") from error

    def ping(self, timeout: float = 10) -> float:
        """Send the site's ping task to this worker and wait for its result; returns the
        round trip in seconds."""
        started = time.monotonic()
        result = self.app.send_task(PING_TASK, expires=timeout, queue=self.own_queue)
        try:
            assert result.get(timeout=timeout, interval=0.05) == "pong"
        finally:
            with contextlib.suppress(FileNotFoundError):
                result.forget()
        return time.monotonic() - started

    def stop(self, timeout: float = 30) -> int | None:
        if self.process is None or self.returncode is not None:
            return self.returncode
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.returncode = self.process.returncode
        return self.returncode

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except FileNotFoundError:
            return "(no log)"
