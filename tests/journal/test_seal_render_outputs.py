"""The seal's files: PNG at 300 dpi, PDF pages with print margins, self-contained SVG."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from journal.seals import render_seal

CARDS, WORDS = ["M0", "M19", "9p"], ["beginning", "joy", "independence"]

# Paper in millimetres and, at 300 dpi, in pixels (mm / 25.4 * 300, rounded).
PAPER = {
    "10cm": ((100, 100), (1181, 1181)),
    "a5": ((148, 210), (1748, 2480)),
    "a4": ((210, 297), (2480, 3508)),
    "letter": ((215.9, 279.4), (2550, 3300)),
}
SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"


def _ink_box(image):
    """The box of pixels at least half inked (ignoring the resampling filter's faint halo)."""
    return image.point(lambda v: 255 if v < 128 else 0).getbbox()


@pytest.fixture(scope="module")
def pngs():
    return {size: Image.open(io.BytesIO(render_seal(CARDS, WORDS, "png", size))) for size in PAPER}


@pytest.mark.parametrize("size", PAPER)
def test_the_png_has_the_papers_pixel_size_and_says_300_dpi(pngs, size):
    image = pngs[size]
    assert image.format == "PNG"
    assert image.size == PAPER[size][1]
    # PNG keeps pixels per metre as a whole number: 11811 reads back as 299.9994 dpi.
    assert tuple(round(d) for d in image.info["dpi"]) == (300, 300)


@pytest.mark.parametrize("size", PAPER)
def test_the_png_is_black_ink_on_white_paper_with_smoothed_edges(pngs, size):
    image = pngs[size]
    assert image.mode == "L"
    histogram = image.histogram()
    total = sum(histogram)
    assert histogram[255] > total * 0.8  # mostly paper
    assert sum(histogram[:32]) > total * 0.01  # real black ink
    # Supersampling leaves grey on every edge; an aliased drawing would have next to none.
    assert sum(histogram[32:224]) > sum(histogram[:32]) * 0.1


@pytest.mark.parametrize("size", PAPER)
def test_the_png_keeps_clear_of_the_print_margin(pngs, size):
    image = pngs[size]
    left, top, right, bottom = _ink_box(image)
    margin = round(min(PAPER[size][0]) * 0.1 / 25.4 * 300)  # 10% of the short side
    assert left >= margin - 1 and top >= margin - 1
    assert image.width - right >= margin - 1 and image.height - bottom >= margin - 1
    # and the seal is centred
    assert abs((left + right) - image.width) <= 4 and abs((top + bottom) - image.height) <= 4


@pytest.mark.parametrize("size", PAPER)
def test_the_pdf_page_has_the_papers_size_in_points(size):
    pdf = render_seal(CARDS, WORDS, "pdf", size)
    assert pdf.startswith(b"%PDF-")
    boxes = re.findall(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)
    assert len(boxes) == 1  # one page
    width_mm, height_mm = PAPER[size][0]
    width, height = (float(v) for v in boxes[0])
    assert width == pytest.approx(width_mm / 25.4 * 72, abs=0.01)
    assert height == pytest.approx(height_mm / 25.4 * 72, abs=0.01)


@pytest.mark.parametrize("size", PAPER)
def test_the_pdf_draws_inside_the_print_margin_and_centred(size):
    from pypdf import PdfReader

    pdf = render_seal(CARDS, WORDS, "pdf", size)
    content = PdfReader(io.BytesIO(pdf)).pages[0].get_contents().get_data().decode("latin-1")
    number = r"(-?[\d.]+)"
    # Every point a path passes through (moveto, lineto, curve points) and every place a
    # glyph is set (its translation), in points.
    points = [(float(x), float(y)) for x, y in re.findall(rf"{number} {number} [ml]\b", content)]
    for curve in re.findall(rf"{number} {number} {number} {number} {number} {number} c\b", content):
        values = [float(v) for v in curve]
        points += list(zip(values[0::2], values[1::2]))
    points += [(float(x), float(y)) for x, y in re.findall(rf"1 0 0 1 {number} {number} cm", content)
               if (x, y) != ("0", "0")]
    width, height = (v / 25.4 * 72 for v in PAPER[size][0])
    margin = min(width, height) * 0.1
    xs, ys = [x for x, _ in points], [y for _, y in points]
    assert len(points) > 100
    assert margin - 1 <= min(xs) and max(xs) <= width - margin + 1
    assert margin - 1 <= min(ys) and max(ys) <= height - margin + 1
    assert abs(min(xs) + max(xs) - width) < 2 and abs(min(ys) + max(ys) - height) < 2


def test_the_pdf_embeds_the_dejavu_fonts_and_names_no_other():
    pdf = render_seal(["M1", "Qc"], ["will", "empathy"], "pdf", "a4")
    fonts = set(re.findall(rb"/BaseFont /(?:[A-Z]{6}\+)?([\w-]+)", pdf))
    assert fonts == {b"DejaVuSans", b"DejaVuSerif", b"DejaVuSerif-Bold"}
    assert pdf.count(b"/FontFile2") == 3  # each one embedded
    assert rb"/Title (Seal: The Magician \(will\), Queen of Cups \(empathy\))" in pdf


@pytest.mark.parametrize("size", PAPER)
def test_the_svg_parses_and_is_sized_in_millimetres(size):
    root = ET.fromstring(render_seal(CARDS, WORDS, "svg", size))
    assert root.tag == f"{SVG}svg"
    width, height = PAPER[size][0]
    assert root.get("width") == f"{width:g}mm" and root.get("height") == f"{height:g}mm"
    assert root.get("viewBox") == f"0 0 {width:g} {height:g}"


def test_the_svg_is_self_contained():
    data = render_seal(["M2", "Qc", "M21"], ["moon", "<cup> & 'wine'", "earth"], "svg", "a5")
    root = ET.fromstring(data)  # the player's words are escaped, so it still parses
    assert "<cup> & 'wine'" in root.find(f"{SVG}title").text
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    uses = [el.get(f"{XLINK}href") for el in root.iter(f"{SVG}use")]
    assert uses and all(href.startswith("#") and href[1:] in ids for href in uses)
    # no fonts, images, styles or links to fetch
    assert not [el for el in root.iter() if el.tag in (f"{SVG}text", f"{SVG}image", f"{SVG}style", f"{SVG}font")]
    assert b"http" not in data.replace(b"http://www.w3.org/", b"")


def test_the_svg_and_the_png_draw_the_same_seal():
    # The SVG's circles are the layout's rings, so its outer circle sits where the PNG's ink ends.
    root = ET.fromstring(render_seal(CARDS, WORDS, "svg", "a5"))
    outer = max(root.iter(f"{SVG}circle"), key=lambda c: float(c.get("r")))
    reach_mm = float(outer.get("r")) + float(outer.get("stroke-width")) / 2
    png = Image.open(io.BytesIO(render_seal(CARDS, WORDS, "png", "a5")))
    left, _, right, _ = _ink_box(png)
    assert (right - left) / 300 * 25.4 == pytest.approx(2 * reach_mm, abs=0.2)  # 2 px
