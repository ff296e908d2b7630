"""The winnability table: what share of each solo mode's deals can be won with every
card's place known, settled deal by deal by the solver (``games.solver``).

Run from the repository root:  .venv/bin/python bench/solver.py [--games N] [--game SLUG ...]
                                [--variant NAME ...] [--max-seconds S] [--max-nodes N]
                                [--jobs J] [--compare] [--json]

For each game (default: every one-seat game, and Lovers' Discourse with both hands known),
deal g is ``new_game(seed=g)`` for g in 0..N-1 (default N 200), searched with a budget of
``--max-seconds`` CPU seconds (default 30) and ``--max-nodes`` states (default none).  Each
winning line found is replayed through the engine before it counts (a line that does not
win stops the bench).  A row: {"game", "variant", "deals", "winnable", "unwinnable",
"undecided", "ci95", "p50_s", "p95_s", "nodes_p50", "nodes_per_s", "depth_max", "found_by", "bound_cuts"}
("found_by": how many winning lines each search found, the depth-first one, a beam of a
width or the restarts; "bound_cuts": states the games' bounds called lost unsearched; with
``--compare``, each deal is searched twice and each game has two rows, "solver": "baseline"
(no bounds, no restarts: the search before them) and "current"; with
``--estimate``, "undecided_tree_log10": Knuth's estimate of each undecided deal's game tree,
log10, the size an exhaustive proof faces before transpositions; with ``--lines``, also "lines":
each winning line found, {"seed", "line"}, for tests/engine/test_solver_bench.py), the shares
as fractions of the deals, ``ci95`` the Wilson 95 % interval of the winnable share (the
undecided deals count as not proved winnable, so the interval is of the share *proved*),
times in CPU seconds of one core per deal (so other work on a shared machine does not
skew them; ``--jobs J`` searches J deals side by side in processes).  ``--json`` prints the
rows as a JSON list; otherwise a table, with the issue's targets checked (undecided at most
5 %, p95 at most 30 s).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import get_rules  # noqa: E402
from games.solver import SOLVABLE, UNDECIDED, UNWINNABLE, WINNABLE, replay, solve  # noqa: E402

DEFAULT_GAMES = ("know_thyself", "know_thyself_2021", "dream_odyssey", "hermits_arcana", "lovers_discourse")
UNDECIDED_BAR = 0.05
P95_BAR_S = 30.0


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (it stays inside [0, 1] and is honest
    for shares near 0 or 1, where the normal approximation is not)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100), nearest rank."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def tree_size_log10(rules, first: dict, probes: int = 300, seed: int = 0) -> float:
    """Knuth's estimate (1975) of the size of the deal's whole game tree, log10: the mean
    over random walks from the first state of 1 + b1 + b1*b2 + ..., b_i the number of moves
    (symmetric ones pruned) at the walk's i-th position.  Unbiased for the tree, so an
    upper bound on what an exhaustive search of this deal must visit; the transposition
    table merges positions reached by several orders, so the real count is smaller, by a
    factor this does not measure."""
    import random

    from games.solver.keys import prune_function

    prune = prune_function(rules.slug)
    rng = random.Random(seed)
    total = 0.0
    for _ in range(probes):
        state, weight, estimate = first, 1.0, 1.0
        while rules.outcome(state) is None:
            seat = rules.to_act(state)[0]
            moves = prune(rules, state, rules.legal_moves(state, seat))
            weight *= len(moves)
            estimate += weight
            state = rules.apply(state, seat, rng.choice(moves))
        total += estimate
    return math.log10(total / probes)


# What ``--compare`` sets against today's solver: the search as it was before the game's
# bounds (games.solver.bounds) and the randomised restarts were added.
BASELINE = {"bounds": False, "diversify": False}


def one_deal(slug: str, variant: str, seed: int, max_seconds: float | None,
             max_nodes: int | None, estimate: bool = False, baseline: bool = False) -> dict:
    rules = get_rules(slug)
    first = rules.new_game(seed, rules.min_players, {"variant": variant})
    result = solve(rules, first, max_nodes=max_nodes, max_seconds=max_seconds, **(BASELINE if baseline else {}))
    if result.verdict == WINNABLE:
        end = replay(rules, first, result.line)
        outcome = rules.outcome(end)
        if not outcome or outcome["result"] != "win":
            raise SystemExit(f"{slug} deal {seed}: the solver's line does not win ({outcome})")
    return {"seed": seed, "verdict": result.verdict, "seconds": result.seconds, "nodes": result.nodes,
            "depth": result.max_depth, "line": result.line, "found_by": result.stats.get("found_by"),
            "cut": result.stats.get("cut", 0),
            "tree_log10": tree_size_log10(rules, first) if estimate and result.verdict == UNDECIDED else None}


def row(slug: str, variant: str, deals: list[dict], lines: bool = False, solver: str | None = None) -> dict:
    n = len(deals)
    won = sum(d["verdict"] == WINNABLE for d in deals)
    lost = sum(d["verdict"] == UNWINNABLE for d in deals)
    open_ = sum(d["verdict"] == UNDECIDED for d in deals)
    seconds = [d["seconds"] for d in deals]
    nodes = [d["nodes"] for d in deals]
    lo, hi = wilson(won, n)
    return {"game": slug, "variant": variant, **({"solver": solver} if solver else {}), "deals": n,
            "winnable": round(won / n, 4), "unwinnable": round(lost / n, 4),
            "undecided": round(open_ / n, 4), "ci95": [round(lo, 4), round(hi, 4)],
            "p50_s": round(statistics.median(seconds), 3), "p95_s": round(percentile(seconds, 95), 3),
            "nodes_p50": int(statistics.median(nodes)),
            "nodes_per_s": int(sum(nodes) / max(sum(seconds), 1e-9)),
            "depth_max": max(d["depth"] for d in deals),
            "found_by": dict(Counter(d["found_by"] for d in deals if d["found_by"])),
            "bound_cuts": sum(d["cut"] for d in deals),
            **({"undecided_tree_log10": sorted(round(d["tree_log10"], 1) for d in deals if d["tree_log10"] is not None)}
               if any(d["tree_log10"] is not None for d in deals) else {}),
            **({"lines": [{"seed": d["seed"], "line": d["line"]} for d in deals if d["line"] is not None]}
               if lines else {})}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="deals per game (seeds 0..N-1)")
    parser.add_argument("--game", action="append", choices=SOLVABLE, help="repeatable; default: "
                        + ", ".join(DEFAULT_GAMES))
    parser.add_argument("--variant", action="append", help="repeatable; default: standard")
    parser.add_argument("--max-seconds", type=float, default=30.0, help="CPU seconds per deal")
    parser.add_argument("--max-nodes", type=int, default=None, help="states per deal")
    parser.add_argument("--jobs", type=int, default=1, help="deals searched side by side")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--estimate", action="store_true",
                        help="for each undecided deal, estimate its game tree's size (Knuth): "
                             '"undecided_tree_log10", the log10 of each, smallest first')
    parser.add_argument("--compare", action="store_true",
                        help='search each deal twice, with the solver as it was before its bounds and '
                             'restarts ("solver": "baseline") and as it is ("solver": "current"): a row each')
    parser.add_argument("--lines", action="store_true",
                        help='with --json, each row also lists its winning lines: "lines": [{"seed", "line"}]')
    args = parser.parse_args(argv)
    rows = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for slug in args.game or DEFAULT_GAMES:
            for variant in args.variant or ["standard"]:
                if variant not in get_rules(slug).variants:
                    continue
                kinds = [("baseline", True), ("current", False)] if args.compare else [(None, False)]
                futures = {kind: [pool.submit(one_deal, slug, variant, g, args.max_seconds, args.max_nodes,
                                              args.estimate, baseline) for g in range(args.games)]
                           for kind, baseline in kinds}
                for kind, _ in kinds:
                    deals = [f.result() for f in futures[kind]]
                    rows.append(row(slug, variant, deals, lines=args.lines, solver=kind))
                    if args.json:
                        continue
                    r = rows[-1]
                    ok = r["undecided"] <= UNDECIDED_BAR and r["p95_s"] <= P95_BAR_S
                    print(f"{slug:<22} {variant:<11} {kind or '':<8} deals {r['deals']:>4}  winnable {100 * r['winnable']:5.1f} % "
                          f"[{100 * r['ci95'][0]:.1f}, {100 * r['ci95'][1]:.1f}]  unwinnable "
                          f"{100 * r['unwinnable']:5.1f} %  undecided {100 * r['undecided']:5.1f} %  "
                          f"p50 {r['p50_s']:.2f} s  p95 {r['p95_s']:.2f} s  {r['nodes_per_s']} nodes/s  "
                          f"({'targets met' if ok else 'targets NOT met'})", flush=True)
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
