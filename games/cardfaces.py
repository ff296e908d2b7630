"""The site's own card drawings: 78 faces and a back, as self-contained SVG.

Everything is drawn as outlines (the journal's suit drawings and element triangles, and
glyphs of the DejaVu fonts the seal renderer already ships with), so a card looks the same
in any browser whatever fonts it has: Debian's Chromium shows no empty boxes for the
planetary signs.  ``python manage.py build_cards`` writes them to ``static/cards/``.

Pages draw their cards from one file, ``static/cards/sprite.svg``: every card a
``<symbol id="c-<code>">`` shown by ``<svg><use href="sprite.svg#c-<code>"/></svg>``
(``templates/games/_card.html``), so a game page asks for one cached file instead of one
per card (issue 42: 29 to 33 requests, each its own connection to a sync worker, and a
slow phone waited on them).  What repeats from card to card (each glyph of the fonts, each
suit's drawing) is defined once in the sprite and placed by ``<use>``: the whole deck is
then about a fifth of the 79 files' bytes.  The single files stay, for what shows a card
outside a page (the wizards' character sheet).
"""

from __future__ import annotations

import colorsys
from pathlib import Path

from games.engine.cards import CARDS, ROMAN
from journal.seals.fonts import metrics
from journal.seals.geometry import Fill, Ring, Stroke
from journal.seals.symbols import SUIT_DRAWINGS, element

W, H = 100, 160  # the card's viewBox; cards are shown at 5:8
SUIT_COLOURS = {"c": "#1f5fa8", "s": "#555b66", "p": "#a06a00", "w": "#a3321f"}
SUIT_TINTS = {"c": "#eef4fb", "s": "#f1f2f4", "p": "#fbf5e8", "w": "#fbefec"}
BACK = "back"


def _n(v: float) -> str:
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


class Shared:
    """The drawings the sprite defines once (``defs``, by id) and its cards place by
    ``<use>``: a glyph of the fonts (its fill from the ``<g>`` around it) and a suit's
    drawing (in its colour, drawn 100 wide about the origin, placed with a scale)."""

    def __init__(self):
        self.defs: dict[str, str] = {}

    def glyph(self, role: str, char: str) -> str:
        ref = f"{role[0]}{ord(char):x}"
        if ref not in self.defs:
            self.defs[ref] = f'<path id="{ref}" d="{metrics(role).svg_path(char)}"/>'
        return ref

    def suit(self, suit: str) -> str:
        ref = f"s{suit}"
        if ref not in self.defs:
            self.defs[ref] = f'<g id="{ref}">{_items(SUIT_DRAWINGS[suit](), 0, 0, 100, SUIT_COLOURS[suit])}</g>'
        return ref


def _suit(suit: str, cx: float, cy: float, size: float, shared: Shared | None) -> str:
    """A suit's drawing at (cx, cy), ``size`` wide: drawn here, or placed from the sprite's."""
    if shared is None:
        return _items(SUIT_DRAWINGS[suit](), cx, cy, size, SUIT_COLOURS[suit])
    return f'<use href="#{shared.suit(suit)}" transform="translate({_n(cx)} {_n(cy)}) scale({size / 100:.5g})"/>'


def _items(items, cx: float, cy: float, size: float, colour: str) -> str:
    """The journal's unit-cell drawings ([-0.5, 0.5], y down) placed at (cx, cy), ``size`` wide."""
    out = []
    for item in items:
        if isinstance(item, Ring):
            out.append(f'<circle cx="{_n(cx + item.cx * size)}" cy="{_n(cy + item.cy * size)}" r="{_n(item.r * size)}" '
                       f'fill="none" stroke="{colour}" stroke-width="{_n(item.width * size)}"/>')
            continue
        points = " ".join(f"{_n(cx + x * size)},{_n(cy + y * size)}" for x, y in item.points)
        if isinstance(item, Fill):
            out.append(f'<polygon points="{points}" fill="{colour}"/>')
        elif isinstance(item, Stroke):
            tag = "polygon" if item.closed else "polyline"
            out.append(f'<{tag} points="{points}" fill="none" stroke="{colour}" stroke-width="{_n(item.width * size)}" '
                       'stroke-linejoin="round" stroke-linecap="round"/>')
    return "".join(out)


