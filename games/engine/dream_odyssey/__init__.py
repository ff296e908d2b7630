"""Dream Odyssey: the solo adventure of Sefirot (rulebook "Dream Odyssey", RULINGS.md section 6).

The player travels the Tree of Life from its root to the Crown, facing the Minor stacks each
Sefira hosts with the pip cards in hand, helped by a Party of court cards and Majors whose
22 powers bend the rules.  Four wounds end the journey; overcoming the Crown wins it.  Every
event adds a line to the Unfolding Tale, told from the landscape, place and person tables.

State: one JSON-able dict.  Piles are lists with index 0 the top.  ``phase`` names what the
player must decide now:

``travel``      start of a turn: travel along a branch, or (outside an encounter) use a
                Major's power or spend Party cards on assistance / inspiration
``arrive``      on reaching a guarded Sefira, before its encounter: the same outside actions,
                or ``enter`` (offered only when some outside action is possible)
``encounter``   fighting: ``play`` a pip against an encountered card, ``augment`` it with a
                Party court, ``defeat`` an encountered court with a Party court of its suit or
                rank, use an encounter power, then ``resolve``
``guard``       Justice may stop the wound or the court discard about to happen (``power``
                or ``pass``)
``draw``        a draw from the top or the bottom of the Minors deck (``draw_top`` /
                ``draw_bottom``): after a wound, for The Hermit and The Hanged Man
``hope``        right after an encounter, The Star may take a card just defeated
``introspect``  after a lost encounter: discard one of the bottom three of the deck
``priestess``   The High Priestess: which of the three goes back (``replace``)
``keep``        which looked-at card to keep (The Empress, Death, Moon, Sun, World)
``order``       the order the rest go back in, one ``place`` at a time
``bargain``     The Devil: which of the three drawn becomes a wound (``wound``)
``tower``       The Tower: which encountered cards fall (``target``, then ``done``)
``gate``        The Gate: which card to take from the discard pile (``take``)
``pay``         the second court paid for assistance or inspiration (``pay``)
``discarding``  two or more cards leave together (an encounter's end, The Wheel of Fortune's
                hand, The Magician's stack): the player puts them on the discard pile one
                at a time (``discard``), or the rest at once in the usual order
                (``discard_rest``)
``over``        the game has ended; ``result`` says how

Steps still to run after a choice (the rest of an encounter's resolution, say) wait in the
``queue`` as small JSON lists, so a half-resolved encounter survives ``dumps``/``loads``.

The parts, each readable on its own: ``journey`` (set-up, piles, travel and help),
``encounters`` (the fights at each Sefira), ``powers`` (the 22 Majors and the choices
they ask for), ``tale`` (the view, words and reading); ``game`` combines them and
registers the game; ``common`` holds what they share.
"""

from __future__ import annotations

from .game import RULES, DreamOdyssey

__all__ = ["RULES", "DreamOdyssey"]
