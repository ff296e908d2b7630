"""Majors on the Tree of Life, Grace Fields, and what each Major absorbs (rulebook "Playing
Major Arcana", "Unique Sefira and cards", "Meditative mode"; RULINGS 3 and 4)."""

from __future__ import annotations

from games.engine.tree import SEFIRA

from .conftest import KT, moves_of, new_game, place, places_for, play, refused

GROWTH = ["foundation", "spirit", "knowledge", "crown", "victory", "splendour", "mercy",
          "severity", "wisdom", "understanding"]


def major_targets(state, card):
    return [m["to"] for m in moves_of(state, "play") if m["card"] == card]


def test_the_first_major_grows_from_the_root():
    state = new_game("M9", "2c", "3c", "4c")
    assert major_targets(state, "M9") == ["splendour", "victory", "foundation"]
    message = refused(state, {"type": "play", "card": "M9", "to": "crown"})
    assert message == "The Crown is not joined by a branch to the root or to an occupied space."


def test_a_major_goes_to_an_empty_space_joined_to_an_occupied_one():
    state = play(new_game("M9", "M10", "3c", "4c"), "M9", "foundation")
    assert major_targets(state, "M10") == ["spirit", "splendour", "victory"]
    assert refused(state, {"type": "play", "card": "M10", "to": "foundation"}) == (
        "The Foundation already holds IX The Hermit.")


def test_the_sun_space_takes_only_the_sun_next_to_an_occupied_space():
    state = new_game("M5", "M6", "M4", "M19", "M2", "M18", "M3")
    for card, space in [("M5", "foundation"), ("M6", "splendour"), ("M4", "severity")]:
        state = play(state, card, space)
    assert "sun" in major_targets(state, "M19")
    assert "sun" not in major_targets(state, "M2")
    assert refused(state, {"type": "play", "card": "M2", "to": "sun"}) == (
        "Only XIX The Sun may go on the Sun space.")
    # The Moon space is not joined to anything occupied yet (wisdom and mercy are empty).
    assert "moon" not in major_targets(state, "M18")
    # The Sun may also go to an ordinary Sefira.
    assert "spirit" in major_targets(state, "M19")


def test_the_moon_space_takes_only_the_moon():
    state = new_game("M5", "M6", "M18", "M2")
    state = play(state, "M5", "victory")
    state = play(state, "M6", "mercy")
    assert "moon" in major_targets(state, "M18")
    assert "moon" not in major_targets(state, "M2")
    assert "spirit" in major_targets(state, "M18")  # The Moon may go to an ordinary Sefira
    state = play(state, "M18", "moon")
    assert KT.view(state, 0)["tree"]["moon"]["value"] == 18


def fill_tree(cards, extra=()):
    """A game whose first ten plays fill the ten Sefira with ``cards`` (in GROWTH order)."""
    state = new_game(*cards, *extra)
    for card, space in zip(cards, GROWTH):
        state = play(state, card, space)
    return state


TEN = ["M1", "M2", "M3", "M4", "M5", "M6", "M7", "M8", "M9", "M10"]


def test_a_major_may_rest_on_a_grace_field_only_once_all_ten_sefira_are_full():
    state = new_game("M1", "M2", "M3", "M4")
    assert refused(state, {"type": "play", "card": "M1", "to": "grace:0"}) == (
        "A Major may rest on a Grace Field only once all ten Sefira hold Majors.")
    state = fill_tree(TEN, ["M11", "M12"])
    assert major_targets(state, "M11") == ["grace:0", "grace:1", "grace:2", "grace:3"]
    state = play(state, "M11", "grace:2")
    assert state["grace"] == [None, None, "M11", None]
    assert major_targets(state, "M12") == ["grace:0", "grace:1", "grace:3"]
    # It simply rests: nothing is ever placed on it and it is no Sefira to resolve.
    assert "grace:2" not in KT.view(state, 0)["tree"]


def test_the_sun_and_moon_spaces_stay_open_when_the_ten_sefira_are_full():
    state = fill_tree(TEN, ["M19"])
    assert major_targets(state, "M19") == ["sun", "grace:0", "grace:1", "grace:2", "grace:3"]


def values_on(state):
    return {s: v["value"] for s, v in KT.view(state, 0)["tree"].items()}


def test_a_major_is_worth_its_number_and_double_on_knowledge():
    state = new_game("M9", "M7", "M5", "M0")
    for card, space in [("M9", "foundation"), ("M7", "spirit"), ("M5", "knowledge")]:
        state = play(state, card, space)
    assert values_on(state) == {"foundation": 9, "spirit": 7, "knowledge": 10}


def test_the_fool_on_knowledge_is_worth_40():
    state = new_game("M9", "M7", "M0", "M5")
    for card, space in [("M9", "foundation"), ("M7", "spirit"), ("M0", "knowledge")]:
        state = play(state, card, space)
    assert values_on(state)["knowledge"] == 40
    assert KT.view(state, 0)["tree"]["knowledge"]["takes_any"] is False


def test_meditative_doubles_every_value_after_the_knowledge_rule():
    state = new_game("M9", "M7", "M0", variant="meditative")
    for card, space in [("M9", "foundation"), ("M7", "spirit"), ("M0", "knowledge")]:
        state = play(state, card, space)
    assert values_on(state) == {"foundation": 18, "spirit": 14, "knowledge": 80}
    state = new_game("M9", "M7", "M5", variant="meditative")
    for card, space in [("M9", "foundation"), ("M7", "spirit"), ("M5", "knowledge")]:
        state = play(state, card, space)
    assert values_on(state)["knowledge"] == 20


def the_fool_then_a_pair(variant, pair=("Kc", "Qc")):
    state = new_game("M0", "M9", *pair, variant=variant)
    state = play(state, "M0", "victory")
    state = play(state, "M9", "foundation")
    state = play(state, pair[0], 0)
    return play(state, pair[1], 0)


def test_the_fool_elsewhere_is_resolved_by_any_single_minor_and_scores_0():
    state = the_fool_then_a_pair("standard", ("Kc", "8c"))
    assert places_for(state, "Kc") == ["victory"]  # the Hermit cannot take 10
    state = place(state, "Kc", "victory")
    tree = KT.view(state, 0)["tree"]
    assert tree["victory"]["resolved"] and tree["victory"]["value"] == 0
    assert places_for(state, "8c") == ["foundation"]  # nothing more goes on the Fool
    assert KT.view(state, 0)["score"] == 0


def test_the_fool_elsewhere_still_takes_one_minor_in_meditative():
    state = the_fool_then_a_pair("meditative", ("Ac", "8c"))
    state = place(state, "Ac", "victory")
    assert KT.view(state, 0)["tree"]["victory"]["resolved"]
    assert places_for(state, "8c") == ["foundation"]


def test_a_placed_major_never_moves_and_only_one_major_fits_a_space():
    state = play(new_game("M9", "M10", "2c", "3c"), "M9", "foundation")
    assert all(m["card"] != "M9" for m in KT.legal_moves(state, 0))
    assert "foundation" not in major_targets(state, "M10")


def test_every_sefira_of_the_tree_can_be_filled():
    state = fill_tree(TEN)
    assert set(KT.view(state, 0)["tree"]) == set(SEFIRA)
    # Ten unresolved Majors are no victory: the game goes on.
    assert state["phase"] == "play" and KT.outcome(state) is None
