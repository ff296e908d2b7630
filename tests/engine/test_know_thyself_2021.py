"""Know Thyself as first printed (the 2021 prototype text, RULINGS 7): the Material Plane
in reading order with holes, transfers of 10, 20 and 30, Minors straight from the hand,
bridges, Grace Fields of one Minor, the Fool, and the Easy, Expert and Freethought
variations.  Every game here is played from a stacked deck (``deck_starting``: the cards
named first, in the order they are played)."""

from __future__ import annotations

import pytest

from games.engine import get_rules, plane_2021
from games.engine.base import check_zones
from games.engine.cards import DECK

from .conftest import deck_starting, refused_by

KT21 = get_rules("know_thyself_2021")


def new_game(*cards: str, variant="standard") -> dict:
    return KT21.new_game(0, 1, {"variant": variant}, deck=deck_starting(*cards))


def act(state: dict, type: str, **keys) -> dict:
    new = KT21.apply(state, 0, {"type": type, **keys})
    check_zones(KT21.zones(new), DECK)
    return new


def to_plane(state: dict, card: str) -> dict:
    """Play a Minor onto the Material Plane: the one column the reading order offers."""
    (move,) = [m for m in KT21.legal_moves(state, 0) if m.get("card") == card and "column" in m]
    return act(state, "play", card=card, column=move["column"])


def refused(state: dict, move: dict) -> str:
    return refused_by(KT21, state, 0, move)


def targets(state: dict, card: str, type: str = "play") -> list:
    return [m.get("to", m.get("column")) for m in KT21.legal_moves(state, 0)
            if m["type"] == type and m.get("card") == card]


# --- the Material Plane ------------------------------------------------------------------------

def test_minors_fill_the_plane_in_reading_order_with_no_choice_of_column():
    state = new_game("2c", "4s", "5p", "8s")
    assert targets(state, "2c") == [0]  # only the first empty slot; no Major to go on yet
    state = to_plane(to_plane(to_plane(state, "2c"), "4s"), "5p")
    assert KT21.view(state, 0)["plane"] == [["2c"], ["4s"], ["5p"]]
    assert targets(state, "8s") == [0]  # row 0 is full: a new row, from the left
    assert refused(state, {"type": "play", "card": "8s", "column": 2}).startswith(
        "Minors fill the Material Plane in reading order")


def test_lifted_minors_leave_holes_that_the_next_minors_fill_first():
    # Ns (row 0) and 10c (row 2) of the left column total 20; 7w between them stays put.
    cards = ["Ns", "9s", "9w", "7w", "9p", "5w", "10c"]
    state = new_game("M21", *cards, "Ac")
    state = act(state, "play", card="M21", to="foundation")
    for card in cards:
        state = to_plane(state, card)
    assert state["waiting"] == ["Ns", "10c"]
    assert KT21.view(state, 0)["plane"] == [[None, "7w"], ["9s", "9p"], ["9w", "5w"]]
    state = act(state, "place", card="Ns", to="foundation")
    state = act(state, "place", card="10c", to="foundation")
    assert KT21.view(state, 0)["next_column"] == 0
    state = to_plane(state, "Ac")
    assert KT21.view(state, 0)["plane"] == [["Ac", "7w"], ["9s", "9p"], ["9w", "5w"]]


TRANSFERS = {
    ("row", 10): (["3c", "7s"], ["3c", "7s"]),
    ("row", 20): (["9c", "5s", "6p"], ["9c", "5s", "6p"]),
    ("column", 10): (["2c", "4s", "5p", "8w"], ["2c", "8w"]),
    ("column", 20): (["Kc", "2s", "3p", "Qs"], ["Kc", "Qs"]),
    ("column", 30): (["9c", "5s", "9w", "7s", "2s", "Qp", "8p", "7c", "9s", "6w"], ["9c", "7s", "8p", "6w"]),
}


