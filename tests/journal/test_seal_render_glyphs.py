"""Every symbol a seal can show really renders: no empty box, no missing-glyph box.

RULINGS section 2: glyphs from a font come from a font a declared dependency installs;
the elements are drawn shapes; a Minor is its numeral over the project's own suit drawing.
"""

from __future__ import annotations

import hashlib
import io
import tomllib
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from games.engine.cards import CARDS, DECK, ELEMENT_SHAPES, MAJORS, MINORS, RANKS
from journal.seals.fonts import FONT_FILES, FONT_PACKAGE, font_dir, font_path, metrics
from journal.seals.geometry import Glyph, Ring
from journal.seals.layout import SealLayout, card_symbol
from journal.seals.png import render_png

ROOT = Path(__file__).resolve().parents[2]
FONT_GLYPHS = [CARDS[c].glyph for c in MAJORS if CARDS[c].glyph]
MISSING = "\ue000"  # a private-use code point no DejaVu font maps: it draws .notdef


def _render(role: str, text: str, px: int = 96) -> Image.Image:
    font = ImageFont.truetype(str(font_path(role)), px, layout_engine=ImageFont.Layout.BASIC)
    image = Image.new("L", (px * 3, px * 2), 0)
    ImageDraw.Draw(image).text((px // 2, px * 3 // 2), text, font=font, fill=255, anchor="ls")
    return image


def test_the_fonts_come_from_a_declared_dependency():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert any(dep.split(">")[0].split("=")[0].strip() == FONT_PACKAGE for dep in declared)
    assert FONT_PACKAGE in font_dir().parts  # installed by it, not taken from the host
    for role in FONT_FILES:
        assert font_path(role).is_file()


@pytest.mark.parametrize("role", sorted(FONT_FILES))
def test_the_missing_glyph_box_is_visible_so_comparing_with_it_means_something(role):
    assert not metrics(role).has(MISSING)
    assert _render(role, MISSING).getbbox() is not None


@pytest.mark.parametrize("char", FONT_GLYPHS, ids=[f"U+{ord(c):04X}" for c in FONT_GLYPHS])
def test_every_astrological_glyph_renders_from_the_symbol_font(char):
    assert metrics("symbol").has(char)
    drawn = _render("symbol", char)
    assert drawn.getbbox() is not None, "empty"
    assert drawn.tobytes() != _render("symbol", MISSING).tobytes(), "the missing-glyph box"
    assert metrics("symbol").svg_path(char)  # and has an outline for the SVG


@pytest.mark.parametrize("role, chars", [
    ("numeral", "".join(RANKS)),
    ("text", "ABCDEFGHIJKLMNOPQRSTUVWXYZÀÉÎÕÜÇÑßØŁЖΩ'-"),
])
def test_every_numeral_and_letter_renders(role, chars):
    notdef = _render(role, MISSING).tobytes()
    for char in chars:
        drawn = _render(role, char)
        assert drawn.getbbox() is not None, char
        assert drawn.tobytes() != notdef, char


def _symbol_png(code: str) -> Image.Image:
    # One symbol alone, in a 20 mm cell in the middle of a 30 mm square.
    items = card_symbol(code, 15.0, 15.0, 20.0)
    layout = SealLayout(30.0, 30.0, 15.0, 15.0, 14.0, tuple(items), ())
    return Image.open(io.BytesIO(render_png(layout)))


@pytest.fixture(scope="module")
def symbol_images():
    return {code: _symbol_png(code) for code in DECK}


@pytest.mark.parametrize("code", DECK)
def test_every_card_symbol_renders_inside_its_cell(symbol_images, code):
    image = symbol_images[code]
    ink = image.point(lambda v: 255 if v < 128 else 0)
    box = ink.getbbox()
    assert box is not None, "nothing drawn"
    px = 300 / 25.4
    left, top, right, bottom = (v / px for v in box)  # mm
    assert 4.5 <= left and right <= 25.5 and 4.5 <= top and bottom <= 25.5, box  # within the cell
    # a real mark, not a speck: it spans a good part of the cell
    assert max(right - left, bottom - top) > 8


def test_all_78_symbols_differ(symbol_images):
    digests = {hashlib.sha256(image.tobytes()).hexdigest() for image in symbol_images.values()}
    assert len(digests) == len(DECK)


@pytest.mark.parametrize("code", MAJORS)
def test_majors_use_their_meanings_symbol_and_the_elements_are_shapes(code):
    items = card_symbol(code, 0.0, 0.0, 10.0)
    glyphs = [i for i in items if isinstance(i, Glyph)]
    if code in ELEMENT_SHAPES:
        assert glyphs == []  # drawn, never from a font
    else:
        assert [(g.char, g.role) for g in glyphs] == [(CARDS[code].glyph, "symbol")]


@pytest.mark.parametrize("code", MINORS)
def test_a_minor_is_its_numeral_over_its_suit_drawing(code):
    items = card_symbol(code, 0.0, 0.0, 10.0)
    glyphs = [i for i in items if isinstance(i, Glyph)]
    drawing = [i for i in items if not isinstance(i, Glyph)]
    assert "".join(g.char for g in glyphs) == CARDS[code].rank
    assert all(g.role == "numeral" for g in glyphs)
    assert drawing  # the suit, drawn
    # every point of the suit drawing lies below the numeral's baseline
    tops = [item.cy - item.r - item.width / 2 if isinstance(item, Ring) else min(y for _, y in item.points)
            for item in drawing]
    assert min(tops) > max(g.y for g in glyphs)


def test_the_pdf_font_maps_every_glyph_it_is_asked_for():
    # The PDF embeds the same files through reportlab; a code point it could not map would
    # print as glyph 0, the missing-glyph box.
    from reportlab.pdfbase.ttfonts import TTFont

    for role, chars in (("symbol", FONT_GLYPHS), ("numeral", RANKS), ("text", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")):
        face = TTFont(f"check-{role}", str(font_path(role))).face
        for char in "".join(chars):
            assert face.charToGlyph.get(ord(char), 0) != 0, (role, char)


def test_fonts_measure_the_same_when_many_threads_draw_their_glyphs_at_once():
    # The live preview renders in web server threads, all sharing one FontMetrics per font.
    # fontTools decodes a glyph in place on its first use; unguarded, a thread drawing it
    # meanwhile failed or read it half decoded.  Fresh instances, so every glyph is new to
    # them, and many glyphs, so the threads meet on first uses often.
    import threading

    from journal.seals.fonts import FontMetrics

    reference = FontMetrics("text")
    made = [reference]
    try:
        chars = [chr(code) for code in sorted(reference._cmap)[:600]]
        expected = {c: (reference.ink(c), reference.svg_path(c)) for c in chars}
        for _ in range(3):
            shared = FontMetrics("text")
            made.append(shared)
            start = threading.Barrier(6)
            results, errors = [], []

            def measure():
                start.wait()
                try:
                    results.extend((c, (shared.ink(c), shared.svg_path(c))) for c in chars)
                except Exception as exc:  # noqa: BLE001 - any failure is the finding
                    errors.append(repr(exc))

            threads = [threading.Thread(target=measure) for _ in range(6)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert errors == []
            assert len(results) == 6 * len(chars) and all(value == expected[c] for c, value in results)
    finally:
        # Let these extra fonts go now, files closed, rather than keep them (the method
        # caches hold on to each instance) or leave their files to the garbage collector.
        for metrics_ in made:
            metrics_._font.close()
        FontMetrics.ink.cache_clear()
        FontMetrics.svg_path.cache_clear()
