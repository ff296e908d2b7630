"""The seal's fonts: where they come from and what their glyphs measure.

Every glyph taken from a font comes from the DejaVu fonts that the ``matplotlib``
dependency installs (RULINGS section 2 wants fonts from a declared dependency, never from
whatever the host happens to have).  DejaVu Sans carries the astrological symbols; DejaVu
Serif sets the words and DejaVu Serif Bold the Minors' numerals.

Metrics come from fontTools, read straight from the same files, so the layout is computed
once in millimetres and every back-end (Pillow, reportlab, SVG) places identical glyphs.
The package is found without importing matplotlib itself, which would pull in numpy for
nothing.
"""

from __future__ import annotations

import importlib.util
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from fontTools.pens.boundsPen import BoundsPen
from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.ttLib import TTFont

FONT_PACKAGE = "matplotlib"
# role -> file name inside the package's font folder
FONT_FILES = {
    "symbol": "DejaVuSans.ttf",
    "text": "DejaVuSerif.ttf",
    "numeral": "DejaVuSerif-Bold.ttf",
}


@cache
def font_dir() -> Path:
    spec = importlib.util.find_spec(FONT_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(
            f"The seal fonts ship with the {FONT_PACKAGE!r} package, which is not installed; "
            "install the project's dependencies (pip install -e .)."
        )
    folder = Path(next(iter(spec.submodule_search_locations))) / "mpl-data" / "fonts" / "ttf"
    missing = [name for name in FONT_FILES.values() if not (folder / name).is_file()]
    if missing:
        raise RuntimeError(f"The seal fonts {missing} are missing from {folder}.")
    return folder


def font_path(role: str) -> Path:
    return font_dir() / FONT_FILES[role]


@dataclass(frozen=True)
class InkBox:
    """A glyph run's inked extent in em units, y up, origin at the run's baseline start."""

    xmin: float
    ymin: float
    xmax: float
    ymax: float

    @property
    def width(self) -> float:
        return self.xmax - self.xmin

    @property
    def height(self) -> float:
        return self.ymax - self.ymin


class FontMetrics:
    """One font file's cmap, advances, ink boxes and outlines, all in em units.

    One instance per font serves the whole process, threads included (the live preview
    runs in web server threads).  fontTools decodes each glyph in place the first time it
    is drawn, and a second thread drawing it meanwhile sees it half decoded (an
    AttributeError, or a composite glyph's components partly listed, which ``ink`` would
    then cache for good).  So glyphs are only ever drawn under the instance's lock.
    """

    def __init__(self, role: str):
        self.role = role
        self._lock = threading.Lock()
        self.path = font_path(role)
        self._font = TTFont(str(self.path), lazy=True)
        self.units_per_em = self._font["head"].unitsPerEm
        self._cmap = self._font.getBestCmap()
        self._glyphs = self._font.getGlyphSet()
        self._hmtx = self._font["hmtx"]

    def has(self, char: str) -> bool:
        return ord(char) in self._cmap

    def glyph_name(self, char: str) -> str:
        try:
            return self._cmap[ord(char)]
        except KeyError:
            raise ValueError(f"{self.path.name} has no glyph for {char!r} (U+{ord(char):04X})") from None

    def advance(self, char: str) -> float:
        return self._hmtx[self.glyph_name(char)][0] / self.units_per_em

    @cache  # noqa: B019 - one instance per font for the life of the process
    def ink(self, char: str) -> InkBox | None:
        pen = BoundsPen(self._glyphs)
        with self._lock:
            self._glyphs[self.glyph_name(char)].draw(pen)
        if pen.bounds is None:  # a space
            return None
        upm = self.units_per_em
        x0, y0, x1, y1 = pen.bounds
        return InkBox(x0 / upm, y0 / upm, x1 / upm, y1 / upm)

    def run_ink(self, text: str) -> InkBox:
        """The ink box of ``text`` set with its advances (no kerning: seals set few glyphs)."""
        x = 0.0
        boxes = []
        for char in text:
            box = self.ink(char)
            if box is not None:
                boxes.append(InkBox(x + box.xmin, box.ymin, x + box.xmax, box.ymax))
            x += self.advance(char)
        if not boxes:
            raise ValueError(f"{text!r} has no visible glyph")
        return InkBox(min(b.xmin for b in boxes), min(b.ymin for b in boxes),
                      max(b.xmax for b in boxes), max(b.ymax for b in boxes))

    @cache  # noqa: B019
    def svg_path(self, char: str) -> str:
        """The glyph's outline as SVG path data in font units, y up."""
        pen = SVGPathPen(self._glyphs)
        with self._lock:
            self._glyphs[self.glyph_name(char)].draw(pen)
        return pen.getCommands()


@cache
def metrics(role: str) -> FontMetrics:
    return FontMetrics(role)
