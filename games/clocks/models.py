"""What the clocks remember beside the games: vacations and the clocks they pause."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Vacation(models.Model):
    """A stretch of time a player paused their clocks; the open one has no end yet."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations")
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=models.Q(ended_at__isnull=True), name="one_open_vacation_per_user"
            ),
        ]

    def __str__(self):
        return f"vacation of {self.user_id} from {self.started_at:%Y-%m-%d}"


class PausedClock(models.Model):
    """A game whose deadline is on hold because a player to act is on vacation.

    While this row exists the game's ``deadline`` is empty; when the vacation ends the
    deadline comes back as ``now + remaining``, unless the game moved on meanwhile
    (``version`` differs), in which case services already set a fresh deadline.
    """

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="paused_clock")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    version = models.PositiveIntegerField()
    remaining = models.DurationField()
    paused_at = models.DateTimeField()

    def __str__(self):
        return f"clock of game {self.game_id} paused for {self.user_id}"
