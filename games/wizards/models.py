"""Tables, their members, characters and sessions.  A session keeps its whole state (the
engine's JSON, hidden cards included: only ``services`` and the per-viewer ``view`` read
it) and a version that every change bumps under a row lock."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse


def new_seed() -> int:
    return secrets.randbits(48)


def new_token() -> str:
    return secrets.token_urlsafe(32)


class Table(models.Model):
    name = models.CharField(max_length=120)
    gm = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="wizard_tables_run")
    campaign = models.CharField(max_length=200, blank=True, help_text="What the campaign is about, in a line.")
    # A slow table (a post a day): its members get one digest of the day's log each day.
    slow = models.BooleanField(default=False)
    seed = models.BigIntegerField(default=new_seed)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated", "-id"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("wizards:table", args=[self.pk])


class Member(models.Model):
    class Status(models.TextChoices):
        INVITED = "invited", "Invited"
        JOINED = "joined", "Joined"
        DECLINED = "declined", "Declined"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="wizard_memberships")
    # An invitation by address to someone who may not have an account yet.
    email = models.EmailField(blank=True)
    token = models.CharField(max_length=64, unique=True, default=new_token)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.INVITED)
    created = models.DateTimeField(auto_now_add=True)
    # The player unsubscribed from this table's mail (games.mail.etiquette).
    mail_muted = models.BooleanField(default=False)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["table", "user"], condition=models.Q(user__isnull=False),
                                               name="wizards_one_membership_per_user")]

    @property
    def name(self) -> str:
        return str(self.user) if self.user_id else self.email


class Character(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="characters")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="wizard_characters")
    name = models.CharField(max_length=80)
    # [{"position", "card", "reversed", "note"}] in the order of characters.POSITIONS
    spread = models.JSONField(default=list)
    spread_drawn_by_site = models.BooleanField(default=False)
    spread_seed = models.BigIntegerField(null=True, blank=True)
    skills = models.JSONField(default=dict)  # position id -> skill
    extra_skills = models.JSONField(default=list)  # skills gained in play
    practice_name = models.CharField(max_length=80, blank=True)
    practice = models.JSONField(default=dict)  # suit -> aspect
    prime = models.CharField(max_length=1)
    wounds = models.PositiveSmallIntegerField(default=0)
    scars = models.PositiveSmallIntegerField(default=0)
    dead = models.BooleanField(default=False)
    notes = models.TextField(blank=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["table", "owner"], name="wizards_one_character_per_table")]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("wizards:sheet", args=[self.pk])

    @property
    def all_skills(self) -> list[str]:
        return [s for s in self.skills.values() if s] + list(self.extra_skills)


class PlaySession(models.Model):
    class Status(models.TextChoices):
        LIVE = "live", "In play"
        OVER = "over", "Over"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="sessions")
    number = models.PositiveIntegerField()
    title = models.CharField(max_length=120, blank=True)
    state = models.JSONField()
    acts = models.JSONField(default=list)  # [[key, move], ...]: with the first state, the record
    start = models.JSONField()  # the state as dealt, for replay
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=5, choices=Status.choices, default=Status.LIVE)
    started = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    ended = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="wizards_session_number")]

    def __str__(self):
        return f"{self.table} · session {self.number}"

    def get_absolute_url(self):
        return reverse("wizards:session", args=[self.pk])


class SessionSeat(models.Model):
    """A participant of a session as mail sees them: the key in the state, a reply token,
    and what their last "asked to act" mail showed (its version and hand)."""

    session = models.ForeignKey(PlaySession, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="wizard_seats")
    key = models.CharField(max_length=20)
    reply_token = models.CharField(max_length=64, unique=True, default=new_token)
    mailed_version = models.PositiveIntegerField(null=True, blank=True)
    mailed_hand = models.JSONField(default=list)
    seen_at = models.DateTimeField(null=True, blank=True)
    digested_upto = models.PositiveIntegerField(default=0)  # log entries already in a digest

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "key"], name="wizards_seat_key")]


class AskMailSent(models.Model):
    """One "asked to act" mail per seat and version, however often the task runs."""

    seat = models.ForeignKey(SessionSeat, on_delete=models.CASCADE, related_name="mails")
    version = models.PositiveIntegerField()
    sent = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["seat", "version"], name="wizards_ask_mail_once")]


class TableDigestSent(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    sent = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "day"], name="wizards_digest_once_a_day")]


class SessionEntry(models.Model):
    """The journal entry a session left a participant (one each, however often asked)."""

    session = models.ForeignKey(PlaySession, on_delete=models.CASCADE, related_name="journal_links")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey("journal.Entry", null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "user"], name="wizards_one_entry_per_session")]
