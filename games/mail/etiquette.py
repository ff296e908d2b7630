"""One-click unsubscribe on the mail a player gets about their turns (RFC 2369's
``List-Unsubscribe``, RFC 8058's ``List-Unsubscribe-Post``).

Every turn mail, reminder, game-over mail and digest names an address that stops it: a
mail about one game stops that game's mail (a mute on the player's seat; their other
games still mail them), a digest stops all turn mail (the profile's preference set to
"never").  A mail client's "Unsubscribe" button POSTs ``List-Unsubscribe=One-Click`` to
the address without a cookie, a CSRF token or a login (RFC 8058 asks exactly that), so
the address itself is the key: its token is signed (``django.core.signing``, the site's
``SECRET_KEY``) and says whose mail and which; a link scanner that only GETs it gets a
page with a button to confirm, and changes nothing.

What can be muted is registered per kind of table (``add_kind``), as mail tables are
(``games.mail.tables``): the site's games here, the tarot wizards tables in
``games.wizards.mail_seats``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from django.contrib.auth import get_user_model
from django.core import signing
from django.conf import settings
from django.urls import reverse

from games.models import Seat

SALT = "games.mail.unsubscribe"
ALL = "all"


@dataclass(frozen=True)
class Kind:
    """A kind of thing whose mail a player can stop: ``about(pk, user)`` says it in words
    for that player (None when it is not theirs), ``mute(pk, user, muted)`` sets it."""

    about: Callable[[int, object], str | None]
    mute: Callable[[int, object, bool], None]


KINDS: dict[str, Kind] = {}


def add_kind(name: str, about, mute) -> None:
    KINDS[name] = Kind(about, mute)


@dataclass
class Unsubscribe:
    """The unsubscribe links of one mail to ``user``: ``header`` the one-click address of
    its ``List-Unsubscribe`` header, ``links`` what its footer offers, in words."""

    user: object
    header: str
    links: list[tuple[str, str]]

    @property
    def headers(self) -> dict:
        return {"List-Unsubscribe": f"<{self.header}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}


def _address(payload: list) -> str:
    return settings.SITE_URL + reverse("mail:unsubscribe", args=[signing.dumps(payload, salt=SALT, compress=True)])


def _stop_all(user) -> str:
    # The preference the mail was sent under comes along, so "mail me again" restores it.
    return _address([user.pk, ALL, user.turn_mail])


def about_one(user, kind: str, pk: int, what: str) -> Unsubscribe:
    """For a mail about one thing (a game's seat, a table's membership): the one-click
    address stops that thing's mail; the footer offers all turn mail too."""
    one = _address([user.pk, kind, pk])
    return Unsubscribe(user, one, [(f"Stop mail about {what}", one), ("Stop all mail about your turns", _stop_all(user))])


def about_all(user) -> Unsubscribe:
    """For a digest (several games at once): the one-click address stops all turn mail."""
    every = _stop_all(user)
    return Unsubscribe(user, every, [("Stop all mail about your turns", every)])


@dataclass
class Request:
    """What a valid unsubscribe address asks, read back from its token."""

    user: object
    kind: str  # ALL or a registered kind
    pk: int | None
    before: str  # for ALL: the preference to restore on "mail me again"
    what: str  # in words, for the page

    def apply(self, muted: bool) -> None:
        if self.kind == ALL:
            User = type(self.user)
            self.user.turn_mail = User.TurnMail.NEVER if muted else (self.before or User.TurnMail.EACH_TURN)
            self.user.save(update_fields=["turn_mail"])
        else:
            KINDS[self.kind].mute(self.pk, self.user, muted)


def read(token: str) -> Request | None:
    """The request a token from one of our mails makes, or None for anything else (a token
    altered, made up, or for an account or a game that is gone)."""
    try:
        payload = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    if not isinstance(payload, list) or len(payload) != 3 or not isinstance(payload[0], int):
        return None
    user = get_user_model().objects.filter(pk=payload[0], is_active=True).first()
    if user is None:
        return None
    kind, pk = payload[1], payload[2]
    if kind == ALL:
        valid = {choice.value for choice in user.TurnMail}
        return Request(user, ALL, None, pk if pk in valid else "", "your turns")
    if kind not in KINDS or not isinstance(pk, int):
        return None
    what = KINDS[kind].about(pk, user)
    return Request(user, kind, pk, "", what) if what else None


# --- the site's games -------------------------------------------------------------------------


def _game_seat(pk: int, user):
    return Seat.objects.select_related("game").filter(pk=pk, user=user).first()


def _about_game(pk: int, user) -> str | None:
    seat = _game_seat(pk, user)
    if seat is None:
        return None
    others = [s.player_name for s in seat.game.seats.select_related("user").exclude(pk=seat.pk)]
    with_ = (" with " + (", ".join(others[:-1]) + " and " + others[-1] if len(others) > 1 else others[0])) \
        if others else ""
    return f"{seat.game.title}{with_} (game {seat.game_id})"


def _mute_game(pk: int, user, muted: bool) -> None:
    Seat.objects.filter(pk=pk, user=user).update(mail_muted=muted)


add_kind("game", _about_game, _mute_game)


def about_seat(seat) -> Unsubscribe:
    """The unsubscribe links of a mail about ``seat``'s game."""
    return about_one(seat.user, "game", seat.pk, "this game")
