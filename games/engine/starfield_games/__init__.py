"""The two games played on the Starfield, Lovers' Discourse (together) and Warring
Planets (against each other), and their 2021 prototype editions: one folder for the
family (README.md names what is where).  The Starfield board itself is shared with the
text drawings and the terminal, so it stays in ``games/engine/starfield.py``.

Importing the folder registers the four games' rules; the board presenters, the bots'
determinizer and scoring are imported by whoever needs them (the registry, the bots).
"""

from . import lovers_discourse, lovers_discourse_2021, warring_planets, warring_planets_2021  # noqa: F401
