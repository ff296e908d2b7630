"""The engine contract (ENGINE.md), checked on every registered game by seeded random play:
the names and shapes are exact, cards are neither lost nor doubled, records replay exactly,
views hide the deck and other seats' hands, and bad moves change nothing."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from games.engine import RULES, IllegalMove, Rules, get_rules

from .conftest import CARD_CODES, codes_in

SLUGS = sorted(RULES)
GAMES_PER_SLUG = 6
MOVE_CAP = 5000


def all_cards(zones: dict) -> Counter:
    return Counter(c for cards in zones.values() for c in cards)


def random_play(rules: Rules, seed: int, check):
    rnd = random.Random(seed)
    players = rules.min_players
    state = rules.new_game(seed, players, {})
    record = []
    for _ in range(MOVE_CAP):
        check(state)
        seats = rules.to_act(state)
        if not seats:
            break
        assert rules.outcome(state) is None
        seat = rnd.choice(seats)
        moves = rules.legal_moves(state, seat)
        assert moves, f"seat {seat} must act but has no legal move"
        # A forfeit, where a game has one, would end every game at once.
        move = rnd.choice([m for m in moves if m["type"] != "forfeit"] or moves)
        record.append((seat, move))
        state = rules.apply(state, seat, move)
    else:
        raise AssertionError(f"{rules.slug} seed {seed} did not end in {MOVE_CAP} moves")
    return state, record


def test_get_rules_knows_every_registered_game_and_refuses_others():
    assert "know_thyself" in RULES
    for slug, rules in RULES.items():
        assert get_rules(slug) is rules and rules.slug == slug and rules.title
    with pytest.raises(ValueError, match="Unknown game"):
        get_rules("chess")
    assert issubclass(IllegalMove, ValueError)


@pytest.mark.parametrize("slug", SLUGS)
def test_random_games_keep_the_contract(slug):
    rules = get_rules(slug)
    for seed in range(GAMES_PER_SLUG):
        first = rules.new_game(seed, rules.min_players, {})
        cards = all_cards(rules.zones(first))
        assert all(n == 1 for n in cards.values()), "each card exactly once"
        assert set(cards) <= CARD_CODES

        def check(state):
            zones = rules.zones(state)
            assert all_cards(zones) == cards
            if not rules.to_act(state):
                return  # once over, a game may reveal what its rules reveal (a reading)
            # The face-down deck is never shown to anyone.  (Other seats' hands are checked
            # per game: a card once given face up may be known to be in a partner's hand.)
            hidden = set(zones.get("deck", []))
            for seat in [*range(state["players"]), None]:
                view = rules.view(state, seat)
                json.dumps(view)
                assert not codes_in(view) & hidden, (seat, codes_in(view) & hidden)

        state, record = random_play(rules, seed, check)
        outcome = rules.outcome(state)
        assert set(outcome) == {"result", "winners", "scores", "reason"}
        assert outcome["result"] in {"win", "loss", "draw", "ended"}
        assert len(outcome["scores"]) == state["players"] and outcome["reason"]
        assert all(isinstance(s, int) for s in outcome["scores"] + outcome["winners"])
        assert isinstance(rules.reading(state), dict)
        json.dumps(rules.reading(state))
        assert rules.dumps(rules.replay(seed, rules.min_players, {}, record)) == rules.dumps(state)
        assert rules.dumps(rules.loads(rules.dumps(state))) == rules.dumps(state)
        with pytest.raises(IllegalMove):
            rules.apply(state, 0, record[-1][1])


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("move", [None, "play", 3, [], {}, {"type": 7},
                                  {"type": "no_such_move"}, {"type": "play", "spell": "x"}])
def test_malformed_moves_raise_illegal_move_and_change_nothing(slug, move):
    rules = get_rules(slug)
    state = rules.new_game(1, rules.min_players, {})
    text = rules.dumps(state)
    with pytest.raises(IllegalMove) as error:
        rules.apply(state, rules.to_act(state)[0], move)
    assert str(error.value)
    assert rules.dumps(state) == text


@pytest.mark.parametrize("slug", SLUGS)
def test_unknown_options_and_variants_raise_value_error(slug):
    rules = get_rules(slug)
    with pytest.raises(ValueError):
        rules.new_game(1, rules.min_players, {"variant": "no-such-variant"})
    with pytest.raises(ValueError):
        rules.new_game(1, rules.max_players + 1, {})
    with pytest.raises(ValueError):
        rules.new_game(1, True, {})  # True == 1, but it is no player count


@pytest.mark.parametrize("slug", SLUGS)
def test_same_seed_same_game(slug):
    rules = get_rules(slug)
    a = rules.new_game(42, rules.min_players, {})
    b = rules.new_game(42, rules.min_players, {})
    assert rules.dumps(a) == rules.dumps(b)
    assert rules.loads(rules.dumps(a)) == a


@pytest.mark.parametrize("slug", SLUGS)
def test_a_seat_must_be_a_whole_number_not_a_boolean(slug):
    # False == 0 in Python: without a type check it would act for seat 0.
    rules = get_rules(slug)
    state = rules.new_game(1, rules.min_players, {})
    move = rules.legal_moves(state, rules.to_act(state)[0])[0]
    text = rules.dumps(state)
    for seat in (False, True, 0.0, "0", None):
        with pytest.raises(IllegalMove) as error:
            rules.apply(state, seat, move)
        assert str(error.value)
    assert rules.dumps(state) == text


def test_a_listed_move_is_applied_without_a_second_check_but_an_edited_copy_is_checked():
    from games.engine import IllegalMove, get_rules

    rules = get_rules("know_thyself")
    state = rules.new_game(5, 1, {"variant": "standard"})
    listed = rules.legal_moves(state, 0)
    assert rules.apply(state, 0, listed[0]) == rules.apply(state, 0, dict(listed[0]))
    forged = dict(listed[0], to="no-such-space")
    with pytest.raises(IllegalMove):
        rules.apply(state, 0, forged)
    # The shortcut is for this state only: another state with the same counters is checked.
    other = rules.new_game(6, 1, {"variant": "standard"})
    if listed[0] not in rules.legal_moves(other, 0):
        with pytest.raises(IllegalMove):
            rules.apply(other, 0, listed[0])
