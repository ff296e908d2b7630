"""The seal renderer's input rules, file names and layout (journal.seals, no Django needed).

Outputs are in test_seal_render_outputs.py, fonts and symbols in test_seal_render_glyphs.py,
the management command in test_seal_render_command.py.
"""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import DECK, KEYWORDS
from journal.seals import (
    SIZES, SealInputError, check_seal_input, default_words, render_seal, seal_digest, seal_filename, seal_layout,
)
from journal.seals.fonts import metrics
from journal.seals.geometry import Fill, Glyph, Ring, Stroke
from journal.seals.layout import HAIRLINE_R, HAIRLINE_WIDTH, INNER_R, INNER_WIDTH

# Long keywords on every count, so the words fill their arcs and reach toward the sides.
LONG_SEALS = {
    2: (["M8", "Nw"], ["independence", "contentment"]),
    3: (["M0", "M19", "9p"], ["independence", "celebration", "restriction"]),
    4: (["M12", "10s", "M20", "Kp"], ["independence", "celebration", "restriction", "opportunity"]),
    5: (["M1", "M2", "Qc", "Aw", "M21"], ["independence", "celebration", "restriction", "opportunity", "contentment"]),
}


# --- input ------------------------------------------------------------------------------

@pytest.mark.parametrize("cards, words, fmt, size, message", [
    (["M0"], ["one"], "png", "a5", "2 to 5 cards; 1 was given"),
    (["M0", "M1", "M2", "M3", "M4", "M5"], None, "png", "a5", "2 to 5 cards; 6 were given"),
    (["M0", "M22"], None, "png", "a5", "Unknown card 'M22'"),
    (["M0", "Xp"], None, "png", "a5", "Unknown card 'Xp'"),
    (["M0", "9p", "9P"], None, "png", "a5", "9p is chosen twice"),
    ("M0,M1", None, "png", "a5", "list of card codes"),
    (["M0", "M1"], ["one"], "png", "a5", "2 cards need 2 words, one per card; 1 was given"),
    (["M0", "M1"], ["one", "two", "three"], "png", "a5", "3 were given"),
    (["M0", "M1"], ["one", "   "], "png", "a5", "one of the words is empty"),
    (["M0", "M1"], ["one", "x" * 19], "png", "a5", "keep each word to 18 characters"),
    (["M0", "M1"], ["one", "fire\U0001F525"], "png", "a5", "characters the seal cannot letter"),
    (["M0", "M1"], ["one", "two"], "jpg", "a5", "Unknown format 'jpg': choose png, pdf, svg"),
    (["M0", "M1"], ["one", "two"], "png", "b5", "Unknown size 'b5': choose 10cm, a5, a4, letter"),
])
def test_it_refuses_bad_input_with_a_message_a_player_can_read(cards, words, fmt, size, message):
    with pytest.raises(ValueError, match=re.escape(message)) as caught:
        render_seal(cards, words, fmt, size)
    assert isinstance(caught.value, SealInputError)


def test_it_accepts_card_codes_in_any_case_and_words_with_stray_spaces():
    codes, words, fmt, size = check_seal_input(["m0", " qC ", "10P"], ["  new   start ", "Joy", "ß"], "PNG", "A4")
    assert codes == ["M0", "Qc", "10p"]
    assert words == ["NEW START", "JOY", "SS"]  # inscriptions are in capitals
    assert (fmt, size) == ("png", "a4")


def test_words_default_to_the_cards_keywords():
    assert default_words(["M19", "9p"]) == [KEYWORDS["M19"], KEYWORDS["9p"]]
    assert check_seal_input(["M19", "9p"])[1] == ["JOY", KEYWORDS["9p"].upper()]


def test_every_keyword_can_be_lettered():
    for code in DECK:
        check_seal_input([code, "M0" if code != "M0" else "M1"], [KEYWORDS[code], "x"])


# --- file names ---------------------------------------------------------------------------

def test_the_same_input_gets_the_same_file_name():
    first = seal_filename(["M0", "M19", "9p"], ["a", "b", "c"], "png", "a5")
    assert first == seal_filename(["M0", "M19", "9p"], ["a", "b", "c"], "png", "a5")
    assert re.fullmatch(r"seal-[0-9a-f]{16}-a5\.png", first)


def test_words_differing_only_in_case_or_spacing_are_the_same_seal():
    assert seal_digest(["M0", "9p"], ["new  start", "Joy"]) == seal_digest(["m0", "9P"], [" New Start", "JOY "])


def test_any_change_of_cards_words_order_format_or_size_changes_the_name():
    base = (["M0", "M19"], ["a", "b"], "png", "a5")
    variants = [
        (["M0", "M18"], ["a", "b"], "png", "a5"),
        (["M19", "M0"], ["b", "a"], "png", "a5"),
        (["M0", "M19"], ["a", "c"], "png", "a5"),
        (["M0", "M19"], ["a", "b"], "pdf", "a5"),
        (["M0", "M19"], ["a", "b"], "png", "a4"),
    ]
    names = {seal_filename(*base)} | {seal_filename(*v) for v in variants}
    assert len(names) == 1 + len(variants)


@pytest.mark.parametrize("fmt", ["png", "pdf", "svg"])
def test_rendering_is_deterministic(fmt):
    args = (["M0", "M19", "9p"], ["beginning", "joy", "independence"], fmt, "10cm")
    assert render_seal(*args) == render_seal(*args)


# --- words read upright -------------------------------------------------------------------

def _up_and_reading(glyph: Glyph) -> tuple[tuple[float, float], tuple[float, float]]:
    """A glyph's 'up' and reading directions on the page (y down)."""
    r = math.radians(glyph.rotation)
    return (math.sin(r), -math.cos(r)), (math.cos(r), math.sin(r))


