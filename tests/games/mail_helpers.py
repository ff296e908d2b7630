"""Shared by the mail and clock tests: starting games and sending replies the real way."""

from __future__ import annotations

import smtplib
from email.message import EmailMessage
from email.utils import make_msgid

from games import services
from games.mail.outgoing import parse_reply_address
from games.models import Game


def two_player_game(alice, bob, mode="warring_planets", **kwargs) -> Game:
    """A game alice started and bob took, seat 0 alice, seat 1 bob.

    Posted as an open challenge that bob accepts, so no invitation mail is on its way to
    race the turn mails these tests wait for (a worker may send it before bob accepts)."""
    game = services.start_game(alice, mode, {}, open_challenge=True, seed=kwargs.pop("seed", 11), **kwargs)
    services.accept_challenge(game.pk, bob)
    return Game.objects.get(pk=game.pk)


def solo_game(user, **kwargs) -> Game:
    game = services.start_game(user, "know_thyself", {}, seed=kwargs.pop("seed", 7), **kwargs)
    return Game.objects.get(pk=game.pk)


def reply_address_of(message) -> str:
    address = str(message["Reply-To"]).strip("<> ")
    assert parse_reply_address(address), f"not a reply address: {address!r}"
    return address


def reply(to: str, first_line: str, *, sender: str, quoting=None) -> EmailMessage:
    """A reply as a mail client writes it: the move on top, the turn mail quoted below."""
    mail = EmailMessage()
    mail["From"] = sender
    mail["To"] = to
    mail["Subject"] = "Re: " + (str(quoting["Subject"]) if quoting is not None else "your move")
    mail["Message-ID"] = make_msgid(domain="example.com")
    if quoting is not None and quoting["Message-ID"]:
        mail["In-Reply-To"] = str(quoting["Message-ID"])
    quoted = ""
    if quoting is not None:
        body = quoting.get_body(preferencelist=("plain",)).get_content()
        quoted = "\n\nOn a day, Sefirot Online wrote:\n" + "\n".join(f"> {line}" for line in body.splitlines())
    mail.set_content(f"{first_line}{quoted}\n")
    return mail


def send_by_smtp(host: str, port: int, mail: EmailMessage) -> None:
    with smtplib.SMTP(host, port, timeout=30) as client:
        client.send_message(mail)
