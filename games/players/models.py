from django.conf import settings
from django.db import models


class Follow(models.Model):
    """``follower`` follows ``followed``: their open challenges show on the follower's My
    games. One-sided, like a bookmark: the followed player is not asked."""

    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # The unique pair makes a doubled follow (two tabs, a double click) a no-op.
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(condition=~models.Q(follower=models.F("followed")), name="follow_no_self"),
        ]
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return f"{self.follower_id} follows {self.followed_id}"