@pytest.mark.parametrize("line,total", sorted(TRANSFERS), ids=lambda v: str(v))
def test_two_or_more_minors_of_a_row_or_column_totalling_10_20_or_30_rise(line, total):
    played, lifted = TRANSFERS[(line, total)]
    state = act(new_game("M21", *played), "play", card="M21", to="foundation")
    for card in played:
        assert state["phase"] == "play" and not state["waiting"]
        state = to_plane(state, card)
    assert sorted(state["waiting"]) == sorted(lifted)
    assert not set(lifted) & {c for col in state["plane"] for c in col if c}
    assert state["phase"] == "place"


def test_a_row_of_three_ten_valued_cards_totals_30_but_its_pairs_rise_first():
    # A row is three wide and no card is worth more than 10, so 30 in a row needs three
    # ten-valued cards; but any two of them total 20 and rise as soon as they meet.  The
    # rule still counts the triple (and every pair) as a set where such a row is laid out.
    row = [["10c"], ["Ks"], ["Qp"]]
    assert plane_2021.transfer_sets(row) == [["10c", "Ks"], ["10c", "Qp"], ["Ks", "Qp"], ["10c", "Ks", "Qp"]]
    state = act(new_game("M21", "10c", "Ks"), "play", card="M21", to="foundation")
    state = to_plane(to_plane(state, "10c"), "Ks")
    assert sorted(state["waiting"]) == ["10c", "Ks"]


def test_when_two_sets_qualify_the_player_chooses_which_rises():
    state = act(new_game("M21", "3c", "3s", "7p"), "play", card="M21", to="foundation")
    state = to_plane(to_plane(to_plane(state, "3c"), "3s"), "7p")
    assert state["phase"] == "choose_set"
    assert [m["cards"] for m in KT21.legal_moves(state, 0)] == [["3c", "7p"], ["3s", "7p"]]
    assert "not one of the sets" in refused(state, {"type": "match", "cards": ["3c", "3s"]})
    state = act(state, "match", cards=["7p", "3s"])  # any order is taken
    assert state["waiting"] == ["3s", "7p"] and KT21.view(state, 0)["plane"] == [["3c"], [], []]


def test_raised_minors_are_discarded_when_no_major_stands_in_the_heavens():
    state = to_plane(to_plane(new_game("3c", "7s"), "3c"), "7s")
    assert state["discard"] == ["3c", "7s"] and state["waiting"] == []
    assert state["phase"] == "play" and state["turn"] == 3
    assert "left the game" in KT21.view(state, 0)["log"][-3]


# --- Minors onto Majors ---------------------------------------------------------------------

def test_a_minor_goes_from_the_hand_straight_onto_a_major():
    state = act(new_game("M5", "2c", "9p", "3s"), "play", card="M5", to="foundation")
    assert "foundation" in targets(state, "2c")
    assert "foundation" not in targets(state, "9p")
    assert "would overfill" in refused(state, {"type": "play", "card": "9p", "to": "foundation"})
    state = act(state, "play", card="2c", to="foundation")
    assert state["plane"] == [[], [], []] and state["tree"]["foundation"]["room"] == 3
    state = act(state, "play", card="3s", to="foundation")
    assert state["tree"]["foundation"]["resolved"]
    assert KT21.score(state) == 5


def test_knowledge_does_not_double_a_major_in_the_prototype():
    state = new_game("M2", "M3", "M7")
    for card, space in (("M2", "foundation"), ("M3", "spirit"), ("M7", "knowledge")):
        state = act(state, "play", card=card, to=space)
    assert KT21.view(state, 0)["tree"]["knowledge"]["value"] == 7


# --- bridges ------------------------------------------------------------------------------------

def test_a_bridge_is_made_fed_and_resolved_and_its_majors_take_nothing_alone():
    # The text's example: The Magician and The Hermit side by side absorb 10 together.
    state = new_game("M1", "M9", "6w", "2s", "4c", "M4")
    state = act(state, "play", card="M1", to="foundation")
    state = act(state, "play", card="M9", to="spirit")
    assert "bridge:spirit:foundation" in targets(state, "6w")
    state = act(state, "play", card="6w", to="bridge:foundation:spirit")  # either order names it
    assert state["bridges"] == {"bridge:spirit:foundation": {"minors": ["6w"], "room": 4, "resolved": False}}
    assert targets(state, "4c") == [0, "bridge:spirit:foundation"]
    assert "bridged" in refused(state, {"type": "play", "card": "2s", "to": "foundation"})
    assert "bridged" in refused(state, {"type": "play", "card": "2s", "to": "spirit"})
    state = act(state, "play", card="4c", to="bridge:spirit:foundation")
    assert state["tree"]["foundation"]["resolved"] and state["tree"]["spirit"]["resolved"]
    assert KT21.score(state) == 10
    assert "bridge:spirit:foundation" in KT21.zones(state)
    assert KT21.view(state, 0)["bridges"]["bridge:spirit:foundation"]["resolved"]


