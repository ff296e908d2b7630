from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """The site's user; profile fields live here so every query has them at hand."""

    class TurnMail(models.TextChoices):
        EACH_TURN = "each", "A mail for each turn"
        DAILY_DIGEST = "daily", "One daily digest"
        NEVER = "never", "Never"

    display_name = models.CharField(max_length=60, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC")
    turn_mail = models.CharField(max_length=5, choices=TurnMail.choices, default=TurnMail.EACH_TURN)
    # Set for the site's computer players only (games.computer): the bot level they play at.
    computer_level = models.CharField(max_length=20, blank=True, default="")

    @property
    def is_computer(self) -> bool:
        return bool(self.computer_level)

    def __str__(self):
        return self.display_name or self.username
