"""Celery beat's schedulers (``CELERY_BEAT_SCHEDULER``): the one of the embedded defaults
and RedBeat's with Redis, each recording its ticks in the database (``ScheduleHeartbeat``,
read by /healthz), and RedBeat's made to ride out a Redis outage.

RedBeat as published ends the beat process at the first Redis error of a tick: extending
its lock raises ``ConnectionError`` while Redis is away, ``LockNotOwnedError`` once Redis
came back without the lock (restarted empty, or the lock lapsed and another beat took
it), and a lock never taken at start-up leaves ``None`` to extend (sibson/redbeat issues
#285, #230, #208). Its ``retry_period`` option retries the client's own commands only,
not the lock's. Here a tick that meets Redis away waits and tries again; a lock that was
lost is taken again when free (the schedule's entries installed again, since a Redis that
restarted empty lost them too), and left to the other beat when it holds it.
"""

from __future__ import annotations

import logging
import os
import socket
import time

from celery.beat import PersistentScheduler
from redbeat.schedulers import LUA_EXTEND_TO_SCRIPT, RedBeatScheduler, get_redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import LockError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

REDIS_AWAY = (RedisConnectionError, RedisTimeoutError)
# Written at most this often: a tick may come every few milliseconds when tasks are due.
RECORD_EVERY_SECONDS = 1.0


def record_tick(by: str) -> None:
    from django.db import close_old_connections
    from django.utils import timezone

    from .models import ScheduleHeartbeat

    close_old_connections()  # beat keeps one connection for hours: drop it if it went stale
    ScheduleHeartbeat.objects.update_or_create(pk=ScheduleHeartbeat.THE_SCHEDULE,
                                               defaults={"ticked_at": timezone.now(), "by": by[:255]})


class RecordsTicks:
    """Each tick that ran the schedule writes the time in the database, so /healthz can tell
    a schedule that stopped (a dead beat, a lock nobody holds) from one that runs."""

    _recorded_at = 0.0

    def record(self) -> None:
        if time.monotonic() - self._recorded_at < RECORD_EVERY_SECONDS:
            return
        try:
            record_tick(f"{socket.gethostname()}:{os.getpid()}")
            self._recorded_at = time.monotonic()
        except Exception as error:  # noqa: BLE001 - a missed record only ages the row
            log.warning("beat: the schedule's tick was not recorded: %s", error)


class LocalScheduler(RecordsTicks, PersistentScheduler):
    """The embedded defaults' scheduler: Celery's own, its state in a file in DATA_DIR."""

    # Importing this module connects RedBeat's beat_init handler, which reads the
    # scheduler's lock_key whatever its class: without one it logged an AttributeError's
    # traceback at every start (and runsite's spec, reading the log's tail, lost the
    # "beat: Starting..." line behind it). None tells the handler there is no lock to take.
    lock_key = None

    def tick(self, *args, **kwargs):
        interval = super().tick(*args, **kwargs)
        self.record()
        return interval


class SiteRedBeatScheduler(RecordsTicks, RedBeatScheduler):
    """RedBeat (the schedule and its lock in Redis, so one beat of many schedules) that
    waits out a Redis outage instead of ending the process."""

    #: Seconds between tries while Redis is away or another beat holds the lock.
    retry_seconds = 5.0
    _installed = False

    def setup_schedule(self):
        try:
            super().setup_schedule()
            self._installed = True
        except REDIS_AWAY as error:
            # At start-up: the first tick that reaches Redis installs the entries.
            log.warning("beat: Redis is away (%s); the schedule is installed once it is back", error)

    def tick(self, *args, **kwargs):
        try:
            if self.lock_key and self.lock is None and not self._take_lock():
                return self.retry_seconds  # another beat schedules; ours waits for its lock
            if not self._installed:
                self.setup_schedule()
                if not self._installed:
                    return self.retry_seconds
            interval = super().tick(*args, **kwargs)
        except REDIS_AWAY as error:
            # The lock, if Redis kept it, is extended at the next tick; if it lapsed
            # meanwhile, that tick finds it lost and takes it again.
            log.warning("beat: Redis is away (%s); the schedule waits %s s", error, self.retry_seconds)
            return self.retry_seconds
        except LockError as error:
            log.warning("beat: the schedule's lock was lost (%s); taking it again when it is free", error)
            self.lock = None
            return 0
        self.record()
        return interval

    def _take_lock(self) -> bool:
        """RedBeat's start-up lock (``acquire_distributed_beat_lock``), without waiting."""
        client = get_redis(self.app)
        lock = client.lock(self.lock_key, timeout=self.lock_timeout, sleep=self.max_interval)
        lock.lua_extend = client.register_script(LUA_EXTEND_TO_SCRIPT)
        if not lock.acquire(blocking=False):
            return False
        log.info("beat: Acquired lock")
        self.lock = lock
        # A Redis that restarted empty lost the entries with the lock; installing them
        # again keeps the times of those it still has.
        self._installed = False
        return True

    def close(self):
        try:
            super().close()
        except (*REDIS_AWAY, LockError) as error:
            # Stopping while Redis is away: the lock lapses by itself.
            log.warning("beat: the lock was not released (%s)", error)
            self.lock = None
