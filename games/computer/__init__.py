"""Computer players on the site: a bot (games.bots, pure) seated as a player.

A computer player is a ``User`` with ``computer_level`` set: it has a name in every list,
no address (so it is never mailed) and no clock. When it must act, its move is recorded in
the outbox in the transaction of the move (or start) that made it so, and a worker plays
it (``tasks.play_computer_move``) through ``games.services.submit_move``, the same path as a
person's move: same locks, version, log and mails.
"""

from __future__ import annotations

# level -> (name, words for the new-game page)
LEVELS = {
    "greedy": ("Hermes", "quick"),
    "ismcts": ("Sophia", "thoughtful"),
    "ismcts_deep": ("Thoth", "deep, the strongest"),
}
DEFAULT_LEVEL = "ismcts"


def computer_player(level: str):
    """The site's computer player of ``level`` (made the first time it is asked for)."""
    from django.contrib.auth import get_user_model

    if level not in LEVELS:
        raise ValueError(f"There is no computer level {level!r}.")
    name, _ = LEVELS[level]
    user, created = get_user_model().objects.get_or_create(
        username=f"computer-{level}",
        defaults={"display_name": f"{name} (computer)", "computer_level": level, "email": "",
                  "turn_mail": "never"},
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user
