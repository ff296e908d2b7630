"""SVG: the layout in millimetres, glyphs as outlines, needing no font on the viewer's side.

Each distinct glyph's outline is written once in ``<defs>`` (in font units, y up) and
placed with ``<use>``; the file is self-contained and opens the same in a browser, in
Inkscape or in a cutting plotter's software.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from .fonts import metrics
from .geometry import Fill, Glyph, Ring, Stroke
from .layout import SealLayout


def _n(value: float) -> str:
    """A coordinate to the micrometre, without trailing zeros."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _points(points) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def render_svg(layout: SealLayout, title: str = "Seal") -> bytes:
    glyph_ids: dict[tuple[str, str], str] = {}
    defs: list[str] = []
    body: list[str] = []
    for item in layout.items:
        if isinstance(item, Ring):
            body.append(f'<circle cx="{_n(item.cx)}" cy="{_n(item.cy)}" r="{_n(item.r)}" '
                        f'fill="none" stroke="#000" stroke-width="{_n(item.width)}"/>')
        elif isinstance(item, Fill):
            body.append(f'<polygon points="{_points(item.points)}" fill="#000"/>')
        elif isinstance(item, Stroke):
            tag = "polygon" if item.closed else "polyline"
            body.append(f'<{tag} points="{_points(item.points)}" fill="none" stroke="#000" '
                        f'stroke-width="{_n(item.width)}" stroke-linejoin="round" stroke-linecap="round"/>')
        elif isinstance(item, Glyph):
            key = (item.role, item.char)
            if key not in glyph_ids:
                glyph_ids[key] = gid = f"g{len(glyph_ids)}"
                defs.append(f'<path id="{gid}" d="{metrics(item.role).svg_path(item.char)}"/>')
            scale = item.size / metrics(item.role).units_per_em
            turn = f" rotate({_n(item.rotation)})" if item.rotation else ""
            body.append(f'<use xlink:href="#{glyph_ids[key]}" '
                        f'transform="translate({_n(item.x)} {_n(item.y)}){turn} scale({scale:.6g} {-scale:.6g})"/>')
    w, h = _n(layout.width), _n(layout.height)
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'version="1.1" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">',
        f"<title>{escape(title)}</title>",
        f"<desc>{escape('Drawn by Sefirot Online; glyphs from the DejaVu fonts (free license).')}</desc>",
        "<defs>", *defs, "</defs>",
        f'<rect width={quoteattr(w)} height={quoteattr(h)} fill="#fff"/>',
        '<g fill="#000">', *body, "</g>",
        "</svg>",
        "",
    ]
    return "\n".join(lines).encode("utf-8")
