"""Minors on the Material Plane, matches, raising and placing (rulebook "Playing Minor
Arcana", "Raising to the Heavens", "Resolving Major Arcana", "Fated mode"; RULINGS 4)."""

from __future__ import annotations

from .conftest import KT, moves_of, new_game, place, places_for, play, refused


def plane_of(state):
    return KT.view(state, 0)["plane"]


def test_a_minor_goes_on_top_of_any_seeress_making_a_new_row():
    state = new_game("2c", "3s", "4p", "5w")
    assert [m["column"] for m in moves_of(state, "play") if m["card"] == "2c"] == [0, 1, 2]
    state = play(state, "2c", 1)
    state = play(state, "3s", 1)  # a new row although row 0 is not full
    assert plane_of(state) == [[], ["2c", "3s"], []]


def test_two_cards_of_one_suit_in_a_column_are_raised():
    state = play(play(new_game("M9", "2c", "5c", "4p"), "M9", "foundation"), "2c", 2)
    state = play(state, "5c", 2)
    assert plane_of(state) == [[], [], []]
    assert state["waiting"] == ["2c", "5c"] and state["phase"] == "place"


def test_a_row_matches_even_when_its_cards_are_not_side_by_side():
    state = new_game("M9", "2c", "5s", "7c")
    state = play(state, "M9", "foundation")
    state = play(state, "2c", 0)
    state = play(state, "5s", 1)
    state = play(state, "7c", 2)
    assert plane_of(state) == [[], ["5s"], []]
    assert state["waiting"] == ["2c", "7c"]


def test_matches_in_a_row_and_a_column_at_once_are_all_raised():
    # 6s lands on 3s (its column) beside 2s (its row): all three leave together.
    state = new_game("M14", "3s", "4c", "2s", "6s")
    state = play(state, "M14", "splendour")
    state = play(state, "3s", 0)
    state = play(state, "4c", 1)
    state = play(state, "2s", 1)
    state = play(state, "6s", 0)
    assert plane_of(state) == [[], ["4c"], []]
    assert state["waiting"] == ["3s", "6s", "2s"]  # row by row, left to right


def test_no_match_ends_the_turn():
    state = play(new_game("2c", "3s", "4p", "5w"), "2c", 0)
    assert state["phase"] == "play" and state["waiting"] == [] and state["turn"] == 2


WORKED = ("M9", "M10", "M14", "Qp", "3c", "Qc", "9p")


def worked_example():
    """The rulebook's example: the 9 and Queen of Pentacles match, the 3 of Cups slides
    into the Queen's place and matches the Queen of Cups."""
    state = new_game(*WORKED)
    for card, where in [("M9", "foundation"), ("M10", "victory"), ("M14", "splendour"),
                        ("Qp", 1), ("3c", 1), ("Qc", 2)]:
        state = play(state, card, where)
    assert plane_of(state) == [[], ["Qp", "3c"], ["Qc"]]
    return play(state, "9p", 0)


def test_the_rulebook_example_cascades_into_a_second_match():
    state = worked_example()
    assert plane_of(state) == [[], [], []]
    assert state["waiting"] == ["9p", "Qp", "3c", "Qc"]
    assert state["phase"] == "place"  # two Queens of different suits: nothing to negate
    assert places_for(state, "9p") == ["splendour", "victory", "foundation"]


def test_the_rulebook_example_resolves_the_hermit_and_the_wheel_and_feeds_temperance():
    state = worked_example()
    assert refused(state, {"type": "place", "card": "Qp", "to": "foundation"}) == (
        "The Hermit needs 9; the Queen of Pentacles would make 10.")
    state = place(state, "9p", "foundation")
    state = place(state, "Qp", "victory")
    tree = KT.view(state, 0)["tree"]
    assert tree["foundation"]["resolved"] and tree["victory"]["resolved"]
    # Resolved Majors take nothing more.
    assert places_for(state, "3c") == ["splendour"]
    state = place(state, "3c", "splendour")
    state = place(state, "Qc", "splendour")
    tree = KT.view(state, 0)["tree"]
    assert tree["splendour"]["minors"] == ["3c", "Qc"] and tree["splendour"]["needs"] == 1
    assert not tree["splendour"]["resolved"]
    assert state["phase"] == "play" and state["turn"] == 8
    assert KT.view(state, 0)["score"] == 19


def test_the_total_on_a_major_may_not_exceed_its_value():
    state = worked_example()
    state = place(state, "Qp", "splendour")  # 10 of Temperance's 14
    assert places_for(state, "9p") == ["victory", "foundation"]
    assert refused(state, {"type": "place", "card": "9p", "to": "splendour"}) == (
        "Temperance needs 14; the Queen of Pentacles and the 9 of Pentacles would make 19.")


def test_raised_cards_are_placed_one_at_a_time_in_any_order():
    state = worked_example()
    assert {m["card"] for m in moves_of(state, "place")} == {"9p", "Qp", "3c", "Qc"}
    state = place(state, "Qc", "victory")
    assert {m["card"] for m in moves_of(state, "place")} == {"9p", "Qp", "3c"}


def test_a_raised_card_goes_to_a_grace_field_only_when_it_fits_on_no_sefira():
    state = new_game("M3", "8c", "9c", "2s")
    state = play(state, "M3", "foundation")
    state = play(state, "8c", 0)
    state = play(state, "9c", 0)
    assert places_for(state, "8c") == ["grace:0", "grace:1", "grace:2", "grace:3"]
    state = place(state, "8c", "grace:1")
    assert places_for(state, "9c") == ["grace:0", "grace:2", "grace:3"]  # one card each
    state = play(place(state, "9c", "grace:0"), "2s", 0)
    state = new_game("M3", "2c", "3c")
    state = play(play(play(state, "M3", "foundation"), "2c", 0), "3c", 0)
    assert places_for(state, "2c") == ["foundation"]
    assert refused(state, {"type": "place", "card": "2c", "to": "grace:0"}) == (
        "The 2 of Cups fits on the Foundation, so it may not go to a Grace Field.")


def test_fated_opens_a_new_row_only_when_the_current_one_is_full():
    state = new_game("2c", "3s", "4p", "5w", variant="fated")
    columns = lambda s, card: [m["column"] for m in moves_of(s, "play") if m["card"] == card]  # noqa: E731
    assert columns(state, "2c") == [0, 1, 2]
    state = play(state, "2c", 1)
    assert columns(state, "3s") == [0, 2]
    assert refused(state, {"type": "play", "card": "3s", "column": 1}) == (
        "Fated: a new row waits until the current one is full; play on 0 or 2.")
    state = play(play(state, "3s", 2), "4p", 0)
    assert columns(state, "5w") == [0, 1, 2]
