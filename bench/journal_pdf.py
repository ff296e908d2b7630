"""How long one journal entry takes as PDF, by the length of its reflections.

    .venv/bin/python bench/journal_pdf.py [--repeat 3]

Reflections of short lines (two letters each) at 1,000 and 8,000 lines, and the longest
the form takes (50,000 characters: 16,667 lines). Before the renderer laid each line out
on its own, time grew with the square of the lines (0.45 s at 1k lines, 19.4 s at 8k);
the target is the 50,000-character entry in under 2 s, and a time per line that stays
flat (the last column, against the 1,000-line run of the same process).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATA_DIR", tempfile.mkdtemp(prefix="sefirot-bench-"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sefirot_site.settings")

import django  # noqa: E402

django.setup()

from journal import exports  # noqa: E402
from journal.models import Entry  # noqa: E402
from sefirot_site.accounts.models import User  # noqa: E402

LIMIT = 50_000


def entry_with(reflections: str) -> Entry:
    entry = Entry(title="A long evening", date=dt.date(2026, 11, 24), mode="by_hand",
                  reading={"sections": []}, reflections=reflections)
    entry.owner = User(username="bench")
    return entry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    # The entry's tags and seals live in the database; this measures the layout alone.
    exports.entry_to_dict = lambda entry: {"tags": [], "seals": []}
    exports.entry_pdf(entry_with("warm-up"))  # fonts loaded once, as in a running site
    base = None
    print(f"{'lines':>7} {'chars':>7} {'best s':>8} {'pages KB':>9} {'per line vs 1k':>15}")
    for lines in (1000, 8000, LIMIT // 3 + 1):
        text = "\n".join("ab" for _ in range(lines))[:LIMIT]
        best, size = float("inf"), 0
        for _ in range(args.repeat):
            started = time.perf_counter()
            size = len(exports.entry_pdf(entry_with(text)))
            best = min(best, time.perf_counter() - started)
        per_line = best / lines
        base = base or per_line
        print(f"{lines:>7} {len(text):>7} {best:>8.2f} {size // 1024:>9} {per_line / base:>14.2f}x")
    print(f"target: {LIMIT:,} characters in under 2 s: {'ok' if best < 2 else 'MISSED'}")


if __name__ == "__main__":
    main()
