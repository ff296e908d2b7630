"""Tarot Hallow, the trick game of two to six seats who play face down at once: one
folder (README.md names what is where).

Importing the folder registers the rules; the board presenter, the bots' determinizer
and scoring are imported by whoever needs them (the registry, the bots).
"""

from . import rules  # noqa: F401  (registers the game)
