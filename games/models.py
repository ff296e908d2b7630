"""Games in the database: a game, its seats, its move log, and what players attach to it.

The engine state lives in ``Game.state`` as the engine's ``dumps`` text and is only ever
changed by ``games.services`` (under a row lock).  It always equals the replay of
``seed`` + ``options`` + the ``Move`` log; ``manage.py verify_replays`` checks that.
Everything else on ``Game`` (``to_act``, ``outcome``) is a cache of the state, kept so that
lists of games never have to load an engine.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse

from games.engine import get_rules


def new_token() -> str:
    # 256 bits: unguessable, and safe in URLs and mail addresses (letters, digits, - and _).
    return secrets.token_urlsafe(32)


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Open challenge"  # in the lobby, waiting for anyone to accept
        INVITED = "invited", "Waiting for an invitation to be accepted"
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"  # the engine's outcome says how
        ABANDONED = "abandoned", "Abandoned"  # ended without an outcome (time-out, account gone)
        CANCELLED = "cancelled", "Cancelled"  # withdrawn before it started
        DECLINED = "declined", "Declined"  # the invited player said no

    WAITING = (Status.OPEN, Status.INVITED)
    ENDED = (Status.FINISHED, Status.ABANDONED, Status.CANCELLED, Status.DECLINED)

    class TimeControl(models.IntegerChoices):
        ONE_DAY = 1, "1 day per move"
        THREE_DAYS = 3, "3 days per move"
        SEVEN_DAYS = 7, "7 days per move"

    mode = models.CharField(max_length=40, help_text="The engine's slug, e.g. know_thyself.")
    options = models.JSONField(default=dict, help_text="Options as normalised by the engine.")
    seed = models.BigIntegerField()
    players = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    # The state version: the number of moves applied.  A page or a mail is built from one
    # version and a move sent from it is refused once the version has moved on.
    version = models.PositiveIntegerField(default=0)
    state = models.TextField(help_text="The engine's dumps() of the current state.")
    to_act = models.JSONField(default=list, help_text="Cache of rules.to_act(state).")
    outcome = models.JSONField(null=True, blank=True, help_text="Cache of rules.outcome(state).")
    end_reason = models.CharField(max_length=200, blank=True)
    # Off for a daily deal (games.daily): everyone plays the same cards on their own, so the
    # computer's advice would be an unfair help.  Only the hint while playing is refused.
    hints = models.BooleanField(default=True, help_text="Whether the computer offers hints in this game.")

    # None = no clock; else days per move.  ``deadline`` is when the seats to act run out.
    time_control = models.PositiveSmallIntegerField(choices=TimeControl.choices, null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    # The deadline a reminder was last sent for, so a reminder goes out once per deadline.
    reminded_deadline = models.DateTimeField(null=True, blank=True)

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    rematch_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches"
    )
    # Anyone may watch a public game once it has begun (games.access: the view of no seat,
    # never a hand) and find it on /games/watch/ while it is played; a private one is seen
    # by its players alone.
    public = models.BooleanField(
        default=True, help_text="Anyone may watch it (as a spectator, who sees no hand); off: only its players.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "deadline"]),
            models.Index(fields=["status", "created_at"]),
            # The games to watch (games.watch_views): public ones in play, the latest moved first.
            models.Index(fields=["-updated_at"], name="games_watchable",
                         condition=models.Q(public=True, status="active")),
        ]

    def __str__(self):
        return f"{self.title} #{self.pk}"

    def get_absolute_url(self):
        return reverse("games:game", args=[self.pk])

    @property
    def rules(self):
        return get_rules(self.mode)

    @property
    def title(self) -> str:
        try:
            return self.rules.title
        except ValueError:  # a mode whose engine is not installed any more
            return self.mode

    def load_state(self) -> dict:
        return self.rules.loads(self.state)

    @property
    def is_running(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def is_over(self) -> bool:
        return self.status in self.ENDED

    @property
    def is_daily_deal(self) -> bool:
        """Played as a day's deal (games.daily): only those games have their hints off."""
        return not self.hints

    def result_for(self, seat_index: int) -> str:
        """How a finished game ended for one seat, in words ("you won", "you lost", "a draw");
        the outcome's own ``result`` is the game's, not the seat's ("win" for both players
        of a Warring Planets game that one of them won)."""
        outcome = self.outcome
        if not outcome:
            return ""
        winners = outcome.get("winners") or []
        if seat_index in winners:
            return "you won" + (" together" if len(winners) > 1 else "")
        if winners or outcome.get("result") == "loss":
            # Partners of a cooperative game lose together, as they win together.
            return "you lost together" if self.rules.cooperative else "you lost"
        return "a draw" if outcome.get("result") == "draw" else "ended"

    @property
    def variant_list(self) -> list[str]:
        variant = self.options.get("variant", ["standard"])
        return [variant] if isinstance(variant, str) else list(variant)


