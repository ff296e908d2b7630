"""Printable seals: a reading's card symbols in a circle, one word per card around it.

Pure Python (no Django), so the Celery task, the management command, previews and the
benchmark all call the same two functions::

    data = render_seal(["M0", "M19", "9p"], ["beginning", "joy", "independence"], "png", "a5")
    name = seal_filename(["M0", "M19", "9p"], ["beginning", "joy", "independence"], "png", "a5")

``render_seal`` returns the file's bytes; ``seal_filename`` names it from a hash of the
normalised input, so the same seal always gets the same name and a worker can skip
rendering a file it already stored.  Bad input raises ``SealInputError`` (a ``ValueError``)
whose message can be shown to the player as it is.

Outputs: PNG at 300 dpi, PDF (vector, fonts embedded) and SVG (self-contained, glyphs as
outlines), each on 10 cm square, A5, A4 or US Letter paper with print margins.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Sequence

from games.engine.cards import CARDS, RANKS, SUITS

from .layout import PAGE_SIZES, SealLayout, layout_seal

FORMATS = ("png", "pdf", "svg")
SIZES = tuple(PAGE_SIZES)  # "10cm", "a5", "a4", "letter"
SIZE_LABELS = {"10cm": "10 cm square", "a5": "A5", "a4": "A4", "letter": "US Letter"}
CONTENT_TYPES = {"png": "image/png", "pdf": "application/pdf", "svg": "image/svg+xml"}
MIN_CARDS, MAX_CARDS = 2, 5
MAX_WORD_LENGTH = 18
# Part of every file name: bump it when the drawing changes so stored seals are redrawn.
RENDERER_VERSION = 1


class SealInputError(ValueError):
    """The cards, words, format or size cannot make a seal; the message says why."""


def default_words(cards: Sequence[str]) -> list[str]:
    """Each card's keyword, the word a seal offers before the player edits it."""
    return [CARDS[normalise_card(c)].keyword for c in cards]


def normalise_card(code: str) -> str:
    """``m0`` -> ``M0``, ``qC`` -> ``Qc``; raises ``SealInputError`` for a non-card."""
    if not isinstance(code, str):
        raise SealInputError(f"A card must be a code such as M19 or 9p, not {code!r}.")
    text = code.strip()
    if text[:1] in ("m", "M") and text[1:].isdigit():
        candidate = "M" + str(int(text[1:]))
    else:
        candidate = text[:-1].upper() + text[-1:].lower()
    if candidate not in CARDS:
        raise SealInputError(
            f"Unknown card {code!r}: use M0 to M21 for the Majors, or a rank "
            f"({', '.join(RANKS)}) followed by a suit ({', '.join(SUITS)}) for the Minors, "
            "e.g. 9p or Qc."
        )
    return candidate


def normalise_word(word: str) -> str:
    """The word as the seal inscribes it: trimmed, single-spaced, in capitals."""
    from .fonts import metrics

    if not isinstance(word, str):
        raise SealInputError(f"A word must be text, not {word!r}.")
    text = " ".join(unicodedata.normalize("NFC", word).split()).upper()
    if not text:
        raise SealInputError("Every card needs a word; one of the words is empty.")
    if len(text) > MAX_WORD_LENGTH:
        raise SealInputError(
            f"{word.strip()!r} is too long for the seal's rim: keep each word to "
            f"{MAX_WORD_LENGTH} characters."
        )
    font = metrics("text")
    missing = sorted({c for c in text if c != " " and (not c.isprintable() or not font.has(c))})
    if missing:
        raise SealInputError(f"{word.strip()!r} has characters the seal cannot letter: {' '.join(missing)}")
    return text


