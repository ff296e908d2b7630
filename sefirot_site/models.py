from django.db import models


class WorkerHeartbeat(models.Model):
    """A Celery worker's last sign of life, written by the worker itself every
    ``WORKER_HEARTBEAT_SECONDS`` (sefirot_site.heartbeat), read by /healthz: a health check
    that reads a row answers in milliseconds and queues nothing."""

    hostname = models.CharField(max_length=255, primary_key=True)
    seen_at = models.DateTimeField()

    def __str__(self):
        return f"{self.hostname} at {self.seen_at:%H:%M:%S}"
