"""The journal: a player's private diary of readings, and the seals rendered from them.

An entry keeps its reading as one JSON document (sections of positions, each position a
card with its Minors and orientation, see ``journal.readings``); ``EntryCard`` repeats the
cards as rows so that searching by card and counting cards for the statistics are plain
indexed queries on SQLite and PostgreSQL alike.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from journal import kinds


class Mode:
    """Names for kinds of reading (``journal.kinds`` lists them all: every game's slug,
    a physical deck's and a drawn spread's)."""

    KNOW_THYSELF = "know_thyself"
    LOVERS_DISCOURSE = "lovers_discourse"
    WARRING_PLANETS = "warring_planets"
    DREAM_ODYSSEY = "dream_odyssey"
    PHYSICAL = kinds.PHYSICAL
    DRAWN = kinds.DRAWN


def today():
    return timezone.localdate()


class Tag(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="journal_tags")
    name = models.CharField(max_length=40)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="journal_tag_unique_per_owner")]

    def __str__(self):
        return self.name


class Entry(models.Model):
    class Format(models.TextChoices):
        TEXT = "text", "Plain text"
        MARKDOWN = "markdown", "Markdown"

    # Stable across export and import, so importing the same file twice adds nothing.
    uid = models.UUIDField(default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="journal_entries")
    date = models.DateField(default=today)
    title = models.CharField(max_length=200)
    mode = models.CharField(max_length=40, choices=kinds.choices)
    reading = models.JSONField(default=dict)
    reflections = models.TextField(blank=True)
    reflections_format = models.CharField(max_length=10, choices=Format.choices, default=Format.TEXT)
    tags = models.ManyToManyField(Tag, blank=True, related_name="entries")
    source_game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="journal_entries"
    )
    source_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # None when not shared; a new token each time sharing is switched on, so a revoked
    # link never comes back to life.
    share_token = models.CharField(max_length=64, null=True, blank=True, unique=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-date", "-created", "-id"]
        verbose_name_plural = "entries"
        indexes = [models.Index(fields=["owner", "-date"], name="journal_entry_owner_date")]
        constraints = [
            models.UniqueConstraint(fields=["owner", "uid"], name="journal_entry_uid_unique_per_owner"),
            # One entry per finished game per player, however often the game signal fires.
            models.UniqueConstraint(
                fields=["source_game", "owner"],
                condition=models.Q(source_game__isnull=False),
                name="journal_entry_one_per_game_and_player",
            ),
        ]

    def __str__(self):
        return f"{self.date} {self.title}"

    def get_absolute_url(self):
        return reverse("journal:detail", args=[self.pk])


class EntryCard(models.Model):
    """One card of an entry's reading, kept in step with ``Entry.reading`` by the services."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="cards")
    card = models.CharField(max_length=4)
    # "major" for the Major Arcana, else the suit letter (c, s, p, w).
    suit = models.CharField(max_length=5)
    position = models.CharField(max_length=40)
    reversed = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["card"]), models.Index(fields=["suit"])]


class Seal(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RENDERING = "rendering", "Rendering"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seals")
    cards = models.JSONField()
    words = models.JSONField()
    # sha256 of the cards and words: one seal per input per entry, and the key the file
    # names derive from.
    input_hash = models.CharField(max_length=64)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    error = models.TextField(blank=True)
    # "<format>-<size>" -> path relative to MEDIA_ROOT, filled as each file is written.
    files = models.JSONField(default=dict)
    attempts = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [models.UniqueConstraint(fields=["entry", "input_hash"], name="journal_seal_unique_input")]

    def __str__(self):
        return f"seal {self.pk} of entry {self.entry_id} ({self.status})"

    def get_absolute_url(self):
        return reverse("journal:seal", args=[self.entry_id, self.pk])