def _text(text: str, role: str, size: float, cx: float, baseline: float, colour: str, max_width: float = W - 12,
          shared: Shared | None = None) -> str:
    """``text`` as glyph outlines, centred on ``cx``, shrunk to fit ``max_width``."""
    font = metrics(role)
    width = sum(font.advance(ch) for ch in text) * size
    if width > max_width:
        size *= max_width / width
        width = max_width
    scale = size / font.units_per_em
    x = cx - width / 2
    parts = []
    for ch in text:
        if ch != " " and shared is not None:
            parts.append(f'<use href="#{shared.glyph(role, ch)}" '
                         f'transform="translate({_n(x)} {_n(baseline)}) scale({scale:.5g} {-scale:.5g})"/>')
        elif ch != " ":
            parts.append(f'<path transform="translate({_n(x)} {_n(baseline)}) scale({scale:.5g} {-scale:.5g})" '
                         f'd="{font.svg_path(ch)}"/>')
        x += font.advance(ch) * size
    return f'<g fill="{colour}">{"".join(parts)}</g>'


def _glyph(char: str, cx: float, cy: float, size: float, colour: str, shared: Shared | None = None) -> str:
    """One symbol glyph centred on its ink at (cx, cy), its larger side ``size``."""
    font = metrics("symbol")
    ink = font.ink(char)
    em = size / max(ink.xmax - ink.xmin, ink.ymax - ink.ymin)
    x = cx - (ink.xmin + ink.xmax) / 2 * em
    y = cy + (ink.ymin + ink.ymax) / 2 * em
    scale = em / font.units_per_em
    if shared is not None:
        return (f'<use href="#{shared.glyph("symbol", char)}" fill="{colour}" '
                f'transform="translate({_n(x)} {_n(y)}) scale({scale:.5g} {-scale:.5g})"/>')
    return (f'<path fill="{colour}" transform="translate({_n(x)} {_n(y)}) scale({scale:.5g} {-scale:.5g})" '
            f'd="{font.svg_path(char)}"/>')


def _name_lines(name: str) -> list[str]:
    """Long names on two lines, split at the space nearest the middle, so they stay large."""
    if len(name) <= 11 or " " not in name:
        return [name]
    spaces = [i for i, ch in enumerate(name) if ch == " "]
    cut = min(spaces, key=lambda i: abs(i - len(name) / 2))
    return [name[:cut], name[cut + 1:]]


def _svg(title: str, body: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}">'
            f"<title>{title}</title>{body}</svg>\n")


def major_colour(number: int) -> tuple[str, str]:
    """A face and an ink colour for Major ``number``: the Majors go once round the colour wheel."""
    hue = (number / 22 + 0.72) % 1
    face = colorsys.hls_to_rgb(hue, 0.88, 0.55)
    ink = colorsys.hls_to_rgb(hue, 0.25, 0.6)
    return tuple("#" + "".join(f"{round(c * 255):02x}" for c in rgb) for rgb in (face, ink))


def major_svg(code: str) -> str:
    return _svg(CARDS[code].name, _major(code, None))


def _major(code: str, shared: Shared | None) -> str:
    card = CARDS[code]
    face, ink = major_colour(card.number)
    body = [f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="8" fill="{face}" stroke="{ink}" stroke-width="2"/>',
            f'<rect x="6" y="6" width="{W - 12}" height="{H - 12}" rx="5" fill="none" stroke="{ink}" stroke-width=".8"/>',
            _text(ROMAN[card.number], "numeral", 22, W / 2, 30, ink, shared=shared)]
    body.append(f'<circle cx="{W / 2}" cy="72" r="27" fill="#fff" fill-opacity=".55" stroke="{ink}" stroke-width="1.2"/>')
    if card.shape:
        body.append(_items(element(card.shape), W / 2, 72, 42, ink))
    else:
        body.append(_glyph(card.glyph, W / 2, 72, 34, ink, shared))
    lines = _name_lines(card.name)
    baselines = [128] if len(lines) == 1 else [121, 139]
    body += [_text(line, "text", 16, W / 2, y, ink, W - 16, shared) for line, y in zip(lines, baselines)]
    return "".join(body)


