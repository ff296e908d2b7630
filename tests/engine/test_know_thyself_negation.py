"""Court negation, the discard and the refill to four (rulebook "Negating Court Cards";
RULINGS 4: negations come after the cascade, one per matching group)."""

from __future__ import annotations

from .conftest import KT, act, moves_of, new_game, place, play, refused


def queen_and_king_of_cups():
    state = new_game("M14", "Qc", "Kc", "5s", "6w", "7p")
    state = play(state, "M14", "splendour")
    state = play(state, "Qc", 0)
    return play(state, "Kc", 0)


def test_two_matching_courts_may_negate_or_be_raised():
    state = queen_and_king_of_cups()
    assert state["phase"] == "negate"
    assert KT.legal_moves(state, 0) == [{"type": "negate", "cards": ["Qc", "Kc"]}, {"type": "raise"}]


def test_a_negated_pair_leaves_the_game_then_any_cards_are_discarded_and_the_hand_refilled():
    state = act(queen_and_king_of_cups(), "negate", cards=["Kc", "Qc"])  # any order
    assert state["out"] == ["Qc", "Kc"] and state["waiting"] == []
    assert state["phase"] == "discard"
    hand = list(state["hand"])
    assert KT.legal_moves(state, 0) == [{"type": "discard", "card": c} for c in hand] + [
        {"type": "refill"}]
    state = act(state, "discard", card=hand[0])
    state = act(state, "discard", card=hand[1])
    assert state["discard"] == hand[:2] and len(state["hand"]) == 1
    deck_top = state["deck"][:4]
    state = act(state, "refill")
    # Two hand cards plus two drawn make four; nothing was raised, so the turn is over and
    # the next one has drawn its card.
    assert state["hand"] == hand[2:] + deck_top
    assert state["phase"] == "play" and state["turn"] == 4


def test_the_first_negation_grows_the_hand_to_four():
    state = act(act(queen_and_king_of_cups(), "negate", cards=["Qc", "Kc"]), "refill")
    assert len(state["hand"]) == 5  # four after the refill, one more from the next turn


def test_a_refill_draws_nothing_when_the_hand_already_holds_four():
    state = act(queen_and_king_of_cups(), "negate", cards=["Qc", "Kc"])
    state["hand"].append(state["deck"].pop(0))  # five in hand (a test-only nudge)
    before = len(state["deck"])
    state = act(state, "refill")
    assert len(state["deck"]) == before - 1  # only the next turn's draw


def test_declining_raises_both_courts():
    state = act(queen_and_king_of_cups(), "raise")
    assert state["phase"] == "place" and state["waiting"] == ["Qc", "Kc"]
    assert state["out"] == []


def test_negation_comes_after_the_cascade_has_settled():
    # 9s matches 2s in row 0; the Queen and King of Cups then close up into row 0 together.
    state = new_game("M14", "2s", "Qc", "Kc", "9s")
    state = play(state, "M14", "splendour")
    for card, column in [("2s", 0), ("Qc", 0), ("Kc", 1)]:
        state = play(state, card, column)
    assert KT.view(state, 0)["plane"] == [["2s", "Qc"], ["Kc"], []]
    state = play(state, "9s", 2)
    assert KT.view(state, 0)["plane"] == [[], [], []]
    assert state["waiting"] == ["2s", "9s", "Qc", "Kc"]
    assert moves_of(state, "negate") == [{"type": "negate", "cards": ["Qc", "Kc"]}]
    state = act(act(state, "negate", cards=["Qc", "Kc"]), "refill")
    assert state["phase"] == "place" and state["waiting"] == ["2s", "9s"]


def two_groups_sharing_the_king():
    # The King of Cups lands on the Queen (its column) beside the Knight (its row).
    state = new_game("M14", "Qc", "4w", "Nc", "Kc")
    state = play(state, "M14", "splendour")
    for card, column in [("Qc", 0), ("4w", 1), ("Nc", 1)]:
        state = play(state, card, column)
    return play(state, "Kc", 0)


def test_each_matching_group_offers_its_own_pair_and_the_rest_is_raised():
    state = two_groups_sharing_the_king()
    assert state["waiting"] == ["Qc", "Kc", "Nc"]
    assert moves_of(state, "negate") == [
        {"type": "negate", "cards": ["Nc", "Kc"]}, {"type": "negate", "cards": ["Qc", "Kc"]}]
    state = act(act(state, "negate", cards=["Qc", "Kc"]), "refill")
    # The row group lost its King: no pair is left in it, so the Knight is raised.
    assert state["phase"] == "place" and state["waiting"] == ["Nc"]
    state = place(state, "Nc", "splendour")
    assert KT.view(state, 0)["tree"]["splendour"]["minors"] == ["Nc"]


def test_one_negation_per_matching_group():
    # A group holding four courts of one suit (set up directly: such a group is rare in
    # play) may negate one pair only; the other two are raised.
    state = new_game("M14", "2s")
    state = play(state, "M14", "splendour")
    courts = ["Pw", "Nw", "Qw", "Kw"]
    for c in courts:
        state["deck"].remove(c)
    state.update(phase="negate", waiting=list(courts), negatable=[list(courts)])
    assert len(moves_of(state, "negate")) == 6
    state = act(act(state, "negate", cards=["Pw", "Nw"]), "refill")
    assert state["phase"] == "place" and state["waiting"] == ["Qw", "Kw"]


def test_only_matched_courts_may_negate():
    state = queen_and_king_of_cups()
    assert refused(state, {"type": "negate", "cards": ["Qc", "5s"]}) == (
        "A negation takes exactly two court cards.")
    assert refused(state, {"type": "negate", "cards": ["Qc", "Ks"]}) == (
        "Only court cards matched this turn may negate.")
    assert refused(state, {"type": "play", "card": "5s", "column": 1}).startswith("Not now:")


def test_a_pip_and_a_court_never_negate():
    state = new_game("M14", "Qc", "3c")
    state = play(play(play(state, "M14", "splendour"), "Qc", 0), "3c", 0)
    assert state["phase"] == "place" and moves_of(state, "negate") == []
