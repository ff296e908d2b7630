"""The daily deals and who played them.

A ``Deal`` is made the first time anyone asks for that day's game (``services.deal_for``),
race-free under its unique (day, mode); its seed and variation are derived from the day
alone (``services.seed_for``), so the row only remembers them and the solver's verdict.
A ``Play`` ties an account to the game it played the deal in; one per account and deal.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Deal(models.Model):
    class Solver(models.TextChoices):
        NOT_ASKED = "", "Not asked yet"
        QUEUED = "queued", "Being searched"
        WINNABLE = "winnable", "Could be won"
        UNWINNABLE = "unwinnable", "Could not be won"
        UNDECIDED = "undecided", "Not settled"  # the solver's budget ran out

    day = models.DateField(help_text="The UTC day this deal is played on.")
    mode = models.CharField(max_length=40, help_text="The engine's slug, e.g. know_thyself.")
    variant = models.CharField(max_length=40, help_text="The variation everyone plays it in.")
    seed = models.BigIntegerField()
    solver = models.CharField(max_length=12, choices=Solver.choices, blank=True, default=Solver.NOT_ASKED)
    # The winning line the solver found, in the engine's words, one move each.
    solver_line = models.JSONField(default=list, blank=True)
    solver_nodes = models.PositiveBigIntegerField(null=True, blank=True)
    solved_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["day", "mode"], name="daily_one_deal_per_day_and_game")]

    def __str__(self):
        return f"{self.mode} of {self.day}"


class Play(models.Model):
    """An account's one game of a deal, and how it ended (copied from the game when it
    finished, so the leaderboard sorts in SQL)."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="plays")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="daily_plays")
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="daily_play")
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    won = models.BooleanField(null=True, help_text="None while playing, or for a game abandoned.")
    score = models.IntegerField(null=True, blank=True)
    moves = models.PositiveIntegerField(default=0)
    seconds = models.PositiveIntegerField(null=True, blank=True, help_text="From the start to the last move.")
    # The player's choice: their reading (its seal) shown to the others who finished the deal.
    shared = models.BooleanField(default=False)
    # What is shown of it, drawn by the worker when the player first shares it
    # (tasks.draw_shared_seal): the journal entry's title, and its seal as SVG with its words.
    reading_title = models.CharField(max_length=200, blank=True)
    seal_words = models.JSONField(default=list, blank=True)
    seal_svg = models.TextField(blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["deal", "user"], name="daily_one_play_per_deal_and_account")]
        indexes = [models.Index(fields=["user", "finished_at"], name="daily_play_user_finished")]

    def __str__(self):
        return f"{self.user_id} on {self.deal}"

    @property
    def finished(self) -> bool:
        return self.finished_at is not None
