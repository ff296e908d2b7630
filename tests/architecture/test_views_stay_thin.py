"""The game's views stay thin (issue 39): an access helper, a service call and a render.
What the page holds and which of its regions an answer sends is a protocol of its own,
drawn by one module, ``games.page_regions``, which states it in its docstring and has its
own spec (tests/games/test_page_regions.py)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import games.page_regions

ROOT = Path(__file__).resolve().parents[2]
VIEWS = ROOT / "games" / "views.py"


def test_views_stay_thin():
    lines = len(VIEWS.read_text().splitlines())
    assert lines < 500, f"games/views.py has {lines} lines: the page's machinery belongs in games/page_regions.py"


def test_the_views_make_no_digest_and_draw_no_out_of_band_part_themselves():
    source = VIEWS.read_text()
    imported = {alias.name for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Import)
                for alias in node.names}
    assert "hashlib" not in imported
    assert "hx-swap-oob" not in source
    assert not re.search(r"""["']seen_""", source)  # the page's digests, seen_status and the rest


def test_the_page_regions_module_states_the_protocol_between_page_and_server():
    doc = games.page_regions.__doc__ or ""
    # What the page holds, what it sends back, what the server sends, the log's window,
    # polls and moves, and what stays constant in cost.
    for said in ("holds a digest of each region", "sends them back", "only what differs", "log's window",
                 "Polls and moves", "constant in cost"):
        assert said in doc, said
    assert (ROOT / "tests" / "games" / "test_page_regions.py").exists()
