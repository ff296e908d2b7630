"""Computer players on the site: a bot (games.bots, pure) seated as a player.

A computer player is a ``User`` with ``computer_level`` set: it has a name in every list,
no address (so it is never mailed) and no clock. When it must act, its move is recorded in
the outbox in the transaction of the move (or start) that made it so, and a worker plays
it (``tasks.play_computer_move``) through ``games.services.submit_move``, the same path as a
person's move: same locks, version, log and mails.  A quick level's move is also played
by the request of the person's move that asked for it (``answer``), through the same path
(``play``): whichever comes second finds it played.

A table may seat several computer players of one level. A user holds one seat of a game,
so each level has a numbered line of players (``computer_player(level, number)``): the
first is the level's own ("Sophia (computer)"), the next ones carry a numeral ("Sophia II
(computer)"), so every page, mail and log tells them apart by name.
"""

from __future__ import annotations

# level -> (name, words for the new-game page)
LEVELS = {
    "greedy": ("Hermes", "quick"),
    "ismcts": ("Sophia", "thoughtful"),
    "ismcts_deep": ("Thoth", "deep, the strongest"),
}
DEFAULT_LEVEL = "ismcts"
# A table has at most six seats, so at most six computer players of one level.
MOST_OF_A_LEVEL = 6
NUMERALS = ("", "II", "III", "IV", "V", "VI")


def computer_name(level: str, number: int = 1) -> str:
    """The name the ``number``-th computer player of ``level`` goes by."""
    name, _ = LEVELS[level]
    numeral = NUMERALS[number - 1]
    return f"{name} {numeral} (computer)" if numeral else f"{name} (computer)"


def computer_player(level: str, number: int = 1):
    """The site's ``number``-th computer player of ``level`` (made the first time it is
    asked for); the first keeps the level's plain user name, as it always had."""
    from django.contrib.auth import get_user_model

    if level not in LEVELS:
        raise ValueError(f"There is no computer level {level!r}.")
    if type(number) is not int or not 1 <= number <= MOST_OF_A_LEVEL:
        raise ValueError(f"There is no computer player number {number!r}.")
    username = f"computer-{level}" if number == 1 else f"computer-{level}-{number}"
    user, created = get_user_model().objects.get_or_create(
        username=username,
        defaults={"display_name": computer_name(level, number), "computer_level": level, "email": "",
                  "turn_mail": "never"},
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def computer_players(levels: list[str]) -> list:
    """One computer player for each level listed, in order, numbered within each level so
    that no two are the same player: ``["ismcts", "greedy", "ismcts"]`` gives Sophia,
    Hermes and Sophia II."""
    counts: dict[str, int] = {}
    players = []
    for level in levels:
        counts[level] = counts.get(level, 0) + 1
        players.append(computer_player(level, counts[level]))
    return players
