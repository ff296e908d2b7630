"""The scheduler runs exactly once however many nodes start it: two real beat processes
on a Redis of the test's own; only the lock holder sends tasks, and when it dies the other
takes over within a minute."""

from __future__ import annotations

import os
import signal
import subprocess
import time

import pytest

from tests.support.environment import DATA_DIR, RUN_ID
from tests.support.redis_server import RedisServer
from tests.support.workers import BASE_DIR, celery_command


class Beat:
    def __init__(self, name: str, env: dict):
        self.log_path = DATA_DIR / f"beat-{name}-{RUN_ID}.log"
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                [*celery_command(), "-A", "sefirot_site", "beat", "--loglevel", "INFO",
                 "--schedule", str(DATA_DIR / f"beat-{name}-schedule")],
                cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def sends(self) -> int:
        return self.log().count("Sending due task")

    def has_lock(self) -> bool:
        return "beat: Acquired lock" in self.log()

    def ended(self) -> str:
        """How beat ended, in its log's words."""
        return "beat ended: " + " ".join(line for line in self.log().splitlines() if "CRITICAL" in line)

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def wait_for(condition, timeout: float, what: str) -> float:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if condition():
            return time.monotonic() - started
        time.sleep(0.25)
    raise AssertionError(f"{what} did not happen within {timeout}s")


@pytest.fixture
def beats():
    redis = RedisServer().start()
    env = {**os.environ, "REDIS_URL": redis.url, "DJANGO_SETTINGS_MODULE": "sefirot_site.settings",
           "OUTBOX_SWEEP_SECONDS": "5", "BEAT_LOCK_SECONDS": "15"}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    started: list[Beat] = []

    def start(name: str) -> Beat:
        beat = Beat(name, env)
        started.append(beat)
        return beat

    yield start
    for beat in started:
        beat.kill()
    redis.close()


@pytest.mark.long(33)
def test_only_one_beat_schedules_and_another_takes_over_when_it_dies(beats):
    first = beats("first")
    wait_for(first.has_lock, 60, "the first beat taking the lock")
    second = beats("second")
    wait_for(lambda: first.sends() >= 2, 60, "the first beat sending its tasks")
    time.sleep(6)  # the second has had its chances to take the lock by now

    assert not second.has_lock() and second.sends() == 0, second.log()

    first.kill()
    took_over = wait_for(second.has_lock, 60, "the second beat taking over")
    wait_for(lambda: second.sends() >= 1, 30, "the second beat sending tasks")

    assert took_over < 60
    print(f"scheduler moved in {took_over:.1f} s")
