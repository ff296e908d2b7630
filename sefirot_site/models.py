from django.db import models


class WorkerHeartbeat(models.Model):
    """A Celery worker's last sign of life, written by the worker itself every
    ``WORKER_HEARTBEAT_SECONDS`` (sefirot_site.heartbeat), read by /healthz: a health check
    that reads a row answers in milliseconds and queues nothing."""

    hostname = models.CharField(max_length=255, primary_key=True)
    seen_at = models.DateTimeField()

    def __str__(self):
        return f"{self.hostname} at {self.seen_at:%H:%M:%S}"


class ScheduleHeartbeat(models.Model):
    """When Celery beat last ran the schedule (sefirot_site.beat): one row, written by the
    beat that holds the schedule at each tick, read by /healthz, so a schedule that stopped
    (beat dead, or waiting on a broker that never came back) shows as down rather than as
    an outbox nobody sweeps."""

    THE_SCHEDULE = 1

    id = models.PositiveSmallIntegerField(primary_key=True, default=THE_SCHEDULE)
    ticked_at = models.DateTimeField()
    by = models.CharField(max_length=255, blank=True)

    def __str__(self):
        return f"schedule ticked at {self.ticked_at:%H:%M:%S} by {self.by}"


class CacheEntry(models.Model):
    """The table of Django's database cache (``CACHES``: ``DatabaseCache``), the columns
    ``createcachetable`` would make, made by a migration instead so that every database the
    site migrates has it. The cache holds allauth's rate limits (failed logins above all):
    kept in the database, they hold on every node and through a Redis outage."""

    cache_key = models.CharField(max_length=255, primary_key=True)
    value = models.TextField()
    expires = models.DateTimeField(db_index=True)

    class Meta:
        db_table = "sefirot_cache"

    def __str__(self):
        return self.cache_key
