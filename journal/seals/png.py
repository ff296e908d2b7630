"""PNG at 300 dpi: the layout drawn with Pillow, supersampled and reduced by averaging.

Only the seal's square is drawn at the supersampled scale; the rest of the page is blank
paper, so an A4 page costs a 170 mm square at 3x (about 36 megapixels of 8-bit grey,
36 MB) rather than the whole sheet.  Output is 8-bit greyscale: black ink on white.
"""

from __future__ import annotations

import io
import math
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from .fonts import font_path
from .geometry import Fill, Glyph, Ring, Stroke
from .layout import SealLayout

DPI = 300
PX_PER_MM = DPI / 25.4
INK, PAPER = 0, 255


def pixel_size(width_mm: float, height_mm: float) -> tuple[int, int]:
    return round(width_mm * PX_PER_MM), round(height_mm * PX_PER_MM)


def supersampling(side_px: int) -> int:
    # 4x keeps the 10 cm card's hairlines smooth; 3x is plenty for the larger sheets
    # and bounds their memory.
    return 4 if side_px <= 1400 else 3


@lru_cache(maxsize=32)  # each seal sets its words at its own size: keep the recent ones
def _font(role: str, px: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(font_path(role)), px, layout_engine=ImageFont.Layout.BASIC)


def render_png(layout: SealLayout) -> bytes:
    page_w, page_h = pixel_size(layout.width, layout.height)
    # The seal's box on the page, in final pixels, with a pixel of air for the filter.
    x0 = math.floor((layout.cx - layout.radius) * PX_PER_MM) - 2
    y0 = math.floor((layout.cy - layout.radius) * PX_PER_MM) - 2
    x1 = math.ceil((layout.cx + layout.radius) * PX_PER_MM) + 2
    y1 = math.ceil((layout.cy + layout.radius) * PX_PER_MM) + 2
    scale = supersampling(x1 - x0)
    canvas = Image.new("L", ((x1 - x0) * scale, (y1 - y0) * scale), PAPER)
    draw = ImageDraw.Draw(canvas)
    k = PX_PER_MM * scale

    def at(x: float, y: float) -> tuple[float, float]:
        return (x * PX_PER_MM - x0) * scale, (y * PX_PER_MM - y0) * scale

    for item in layout.items:
        if isinstance(item, Ring):
            x, y = at(item.cx, item.cy)
            outer = (item.r + item.width / 2) * k
            draw.ellipse((x - outer, y - outer, x + outer, y + outer), outline=INK,
                         width=max(1, round(item.width * k)))
        elif isinstance(item, Fill):
            draw.polygon([at(*p) for p in item.points], fill=INK)
        elif isinstance(item, Stroke):
            _stroke(draw, [at(*p) for p in item.points], item.width * k, item.closed)
        elif isinstance(item, Glyph):
            _glyph(canvas, draw, item, *at(item.x, item.y), k)

    # Each final pixel the mean of its scale x scale block: the supersampling's own
    # anti-aliasing, at a tenth of a Lanczos filter's cost (which was half the render).
    seal = canvas.reduce(scale)
    del canvas, draw
    page = Image.new("L", (page_w, page_h), PAPER)
    page.paste(seal, (x0, y0))
    out = io.BytesIO()
    # zlib's run-length strategy (Z_RLE = 3): black ink and white paper are long runs, so
    # it packs the page as small as the default strategy (A5: 106 kB against 108 kB) in
    # half the time, which was half the render.
    page.save(out, "PNG", dpi=(DPI, DPI), compress_type=3)
    return out.getvalue()


def _stroke(draw: ImageDraw.ImageDraw, points: list[tuple[float, float]], width: float, closed: bool) -> None:
    w = max(1, round(width))
    if closed:
        points = points + [points[0]]
    draw.line(points, fill=INK, width=w, joint="curve")
    # Pillow's lines end square and the closing joint is sharp: round them like the PDF and
    # SVG pens do.
    r = width / 2
    for x, y in (points[0], points[-1]):
        draw.ellipse((x - r, y - r, x + r, y + r), fill=INK)


def _glyph(canvas: Image.Image, draw: ImageDraw.ImageDraw, glyph: Glyph, x: float, y: float, k: float) -> None:
    font = _font(glyph.role, glyph.size * k)
    if not glyph.rotation:
        draw.text((x, y), glyph.char, font=font, fill=INK, anchor="ls")
        return
    # Pillow sets text only upright: draw the glyph into a tight mask, then map that mask
    # onto the page with one affine transform (rotation about the glyph's origin, sub-pixel
    # position included) and press it on as ink.
    pad = 2
    left, top, right, bottom = font.getbbox(glyph.char, anchor="ls")
    mask = Image.new("L", (right - left + 2 * pad, bottom - top + 2 * pad), 0)
    ox, oy = pad - left, pad - top  # the glyph's origin in the mask
    ImageDraw.Draw(mask).text((ox, oy), glyph.char, font=font, fill=255, anchor="ls")
    cos, sin = math.cos(math.radians(glyph.rotation)), math.sin(math.radians(glyph.rotation))
    # mask -> page: p = (x, y) + rot(u - o); the mask's corners bound the region to fill
    corners = [(x + cos * (u - ox) - sin * (v - oy), y + sin * (u - ox) + cos * (v - oy))
               for u in (0, mask.width) for v in (0, mask.height)]
    x0, y0 = math.floor(min(c[0] for c in corners)), math.floor(min(c[1] for c in corners))
    x1, y1 = math.ceil(max(c[0] for c in corners)), math.ceil(max(c[1] for c in corners))
    # page -> mask, as Pillow wants it: u = o + rot(-angle)(p - (x, y)), p = (x0 + i, y0 + j)
    matrix = (cos, sin, ox + cos * (x0 - x) + sin * (y0 - y),
              -sin, cos, oy - sin * (x0 - x) + cos * (y0 - y))
    # Bilinear is enough at the supersampled scale (the reduction smooths it further) and
    # twice as quick as bicubic over a seal's hundred-odd turned letters.
    turned = mask.transform((x1 - x0, y1 - y0), Image.Transform.AFFINE, matrix, Image.Resampling.BILINEAR)
    canvas.paste(INK, (x0, y0), turned)
