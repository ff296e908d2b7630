"""The tarot wizards table (``tarot-wizards-rpg.txt``): a game master's story where the
cards are the players' magic.  Not a turn-based game of the engine contract (no
``known_games`` entry): the site keeps characters (``characters``) and sessions
(``session``) where every draw and roll is the server's, from the table's seed."""

from . import characters, session, words  # noqa: F401