def test_only_adjacent_uncovered_majors_may_be_bridged():
    state = new_game("M1", "M9", "M4", "2s", "3c")
    state = act(state, "play", card="M1", to="foundation")
    state = act(state, "play", card="M9", to="spirit")
    state = act(state, "play", card="M4", to="victory")
    bridges = [t for t in targets(state, "2s") if str(t).startswith("bridge:")]
    assert bridges == ["bridge:spirit:victory", "bridge:spirit:foundation", "bridge:victory:foundation"]
    state = act(state, "play", card="2s", to="victory")  # The Emperor is covered now
    bridges = [t for t in targets(state, "3c") if str(t).startswith("bridge:")]
    assert bridges == ["bridge:spirit:foundation"]
    assert "bridge" in refused(state, {"type": "play", "card": "3c", "to": "bridge:victory:foundation"})


def test_a_raised_minor_may_make_a_bridge():
    state = new_game("M1", "M9", "3c", "7s")
    state = act(state, "play", card="M1", to="foundation")
    state = act(state, "play", card="M9", to="spirit")
    state = to_plane(to_plane(state, "3c"), "7s")
    assert "bridge:spirit:foundation" in targets(state, "7s", "place")
    state = act(state, "place", card="7s", to="bridge:spirit:foundation")
    state = act(state, "place", card="3c", to="bridge:spirit:foundation")
    assert state["tree"]["foundation"]["resolved"] and state["tree"]["spirit"]["resolved"]


# --- Grace Fields -----------------------------------------------------------------------------

def test_each_grace_field_holds_one_minor_and_with_none_left_the_game_is_lost():
    state = act(new_game("M1", "3c", "7s", "4c", "6s", "2c", "8s"), "play", card="M1", to="foundation")
    state = to_plane(to_plane(state, "3c"), "7s")
    assert targets(state, "3c", "place") == ["grace:0", "grace:1", "grace:2", "grace:3"]
    state = act(state, "place", card="3c", to="grace:0")
    assert targets(state, "7s", "place") == ["grace:1", "grace:2", "grace:3"]
    state = act(state, "place", card="7s", to="grace:1")
    state = to_plane(to_plane(state, "4c"), "6s")
    state = act(act(state, "place", card="4c", to="grace:2"), "place", card="6s", to="grace:3")
    state = to_plane(to_plane(state, "2c"), "8s")
    outcome = KT21.outcome(state)
    assert outcome["result"] == "loss" and "every Grace Field is taken" in outcome["reason"]
    assert state["result"]["obstacle"] == "2c"


def test_a_minor_that_fits_a_major_may_not_rest_on_a_grace_field():
    state = act(new_game("M9", "3c", "7s"), "play", card="M9", to="foundation")
    state = to_plane(to_plane(state, "3c"), "7s")
    assert targets(state, "3c", "place") == ["foundation"]
    assert "fits on a Major" in refused(state, {"type": "place", "card": "3c", "to": "grace:0"})


def test_expert_has_no_grace_fields():
    state = act(new_game("M1", "3c", "7s", variant="expert"), "play", card="M1", to="foundation")
    state = to_plane(to_plane(state, "3c"), "7s")
    assert KT21.outcome(state)["result"] == "loss"
    assert "Expert has no Grace Fields" in KT21.outcome(state)["reason"]
    assert "grace:0" not in KT21.zones(state)


# --- the Fool -----------------------------------------------------------------------------------

