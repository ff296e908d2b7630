"""The engine says what a move is; pages and mail only ask (Rules.move_facts, log_for)."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import RULES, IllegalMove, get_rules


def a_move_that(rules, state, seat, **facts):
    for move in rules.legal_moves(state, seat):
        found = rules.move_facts(state, seat, move)
        if all(found[key] == value for key, value in facts.items()):
            return move, found
    return None, None


@pytest.mark.parametrize("slug", sorted(RULES))
def test_the_facts_of_a_move_agree_with_playing_it(slug):
    rules = get_rules(slug)
    players = rules.min_players if rules.min_players > 1 else rules.max_players if rules.max_players == 1 else 2
    state = rules.new_game(seed=8, players=players, options={"variant": "standard"})
    chooser = random.Random(8)
    for _ in range(60):
        if rules.outcome(state) is not None:
            break
        seat = rules.to_act(state)[0]
        move = chooser.choice(rules.legal_moves(state, seat))
        before = rules.dumps(state)
        facts = rules.move_facts(state, seat, move)
        assert rules.dumps(state) == before, "asking about a move changes nothing"
        after = rules.apply(state, seat, move)
        assert facts["ends_turn"] == (seat not in rules.to_act(after))
        assert facts["ends_game"] == (rules.outcome(after) is not None)
        assert facts["irreversible"] == any((facts["draws_hidden"], facts["ends_turn"], facts["ends_game"]))
        state = after


def test_a_draw_from_the_deck_is_a_move_that_draws_hidden_cards():
    rules = get_rules("know_thyself")
    state = rules.new_game(seed=3, players=1, options={"variant": "standard"})
    kinds = {m["type"] for m in rules.legal_moves(state, 0)}
    drawing, facts = a_move_that(rules, state, 0, draws_hidden=True)
    if drawing is None:  # the opening offers no draw: play until one is offered
        for _ in range(40):
            state = rules.apply(state, 0, rules.legal_moves(state, 0)[0])
            drawing, facts = a_move_that(rules, state, 0, draws_hidden=True)
            if drawing:
                break
    assert drawing is not None, kinds
    assert facts["irreversible"]


def test_it_refuses_to_describe_an_illegal_move():
    rules = get_rules("warring_planets")
    state = rules.new_game(seed=3, players=2, options={"variant": "standard"})
    with pytest.raises(IllegalMove):
        rules.move_facts(state, 1 - rules.to_act(state)[0], {"type": "pass"})


def test_the_log_hides_from_a_seat_the_cards_it_cannot_see():
    rules = get_rules("lovers_discourse")
    state = rules.new_game(seed=5, players=2, options={"variant": "standard"})
    hand_of_0 = rules.view(state, 0)["hand"]
    card = hand_of_0[0] if isinstance(hand_of_0[0], str) else hand_of_0[0]["card"]
    entries = [(0, f"You kept {card} in your hand")]
    mine = rules.log_for(rules.view(state, 0), 0, entries)
    theirs = rules.log_for(rules.view(state, 1), 1, entries)
    assert card in mine[0]
    assert card not in json.dumps(theirs) and "their hand" in theirs[0]
