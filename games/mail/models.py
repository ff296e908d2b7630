"""What play by mail remembers beside the games themselves.

Imported by ``games.models`` so Django sees these models as part of the games app; only
the mail package writes them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class SeatMailSent(models.Model):
    """One row per mail about a seat at a game version, so a task run twice never mails twice."""

    class Kind(models.TextChoices):
        TURN = "turn", "Turn mail"
        GAME_OVER = "game_over", "Game over"
        REVEAL = "reveal", "Cards revealed"  # to a seat not asked to act just then

    seat = models.ForeignKey("games.Seat", on_delete=models.CASCADE, related_name="mails_sent")
    version = models.PositiveIntegerField(help_text="The game's version the mail was built from.")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.TURN)
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["seat", "version", "kind"], name="one_seat_mail_per_version"),
        ]


class DigestSent(models.Model):
    """One daily digest per player and day (the player's own calendar day)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "day"], name="one_digest_per_day")]
