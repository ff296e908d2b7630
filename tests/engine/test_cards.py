"""The 78 cards: codes, names, suits, ranks, values, keywords and seal symbols (RULINGS 1-2)."""

from __future__ import annotations

import unicodedata

import pytest

from games.engine import cards
from games.engine.cards import CARDS, COURTS, DECK, MAJORS, MINORS


def test_there_are_78_cards_with_the_ruled_codes():
    assert len(DECK) == len(set(DECK)) == 78
    assert MAJORS == tuple(f"M{n}" for n in range(22))
    assert len(MINORS) == 56
    assert {"9p", "Qp", "Pp", "Nw", "10c", "Aw", "M18"} <= set(DECK)
    assert not any("Tree" in c.name or "Abyss" in c.name for c in CARDS.values())


@pytest.mark.parametrize("code, name", [
    ("9p", "Nine of Pentacles"), ("Qp", "Queen of Pentacles"), ("Pp", "Page of Pentacles"),
    ("Nw", "Knight of Wands"), ("10c", "Ten of Cups"), ("Aw", "Ace of Wands"),
    ("M18", "The Moon"), ("M20", "The Gate"), ("M0", "The Fool"), ("Ks", "King of Swords"),
])
def test_names_follow_sefirot(code, name):
    assert cards.name(code) == name


def test_xx_is_judgement_only_in_hermits_arcana():
    assert cards.name("M20", "hermits_arcana") == "Judgement"
    assert cards.name("M20", "know_thyself") == "The Gate"


def test_values_in_sefirot():
    assert [cards.value(f"{r}c") for r in cards.RANKS] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                                          10, 10, 10, 10]
    assert [cards.value(m) for m in MAJORS] == list(range(22))


def test_suits_ranks_and_courts():
    assert cards.suit_of("10w") == "w" and cards.rank_of("10w") == "10"
    assert cards.suit_of("M3") is None and cards.rank_of("M3") is None
    assert COURTS == {f"{r}{s}" for r in "PNQK" for s in "cspw"}
    assert cards.is_court("Qc") and not cards.is_court("10c") and not cards.is_court("M3")
    assert cards.is_major("M0") and cards.is_minor("Ac")
    assert cards.is_card("Kw") and not cards.is_card("M22") and not cards.is_card(["Kw"])


def test_labels_and_short_names_read_well():
    assert cards.label("M19") == "XIX The Sun" and cards.label("9p") == "Nine of Pentacles"
    assert cards.short_name("9p") == "9 of Pentacles" and cards.short_name("Ac") == "Ace of Cups"
    assert cards.short_name("Qc") == "Queen of Cups" and cards.short_name("M9") == "The Hermit"


def test_every_card_has_one_keyword_of_its_own():
    words = [CARDS[c].keyword for c in DECK]
    assert all(w and w.isalpha() and w.islower() for w in words)
    assert len(set(words)) == 78


def test_seal_symbols_follow_the_meaning_column():
    assert CARDS["M1"].meaning == "Mercury" and CARDS["M1"].glyph == "\u263f"  # not Mars
    assert CARDS["M16"].glyph == "\u2642"
    for code, shape in [("M0", "triangle-up-bar"), ("M12", "triangle-down"),
                        ("M20", "triangle-up"), ("M21", "triangle-down-bar")]:
        assert CARDS[code].glyph is None and CARDS[code].shape == shape
    for code in MAJORS:
        card = CARDS[code]
        assert (card.glyph is None) != (card.shape is None)
        if card.glyph:
            assert unicodedata.name(card.glyph)


def test_a_minor_seal_is_its_numeral_over_its_suit():
    assert cards.seal_symbol("Qp") == {"kind": "minor", "numeral": "Q", "suit": "p"}
    assert cards.seal_symbol("10c") == {"kind": "minor", "numeral": "10", "suit": "c"}
    assert cards.seal_symbol("M19") == {"kind": "glyph", "glyph": "\u2609", "meaning": "Sol"}
    assert cards.seal_symbol("M0") == {"kind": "shape", "shape": "triangle-up-bar", "meaning": "Air"}


# RULINGS 2, row by row: each Major's meaning and the symbol drawn for it (a glyph, or the
# element triangle the renderer draws as a shape).
RULED_SEAL_TABLE = [
    ("M0", "Air", "triangle-up-bar"), ("M1", "Mercury", "☿"), ("M2", "Moon", "☾"),
    ("M3", "Venus", "♀"), ("M4", "Aries", "♈"), ("M5", "Taurus", "♉"), ("M6", "Gemini", "♊"),
    ("M7", "Cancer", "♋"), ("M8", "Leo", "♌"), ("M9", "Virgo", "♍"), ("M10", "Jupiter", "♃"),
    ("M11", "Libra", "♎"), ("M12", "Water", "triangle-down"), ("M13", "Scorpio", "♏"),
    ("M14", "Sagittarius", "♐"), ("M15", "Capricorn", "♑"), ("M16", "Mars", "♂"),
    ("M17", "Aquarius", "♒"), ("M18", "Pisces", "♓"), ("M19", "Sol", "☉"),
    ("M20", "Fire", "triangle-up"), ("M21", "Earth", "triangle-down-bar"),
]


@pytest.mark.parametrize("code, meaning, symbol", RULED_SEAL_TABLE)
def test_every_major_seal_symbol_is_the_one_of_its_ruled_meaning(code, meaning, symbol):
    drawn = cards.seal_symbol(code)
    assert drawn["meaning"] == meaning
    assert drawn.get("glyph", drawn.get("shape")) == symbol
