"""The review's chances of winning (games.bots.calibration): what the greedy playouts say goes
through a map fitted per game on the bench's games of the advisor, so a chance means how
often the advisor's games won from such positions.  A map never lowers the chance when
more playouts are won (or they got further, or the board looks better), stays within 0 and
1, gives the same chance for the same statistics, and the review prints its chance with a
margin.  How well the chances match the results (the ECE) is measured by bench/bots.py
--calibration, not here."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from games.bots import calibration, playable
from games.bots.advice import estimate, playout_stats, review
from games.engine import get_rules

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
MAPS = sorted(slug for path in ENGINE.glob(f"*/{calibration.MAPS_FILE}") for slug in json.loads(path.read_text()))
SOLO_WITH_A_BOT = ["know_thyself", "know_thyself_2021", "dream_odyssey", "hermits_arcana"]
KT = get_rules("know_thyself")


def _stats(share: float, score: float, value: float, playouts: int = 32) -> dict:
    return {"share": share, "score": score, "value": value, "playouts": playouts}


def _grid(model: dict) -> list[tuple[float, float, int]]:
    """Scores, values and moves made around what the bench recorded: the mean and two
    standard deviations either side."""
    (_, score, value, made), (_, ds, dv, dm) = model["mean"], model["scale"]
    return [(score + a * ds, value + b * dv, max(0, round(made + c * dm)))
            for a in (-2, 0, 2) for b in (-2, 0, 2) for c in (-2, 0, 2)]


def test_every_solo_game_with_a_bot_has_a_map():
    assert set(SOLO_WITH_A_BOT) <= set(MAPS)


@pytest.mark.parametrize("slug", MAPS)
def test_a_map_never_lowers_the_chance_when_more_playouts_are_won_and_stays_within_0_and_1(slug):
    rules = get_rules(slug)
    model = calibration.load(rules)
    for score, value, made in _grid(model):
        got = [calibration.chance(rules, _stats(k / 32, score, value), made) for k in range(33)]
        chances = [c for c, _ in got]
        assert all(0 <= c <= 1 for c in chances)
        assert all(m >= 0 for _, m in got)
        assert chances == sorted(chances), (slug, score, value, made)


@pytest.mark.parametrize("slug", MAPS)
def test_a_map_never_lowers_the_chance_when_the_playouts_got_further_or_the_board_looks_better(slug):
    rules = get_rules(slug)
    model = calibration.load(rules)
    _, ds, dv, _ = model["scale"]
    for score, value, made in _grid(model):
        for share in (0.0, 0.25, 1.0):
            here = calibration.chance(rules, _stats(share, score, value), made)[0]
            assert calibration.chance(rules, _stats(share, score + ds, value), made)[0] >= here
            assert calibration.chance(rules, _stats(share, score, value + dv), made)[0] >= here
    # The bootstrap maps behind the margin keep the same signs.
    for coef in [model["coef"], *model["bootstrap"]]:
        assert all(coef[1 + j] >= 0 for j in calibration.MONOTONE)


def test_a_fit_keeps_the_weights_of_won_playouts_at_or_above_zero_whatever_the_games_say():
    # Games won where the playouts lost and lost where they won: the map drops the share
    # rather than give it a negative weight.
    rng = random.Random(1)
    games = []
    for g in range(20):
        won = g % 2
        share = 0.1 if won else 0.6
        games.append((won, [[n, share, rng.random(), rng.random()] for n in range(10)]))
    model = calibration.fit(games, 32, bootstraps=5)
    assert model["coef"][1] == 0
    assert all(coef[1] == 0 for coef in model["bootstrap"])
    assert calibration.fit(games, 32, bootstraps=5) == model  # a fit is deterministic too


def test_the_same_position_gets_the_same_chance_and_margin():
    state = KT.new_game(3, 1)
    view = KT.view(state, 0)
    stats = playout_stats(KT, view, 0, seed=3, playouts=4)
    assert stats == playout_stats(KT, view, 0, seed=3, playouts=4)
    assert calibration.chance(KT, stats, 0) == calibration.chance(KT, stats, 0)
    assert estimate(KT, view, 0, 3, 4, 0) == estimate(KT, view, 0, 3, 4, 0)


def test_no_playout_won_still_leaves_a_chance_of_winning():
    # Greedy playouts win hardly a Know Thyself game, the advisor about one in five: the
    # raw share was 0 % at nearly every move of the games it went on to win.
    chance, margin = calibration.chance(KT, _stats(0.0, *calibration.load(KT)["mean"][1:3]), 10)
    assert 0.02 < chance < 0.98 and margin > 0


def test_a_game_without_a_map_gets_the_raw_share_with_its_wilson_margin():
    chance, margin = calibration.chance(get_rules("warring_planets"), _stats(0.0, 0, 0), 0)
    assert chance == 0.0 and 0.10 < margin < 0.12


def test_the_review_prints_the_calibrated_chance_with_its_margin():
    seed, rng = 4, random.Random(4)
    state, record, before = KT.new_game(seed, 1), [], []
    for _ in range(6):
        before.append((KT.view(state, 0), len(record)))
        move = rng.choice(playable(KT.legal_moves(state, 0)))
        record.append((0, move))
        state = KT.apply(state, 0, move)
    rows = review(KT, seed, 1, None, record, 0, bot_seed=seed, playouts=2, iterations=4)
    assert len(rows) == len(before)
    for row, (view, made) in zip(rows, before):
        stats = playout_stats(KT, view, 0, seed, 2)
        chance, margin = calibration.chance(KT, stats, made)
        assert (row["win_before"], row["margin_before"]) == (chance, margin)
        assert margin > 0
    # A move's "after" is the next move's "before" (nobody else moves in a game alone).
    assert all(a["win_after"] == b["win_before"] for a, b in zip(rows, rows[1:]))