def check_seal_input(
    cards: Sequence[str], words: Sequence[str] | None = None, fmt: str = "png", size: str = "a5",
) -> tuple[list[str], list[str], str, str]:
    """Validate and normalise a seal's input; ``words`` default to the cards' keywords."""
    if isinstance(cards, str) or not isinstance(cards, Sequence):
        raise SealInputError("Cards must be a list of card codes such as ['M0', 'M19', '9p'].")
    if not MIN_CARDS <= len(cards) <= MAX_CARDS:
        raise SealInputError(
            f"A seal holds {MIN_CARDS} to {MAX_CARDS} cards; {len(cards)} "
            f"{'was' if len(cards) == 1 else 'were'} given."
        )
    codes = [normalise_card(c) for c in cards]
    for code in codes:
        if codes.count(code) > 1:
            raise SealInputError(f"{code} is chosen twice; a seal shows each card once.")
    if words is None:
        words = default_words(codes)
    elif isinstance(words, str) or not isinstance(words, Sequence):
        raise SealInputError("Words must be a list, one word per card.")
    if len(words) != len(codes):
        raise SealInputError(
            f"{len(codes)} cards need {len(codes)} words, one per card; {len(words)} "
            f"{'was' if len(words) == 1 else 'were'} given."
        )
    inscribed = [normalise_word(w) for w in words]
    fmt_key = fmt.strip().lower() if isinstance(fmt, str) else fmt
    if fmt_key not in FORMATS:
        raise SealInputError(f"Unknown format {fmt!r}: choose {', '.join(FORMATS)}.")
    size_key = size.strip().lower() if isinstance(size, str) else size
    if size_key not in PAGE_SIZES:
        raise SealInputError(f"Unknown size {size!r}: choose {', '.join(SIZES)}.")
    return codes, inscribed, fmt_key, size_key


def seal_layout(cards: Sequence[str], words: Sequence[str] | None = None, size: str = "a5") -> SealLayout:
    """The seal's geometry (for previews and tests); validates like ``render_seal``."""
    codes, inscribed, _, size_key = check_seal_input(cards, words, "png", size)
    return layout_seal(codes, inscribed, size_key)


def render_seal(
    cards: Sequence[str], words: Sequence[str] | None = None, fmt: str = "png", size: str = "a5",
) -> bytes:
    """The seal as a PNG, PDF or SVG file's bytes.  Deterministic: same input, same bytes."""
    codes, inscribed, fmt_key, size_key = check_seal_input(cards, words, fmt, size)
    drawing = layout_seal(codes, inscribed, size_key)
    if fmt_key == "png":
        from .png import render_png

        return render_png(drawing)
    if fmt_key == "pdf":
        from .pdf import render_pdf

        return render_pdf(drawing, title=_title(codes, inscribed))
    from .svg import render_svg

    return render_svg(drawing, title=_title(codes, inscribed))


def seal_digest(cards: Sequence[str], words: Sequence[str] | None = None) -> str:
    """A short hash of what the seal shows (not its format or size)."""
    codes, inscribed, _, _ = check_seal_input(cards, words)
    payload = json.dumps({"v": RENDERER_VERSION, "cards": codes, "words": inscribed}, ensure_ascii=False)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def seal_filename(
    cards: Sequence[str], words: Sequence[str] | None = None, fmt: str = "png", size: str = "a5",
) -> str:
    """``seal-<digest>-<size>.<fmt>``: the same input always gets the same name."""
    _, _, fmt_key, size_key = check_seal_input(cards, words, fmt, size)
    return f"seal-{seal_digest(cards, words)}-{size_key}.{fmt_key}"


def _title(codes: list[str], words: list[str]) -> str:
    return "Seal: " + ", ".join(f"{CARDS[c].name} ({w.lower()})" for c, w in zip(codes, words))


__all__ = [
    "CONTENT_TYPES", "FORMATS", "MAX_CARDS", "MAX_WORD_LENGTH", "MIN_CARDS", "RENDERER_VERSION",
    "SIZES", "SIZE_LABELS", "SealInputError", "check_seal_input", "default_words", "normalise_card",
    "render_seal", "seal_digest", "seal_filename", "seal_layout",
]
