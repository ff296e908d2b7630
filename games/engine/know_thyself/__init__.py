"""Know Thyself, the solitaire of the Tree of Life, and its 2021 prototype edition: one
folder for the family (README.md names what is where).

Importing the folder registers both games' rules; the board presenters, the bots'
determinizer and scoring are imported by whoever needs them (the registry, the bots), so
the rules never load the presenters' code.
"""

from . import rules, rules_2021  # noqa: F401  (each registers its game)
