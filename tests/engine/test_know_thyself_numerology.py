"""Numerology mode: the sacred number, matches by value, chosen sets and court pairs
(rulebook "Numerology mode"; RULINGS 4)."""

from __future__ import annotations

import pytest

from games.engine.base import shuffled
from games.engine.cards import DECK, value

from .conftest import KT, act, moves_of, new_game, play, refused


@pytest.mark.parametrize("first, sacred", [
    (["2c", "M3", "Kp"], 10),  # a court card counts 10
    (["Ac", "M7"], 7),  # Majors VI-X count
    (["M11", "M12", "5c", "M6"], 6),  # Majors above X do not
    (["10w"], 10),
    (["M4", "6p"], 6),
])
def test_the_sacred_number_is_the_first_card_of_a_given_deck_worth_6_to_10(first, sacred):
    state = new_game(*first, variant="numerology")
    assert state["sacred"] == sacred
    # The given deck is not reshuffled: the hand is its first cards.
    assert state["hand"] == (first + [c for c in DECK if c not in first])[:4]
    assert KT.view(state, 0)["sacred"] == sacred


def test_with_a_shuffled_deck_the_sacred_card_is_shuffled_back_in():
    state = KT.new_game(21, 1, {"variant": "numerology"})
    first = shuffled({"seed": 21, "rng": 0}, DECK)  # the game's first shuffle, replayed
    sacred_card = next(c for c in first if 6 <= value(c) <= 10)
    assert state["sacred_card"] == sacred_card and state["sacred"] == value(sacred_card)
    assert state["hand"] + state["deck"] != first  # shuffled again before the deal
    assert sorted(state["hand"] + state["deck"]) == sorted(DECK)


def test_cards_whose_values_total_the_sacred_number_match_whatever_their_suits():
    state = new_game("M7", "3c", "4s", variant="numerology")
    state = play(state, "M7", "foundation")
    state = play(play(state, "3c", 0), "4s", 0)
    assert state["waiting"] == ["3c", "4s"] and state["phase"] == "place"


def test_cards_of_one_suit_do_not_match_unless_their_values_do():
    state = new_game("M7", "2c", "3c", variant="numerology")
    state = play(play(play(state, "M7", "foundation"), "2c", 0), "3c", 0)
    assert state["waiting"] == [] and KT.view(state, 0)["plane"] == [["2c", "3c"], [], []]


def test_a_multiple_of_the_sacred_number_matches():
    state = new_game("M7", "Qc", "4s", variant="numerology")  # 10 + 4 = 14 = 2 x 7
    state = play(play(play(state, "M7", "foundation"), "Qc", 0), "4s", 0)
    assert state["waiting"] == ["Qc", "4s"]


def two_sets():
    # Sacred 10 (the King of Swords).  The 6 of Swords makes 10 with the 4 of Cups below
    # it and with the 4 of Wands beside it.
    state = new_game("Ks", "4c", "2s", "4w", "6s", variant="numerology")
    for card, column in [("4c", 0), ("2s", 1), ("4w", 1)]:
        state = play(state, card, column)
    assert state["waiting"] == []
    return play(state, "6s", 0)


def test_when_several_sets_match_the_player_chooses_one():
    state = two_sets()
    assert state["phase"] == "choose_set"
    assert KT.legal_moves(state, 0) == [{"type": "match", "cards": ["4c", "6s"]},
                                        {"type": "match", "cards": ["6s", "4w"]}]
    state = act(state, "match", cards=["4w", "6s"])  # any order
    assert state["waiting"] == ["6s", "4w"]
    assert KT.view(state, 0)["plane"] == [["4c"], ["2s"], []]
    assert state["phase"] == "place"


def test_a_set_must_be_one_that_matches():
    state = two_sets()
    message = refused(state, {"type": "match", "cards": ["4c", "2s"]})
    assert message == ("The 4 of Cups and the 2 of Swords is not a matching set; the sets on "
                       "offer total a multiple of 10 or are a court pair of one suit.")


