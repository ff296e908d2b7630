import secrets

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models, router

from sefirot_site.prepared import PreparedQuery

from .names import name_key


class SiteUserManager(UserManager):
    def get(self, *args, **kwargs):
        """``get(pk=...)`` with a whole number, as Django's authentication asks on every
        request of a signed-in player (``ModelBackend.get_user``), reads through a query
        compiled once (``sefirot_site.prepared``); any other lookup is the queryset's.
        Through the queryset, that read built and compiled its SQL anew each time: in
        process (callgrind), an htmx move took 15.13 M instructions with it and 13.93 M
        without, a poll 4.28 M and 3.09 M."""
        user_id = kwargs.get("pk")
        # No id lies outside a bigint: SQLite would refuse such a value (OverflowError),
        # where the queryset finds no row.
        if args or len(kwargs) != 1 or type(user_id) is not int or not 0 < user_id < 2**63 \
                or self._db is not None:
            return super().get(*args, **kwargs)
        users = _BY_ID(user_id, using=router.db_for_read(self.model))
        if not users:
            raise self.model.DoesNotExist(f"{self.model._meta.object_name} matching query does not exist.")
        return users[0]


def new_calendar_token() -> str:
    # 256 bits: the calendar's address is its only key (a calendar app fetches it unsigned).
    return secrets.token_urlsafe(32)


class User(AbstractUser):
    """The site's user; profile fields live here so every query has them at hand."""

    class TurnMail(models.TextChoices):
        EACH_TURN = "each", "A mail for each turn"
        DAILY_DIGEST = "daily", "One daily digest"
        NEVER = "never", "Never"

    display_name = models.CharField(max_length=60, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC")
    turn_mail = models.CharField(max_length=5, choices=TurnMail.choices, default=TurnMail.EACH_TURN)
    # Others see only the name on the player's profile page (games.players); the player
    # still appears by name in their games, in searches and in the lobby.
    profile_private = models.BooleanField(default=False)
    # Set for the site's computer players only (games.computer): the bot level they play at.
    computer_level = models.CharField(max_length=20, blank=True, default="")
    # What the two names read as (accounts.names.name_key), kept by save() so that a name
    # that only looks like another's is found by one indexed query.
    username_key = models.TextField(blank=True, default="", db_index=True, editable=False)
    display_name_key = models.TextField(blank=True, default="", db_index=True, editable=False)

    # The secret part of the address of the player's calendar of deadlines
    # (games.clocks.calendar); renewed from the profile, after which the old address is dead.
    calendar_token = models.CharField(max_length=64, default=new_calendar_token, editable=False)
    # An address a mail to which failed for good (a 5xx at sending, or a bounce report for
    # it: games.mail.bounces). While it is still the account's address no mail goes to it;
    # the profile says so and clears it.
    undeliverable_email = models.EmailField(blank=True, default="")
    undeliverable_since = models.DateTimeField(null=True, blank=True)
    undeliverable_reason = models.CharField(max_length=300, blank=True, default="")

    objects = SiteUserManager()

    def save(self, *args, **kwargs):
        self.username_key, self.display_name_key = name_key(self.username), name_key(self.display_name)
        fields = kwargs.get("update_fields")
        if fields is not None and {"username", "display_name"} & set(fields):
            kwargs["update_fields"] = set(fields) | {"username_key", "display_name_key"}
        super().save(*args, **kwargs)

    @property
    def mail_undeliverable(self) -> bool:
        """Whether the account's address is the one that bounced: no mail goes to it."""
        return bool(self.undeliverable_email) and self.undeliverable_email.lower() == (self.email or "").lower()

    @property
    def is_computer(self) -> bool:
        return bool(self.computer_level)

    def __str__(self):
        return self.display_name or self.username


# Built with the queryset's own filter, which the manager's get above does not touch.
_BY_ID = PreparedQuery(lambda user_id: User.objects.filter(pk=user_id), 1)
