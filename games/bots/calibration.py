"""Calibration maps: from what the review's playouts say to a chance of winning.

The review's playouts are played by the greedy policy, which wins far less often than the
advisor whose every hint a player may follow (Know Thyself: greedy about 1 game in 200, the
advisor about a fifth), so the share of playouts won is no chance of winning: it sits near
0 in games the advisor goes on to win.  What the playouts say still orders positions (more
of them won, further they got, a better-looking board, a later point of the game), so each
game gets a map fitted on the bench's games played by the advisor (``bench/bots.py
--calibration --fit-maps``): a logistic regression of the game's result on four numbers
of a position,

- the share of playouts won, as a log-odds (with half a playout added either side, so
  0 of 32 stays finite),
- the mean final score they reached (the game's own ``outcome()["scores"]``),
- the mean value of the dealt positions to the bots' scorer,
- how many moves the game has seen,

each standardised, with a small ridge penalty (the bench has tens of games, not
thousands; each game weighs one, however many moves it had).  The first three weigh a win up, never down: a fit that gives one of them a
negative weight drops it and fits again, so the chance never falls when more playouts are
won (the map is monotone in each).  The map's uncertainty comes from bootstrap fits over
the games (resampled with replacement): the margin printed with a chance spans what those
maps say at the two ends of the playouts' own 95 % Wilson interval.

A map is data in the game's folder, ``games/engine/<folder>/chance_maps.json`` (one map per
slug of the folder); a game without one gets the raw share with its Wilson margin (as
before there were maps).  Everything here is pure
Python and deterministic: the same statistics give the same chance.
"""

from __future__ import annotations

import functools
import json
import math
import os
import random
import sys

from games.engine.folders import game_folder

MAPS_FILE = "chance_maps.json"
FEATURES = ("share_log_odds", "score", "value", "moves_made")
# The features whose weight must not be negative: more won, further got, a better board.
MONOTONE = (0, 1, 2)
# Each game weighs one in the fit, whatever its length (its moves share one result, so they
# are not independent draws), and the ridge on the standardised features is about one game's
# worth of pull towards no effect.  The intercept gets a tenth of it, towards even chances: a
# game whose benched games were all won (or all lost) gets a chance short of 100 % (twelve
# games all won: about 97 %), and tens of games are barely pulled at all.
RIDGE = 1.0
INTERCEPT_PULL = 0.1
BOOTSTRAPS = 40


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson interval of a share won out of ``n``."""
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    spread = z * math.sqrt(max(share * (1 - share), 0.0) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - spread), min(1.0, centre + spread)


def features(share: float, score: float, value: float, moves_made: int, playouts: int) -> list[float]:
    wins = share * playouts
    return [math.log((wins + 0.5) / (playouts - wins + 0.5)), float(score), float(value), float(moves_made)]


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def predict(model: dict, x: list[float]) -> float:
    """The chance a map gives a position's raw features ``x`` (``features``)."""
    coef = model["coef"]
    z = coef[0] + sum(c * (v - m) / s for c, v, m, s in zip(coef[1:], x, model["mean"], model["scale"]))
    return _sigmoid(z)


def chance(rules, stats: dict, moves_made: int) -> tuple[float, float]:
    """``(chance, margin)`` for the playouts' statistics (``advice.playout_stats``) of a
    position after ``moves_made`` moves."""
    share, playouts = stats["share"], stats["playouts"]
    low, high = wilson(share, playouts)
    model = load(rules)
    if model is None:
        return share, max(high - share, share - low)
    row = (stats["score"], stats["value"], moves_made, playouts)
    p = predict(model, features(share, *row))
    # The map's own uncertainty (its bootstrap fits) at the ends of the playouts' interval.
    lows = sorted(predict({**model, "coef": c}, features(low, *row)) for c in model["bootstrap"])
    highs = sorted(predict({**model, "coef": c}, features(high, *row)) for c in model["bootstrap"])
    cut = max(0, int(0.025 * len(lows)))  # the 2.5th and 97.5th percentiles
    bottom = min(lows[cut], p) if lows else p
    top = max(highs[len(highs) - 1 - cut], p) if highs else p
    return p, max(p - bottom, top - p)


def maps_path(rules) -> str | None:
    """Where the game's folder keeps its maps (None for rules outside games/engine/)."""
    if game_folder(rules) is None:
        return None
    return os.path.join(os.path.dirname(sys.modules[type(rules).__module__].__file__), MAPS_FILE)


