"""A game is one folder: ``games/engine/<folder>/`` holds its rules, the bots' determinizer
and scoring, its board presenter, its rules notes and a README naming them, and
``templates/games/<slug>/`` its templates; a family whose editions share most of their
code (Know Thyself and its 2021 edition; the Starfield's two games and theirs) is one
folder.  What several games share stays beside the folders: the engine's modules at the
top of ``games/engine/``, the presenters' common parts in ``games/presenters/``, the
bots' core in ``games/bots/``.

These specs read the source and the files on disk, as ``test_imports`` does, so they hold
what the code says rather than what one run happened to load.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games import registry
from games.bots import scoring
from games.engine.determinize import builder_for
from games.engine.folders import game_folder

from .test_imports import ROOT, imports_of, project_modules

ENGINE = ROOT / "games" / "engine"
TEMPLATES = ROOT / "templates" / "games"
# What every game's folder holds besides its code.
FOLDER_FILES = ("README.md", "notes.md")
# The places several games share: nothing in them is one game's.
SHARED_PACKAGES = ("games.presenters", "games.bots")


def game_folders() -> list[str]:
    """Every folder of ``games/engine`` (each a game, a family, or the tarot wizards' table)."""
    return sorted(p.name for p in ENGINE.iterdir() if (p / "__init__.py").exists())


def folder_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if parts[:2] == ["games", "engine"] and len(parts) > 2 and parts[2] in game_folders() else None


def is_shared(module: str) -> bool:
    """A module several games use: the engine's top-level modules (and the package itself),
    the presenters' common parts, the bots' core."""
    if module == "games.engine" or (module.startswith("games.engine.") and folder_of(module) is None):
        return True
    return any(module == p or module.startswith(p + ".") for p in SHARED_PACKAGES)


LINES = registry.entries()


@pytest.mark.parametrize("line", LINES, ids=[line.slug for line in LINES])
def test_each_registered_game_keeps_its_code_in_one_folder(line):
    package = game_folder(line.rules)
    assert package is not None, f"{line.slug}'s rules live outside games/engine/<folder>/"
    folder = package.rpartition(".")[2]
    parts = {"rules": type(line.rules).__module__, "board": line.board.__name__}
    if (build := builder_for(line.rules)) is not None:
        parts["determinizer"] = build.__module__
    if (score := scoring.scorer_for(line.rules)) is not scoring.generic:
        parts["scoring"] = score.__module__
    assert {what: folder_of(module) for what, module in parts.items()} == {what: folder for what in parts}
    for name in FOLDER_FILES:
        assert (ENGINE / folder / name).is_file(), f"games/engine/{folder}/{name} is missing"


@pytest.mark.parametrize("line", LINES, ids=[line.slug for line in LINES])
def test_each_registered_game_keeps_its_templates_in_one_folder(line):
    assert (TEMPLATES / line.slug / "rules.html").is_file()
    # Nothing of the game's lies outside its folders: no shared file is named after it.
    names = {line.slug, line.slug.replace("_", "-")}
    strays = [str(path.relative_to(ROOT)) for top in ("templates", "docs", "games")
              for path in (ROOT / top).rglob("*")
              if path.is_file() and any(name in path.name for name in names)
              and not path.is_relative_to(TEMPLATES / line.slug) and not path.is_relative_to(ENGINE)]
    strays += [str(path.relative_to(ROOT)) for path in ENGINE.glob("*.py") if any(n in path.name for n in names)]
    assert strays == []


def test_no_game_imports_another_games_folder():
    """A game folder imports the shared parts and its own modules, nothing of another game
    (a family's shared code is in the family's folder) and nothing of the site above it."""
    modules = project_modules()
    offenders = []
    for name, path in modules.items():
        if (folder := folder_of(name)) is None:
            continue
        for imported in sorted(imports_of(name, path, modules)):
            if folder_of(imported) != folder and not is_shared(imported):
                offenders.append(f"{name} imports {imported}")
    assert offenders == []


def test_the_shared_parts_import_no_game():
    """What several games share knows none of them by import; the bots find a game's
    determinizer and scoring by the folder's layout (``games.engine.folders``), the
    registry names its board."""
    modules = project_modules()
    offenders = [f"{name} imports {imported}" for name, path in modules.items()
                 if is_shared(name) and name != "games.engine"
                 for imported in sorted(imports_of(name, path, modules)) if folder_of(imported)]
    assert offenders == []


def test_the_checks_see_a_stray_import():
    """The checks above are not vacuous: a game importing another game's folder is found."""
    assert folder_of("games.engine.tarot_hallow.rules") == "tarot_hallow"
    assert folder_of("games.engine.cards") is None and is_shared("games.engine.cards")
    assert not is_shared("games.engine.know_thyself.presenter") and is_shared("games.presenters.common")


# Run in a fresh interpreter in which Django cannot be imported at all: importing it (or
# any django_* app) raises, so a game module that reaches Django at import time fails.
NO_DJANGO = r"""
import importlib, json, pkgutil, sys

class NoDjango:
    def find_spec(self, name, path=None, target=None):
        if name == "django" or name.startswith(("django.", "django_")):
            raise ImportError(f"{name} is not importable here")

sys.meta_path.insert(0, NoDjango())
try:
    import django
except ImportError:
    pass
else:
    raise SystemExit("the blocker let Django in")

import games.engine
loaded = []
for folder in sys.argv[1:]:
    package = importlib.import_module(f"games.engine.{folder}")
    loaded.append(package.__name__)
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        loaded.append(importlib.import_module(info.name).__name__)
print(json.dumps({"loaded": loaded, "django": sorted(m for m in sys.modules if m.startswith("django"))}))
"""


def test_the_game_folders_import_without_django():
    folders = game_folders()
    done = subprocess.run([sys.executable, "-c", NO_DJANGO, *folders], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["django"] == []
    on_disk = {".".join(("games", "engine", *p.relative_to(ENGINE).with_suffix("").parts)).removesuffix(".__init__")
               for folder in folders for p in (ENGINE / folder).rglob("*.py")}
    assert set(result["loaded"]) == on_disk
    # Every registered game's folder is among them, its presenter, determinizer and scoring too.
    assert {game_folder(line.rules) for line in LINES} <= set(result["loaded"])