class Seat(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Open to anyone"  # an open challenge's free seat
        INVITED = "invited", "Invited"  # a user or an email address was asked
        JOINED = "joined", "Playing"
        DECLINED = "declined", "Declined"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    # SET_NULL: a deleted account leaves an anonymous seat, so finished games keep their record.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    invited_email = models.EmailField(blank=True)
    # The link in an invitation mail; whoever signs up or logs in through it takes the seat.
    invite_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    # The per-seat secret for moves by mail (the Reply-To address of turn mail).
    reply_token = models.CharField(max_length=64, unique=True, default=new_token)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.JOINED)
    # Ask once more before a move that draws cards.  None = the default: on for games
    # with a clock, off otherwise.
    confirm_moves = models.BooleanField(null=True, blank=True)
    joined_at = models.DateTimeField(null=True, blank=True)
    # When the player's game page last asked for news (its polling): a turn mail waits while
    # they are looking at the game (games.mail_tasks).
    seen_at = models.DateTimeField(null=True, blank=True)
    # Set when the invitation mail went out, so a retried task never mails twice.
    invitation_mailed_at = models.DateTimeField(null=True, blank=True)
    # The player unsubscribed from this game's mail (a turn mail's List-Unsubscribe link:
    # games.mail.etiquette); their other games still mail them.
    mail_muted = models.BooleanField(default=False)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="one_seat_per_index"),
            models.UniqueConstraint(
                fields=["game", "user"], name="one_seat_per_user", condition=models.Q(user__isnull=False)
            ),
        ]

    def __str__(self):
        return f"seat {self.index} of {self.game_id}"

    @property
    def player_name(self) -> str:
        if self.user is not None:
            return str(self.user)
        if self.status == self.Status.OPEN:
            return "an open seat"
        if self.status == self.Status.INVITED and self.invited_email:
            return "an invited player"
        return "a departed player"

    @property
    def wants_confirmation(self) -> bool:
        if self.confirm_moves is not None:
            return self.confirm_moves
        return self.game.time_control is not None


class Move(models.Model):
    """One applied move: the log that, with the seed, rebuilds the game."""

    # No index of its own: the unique constraint's index (game, number) leads with the game
    # and serves every lookup by it (the log's window, a replay, a game deleted); a second
    # index only cost every move one more entry to write.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves", db_index=False)
    number = models.PositiveIntegerField(help_text="1 for the first move; the game's version after it.")
    seat = models.PositiveSmallIntegerField()
    move = models.JSONField()
    description = models.CharField(max_length=300, help_text="The engine's describe_move, for the log.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="one_move_per_number")]

    def __str__(self):
        return f"{self.game_id}#{self.number}: {self.description}"


class Note(models.Model):
    """A player's private notes on one game; nobody else ever sees them."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_notes")
    text = models.TextField(blank=True, max_length=20000)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="one_note_per_player")]


class ChatMessage(models.Model):
    """A line of the per-game chat between the seated players of a two-player game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    seat = models.PositiveSmallIntegerField()
    # SET_NULL with the text kept would keep personal data of a deleted account, so the
    # message goes with its author (CASCADE).
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(max_length=2000)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]


class GameEvent(models.Model):
    """Something that happened to a game besides its moves: a day given on the clock, a
    seat that left and is played by the house from then on.

    Shown in the game's log among the moves, but never part of the record that replays
    the game (that is the ``Move`` log alone).  Seats are kept as indexes, never names, so
    a deleted account leaves nothing personal here: the player who left is a link to
    their account (``user``), gone with the account.
    """

    class Kind(models.TextChoices):
        DAY_GIVEN = "day_given", "A day given"
        TAKEN_OVER = "taken_over", "A seat taken over by the house"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    seat = models.PositiveSmallIntegerField(help_text="The seat that acted.")
    to_seats = models.JSONField(default=list, help_text="The seats it was for (those to act then).")
    version = models.PositiveIntegerField(help_text="The game's version then: it follows that many moves.")
    # TAKEN_OVER: the player who left the seat (the seat's user is the house's now), so they
    # may still look at the game they left.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    # Set in the transaction that sends the notice, so a task run twice mails once.
    mailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self):
        return f"{self.game_id}@{self.version}: {self.get_kind_display()} by seat {self.seat}"

    def said_for(self, reader_user_id: int | None) -> tuple[str, str]:
        """A TAKEN_OVER event for a person: (who, what) as the log shows them, "You" for
        the player who left, else their name (or "A departed player" once the account is
        gone).  The seat's own name now is the house's, so the name comes from ``user``."""
        if self.user_id is not None and self.user_id == reader_user_id:
            return "You", "left the table; the house plays your seat from now on."
        name = str(self.user) if self.user is not None else "A departed player"
        whose = f"{name}'s" if self.user is not None else "that"
        return name, f"left the table; the house plays {whose} seat from now on."


# Play by mail and the clocks keep their own models (issue 6, items 5-7) in their module.
from games.mail.models import DigestSent, SeatMailSent  # noqa: E402,F401
from games.clocks.models import PausedClock, Vacation  # noqa: E402,F401