def test_numerology_matches_cascade_after_the_columns_close_up():
    # 3c + 7s leave row 0; the 6 of Wands slides into row 0 beside the 4 of Pentacles.
    state = new_game("Kc", "7s", "6w", "4p", "3c", variant="numerology")
    for card, column in [("7s", 1), ("6w", 1), ("4p", 2)]:
        state = play(state, card, column)
    state = play(state, "3c", 0)
    assert state["waiting"] == ["3c", "7s", "6w", "4p"]
    assert KT.view(state, 0)["plane"] == [[], [], []]


def test_two_courts_of_one_suit_always_negate():
    state = new_game("M7", "Qc", "Kc", variant="numerology")  # 20 is no multiple of 7
    state = play(play(play(state, "M7", "foundation"), "Qc", 0), "Kc", 0)
    assert state["out"] == ["Qc", "Kc"] and state["waiting"] == []
    assert state["phase"] == "discard"
    assert moves_of(state, "raise") == []
    state = act(state, "refill")
    assert state["phase"] == "play"


def test_a_court_pair_negates_even_when_its_total_would_match():
    state = new_game("Kw", "Qc", "Kc", variant="numerology")  # sacred 10, 10 + 10 = 20
    state = play(play(state, "Qc", 0), "Kc", 0)
    assert state["out"] == ["Qc", "Kc"] and state["phase"] == "discard"


def test_courts_of_different_suits_never_negate():
    state = new_game("Kw", "Qc", "Kp", variant="numerology")  # 20: a set, raised
    state = play(play(state, "Qc", 0), "Kp", 0)
    assert state["waiting"] == ["Qc", "Kp"] and state["out"] == []
    assert state["phase"] == "place"


def test_a_court_pair_offered_among_other_sets_is_chosen_like_any_set():
    # Sacred 7.  The King of Cups lands on the Queen of Cups (a pair that must negate)
    # beside the 4 of Swords (10 + 4 = 14): two sets to choose from.
    state = new_game("M7", "Qc", "2w", "4s", "Kc", variant="numerology")
    state = play(state, "M7", "foundation")
    for card, column in [("Qc", 0), ("2w", 1), ("4s", 1)]:
        state = play(state, card, column)
    assert KT.view(state, 0)["plane"] == [["Qc"], ["2w", "4s"], []]
    state = play(state, "Kc", 0)
    assert state["phase"] == "choose_set"
    assert [m["cards"] for m in KT.legal_moves(state, 0)] == [["Qc", "Kc"], ["Kc", "4s"]]
    state = act(state, "match", cards=["Qc", "Kc"])
    assert state["out"] == ["Qc", "Kc"] and state["phase"] == "discard"
    state = act(state, "refill")
    assert state["phase"] == "play"  # the plane settled with nothing raised


def test_a_court_pair_is_discarded_and_refilled_for_before_the_plane_matches_on():
    # Sacred 7.  The King of Cups joins the Queen of Cups in row 0 (a pair: it negates); the
    # 5 of Swords then drops beside the 2 of Wands (7), but only after the discard and refill.
    state = new_game("M7", "Qc", "2w", "5s", "Kc", variant="numerology")
    state = play(state, "M7", "foundation")
    for card, column in [("Qc", 0), ("2w", 1), ("5s", 0)]:
        state = play(state, card, column)
    assert KT.view(state, 0)["plane"] == [["Qc", "5s"], ["2w"], []]
    state = play(state, "Kc", 2)
    assert state["out"] == ["Qc", "Kc"] and state["phase"] == "discard"
    assert KT.view(state, 0)["plane"] == [["5s"], ["2w"], []] and state["waiting"] == []
    state = act(state, "refill")
    assert state["waiting"] == ["5s", "2w"] and state["phase"] == "place"
    assert KT.view(state, 0)["plane"] == [[], [], []]
