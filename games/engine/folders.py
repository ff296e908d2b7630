"""A game's parts found by its folder's layout: ``games/engine/<folder>/`` holds the rules
(which register themselves), and beside them, under fixed names, what the bots need
(``determinize.py``, ``scoring.py``) and the board (``presenter.py``, named by the
registry's line).  So a game adds its parts as files of its own, and no shared module
lists the games.

Imports nothing of the engine: the contract's base class asks for a game's determinizer
through it.
"""

from __future__ import annotations

import importlib
from types import ModuleType


def game_folder(rules) -> str | None:
    """The package of the game's folder (``games.engine.tarot_hallow``), or None for rules
    that live elsewhere (a test's toy game)."""
    parts = type(rules).__module__.split(".")
    if parts[:2] != ["games", "engine"] or len(parts) < 4:
        return None
    return ".".join(parts[:3])


def game_part(rules, name: str) -> ModuleType | None:
    """The module ``name`` of the game's folder (its ``determinize`` or ``scoring``), or None
    when the folder has none."""
    folder = game_folder(rules)
    if folder is None:
        return None
    try:
        return importlib.import_module(f"{folder}.{name}")
    except ModuleNotFoundError as e:
        if e.name == f"{folder}.{name}":
            return None
        raise
