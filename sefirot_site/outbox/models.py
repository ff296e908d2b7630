from __future__ import annotations

from django.db import models


class PendingTask(models.Model):
    """One consequence still to be carried out: the Celery task ``task`` with ``args``.

    Written in the transaction of its cause, so it exists exactly when the cause
    committed. ``due_at`` is when the sweep may publish it (again); ``done_at`` is set by
    the run that completed it; ``failed_at`` once ``MAX_ATTEMPTS`` runs raised.
    """

    task = models.CharField(max_length=200)
    args = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    due_at = models.DateTimeField(db_index=True)
    published_at = models.DateTimeField(null=True, blank=True)
    # Set while a worker runs it, so a copy published again meanwhile does not run twice.
    running_until = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    done_at = models.DateTimeField(null=True, blank=True)
    failed_at = models.DateTimeField(null=True, blank=True)
    result = models.CharField(max_length=200, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["due_at"], name="outbox_open_due",
                         condition=models.Q(done_at__isnull=True, failed_at__isnull=True)),
        ]

    def __str__(self):
        state = "done" if self.done_at else "failed" if self.failed_at else "pending"
        return f"{self.task}{tuple(self.args)} ({state}, {self.attempts} attempts)"
