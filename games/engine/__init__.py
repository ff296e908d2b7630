"""The pure rules engine: every game the site offers, behind one contract (ENGINE.md).

Nothing below this package imports Django; the web app, mail, bots and benchmarks all
drive games through ``get_rules(slug)`` alone.

Each game (or family of editions) is a folder here, ``<folder>/``: its rules, the bots'
determinizer and scoring, its board presenter, its rules notes and a README naming them.
The modules beside the folders are the parts several games share (README.md lists them);
none of them imports a game.

Importing the package imports every module and folder in it, and each game's folder
registers its rules (``known_games.register``): adding a game to the engine is adding its
folder here, nothing more.  The site's order and everything else the site needs of a
game is its line in ``games.registry``.
"""

from __future__ import annotations

import importlib
import pkgutil

from .base import IllegalMove, Rules
from .known_games import RULES, get_rules, register

# ``play`` is the terminal program, run as ``python -m games.engine.play``: importing it
# here first would make runpy warn that it is already in sys.modules.
NOT_GAMES = {"play"}

for _module in sorted(info.name for info in pkgutil.iter_modules(__path__)):
    if _module not in NOT_GAMES:
        importlib.import_module(f"{__name__}.{_module}")

__all__ = ["RULES", "IllegalMove", "Rules", "get_rules", "register"]
