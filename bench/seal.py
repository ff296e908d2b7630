"""How long a seal takes to render, in each format and paper size, beside the floor.

    .venv/bin/python bench/seal.py [--repeat 7] [--no-memory]

The floor is what Pillow alone needs for a blank page of the same size at 300 dpi: filling
it (``Image.new``) and filling and saving it as PNG.  A seal cannot be cheaper than that.
Times are the best and the median of ``--repeat`` warm runs (fonts already loaded; on a
shared machine the best is the fairer figure); the first, cold call is printed on its own.
The blank-page floors are best-of; "x floor" is the best render over the blank PNG's best of
the same run (issue 12: at most 3 for the A5 PNG).  PNG rows also give the peak memory of a fresh process that
renders that one page (Linux's VmHWM), beside that of one that only saves a blank page.
"""

from __future__ import annotations

import argparse
import io
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from journal.seals import FORMATS, SIZES, render_seal  # noqa: E402
from journal.seals.layout import PAGE_SIZES  # noqa: E402
from journal.seals.png import DPI, pixel_size  # noqa: E402

# The example with the longest keywords of a five-card seal: the most glyphs to place.
CARDS = ["M0", "M19", "9p", "Qc", "M21"]
WORDS = ["independence", "celebration", "contentment", "restriction", "wholeness"]

# VmHWM, not ru_maxrss: the latter survives exec and would report this big parent's peak.
_CHILD = """
import sys
sys.path.insert(0, {root!r})
from PIL import Image
import io
if {render!r}:
    from journal.seals import render_seal
    render_seal({cards!r}, {words!r}, "png", {size!r})
else:
    Image.new("L", {px!r}, 255).save(io.BytesIO(), "PNG", dpi=({dpi}, {dpi}))
with open("/proc/self/status") as status:
    print(next(line.split()[1] for line in status if line.startswith("VmHWM:")))
"""


def timed(fn, repeat: int) -> tuple[float, float]:
    """Best and median of ``repeat`` runs: the best is the least disturbed by other work."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    return min(runs), statistics.median(runs)


def blank_fill(px):
    return lambda: Image.new("L", px, 255)


def blank_png(px):
    def run():
        Image.new("L", px, 255).save(io.BytesIO(), "PNG", dpi=(DPI, DPI))
    return run


def peak_mb(size: str, render: bool) -> float:
    code = _CHILD.format(root=str(ROOT), render=render, cards=CARDS, words=WORDS, size=size,
                         px=pixel_size(*PAGE_SIZES[size]), dpi=DPI)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(out.stdout.strip().splitlines()[-1]) / 1024  # kB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--no-memory", action="store_true", help="skip the per-process memory runs")
    args = parser.parse_args()

    start = time.perf_counter()
    render_seal(CARDS, WORDS, "svg", "10cm")
    print(f"first call, fonts loading: {1000 * (time.perf_counter() - start):.0f} ms")
    print(f"seal: {', '.join(CARDS)} / {', '.join(WORDS)}; best and median of {args.repeat} warm runs\n")

    header = (f"{'format':6} {'size':7} {'pixels':>11} {'render':>9} {'median':>9} {'blank fill':>11} "
              f"{'blank PNG':>10} {'x floor':>8} {'bytes':>9}")
    if not args.no_memory:
        header += f" {'peak RSS':>9} {'blank RSS':>10}"
    print(header)
    print("-" * len(header))
    for fmt in FORMATS:
        for size in SIZES:
            px = pixel_size(*PAGE_SIZES[size])
            data = render_seal(CARDS, WORDS, fmt, size)
            render, median = timed(lambda: render_seal(CARDS, WORDS, fmt, size), args.repeat)
            fill, _ = timed(blank_fill(px), args.repeat)
            png, _ = timed(blank_png(px), args.repeat)
            line = (f"{fmt:6} {size:7} {px[0]:>5}x{px[1]:<5} {1000 * render:>7.1f}ms {1000 * median:>7.1f}ms "
                    f"{1000 * fill:>9.1f}ms {1000 * png:>8.1f}ms {render / png:>7.1f}x {len(data):>9,}")
            if not args.no_memory and fmt == "png":
                line += f" {peak_mb(size, True):>7.0f}MB {peak_mb(size, False):>8.0f}MB"
            print(line)
            if fmt == "png" and size == "a5":
                a5 = render / png
    print(f"\nA5 PNG: {a5:.1f}x the blank-page floor (issue 12: at most 3x): {'ok' if a5 <= 3 else 'ABOVE'}")


if __name__ == "__main__":
    main()