def load(rules) -> dict | None:
    """The game's map, or None."""
    path = maps_path(rules)
    return None if path is None else _read(path).get(rules.slug)


@functools.cache
def _read(path: str) -> dict:
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return json.load(f)


# --- fitting (the bench's job; pure Python so the site needs nothing more) --------------------

def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a handful of unknowns)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-12:
            continue
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / m[col][col]
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    return [m[i][n] / m[i][i] if abs(m[i][i]) > 1e-12 else 0.0 for i in range(n)]


def _logistic(xs: list[list[float]], ys: list[float], ws: list[float], active: list[int],
              ridge: float) -> list[float]:
    """Weighted ridge logistic regression by Newton's method on the ``active`` columns (the
    others' weights stay 0); returns [intercept, weight per column]."""
    k = len(active)
    w = [0.0] * (k + 1)
    for _ in range(50):
        grad = [0.0] * (k + 1)
        hess = [[0.0] * (k + 1) for _ in range(k + 1)]
        for x, y, weight in zip(xs, ys, ws):
            row = [1.0] + [x[j] for j in active]
            p = _sigmoid(sum(a * b for a, b in zip(w, row)))
            g, h = weight * (p - y), weight * max(p * (1 - p), 1e-9)
            for i in range(k + 1):
                grad[i] += g * row[i]
                hi = hess[i]
                for j in range(i + 1):
                    hi[j] += h * row[i] * row[j]
        for i in range(k + 1):
            pull = ridge if i else ridge * INTERCEPT_PULL
            grad[i] += pull * w[i]
            hess[i][i] += pull
        for i in range(k + 1):
            for j in range(i + 1, k + 1):
                hess[i][j] = hess[j][i]
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step)]
        if max(abs(s) for s in step) < 1e-7:
            break
    coef = [w[0]] + [0.0] * len(xs[0])
    for i, j in enumerate(active):
        coef[j + 1] = w[i + 1]
    return coef


def _fit_coef(xs: list[list[float]], ys: list[float], ws: list[float], ridge: float) -> list[float]:
    """Weights with the monotone features' kept at or above 0: the most negative one is
    dropped and the rest fitted again."""
    active = list(range(len(xs[0])))
    while True:
        coef = _logistic(xs, ys, ws, active, ridge)
        wrong = [j for j in active if j in MONOTONE and coef[j + 1] < 0]
        if not wrong:
            return coef
        active.remove(min(wrong, key=lambda j: coef[j + 1]))


def fit(games: list[tuple[int, list[list[float]]]], playouts: int, bootstraps: int = BOOTSTRAPS,
        ridge: float = RIDGE, seed: int = 0) -> dict:
    """A map from recorded games: ``[(won 0/1, [[moves made, share, score, value], ...])]``
    (a pair's won counts for both its seats' moves)."""
    raw = [(won, [features(s, sc, v, n, playouts) for n, s, sc, v in moves]) for won, moves in games]
    flat = [x for _, xs in raw for x in xs]
    mean = [sum(col) / len(flat) for col in zip(*flat)]
    scale = [max(math.sqrt(sum((v - m) ** 2 for v in col) / len(flat)), 1e-6)
             for col, m in zip(zip(*flat), mean)]

    def standard(sample):
        xs = [[(v - m) / s for v, m, s in zip(x, mean, scale)] for _, moves in sample for x in moves]
        ys = [float(won) for won, moves in sample for _ in moves]
        ws = [1.0 / len(moves) for _, moves in sample for _ in moves]
        return xs, ys, ws

    coef = _fit_coef(*standard(raw), ridge)
    rng = random.Random(seed)
    boots = []
    for _ in range(bootstraps):
        # A resample with no win (or no loss) still fits: the ridge keeps it finite.
        sample = [raw[rng.randrange(len(raw))] for _ in raw]
        boots.append([round(c, 6) for c in _fit_coef(*standard(sample), ridge)])
    return {"features": list(FEATURES), "mean": [round(m, 6) for m in mean],
            "scale": [max(round(s, 6), 1e-6) for s in scale], "coef": [round(c, 6) for c in coef],
            "bootstrap": boots, "playouts": playouts, "games": len(games),
            "moves": len(flat), "won": sum(won for won, _ in games)}
