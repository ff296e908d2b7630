"""PDF: the layout as vector paths and real text, with the DejaVu fonts embedded (subset).

reportlab draws in points with y up; the layout is in millimetres with y down, so every
point is scaled and flipped here.  ``invariant`` drops the creation date and random file
id, so the same seal always gives the same bytes.
"""

from __future__ import annotations

import io
from functools import cache

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from .fonts import FONT_FILES, font_path
from .geometry import Fill, Glyph, Ring, Stroke
from .layout import SealLayout

PT_PER_MM = 72 / 25.4
FONT_NAMES = {role: f"Seal-{path.removesuffix('.ttf')}" for role, path in FONT_FILES.items()}


@cache
def _register_fonts() -> None:
    for role, name in FONT_NAMES.items():
        pdfmetrics.registerFont(TTFont(name, str(font_path(role))))


def page_points(width_mm: float, height_mm: float) -> tuple[float, float]:
    return width_mm * PT_PER_MM, height_mm * PT_PER_MM


def render_pdf(layout: SealLayout, title: str = "Seal") -> bytes:
    _register_fonts()
    width, height = page_points(layout.width, layout.height)
    out = io.BytesIO()
    # The initial font is ours too, so the file names no font it does not embed.
    c = Canvas(out, pagesize=(width, height), invariant=1, pageCompression=1,
               initialFontName=FONT_NAMES["text"])
    c.setTitle(title)
    c.setAuthor("Sefirot Online")
    c.setCreator("Sefirot Online seal renderer")
    c.setFillGray(0)
    c.setStrokeGray(0)
    c.setLineJoin(1)  # round, as the PNG and SVG draw them
    c.setLineCap(1)

    def at(x: float, y: float) -> tuple[float, float]:
        return x * PT_PER_MM, height - y * PT_PER_MM

    for item in layout.items:
        if isinstance(item, Ring):
            c.setLineWidth(item.width * PT_PER_MM)
            c.circle(*at(item.cx, item.cy), item.r * PT_PER_MM, stroke=1, fill=0)
        elif isinstance(item, (Fill, Stroke)):
            path = c.beginPath()
            path.moveTo(*at(*item.points[0]))
            for point in item.points[1:]:
                path.lineTo(*at(*point))
            if isinstance(item, Fill) or item.closed:
                path.close()
            if isinstance(item, Fill):
                c.drawPath(path, stroke=0, fill=1)
            else:
                c.setLineWidth(item.width * PT_PER_MM)
                c.drawPath(path, stroke=1, fill=0)
        elif isinstance(item, Glyph):
            c.saveState()
            c.translate(*at(item.x, item.y))
            if item.rotation:
                c.rotate(-item.rotation)  # clockwise on the page is negative with y up
            c.setFont(FONT_NAMES[item.role], item.size * PT_PER_MM)
            c.drawString(0, 0, item.char)
            c.restoreState()
    c.showPage()
    c.save()
    return out.getvalue()