# Pip positions on the card (x, y) for each count, as card faces have long set them.
_PIPS = {
    1: [(50, 80)],
    2: [(50, 45), (50, 115)],
    3: [(50, 40), (50, 80), (50, 120)],
    4: [(32, 45), (68, 45), (32, 115), (68, 115)],
    5: [(32, 45), (68, 45), (50, 80), (32, 115), (68, 115)],
    6: [(32, 40), (68, 40), (32, 80), (68, 80), (32, 120), (68, 120)],
    7: [(32, 40), (68, 40), (50, 60), (32, 80), (68, 80), (32, 120), (68, 120)],
    8: [(32, 40), (68, 40), (50, 60), (32, 80), (68, 80), (50, 100), (32, 120), (68, 120)],
    9: [(32, 36), (68, 36), (32, 65), (68, 65), (50, 80), (32, 95), (68, 95), (32, 124), (68, 124)],
    10: [(32, 36), (68, 36), (50, 50), (32, 65), (68, 65), (32, 95), (68, 95), (50, 110), (32, 124), (68, 124)],
}


def _figure(rank: str, colour: str) -> str:
    """A court card's figure: a bust whose headdress tells the rank (cap, plume, crown)."""
    head = f'<circle cx="50" cy="50" r="11" fill="#fff" stroke="{colour}" stroke-width="2"/>'
    body = f'<path d="M26 120 Q28 70 50 66 Q72 70 74 120 Z" fill="{colour}" fill-opacity=".22" stroke="{colour}" stroke-width="2"/>'
    hats = {
        "P": f'<path d="M38 44 Q50 30 62 44 Z" fill="{colour}"/>',
        "N": f'<path d="M38 46 L38 38 Q50 30 62 38 L62 46 Z" fill="{colour}"/><path d="M60 36 Q72 22 66 16" fill="none" stroke="{colour}" stroke-width="3" stroke-linecap="round"/>',
        "Q": f'<path d="M39 42 L41 32 L46 38 L50 29 L54 38 L59 32 L61 42 Z" fill="{colour}"/>',
        "K": f'<path d="M37 43 L37 28 L43 35 L50 24 L57 35 L63 28 L63 43 Z" fill="{colour}"/>',
    }
    return body + head + hats[rank]


def minor_svg(code: str) -> str:
    return _svg(CARDS[code].name, _minor(code, None))


