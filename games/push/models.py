"""A player's devices that take push notifications, the games they muted, and what was
pushed to which device (so a task run twice pushes once)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PushSubscription(models.Model):
    """One browser on one device, as its ``PushManager.subscribe()`` described it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    # The push service's address for this browser: a capability URL, unique worldwide.
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100, help_text="The browser's P-256 public key, base64url.")
    auth = models.CharField(max_length=40, help_text="The browser's 16-byte auth secret, base64url.")
    label = models.CharField(max_length=80, blank=True, help_text="Which device, from its User-Agent.")
    created_at = models.DateTimeField(auto_now_add=True)
    last_pushed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"{self.label or 'a device'} of {self.user_id}"

    def as_info(self) -> dict:
        """The subscription as pywebpush (and the browser's ``toJSON()``) spell it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class GameMute(models.Model):
    """A game whose pushes a player does not want (its mail is the profile's business)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_mute_per_game")]


class PushSent(models.Model):
    """One row per notification and device: ``key`` names the notification (``turn:<game>:
    <version>``, ``deadline:<game>:<deadline>``...), so a task run again skips the devices
    it reached."""

    subscription = models.ForeignKey(PushSubscription, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=120)
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["subscription", "key"], name="one_push_per_device")]
