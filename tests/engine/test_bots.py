"""The computer players (games/bots): they choose from a seat's view and legal moves alone,
replay given a seed, and only ever play legal moves; Rules.determinize builds a full state
from a view without ever using the real hidden cards."""

from __future__ import annotations

import random

import pytest

from games.bots import LEVELS, choose_move, decide, playable
from games.engine import get_rules
from games.engine.base import check_zones
from games.engine.cards import DECK

WP = get_rules("warring_planets")
LD = get_rules("lovers_discourse")
KT = get_rules("know_thyself")
DO = get_rules("dream_odyssey")
TH = get_rules("tarot_hallow")
GAMES = [WP, LD, KT, DO, TH]


def players(rules) -> int:
    if rules is TH:
        return 3
    return 2 if rules.max_players >= 2 else 1


def same_moves(a: list[dict], b: list[dict]) -> bool:
    """The same legal moves (a hand's order in the list is the draw's, not the view's)."""
    return sorted(map(str, a)) == sorted(map(str, b))


def positions(rules, seed: int, every: int = 7, limit: int = 4):
    """A few (state, seat) positions from a seeded random game of ``rules``."""
    rng = random.Random(seed)
    state = rules.new_game(seed, players(rules))
    found, n = [], 0
    while rules.to_act(state) and len(found) < limit:
        seat = rules.to_act(state)[0]
        moves = playable(rules.legal_moves(state, seat))
        if n % every == 3 and len(moves) > 1:
            found.append((state, seat))
        state = rules.apply(state, seat, rng.choice(moves))
        n += 1
    return found


def reshuffled(rules, state: dict, seat: int, seed: int) -> dict:
    """The same position with every card hidden from ``seat`` dealt differently."""
    # A copy of its own through the record, never sharing a part with ``state``: this deal
    # changes the copy in place.
    s = rules.loads(rules.dumps(state))
    rng = random.Random(seed)
    if rules in (WP, LD):
        other = 1 - seat
        pool = s["hands"][other] + s["deck"]
        rng.shuffle(pool)
        n = len(s["hands"][other])
        s["hands"][other], s["deck"] = pool[:n], pool[n:]
    elif rules is KT:
        rng.shuffle(s["deck"])
    elif rules is TH:
        # Every rival's hand and face-down card and the deck, dealt again; the Majors to come.
        others = [o for o in range(s["players"]) if o != seat]
        rnd = s["round"]
        downs = [o for o in others if rnd and rnd["face_down"][o]]
        pool = [c for o in others for c in s["hands"][o]] + s["minors"]
        pool += [rnd["face_down"][o] for o in downs]
        rng.shuffle(pool)
        for o in others:
            n = len(s["hands"][o])
            s["hands"][o], pool = pool[:n], pool[n:]
        for o in downs:
            rnd["face_down"][o], pool = pool[0], pool[1:]
        s["minors"] = pool
        rng.shuffle(s["majors"])
    else:  # Dream Odyssey: both face-down piles, the stacks below their tops, closed Sefirot
        closed = [sp for name, sp in s["spaces"].items() if not sp["open"] and name != "crown"]
        majors = s["majors"] + [sp["major"] for sp in closed if sp["major"]]
        rng.shuffle(majors)
        for sp in closed:
            if sp["major"]:
                sp["major"] = majors.pop()
        s["majors"] = majors
        keep = {name: (1 if sp["open"] else 0) for name, sp in s["spaces"].items()}
        minors = s["minors"] + [c for name, sp in s["spaces"].items() for c in sp["stack"][keep[name]:]]
        rng.shuffle(minors)
        for name, sp in s["spaces"].items():
            k = keep[name]
            n = len(sp["stack"]) - k
            if n > 0:
                sp["stack"] = sp["stack"][:k] + minors[:n]
                minors = minors[n:]
        s["minors"] = minors
    return s