def _minor(code: str, shared: Shared | None) -> str:
    card = CARDS[code]
    colour, tint = SUIT_COLOURS[card.suit], SUIT_TINTS[card.suit]
    body = [f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="8" fill="{tint}" stroke="{colour}" stroke-width="2"/>']
    rank = card.rank
    corner = f'{_text(rank, "numeral", 17, 13, 21, colour, 20, shared)}{_suit(card.suit, 13, 32, 12, shared)}'
    body.append(corner)
    body.append(f'<g transform="rotate(180 {W / 2} {H / 2})">{corner}</g>')
    if rank in ("P", "N", "Q", "K"):
        body.append(_figure(rank, colour))
        body.append(f'<circle cx="50" cy="100" r="15" fill="{tint}" stroke="{colour}" stroke-width="1"/>')
        body.append(_suit(card.suit, 50, 100, 24, shared))
    else:
        count = card.number
        size = 60 if count == 1 else 30 if count <= 3 else 24 if count <= 8 else 21
        body += [_suit(card.suit, x, y, size, shared) for x, y in _PIPS[count]]
    return "".join(body)


# The back's Tree of Life, which is also the site's app icon (``app_icon``).
BACK_GOLD, BACK_BLUE = "#d9b45a", "#1c2454"
BACK_SPHERES = [(50, 30), (30, 45), (70, 45), (30, 75), (70, 75), (50, 85), (30, 105), (70, 105), (50, 115), (50, 135)]
BACK_PATHS = [(0, 1), (0, 2), (1, 2), (1, 3), (2, 4), (3, 4), (1, 5), (2, 5), (3, 5), (4, 5), (3, 6), (4, 7), (5, 6),
              (5, 7), (6, 7), (6, 8), (7, 8), (5, 8), (8, 9), (6, 9), (7, 9), (0, 5)]


def back_svg() -> str:
    return _svg("A face-down card", _back())


def _back() -> str:
    """The back: the Tree of Life in gold on deep blue, the same turned either way up."""
    gold, spheres, paths = BACK_GOLD, BACK_SPHERES, BACK_PATHS
    lines = "".join(f'<line x1="{spheres[a][0]}" y1="{spheres[a][1]}" x2="{spheres[b][0]}" y2="{spheres[b][1]}"/>'
                    for a, b in paths)
    dots = "".join(f'<circle cx="{x}" cy="{y}" r="6"/>' for x, y in spheres)
    body = (f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="8" fill="{BACK_BLUE}" stroke="{gold}" stroke-width="2"/>'
            f'<rect x="7" y="7" width="{W - 14}" height="{H - 14}" rx="5" fill="none" stroke="{gold}" stroke-width="1"/>'
            f'<g stroke="{gold}" stroke-width="1.6">{lines}</g><g fill="{BACK_BLUE}" stroke="{gold}" stroke-width="1.6">{dots}</g>')
    return body


def card_svg(code: str) -> str:
    if code == BACK:
        return back_svg()
    return major_svg(code) if CARDS[code].arcana == "major" else minor_svg(code)


def sprite_svg() -> str:
    """Every card as a ``<symbol id="c-<code>">`` of one file, what they share defined once."""
    shared = Shared()
    symbols = []
    for code in [*CARDS, BACK]:
        body = _back() if code == BACK else _major(code, shared) if CARDS[code].arcana == "major" \
            else _minor(code, shared)
        symbols.append(f'<symbol id="c-{code}" viewBox="0 0 {W} {H}">{body}</symbol>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg"><defs>{"".join(shared.defs.values())}</defs>'
            f'{"".join(symbols)}</svg>\n')


SPRITE = "sprite.svg"


def build(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for code in [*CARDS, BACK]:
        path = folder / f"{code}.svg"
        path.write_text(card_svg(code), encoding="utf-8")
        written.append(path)
    sprite = folder / SPRITE
    sprite.write_text(sprite_svg(), encoding="utf-8")
    return [*written, sprite]


# --- the app icons: the card back drawn as PNG (the web manifest's icons) -----------------

ICON_SIZES = {"icon-192.png": (192, "card"), "icon-512.png": (512, "card"), "icon-maskable-192.png": (192, "maskable"),
              "icon-maskable-512.png": (512, "maskable"), "icon-badge-96.png": (96, "badge"),
              "apple-touch-icon.png": (180, "maskable")}
_SUPERSAMPLE = 4  # drawn this many times larger and scaled down: Pillow draws without antialiasing


def app_icon(size: int, kind: str):
    """The card back as a square PNG image of ``size`` pixels (Pillow, no SVG renderer):
    ``card`` the whole card on a transparent ground; ``maskable`` the tree on a full-bleed
    blue ground, kept inside the central circle a launcher's mask never cuts (40 % of the
    side as radius); ``badge`` the tree alone in white, which Android shows in the status bar."""
    from PIL import Image, ImageDraw

    big = size * _SUPERSAMPLE
    ground = BACK_BLUE if kind == "maskable" else (0, 0, 0, 0)
    image = Image.new("RGBA", (big, big), ground)
    draw = ImageDraw.Draw(image)
    if kind == "card":
        scale = 0.94 * big / H
        left, top = (big - W * scale) / 2, (big - H * scale) / 2
    else:
        # The tree's spheres span x 24..76, y 24..141 (with their radius): its centre (50, 82.5)
        # at the icon's, its corners within the safe circle.
        half_diagonal = ((76 - 24) ** 2 + (141 - 24) ** 2) ** 0.5 / 2
        scale = (0.4 if kind == "maskable" else 0.48) * big / half_diagonal
        left, top = big / 2 - 50 * scale, big / 2 - 82.5 * scale

    def at(x: float, y: float) -> tuple[float, float]:
        return left + x * scale, top + y * scale

    def width(units: float) -> int:
        return max(1, round(units * scale))

    ink = "#ffffff" if kind == "badge" else BACK_GOLD
    if kind == "card":
        draw.rounded_rectangle([at(1, 1), at(W - 1, H - 1)], radius=8 * scale, fill=BACK_BLUE, outline=ink,
                               width=width(2))
        draw.rounded_rectangle([at(7, 7), at(W - 7, H - 7)], radius=5 * scale, outline=ink, width=width(1))
    stroke = 2.4 if kind != "card" else 1.6  # thicker where the icon is small and has no card around it
    for a, b in BACK_PATHS:
        draw.line([at(*BACK_SPHERES[a]), at(*BACK_SPHERES[b])], fill=ink, width=width(stroke))
    for x, y in BACK_SPHERES:
        r = 6 + stroke / 2
        draw.ellipse([at(x - r, y - r), at(x + r, y + r)], fill=ink)
        if kind != "badge":
            inner = 6 - stroke / 2
            draw.ellipse([at(x - inner, y - inner), at(x + inner, y + inner)], fill=BACK_BLUE)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def build_icons(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (size, kind) in ICON_SIZES.items():
        path = folder / name
        app_icon(size, kind).save(path, optimize=True)
        written.append(path)
    return written
