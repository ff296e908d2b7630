from django.conf import settings
from django.db import models

# openskill's numbers (a newcomer's mean 25, deviation 25/3) times ten read as the hundreds
# people expect of a rating.
SCALE = 10
# Until then a rating says more about the few games played than about the player, and the
# profile says "provisional": in two-player games openskill's deviation falls from 8.3 to
# 6.3 in ten games and to about 5 (a margin of ±150) in twenty.
PROVISIONAL_GAMES = 20


def shown(mu: float, sigma: float) -> int:
    """The number people read: the cautious estimate (mean less three deviations), scaled
    so a newcomer starts at 0 and a strong player reaches the hundreds."""
    return max(0, round((mu - 3 * sigma) * SCALE))


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
        return shown(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def estimate(self) -> int:
        """The best guess of the player's skill, on the shown number's scale."""
        return round(self.mu * SCALE)

    @property
    def margin(self) -> int:
        """How far the skill may lie from the estimate (three deviations), on that scale."""
        return round(3 * self.sigma * SCALE)


class RatedGame(models.Model):
    """A game whose result went into the ratings: at most once."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, primary_key=True,
                                related_name="rated")
    rated_at = models.DateTimeField(auto_now_add=True)


class RatingChange(models.Model):
    """A rating as one finished game left it: the points of the profile's chart.  Written
    with the rating, in the same transaction (``services._update``); ``rebuild`` writes the
    whole history again, which is also how history older than this table is filled in."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    mode = models.CharField(max_length=40)
    # SET_NULL: a game deleted with its last player's account leaves the other's history whole.
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(help_text="The rated games counted, this one included.")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # The profile reads one player's newest changes per game: this index serves it.
        indexes = [models.Index(fields=["user", "mode", "-games"], name="rating_change_by_player")]
        ordering = ["user", "mode", "games"]

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)
