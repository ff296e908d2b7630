"""The winnability bench (``bench/solver.py``) prints only lines that win: every winning line
it prints with ``--json --lines``, replayed move by move through the engine from its deal's
first state, is legal and ends in a win (issue 40's must-show)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from games.engine import get_rules
from games.solver import replay

ROOT = Path(__file__).resolve().parents[2]
ROW_KEYS = {"game", "deals", "winnable", "undecided", "ci95", "p50_s", "p95_s"}


def test_every_winning_line_the_bench_prints_replays_to_a_win():
    games = ["know_thyself", "know_thyself_2021", "dream_odyssey", "hermits_arcana", "lovers_discourse"]
    command = [sys.executable, str(ROOT / "bench" / "solver.py"), "--json", "--lines", "--games", "3",
               "--max-nodes", "8000", "--max-seconds", "60"] + [f"--game={g}" for g in games]
    rows = json.loads(subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True,
                                     timeout=900).stdout)
    assert [r["game"] for r in rows] == games
    replayed = 0
    for row in rows:
        assert ROW_KEYS <= set(row) and row["deals"] == 3
        rules = get_rules(row["game"])
        for found in row["lines"]:
            first = rules.new_game(found["seed"], rules.min_players, {"variant": row["variant"]})
            end = replay(rules, first, found["line"])  # the engine checks every move
            assert rules.outcome(end)["result"] == "win", (row["game"], found["seed"])
            replayed += 1
        assert len(row["lines"]) == round(row["winnable"] * row["deals"])
    assert replayed >= 3  # Know Thyself's deal 0 and Dream Odyssey's are won within this budget
