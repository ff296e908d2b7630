"""What a notification says: the game, its address and people by name, never a card.

Each payload is JSON the service worker (``templates/installable/sw.js``) shows as it is:
``title``, ``body``, ``url`` (the game's address, opened by a click) and ``tag`` (one
notification per game: a newer one replaces the older instead of piling up).
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.timesince import timeuntil

from games.mail.outgoing import absolute, opponents
from games.models import Game, Seat


def _payload(game: Game, title: str, body: str) -> dict:
    return {"title": title, "body": body, "url": absolute(game.get_absolute_url()), "tag": f"game-{game.pk}",
            "game": game.pk}


def _with(game: Game, seat: Seat) -> str:
    against = opponents(game, seat)
    return f" with {against}" if against else ""


def turn(game: Game, seat: Seat) -> dict:
    return _payload(game, f"Your move in {game.title}",
                    f"Your game{_with(game, seat)} (game {game.pk}) waits for you.")


def invitation(game: Game, seat: Seat) -> dict:
    host = str(game.created_by) if game.created_by else "A player"
    return _payload(game, f"{host} invites you to play {game.title}",
                    f"Game {game.pk}: accept or decline on its page.")


def game_over(game: Game, seat: Seat) -> dict:
    # Worded as the game-over mail words it (games/mail/game_over.txt), the reason as given.
    if game.status == Game.Status.ABANDONED:
        result = "it ended without a result"
    else:
        result = game.result_for(seat.index) or "it ended"
    reason = (game.end_reason or (game.outcome or {}).get("reason", "")).strip()
    if reason and not reason.endswith((".", "!", "?")):
        reason += "."
    return _payload(game, f"{game.title} (game {game.pk}) has ended",
                    f"Your game{_with(game, seat)}: {result}." + (f" {reason}" if reason else ""))


def deadline(game: Game, seat: Seat) -> dict:
    left = timeuntil(game.deadline, timezone.now()) if game.deadline else "little time"
    return _payload(game, f"Time is running out in {game.title}",
                    f"Your game{_with(game, seat)} (game {game.pk}) needs your move within {left}.")