def test_the_fool_on_knowledge_absorbs_40():
    state = new_game("M2", "M3", "M0", "Kc", "Qc", "Nc", "Pc")
    for card, space in (("M2", "foundation"), ("M3", "spirit"), ("M0", "knowledge")):
        state = act(state, "play", card=card, to=space)
    assert KT21.view(state, 0)["tree"]["knowledge"]["value"] == 40
    for court in ("Kc", "Qc", "Nc", "Pc"):
        state = act(state, "play", card=court, to="knowledge")
    assert state["tree"]["knowledge"]["resolved"] and KT21.score(state) == 40


def test_the_fool_elsewhere_takes_nothing_but_does_not_block_victory():
    order = ["foundation", "victory", "splendour", "spirit", "mercy", "severity", "knowledge",
             "wisdom", "understanding"]
    cards = []
    for n, space in enumerate(order, 1):
        cards += [f"M{n}", "Ac" if n == 1 else f"{n}c"]
    state = new_game(*cards, "M0")
    for n, space in enumerate(order, 1):
        state = act(state, "play", card=f"M{n}", to=space)
        state = act(state, "play", card="Ac" if n == 1 else f"{n}c", to=space)
        assert state["tree"][space]["resolved"]
    assert KT21.outcome(state) is None
    state = act(state, "play", card="M0", to="crown")
    outcome = KT21.outcome(state)
    assert outcome["result"] == "win" and outcome["scores"] == [45]


def test_the_fool_elsewhere_takes_no_minor():
    state = act(new_game("M0", "Ac", "2c"), "play", card="M0", to="foundation")
    assert "foundation" not in targets(state, "Ac")
    assert "takes no Minors" in refused(state, {"type": "play", "card": "Ac", "to": "foundation"})
    assert KT21.view(state, 0)["tree"]["foundation"]["never"]


# --- variations ------------------------------------------------------------------------------

def test_easy_doubles_every_value():
    state = act(new_game("M5", "Kc", variant="easy"), "play", card="M5", to="foundation")
    assert KT21.view(state, 0)["tree"]["foundation"]["value"] == 10
    state = act(state, "play", card="Kc", to="foundation")
    assert state["tree"]["foundation"]["resolved"] and KT21.score(state) == 10
    standard = act(new_game("M5", "Kc"), "play", card="M5", to="foundation")
    assert "foundation" not in targets(standard, "Kc")


def test_freethought_resolves_a_major_with_any_minor_and_taints_the_reading():
    state = act(new_game("M21", "Ac", variant="freethought"), "play", card="M21", to="foundation")
    state = act(state, "play", card="Ac", to="foundation")
    assert state["tree"]["foundation"]["resolved"]
    assert KT21.view(state, 0)["tainted"] is True
    reading = KT21.reading(state)
    assert reading["tainted"] is True and "tainted" in reading["taint"]
    assert KT21.reading(new_game("M21"))["tainted"] is False


def test_unknown_variations_are_refused():
    with pytest.raises(ValueError, match="Unknown variant 'meditative'"):
        KT21.new_game(0, 1, {"variant": "meditative"})


# --- the reading -------------------------------------------------------------------------------

def test_the_reading_lays_the_central_sefira_and_a_bridge_lends_them_its_minors():
    state = new_game("M1", "M9", "6w", "4c")
    state = act(state, "play", card="M1", to="foundation")
    state = act(state, "play", card="M9", to="spirit")
    state = act(state, "play", card="6w", to="bridge:spirit:foundation")
    reading = KT21.reading(state)
    assert reading["game"] == "know_thyself_2021" and reading["edition"] == "2021"
    by_space = {p["space"]: p for p in reading["positions"]}
    assert by_space["foundation"]["minors"] == ["6w"] and by_space["spirit"]["minors"] == ["6w"]
    assert by_space["foundation"]["bridge"] == "bridge:spirit:foundation"


def test_the_terminal_plays_it_to_the_end():
    import io

    from games.engine.play import main

    out = io.StringIO()
    code = main(["know_thyself_2021", "--seed", "3", "--variant", "freethought"], stdin=io.StringIO("1\na 400\nr\nq\n"),
                out=out)
    text = out.getvalue()
    assert code == 0 and "Know Thyself (2021 prototype) (freethought)" in text
    assert "Game over:" in text and "The reading:" in text
    assert "Freethought: this reading is tainted." in text
    assert "the Sun space" not in text
