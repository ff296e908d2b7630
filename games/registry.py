"""Every game the site offers, one line each: what the site needs of it, found in one place.

A line names the game's folder (``games/engine/<folder>/``: its rules, which register
themselves under the slug, its board presenter, the bots' determinizer and scoring, its
rules notes; its templates are ``templates/games/<slug>/``), the board module of that
folder that presents it on the page and lays its reading out for the journal
(``present`` and ``reading_layout``; ``presenter`` unless the line says another), and
the words of the new-game page for its variations. Its text drawing for mail and the terminal is the
engine's own (``Rules.text_drawing``); its title and summary too.

A game with no line here (an engine that just landed) still plays: ``entry`` gives it
the generic board, the generic reading and the catalogue's words, and lists it after the
others.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Callable

# The game folders' board modules are imported by name here, not by the folders themselves,
# so the engine's rules never load presenters.
import games.engine.dream_odyssey.presenter
import games.engine.hermits_arcana.presenter
import games.engine.know_thyself.presenter
import games.engine.starfield_games.presenter
import games.engine.tarot_hallow.presenter
from games.engine import RULES, Rules, get_rules
from games.engine import dream_odyssey, hermits_arcana, know_thyself, starfield_games, tarot_hallow
from games.presenters import Presentation, generic

# Words for the variations, shared by the games that have them (the project's own words).
VARIANT_TEXT = {
    "standard": "The rules as written, with nothing changed.",
    "meditative": "Every Major absorbs twice its value, so each Sefira needs more Minors: a longer, "
                  "slower game.",
    "fated": "A Minor may only go onto a shortest column of the Material Plane, so fewer choices are "
             "open each turn.",
    "numerology": "A sacred number (6 to 10) is drawn first; a match is any set in a row or column whose "
                  "values add up to a multiple of it, instead of cards of one suit.",
    "noble": "A Guard that is a court card can only be beaten by another court card.",
    "outnumber": "Several raised Minors may attack one Guard together when their values add up to at "
                 "least the Guard's.",
    # The 2021 prototype edition's variations.
    "easy": "Every Major absorbs twice its value.",
    "expert": "There are no Grace Fields: a raised card that fits no Major loses the game.",
    "freethought": "Every Major is resolved by any Minor laid on it; the reading is marked tainted.",
}


@dataclass(frozen=True)
class GameEntry:
    slug: str
    board: ModuleType = generic  # present(rules, state, view, seat, moves, pick) and reading_layout(...)
    variant_text: dict[str, str] = field(default_factory=dict)  # beside VARIANT_TEXT, or overriding it
    # Another edition of a game (the 2021 prototype): the slug of the game it is an edition
    # of, the edition's name and one sentence on what differs. The new-game page offers it
    # as a choice under that game rather than as a game of its own.
    edition_of: str = ""
    edition: str = ""
    differs: str = ""

    @property
    def rules(self) -> Rules:
        return get_rules(self.slug)

    @property
    def reading_layout(self) -> Callable[[dict, dict | None], dict]:
        return self.board.reading_layout

    @property
    def text_drawing(self) -> Callable[[dict], list[str]] | None:
        return self.rules.text_drawing

    def describe_variant(self, name: str) -> str:
        return self.variant_text.get(name) or VARIANT_TEXT.get(name, "")


GAMES: dict[str, GameEntry] = {}


def add(entry: GameEntry) -> GameEntry:
    GAMES[entry.slug] = entry
    return entry


# The site's order is the order of these lines.
add(GameEntry("know_thyself", board=know_thyself.presenter))
add(GameEntry("lovers_discourse", board=starfield_games.presenter))
add(GameEntry("warring_planets", board=starfield_games.presenter))
add(GameEntry("dream_odyssey", board=dream_odyssey.presenter))
add(GameEntry("tarot_hallow", board=tarot_hallow.presenter))
add(GameEntry("hermits_arcana", board=hermits_arcana.presenter))

# The 2021 prototype edition (issue 17): its family's boards, chosen as an edition of the game.
import games.engine.know_thyself.presenter_2021  # noqa: E402  (kept beside its lines, for merging)
import games.engine.starfield_games.presenter_2021  # noqa: E402, F401

PROTOTYPE_2021 = "2021 prototype"
add(GameEntry("know_thyself_2021", board=know_thyself.presenter_2021, edition_of="know_thyself", edition=PROTOTYPE_2021,
              differs="As first printed: Minors fill the plane in reading order and rise when a row or "
                      "column totals 10, 20 or 30, may go straight onto a Major, and two Majors side by "
                      "side may share a bridge."))
add(GameEntry("lovers_discourse_2021", board=starfield_games.presenter_2021, edition_of="lovers_discourse",
              edition=PROTOTYPE_2021,
              differs="As first printed: Minors rise when a row or column totals 10, 20 or 30, there "
                      "are no Gift Fields, and you feed your partner's Major only beside one of yours."))
add(GameEntry("warring_planets_2021", board=starfield_games.presenter_2021, edition_of="warring_planets",
              edition=PROTOTYPE_2021,
              differs="As first printed: Minors rise at 10, 20 or 30, Guards are played from the hand, "
                      "and a Major's points go to whoever resolves it."))


def entry(slug: str) -> GameEntry:
    """The game's line, or the generic one for an engine without a line; ValueError for
    a slug no engine knows."""
    get_rules(slug)
    return GAMES.get(slug) or GameEntry(slug)


def entries() -> list[GameEntry]:
    """Every game the site offers, in the site's order: the registry's lines first, then
    any registered engine without one."""
    listed = [GAMES[slug] for slug in GAMES if slug in RULES]
    return listed + [GameEntry(slug) for slug in RULES if slug not in GAMES]


def present(rules: Rules, state: dict, seat: int | None, *, pick: str | None = None,
            interactive: bool = True) -> Presentation:
    """Everything the game page shows of ``state`` to ``seat`` (None: a spectator or a
    replay), drawn by the game's board module from that seat's view and legal moves."""
    view = rules.view(state, seat)
    moves = rules.legal_moves(state, seat) if (interactive and seat is not None) else []
    return entry(rules.slug).board.present(rules, state, view, seat, moves, pick)
