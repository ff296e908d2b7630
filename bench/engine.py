"""Engine speed: complete random games per second, and microseconds per call.

Run from the repository root:  .venv/bin/python bench/engine.py [--game SLUG ...] [--seconds S]

Every registered game is measured unless ``--game`` names some.  A game is played from a
fresh ``new_game`` to its ``outcome`` by picking uniformly among ``legal_moves`` of the first
seat in ``to_act``; the figures are games per second on one core (the whole loop, in CPU
seconds of this process, so other work on a shared machine does not skew it; wall-clock
games per second are printed beside it), and the mean microseconds of one
``legal_moves`` call and of one ``apply`` call.  To bench a variation,
add its options to ``CASES``; to hold a game to a bar, add it to ``BARS``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import RULES, get_rules  # noqa: E402

# Options to bench per game (each a separate line of figures); games not listed run once
# with their default options.
CASES: dict[str, list[dict]] = {
    "know_thyself": [
        {"variant": "standard"},
        {"variant": "meditative"},
        {"variant": "fated"},
        {"variant": "numerology"},
        {"variant": ["meditative", "fated", "numerology"]},
    ],
    "lovers_discourse": [{"variant": "standard"}, {"variant": ["meditative", "fated", "numerology"]}],
    "warring_planets": [{"variant": "standard"}, {"variant": ["noble", "outnumber"]}],
    "dream_odyssey": [{"variant": "standard"}],  # issue 5: random games per second
    # "players" is the bench's own key (the seat count), not a game option.
    "tarot_hallow": [{"variant": "standard", "players": 2}, {"variant": "standard", "players": 6}],
    "hermits_arcana": [{"variant": "standard"}],  # issue 15: random games per second
    # The 2021 prototype edition (issue 17).
    "know_thyself_2021": [{"variant": "standard"}, {"variant": ["easy", "expert"]}, {"variant": "freethought"}],
    "lovers_discourse_2021": [{"variant": "standard"}, {"variant": "easy"}],
    "warring_planets_2021": [{"variant": "standard"}, {"variant": "easy"}],
}
# Games per second each game must reach: issue 3 asked 500 of Know Thyself, issue 12 asks
# 2,500 of it and 1,500 of Dream Odyssey (standard rules, one core).
BARS: dict[tuple[str, str], float] = {("know_thyself", "standard"): 2500.0, ("dream_odyssey", "standard"): 1500.0}
MOVE_CAP = 100_000  # a game longer than this is a bug worth reporting, not a benchmark


def play_games(slug: str, options: dict, seconds: float) -> dict:
    rules = get_rules(slug)
    options = dict(options)
    players = options.pop("players", rules.min_players)
    perf = time.process_time  # CPU time of this process: one core, whatever else runs
    # Each call is timed by the wall clock: reading this process's CPU time is a system
    # call (0.6 us here, a sixth of a Know Thyself game's time at three a move), and a
    # call of a few microseconds is seldom interrupted.  The games per second stay in CPU
    # seconds, read once at each end.
    wall = time.perf_counter
    games = moves = 0
    t_legal = t_apply = 0.0
    n_legal = 0
    start = perf()
    wall_start = wall()
    seed = 0
    while wall() - wall_start < seconds:
        rnd = random.Random(seed)
        state = rules.new_game(seed, players, options)
        seed += 1
        for _ in range(MOVE_CAP):
            seats = rules.to_act(state)
            if not seats:
                break
            seat = seats[0]
            t0 = wall()
            legal = rules.legal_moves(state, seat)
            t1 = wall()
            # A forfeit (legal at any time in Warring Planets) would cut every game short.
            state = rules.apply(state, seat, rnd.choice([m for m in legal if m["type"] != "forfeit"] or legal))
            t2 = wall()
            t_legal += t1 - t0
            t_apply += t2 - t1
            n_legal += 1
            moves += 1
        else:
            raise RuntimeError(f"{slug} seed {seed - 1} did not end within {MOVE_CAP} moves")
        games += 1
    elapsed = perf() - start
    return {"games": games, "moves": moves, "seconds": elapsed,
            "games_per_s": games / elapsed,
            "games_per_wall_s": games / (wall() - wall_start),
            "us_legal": 1e6 * t_legal / max(n_legal, 1),
            "us_apply": 1e6 * t_apply / max(moves, 1),
            "moves_per_game": moves / max(games, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=sorted(RULES),
                        help="a game slug (repeatable); default: every registered game")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="how long to play each case (default 3)")
    args = parser.parse_args(argv)
    failed = False
    print(f"{'game':<16} {'options':<36} {'games/s':>9} {'(wall)':>8} {'moves/game':>10} "
          f"{'legal_moves us':>14} {'apply us':>9}")
    for slug in args.game or list(RULES):
        for options in CASES.get(slug, [{}]):
            r = play_games(slug, options, args.seconds)
            variant = options.get("variant", "default")
            key = "+".join(variant) if isinstance(variant, list) else variant
            if "players" in options:
                key += f", {options['players']} seats"
            bar = BARS.get((slug, key))
            verdict = ""
            if bar is not None:
                verdict = f"  (bar {bar:.0f}: {'ok' if r['games_per_s'] >= bar else 'BELOW'})"
                failed |= r["games_per_s"] < bar
            print(f"{slug:<16} {key:<36} {r['games_per_s']:>9.0f} {r['games_per_wall_s']:>8.0f} "
                  f"{r['moves_per_game']:>10.1f} "
                  f"{r['us_legal']:>14.1f} {r['us_apply']:>9.1f}{verdict}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
