"""Properties over hundreds of random Know Thyself games: every game ends, no card is ever
lost or doubled, records replay exactly, bad moves are refused cleanly and the view never
shows the deck."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import IllegalMove
from games.engine.base import check_zones
from games.engine.cards import DECK
from games.engine.tree import GRACE_FIELDS, SPACES

from .conftest import KT, codes_in

VARIANTS = [["standard"], ["meditative"], ["fated"], ["numerology"], ["meditative", "fated"],
            ["fated", "numerology"], ["meditative", "numerology"],
            ["meditative", "fated", "numerology"]]
MOVE_CAP = 2000  # far above any real game (each turn plays a card from a finite deck)


def random_game(seed: int, variant: list[str], check_zones_each_step=True, check_views=False):
    rnd = random.Random(seed)
    state = KT.new_game(seed, 1, {"variant": variant})
    record = []
    for _ in range(MOVE_CAP):
        if KT.outcome(state) is not None:
            break
        if check_zones_each_step:
            check_zones(KT.zones(state), DECK)
        if check_views:
            deck = set(state["deck"])
            assert not codes_in(KT.view(state, 0)) & deck
            spectator = KT.view(state, None)
            assert spectator["hand"] is None
            assert not codes_in(spectator) & (deck | set(state["hand"]))
        moves = KT.legal_moves(state, 0)
        assert moves, "a running game always offers a move"
        move = rnd.choice(moves)
        record.append((0, move))
        state = KT.apply(state, 0, move)
    else:
        raise AssertionError(f"seed {seed} {variant} did not end")
    check_zones(KT.zones(state), DECK)
    return state, record


# 100 games of each variant: the 2,000 it once played (250 of each) made it one of the
# suite's slowest tests; the properties at every step are checked by the hypothesis tests
# below too, over any deck and any choices.
GAMES = 800


def test_hundreds_of_random_games_end_and_keep_every_card_at_every_step():
    results = {"win": 0, "loss": 0}
    for seed in range(GAMES):
        state, _ = random_game(seed, VARIANTS[seed % len(VARIANTS)])
        outcome = KT.outcome(state)
        results[outcome["result"]] += 1
        assert outcome["reason"] and outcome["scores"][0] >= 0
        assert KT.to_act(state) == [] and KT.legal_moves(state, 0) == []
        if outcome["result"] == "loss":
            # The loss was declared by a quick check: legal_moves must agree nothing was left.
            probe = dict(state, phase="place" if state["waiting"] else "play")
            assert KT.legal_moves(probe, 0) == []
        if seed % 10 == 0:
            json.dumps(KT.view(state, 0))
            json.dumps(KT.reading(state))
    assert sum(results.values()) == GAMES


def test_the_view_never_shows_the_deck_nor_a_spectator_the_hand():
    for seed in range(80):
        random_game(seed, VARIANTS[seed % len(VARIANTS)], check_zones_each_step=False,
                    check_views=True)


def test_replay_and_dumps_loads_are_exact():
    for seed in range(60):
        variant = VARIANTS[seed % len(VARIANTS)]
        state, record = random_game(seed, variant, check_zones_each_step=False)
        again = KT.replay(seed, 1, {"variant": variant}, record)
        assert KT.dumps(again) == KT.dumps(state)
        # Every intermediate state survives a round trip through text.
        s = KT.new_game(seed, 1, {"variant": variant})
        for seat, move in record:
            text = KT.dumps(s)
            back = KT.loads(text)
            assert back == s and KT.dumps(back) == text
            s = KT.apply(back, seat, move)
        assert KT.dumps(s) == KT.dumps(state)


def test_apply_never_changes_the_state_it_is_given():
    for seed in range(16):
        variant = VARIANTS[seed % len(VARIANTS)]
        state, record = random_game(seed, variant, check_zones_each_step=False)
        s = KT.new_game(seed, 1, {"variant": variant})
        for seat, move in record:
            text = KT.dumps(s)
            s2 = KT.apply(s, seat, move)
            assert KT.dumps(s) == text, move
            s = s2


WEIRD = [None, 3, -1, 1.5, True, "", "x", [], {}, ["2c"], "M22", "root", "nowhere"]


def candidate_moves(state, rnd):
    """Well-formed and malformed moves around what is open now."""
    codes = rnd.sample(DECK, 4) + state["hand"][:3] + state["waiting"][:2]
    places = list(SPACES) + list(GRACE_FIELDS)
    yield from (None, "play", ["play"], 7, {"card": "2c"}, {"type": 5},
                {"type": "play", "card": "2c", "column": 0, "colour": "red"})
    for _ in range(14):
        move = {"type": rnd.choice(["play", "place", "match", "negate", "raise", "discard",
                                    "refill", "fly", "PLAY"])}
        if rnd.random() < 0.8:
            move["card"] = rnd.choice(codes + WEIRD)
        r = rnd.random()
        if r < 0.4:
            move["to"] = rnd.choice(places + WEIRD)
        elif r < 0.7:
            move["column"] = rnd.choice([0, 1, 2, 3, -1, "1"] + WEIRD)
        if rnd.random() < 0.2:
            move["cards"] = rnd.choice([rnd.sample(codes, 2), rnd.sample(codes, 3), "Qc", [], WEIRD])
        yield move


def test_illegal_and_malformed_moves_are_refused_with_a_message_and_change_nothing():
    checked = 0
    for seed in range(40):
        variant = VARIANTS[seed % len(VARIANTS)]
        rnd = random.Random(seed)
        state = KT.new_game(seed, 1, {"variant": variant})
        while KT.outcome(state) is None:
            legal = KT.legal_moves(state, 0)
            text = KT.dumps(state)
            for move in candidate_moves(state, rnd):
                if isinstance(move, dict) and move in legal:
                    continue
                try:
                    KT.apply(state, 0, move)
                except IllegalMove as error:
                    message = str(error)
                    assert message and message[0].isupper() or message[0] in "'\"[{(-0123456789"
                    assert "Traceback" not in message
                else:
                    # Only a legal move in another spelling (a set in another order) passes.
                    assert isinstance(move, dict) and KT.normalise_move(move) in legal, move
                assert KT.dumps(state) == text
                checked += 1
            state = KT.apply(state, 0, rnd.choice(legal))
    assert checked > 5000


def test_every_legal_move_is_accepted_and_described():
    for seed in range(30):
        rnd = random.Random(seed)
        state = KT.new_game(seed, 1, {"variant": VARIANTS[seed % len(VARIANTS)]})
        while KT.outcome(state) is None:
            legal = KT.legal_moves(state, 0)
            for move in legal:
                words = KT.describe_move(state, 0, move)
                assert words and "=" not in words, (move, words)
            assert len({json.dumps(m, sort_keys=True) for m in legal}) == len(legal)
            for move in rnd.sample(legal, min(3, len(legal))):
                KT.apply(state, 0, move)
            state = KT.apply(state, 0, rnd.choice(legal))


@settings(max_examples=150, deadline=None)
@given(deck=st.permutations(DECK), variant=st.sampled_from(VARIANTS),
       choices=st.lists(st.integers(min_value=0, max_value=10_000), max_size=300))
def test_any_deck_and_any_choices_keep_the_game_whole(deck, variant, choices):
    state = KT.new_game(1, 1, {"variant": variant}, deck=list(deck))
    for pick in choices:
        if KT.outcome(state) is not None:
            break
        moves = KT.legal_moves(state, 0)
        state = KT.apply(state, 0, moves[pick % len(moves)])
        check_zones(KT.zones(state), DECK)
        assert not codes_in(KT.view(state, 0)) & set(state["deck"]) or KT.outcome(state)
    assert KT.loads(KT.dumps(state)) == state


@settings(max_examples=300, deadline=None)
@given(move=st.one_of(
    st.none(), st.integers(), st.text(max_size=5), st.lists(st.text(max_size=3), max_size=3),
    st.dictionaries(st.sampled_from(["type", "card", "cards", "to", "column", "x"]),
                    st.one_of(st.none(), st.integers(-3, 5), st.sampled_from(DECK),
                              st.sampled_from(["play", "place", "negate", "raise", "foundation",
                                               "grace:0", "refill"]),
                              st.lists(st.sampled_from(DECK), max_size=3)),
                    max_size=5)))
def test_any_json_value_as_a_move_is_either_legal_or_refused_cleanly(move):
    state = KT.new_game(3, 1, {"variant": "standard"})
    text = KT.dumps(state)
    try:
        KT.apply(state, 0, move)
    except IllegalMove as error:
        assert str(error)
    else:
        assert KT.normalise_move(move) in KT.legal_moves(state, 0)
    assert KT.dumps(state) == text
