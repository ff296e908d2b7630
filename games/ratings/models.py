from django.conf import settings
from django.db import models


class Rating(models.Model):
    """A player's skill at one game: openskill's mean and uncertainty."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    mode = models.CharField(max_length=40, help_text="The engine's slug, e.g. warring_planets.")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "mode"], name="one_rating_per_user_and_game")]
        ordering = ["mode", "-mu"]

    @property
    def shown(self) -> int:
        """The number people read: the cautious estimate (mean less three deviations),
        scaled so a newcomer starts at 0 and a strong player reaches the hundreds."""
        return max(0, round((self.mu - 3 * self.sigma) * 10))


class RatedGame(models.Model):
    """A game whose result went into the ratings: at most once."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, primary_key=True,
                                related_name="rated")
    rated_at = models.DateTimeField(auto_now_add=True)
