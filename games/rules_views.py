"""How to play: one page per game, in the project's own words, with its board's diagram.

A game's rules are the template ``games/<slug>/rules.html`` in its templates' folder
(extending ``games/rules/_mode.html``); a registered game with such a template is listed
and linked everywhere by itself, so a new game (Hermit's Arcana, Tarot Hallow, the 2021
prototype) adds its rules as one file.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.views.decorators.http import require_GET

from games.catalogue import modes
from games.engine import RULES
from games.registry import present


def rules_template(slug: str) -> str:
    return f"games/{slug}/rules.html"


def has_rules_page(slug: str) -> bool:
    try:
        get_template(rules_template(slug))
    except TemplateDoesNotExist:
        return False
    return True


def board_diagram(slug: str) -> dict | None:
    """The board as an empty game draws it: spaces at grid centres, and the lines between."""
    rules = RULES[slug]
    state = rules.new_game(seed=1, players=rules.min_players, options={"variant": "standard"})
    show = present(rules, state, None, interactive=False)
    if not show.board_kind or not show.cells:  # a table of seats (Tarot Hallow) has no board to draw
        return None
    spaces = [{"x": c["x"] - 0.5, "y": c["y"] - 0.5, "name": _short(c["name"]), "kind": c["kind"]}
              for c in show.cells if c["kind"] != "root"]
    lines = [tuple(float(v) for v in line) for line in show.lines]
    return {"width": show.board_width, "height": show.board_height, "spaces": spaces, "lines": lines}


def _short(name: str) -> str:
    """A space's name short enough for its circle in the diagram ("Grace Field 1" -> "Grace 1")."""
    name = name.split(" (")[0].removeprefix("the ")
    name = name.replace("Gift Field of the ", "Gift: ").replace("Grace Field", "Grace").replace(" space", "")
    return name


@require_GET
def rules_index(request):
    listed = [m for m in modes() if has_rules_page(m["slug"])]
    return render(request, "games/rules/index.html", {"modes": listed})


@require_GET
def rules_page(request, slug):
    mode = next((m for m in modes() if m["slug"] == slug), None)
    if mode is None or not has_rules_page(slug):
        raise Http404("There is no such game.")
    return render(request, rules_template(slug), {"mode": mode, "diagram": board_diagram(slug),
                                                        "modes": [m for m in modes() if has_rules_page(m["slug"])]})