# The searches' iterations for the peek test.  What it checks lives in the code, not in the
# budget: every iteration deals a world from the view and plays it out, so a search that read
# a hidden card would do so in its first iteration as in its thousandth, and the fewer the
# iterations the more a changed world changes the counts the move is chosen by.  The site's
# budgets (up to 2,500 iterations a move in Dream Odyssey) made this test one of the suite's
# slowest for nothing more; the two levels keep different counts (and their own streams).
PEEK_ITERATIONS = {"ismcts": 40, "ismcts_deep": 80}


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.slug)
def test_a_bot_cannot_peek_the_same_view_gets_the_same_move(rules):
    checked = 0
    for seed in (1, 2):
        for state, seat in positions(rules, seed):
            # Both positions as the site keeps them (read from their record), so that they
            # differ in the hidden cards alone, not in the order of a dict's keys.
            state = rules.loads(rules.dumps(state))
            other = reshuffled(rules, state, seat, seed + 100)
            assert rules.dumps(other) != rules.dumps(state)
            view = rules.view(state, seat)
            assert rules.view(other, seat) == view
            moves = rules.legal_moves(state, seat)
            assert same_moves(rules.legal_moves(other, seat), moves)
            for level in ("greedy", "ismcts", "ismcts_deep"):
                assert (decide(rules, view, moves, seat, level, 5, iterations=PEEK_ITERATIONS.get(level))[0]
                        == decide(rules, rules.view(other, seat), rules.legal_moves(other, seat), seat, level, 5,
                                  iterations=PEEK_ITERATIONS.get(level))[0])
                checked += 1
    assert checked >= 6


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.slug)
def test_determinize_never_uses_the_real_hidden_cards(rules):
    for state, seat in positions(rules, 3, every=3, limit=6):
        other = reshuffled(rules, state, seat, 9)
        view = rules.view(state, seat)
        a = rules.determinize(view, seat, random.Random(42))
        b = rules.determinize(rules.view(other, seat), seat, random.Random(42))
        assert rules.dumps(a) == rules.dumps(b)
        # A full, consistent state: every card once, the seat's own cards where they are.
        check_zones(rules.zones(a), DECK)
        mine = rules.view(a, seat)
        for key in ("hand", "board", "tree", "plane", "planes", "waiting", "out", "deck_count",
                    "readings", "revealed", "discard", "spaces", "party", "wounds", "encounter"):
            if key in view:
                assert mine[key] == view[key], key
        assert same_moves(rules.legal_moves(a, seat), rules.legal_moves(state, seat))


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.slug)
def test_determinizations_differ_between_generators(rules):
    state, seat = positions(rules, 4)[0]
    view = rules.view(state, seat)
    dealt = {rules.dumps(rules.determinize(view, seat, random.Random(n))) for n in range(5)}
    assert len(dealt) == 5


def test_every_registered_game_has_a_determinizer_or_the_documented_fallback():
    """A game that lands without a ``determinize.py`` in its folder still gets a computer player:
    a seeded random legal move at every level (games/bots/core.py says so)."""
    from games.engine import RULES
    from games.engine.determinize import builder_for
    for slug, rules in RULES.items():
        state = rules.new_game(1, max(rules.min_players, min(2, rules.max_players)))
        seat = rules.to_act(state)[0]
        view, moves = rules.view(state, seat), rules.legal_moves(state, seat)
        if builder_for(rules) is not None:
            check_zones(rules.zones(rules.determinize(view, seat, random.Random(1))), DECK)
        else:
            with pytest.raises(NotImplementedError):
                rules.determinize(view, seat, random.Random(1))
        assert choose_move(rules, view, moves, seat, "ismcts", seed=3) in moves
    assert {"warring_planets", "lovers_discourse", "know_thyself", "dream_odyssey",
            "tarot_hallow"} <= {slug for slug, rules in RULES.items() if builder_for(rules)}


def test_dream_odyssey_tells_its_bot_only_what_the_player_sees():
    """The view's ``known`` state (for the determinizer) names no card the rest of the
    view does not show: blanks stand for the piles."""
    from games.engine.words import visible_cards
    for state, seat in positions(DO, 7, every=2, limit=12):
        view = DO.view(state, seat)
        rest = {k: v for k, v in view.items() if k != "known"}
        assert visible_cards(view["known"]) <= visible_cards(rest)
        assert "seed" not in view["known"]
    assert "known" not in DO.view(DO.new_game(1, 1), None)


def play_out(rules, levels: list[str], seed: int) -> tuple[dict, list]:
    state = rules.new_game(seed, len(levels))
    record = []
    while rules.to_act(state):
        seat = rules.to_act(state)[0]
        moves = rules.legal_moves(state, seat)
        move = choose_move(rules, rules.view(state, seat), moves, seat, levels[seat], seed=seed)
        assert move in moves and move["type"] != "forfeit"
        state = rules.apply(state, seat, move)  # raises IllegalMove if it were not legal
        record.append((seat, move))
    return state, record


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.slug)
@pytest.mark.parametrize("seed", [11, 12, 13])
def test_bots_play_only_legal_moves_to_the_end(rules, seed):
    levels = (["greedy"] + ["random"] * (players(rules) - 1))
    state, _ = play_out(rules, levels, seed)
    assert rules.outcome(state) is not None


