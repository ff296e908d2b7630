"""Hermit's Arcana, the patience of Sigils and rituals: one folder (README.md names what
is where).

Importing the folder registers the rules; the board presenter and the bots' determinizer
are imported by whoever needs them (the registry, the bots).  It has no scoring of its
own: the bots' generic scoring reads its score from the view.
"""

from . import rules  # noqa: F401  (registers the game)