def _chord_rotation(word) -> float:
    """The rotation of the straight line from a word's first letter to its last."""
    first, last = word.glyphs[0], word.glyphs[-1]
    return math.degrees(math.atan2(last.y - first.y, last.x - first.x))


def assert_words_read_upright(seal) -> None:
    for word in seal.words:
        lower = math.sin(math.radians(word.center_angle)) < 0
        assert word.lower_half == lower
        # The baseline, at the word's middle and from its first letter to its last, is
        # within ±90° of upright: left to right, never upside down.
        assert -90 < word.rotation < 90, word
        assert -90 < _chord_rotation(word) < 90, word
        for glyph in word.glyphs:
            up, _ = _up_and_reading(glyph)
            to_centre = (seal.cx - glyph.x, seal.cy - glyph.y)
            towards = up[0] * to_centre[0] + up[1] * to_centre[1] > 0
            # Lower words stand with their feet on the outside, heads toward the centre;
            # upper words the other way round.  Both read left to right.
            assert towards == lower, (word.text, glyph)


@pytest.mark.parametrize("count", sorted(LONG_SEALS))
def test_words_in_the_lower_half_read_upright(count):
    cards, words = LONG_SEALS[count]
    seal = seal_layout(cards, words, "a5")
    assert any(w.lower_half for w in seal.words)
    assert_words_read_upright(seal)


def test_a_word_at_the_bottom_runs_left_to_right_without_rotation():
    seal = seal_layout(["M0", "M1"], ["top", "bottom"], "a4")
    bottom = seal.words[1]
    assert bottom.lower_half and bottom.rotation == 0
    xs = [g.x for g in bottom.glyphs]
    assert xs == sorted(xs)
    # a smile: the letters lean out at either end, tops toward the centre
    turns = [g.rotation for g in bottom.glyphs]
    assert turns == sorted(turns, reverse=True) and turns[0] > 0 > turns[-1]
    assert all(abs(t) < 30 for t in turns)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=2, max_size=5, unique=True), st.sampled_from(SIZES))
def test_any_reading_keeps_its_words_upright(cards, size):
    assert_words_read_upright(seal_layout(cards, None, size))


# --- everything in its place --------------------------------------------------------------

def _ink_corners(glyph: Glyph) -> list[tuple[float, float]]:
    box = metrics(glyph.role).ink(glyph.char)
    r = math.radians(glyph.rotation)
    out = []
    for fx, fy in ((box.xmin, box.ymin), (box.xmin, box.ymax), (box.xmax, box.ymin), (box.xmax, box.ymax)):
        x, y = fx * glyph.size, -fy * glyph.size  # font y is up
        out.append((glyph.x + x * math.cos(r) - y * math.sin(r), glyph.y + x * math.sin(r) + y * math.cos(r)))
    return out


def _reach(item, cx, cy) -> float:
    if isinstance(item, Glyph):
        points = _ink_corners(item)
    elif isinstance(item, Ring):
        return math.hypot(item.cx - cx, item.cy - cy) + item.r + item.width / 2
    else:
        points = item.points
    pad = item.width / 2 if isinstance(item, Stroke) else 0
    return max(math.hypot(x - cx, y - cy) for x, y in points) + pad


def _nearest(item, cx, cy) -> float:
    points = _ink_corners(item) if isinstance(item, Glyph) else item.points
    return min(math.hypot(x - cx, y - cy) for x, y in points)


@pytest.mark.parametrize("count", sorted(LONG_SEALS))
def test_symbols_stay_inside_the_inner_circle_and_words_inside_their_band(count):
    cards, words = LONG_SEALS[count]
    seal = seal_layout(cards, words, "10cm")
    R = seal.radius
    word_glyphs = {id(g) for w in seal.words for g in w.glyphs}
    inner_edge = (INNER_R + INNER_WIDTH / 2) * R
    hairline_edge = (HAIRLINE_R - HAIRLINE_WIDTH / 2) * R
    separators = 0
    for item in seal.items:
        if isinstance(item, Ring):
            assert _reach(item, seal.cx, seal.cy) <= R + 1e-9
        elif id(item) in word_glyphs:
            assert inner_edge < _nearest(item, seal.cx, seal.cy), item
            assert _reach(item, seal.cx, seal.cy) < hairline_edge, item
        elif _reach(item, seal.cx, seal.cy) < INNER_R * R - INNER_WIDTH * R:
            continue  # a symbol, clear of the inner circle
        else:  # the only other thing is a separator on the band
            assert isinstance(item, Fill)
            assert inner_edge < _nearest(item, seal.cx, seal.cy) and _reach(item, seal.cx, seal.cy) < hairline_edge
            separators += 1
    assert separators == count


def _angle(seal, x, y) -> float:
    return math.degrees(math.atan2(seal.cy - y, x - seal.cx))


@pytest.mark.parametrize("count", sorted(LONG_SEALS))
def test_neighbouring_words_never_meet(count):
    cards, words = LONG_SEALS[count]
    seal = seal_layout(cards, words, "a5")

    def offsets(word, around):  # ink angles relative to ``around``, in (-180, 180]
        return [((_angle(seal, x, y) - around + 180) % 360) - 180
                for g in word.glyphs for x, y in _ink_corners(g)]

    for word in seal.words:
        own = offsets(word, word.center_angle)
        for other in seal.words:
            if other is not word:
                assert not any(min(own) <= o <= max(own) for o in offsets(other, word.center_angle)), \
                    (word.text, other.text)
