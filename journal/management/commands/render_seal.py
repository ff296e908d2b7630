"""Render a seal from the command line, without the web or the worker.

    python manage.py render_seal --cards M0,M19,9p --words a,b,c --format png --size a5 --out seal.png
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from journal.seals import FORMATS, SIZES, SealInputError, render_seal, seal_filename


def _list(value: str | None) -> list[str] | None:
    return None if value is None else [part.strip() for part in value.split(",")]


class Command(BaseCommand):
    help = (
        "Draw a seal: 2 to 5 cards' symbols in a circle, one word per card around it, as a "
        "print-ready PNG (300 dpi), PDF or SVG."
    )

    def add_arguments(self, parser):
        parser.add_argument("--cards", required=True,
                            help="comma-separated card codes, 2 to 5: M0..M21, or rank+suit such as 9p, Qc, 10s")
        parser.add_argument("--words", help="comma-separated, one per card (default: each card's keyword)")
        parser.add_argument("--format", dest="fmt", choices=FORMATS,
                            help="png, pdf or svg (default: from --out's extension, else png)")
        parser.add_argument("--size", default="a5", help=f"paper: {', '.join(SIZES)} (default a5)")
        parser.add_argument("--out", help="file to write (default: the seal's own name in the current folder)")

    def handle(self, *args, cards, words, fmt, size, out, **options):
        if fmt is None:
            suffix = Path(out).suffix.lower().lstrip(".") if out else ""
            fmt = suffix if suffix in FORMATS else "png"
        card_list, word_list = _list(cards), _list(words)
        try:
            data = render_seal(card_list, word_list, fmt, size)
            target = Path(out) if out else Path(seal_filename(card_list, word_list, fmt, size))
        except SealInputError as error:
            raise CommandError(str(error)) from None
        try:
            target.write_bytes(data)
        except OSError as error:
            raise CommandError(f"Cannot write {target}: {error.strerror or error}") from None
        self.stdout.write(f"Wrote {target} ({len(data):,} bytes, {fmt.upper()}, {size}).")
