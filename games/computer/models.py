from django.db import models


class Review(models.Model):
    """The computer's review of a finished solo game, computed once by a worker
    (``tasks.review_solo_game``) and kept: each of the player's moves, the computer's
    choice in its place, and the chance of winning before and after it."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Being prepared"
        DONE = "done", "Ready"
        FAILED = "failed", "Could not be made"

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, primary_key=True,
                                related_name="review")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    level = models.CharField(max_length=20)
    rows = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