@pytest.mark.parametrize("rules", [WP, KT], ids=lambda r: r.slug)
def test_a_bot_game_replays_given_its_seed(rules):
    levels = ["ismcts", "greedy"] if players(rules) == 2 else ["greedy"]
    first, record = play_out(rules, levels, 21)
    again, record2 = play_out(rules, levels, 21)
    assert record == record2 and rules.dumps(first) == rules.dumps(again)
    replayed = rules.replay(21, len(levels), None, record)
    assert rules.dumps(replayed) == rules.dumps(first)


def test_the_ismcts_bot_is_deterministic_given_a_seed_and_varies_with_it():
    state, seat = positions(WP, 6)[1]
    view, moves = WP.view(state, seat), WP.legal_moves(state, seat)
    assert len({str(choose_move(WP, view, moves, seat, "ismcts", seed=8)) for _ in range(2)}) == 1


def test_it_refuses_an_unknown_level_and_an_empty_move_list():
    state = WP.new_game(1, 2)
    view = WP.view(state, 0)
    with pytest.raises(ValueError, match="Unknown bot level"):
        choose_move(WP, view, WP.legal_moves(state, 0), 0, "grandmaster")
    with pytest.raises(ValueError, match="no legal move"):
        choose_move(WP, view, [], 0, "greedy")
    assert set(LEVELS) >= {"greedy", "ismcts", "ismcts_deep"}


def test_a_bot_forfeits_only_when_nothing_else_is_legal():
    assert playable([{"type": "forfeit"}]) == [{"type": "forfeit"}]
    moves = WP.legal_moves(WP.new_game(1, 2), 0)
    assert {"type": "forfeit"} in moves and {"type": "forfeit"} not in playable(moves)


# --- hints and reviews ------------------------------------------------------------------------

def test_a_hint_names_a_legal_move_in_words_and_says_why_the_same_for_the_same_view():
    state = KT.new_game(3, 1)
    other = reshuffled(KT, state, 0, 1)
    from games.bots.advice import hint
    got = hint(KT, KT.view(state, 0), KT.legal_moves(state, 0), 0, seed=1, iterations=20)
    assert got["move"] in KT.legal_moves(state, 0)
    assert got["words"] == KT.describe_move(state, 0, got["move"])
    assert got["why"] and "seat" not in got["why"]
    assert hint(KT, KT.view(other, 0), KT.legal_moves(other, 0), 0, seed=1, iterations=20) == got


def test_a_hint_in_dream_odyssey_still_names_a_legal_move():
    from games.bots.advice import hint
    state = DO.new_game(2, 1)
    got = hint(DO, DO.view(state, 0), DO.legal_moves(state, 0), 0, seed=1, iterations=20)
    assert got["move"] in DO.legal_moves(state, 0) and got["why"]


def test_a_review_marks_where_the_bot_differed_and_estimates_win_chances():
    from games.bots.advice import review
    state, record, rng = KT.new_game(3, 1), [], random.Random(1)
    for _ in range(5):
        move = rng.choice(KT.legal_moves(state, 0))
        record.append((0, move))
        state = KT.apply(state, 0, move)
    rows = review(KT, 3, 1, None, record, 0, playouts=2, iterations=20)
    assert [r["n"] for r in rows] == list(range(5))
    for row, (_, move) in zip(rows, record):
        assert row["move"] == move and 0 <= row["win_before"] <= 1 and 0 <= row["win_after"] <= 1
        assert row["differs"] == (row["bot_move"] != move)
    assert review(KT, 3, 1, None, record, 0, playouts=2, iterations=20) == rows


@pytest.mark.parametrize("seed", [2, 3])
def test_the_dream_odyssey_searcher_does_not_wander_between_won_spaces_for_ever(seed):
    # Passing through a won space is free and safe; these seeds once kept ISMCTS travelling
    # to and fro without end.  A whole game is well under 300 moves.  The search runs at the
    # 150 iterations a move with which these seeds wandered (commit 391956e; the level's
    # Dream Odyssey budget has since grown to 500, which made this test 3x slower and no
    # longer the one that found the fault).
    state = DO.new_game(seed, 1)
    for _ in range(300):
        if not DO.to_act(state):
            break
        state = DO.apply(state, 0, decide(DO, DO.view(state, 0), DO.legal_moves(state, 0), 0, "ismcts", seed,
                                          iterations=150)[0])
    assert DO.outcome(state) is not None
