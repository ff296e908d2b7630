"""Know Thyself set-up and the shape of a turn (rulebook "Setup", "How to play"; RULINGS 4)."""

from __future__ import annotations

import pytest

from games.engine import IllegalMove
from games.engine.cards import DECK

from .conftest import KT, deck_starting, new_game, play


def test_it_deals_three_cards_then_draws_one_to_start_the_first_turn():
    deck = deck_starting("2c", "3s", "4p", "5w", "6c")
    state = KT.new_game(0, 1, {"variant": "standard"}, deck=deck)
    assert state["hand"] == ["2c", "3s", "4p", "5w"]
    assert KT.view(state, 0)["deck_count"] == 74
    assert KT.to_act(state) == [0]
    assert state["phase"] == "play"


def test_a_given_deck_is_drawn_in_order_and_replaces_the_shuffle():
    state = new_game("M9", "Kc", "Aw", "7s", "3p")
    assert state["hand"] == ["M9", "Kc", "Aw", "7s"]
    assert state["deck"][0] == "3p"


def test_the_seed_shuffles_all_78_cards_reproducibly():
    a = KT.new_game(11, 1, {"variant": "standard"})
    b = KT.new_game(11, 1, {"variant": "standard"})
    c = KT.new_game(12, 1, {"variant": "standard"})
    assert KT.dumps(a) == KT.dumps(b)
    assert a["hand"] + a["deck"] != c["hand"] + c["deck"]
    assert sorted(a["hand"] + a["deck"]) == sorted(DECK)


def test_each_turn_draws_one_card_and_plays_one():
    state = new_game("2c", "3s", "4p", "5w", "6c")
    state = play(state, "2c", 0)
    assert state["turn"] == 2
    assert state["hand"] == ["3s", "4p", "5w", "6c"]
    assert KT.view(state, 0)["deck_count"] == 73


def test_the_hand_has_no_limit_on_its_size():
    # Nothing ever makes the player discard down: a hand of any size may still play.
    state = new_game("2c", "3s", "4p", "5w")
    state["hand"] += state["deck"][:10]
    del state["deck"][:10]
    state = play(state, "2c", 1)
    assert len(state["hand"]) == 14


def test_the_turn_draw_is_skipped_when_the_deck_is_empty():
    state = new_game("2c", "3s", "4p", "5w")
    state["discard"], state["deck"] = state["deck"], []  # as if the deck had run out
    state = play(state, "2c", 0)
    assert state["hand"] == ["3s", "4p", "5w"]
    assert state["phase"] == "play"


@pytest.mark.parametrize("deck", [
    list(DECK[:-1]),  # a card short
    list(DECK[:-1]) + ["M0"],  # a card twice
    list(DECK[:-1]) + ["M22"],  # no such card
    "M0 M1",
])
def test_it_refuses_a_deck_that_is_not_the_78_cards_once_each(deck):
    with pytest.raises(ValueError, match="78"):
        KT.new_game(0, 1, {"variant": "standard"}, deck=deck)


def test_unknown_variants_options_and_player_counts_raise_value_error():
    with pytest.raises(ValueError, match="Unknown variant 'noble'"):
        KT.new_game(0, 1, {"variant": "noble"})
    with pytest.raises(ValueError, match="Unknown option"):
        KT.new_game(0, 1, {"variant": "standard", "majors_deck": []})
    with pytest.raises(ValueError, match="player"):
        KT.new_game(0, 2, {"variant": "standard"})
    with pytest.raises(ValueError):
        KT.new_game("7", 1, {"variant": "standard"})


def test_variations_combine_in_any_order_and_standard_alone_means_none():
    state = KT.new_game(0, 1, {"variant": ["numerology", "fated", "meditative"]})
    assert state["options"]["variant"] == ["fated", "meditative", "numerology"]
    assert state["fated"] and state["meditative"] and state["sacred"]
    assert KT.new_game(0, 1, {})["options"]["variant"] == ["standard"]


def test_only_the_player_may_act():
    state = new_game("2c", "3s", "4p", "5w")
    with pytest.raises(IllegalMove, match="not your turn"):
        KT.apply(state, 1, {"type": "play", "card": "2c", "column": 0})
    assert KT.legal_moves(state, 1) == []
