"""Victory, score, both kinds of defeat and the reading (rulebook "Victory", "Defeat",
"Sefirot as divination"; RULINGS 4)."""

from __future__ import annotations

from games.engine.cards import DECK

from .conftest import KT, new_game, place, places_for, play, refused

MAJORS_TO = [("M2", "foundation"), ("M3", "spirit"), ("M1", "knowledge"), ("M4", "crown"),
             ("M5", "victory"), ("M6", "splendour"), ("M7", "mercy"), ("M8", "severity"),
             ("M9", "wisdom"), ("M10", "understanding")]
# Same-suit pairs played onto the left Seeress; each card then resolves one Major.
PAIRS = [(("2c", "knowledge"), ("3c", "spirit")), (("4c", "crown"), ("5c", "victory")),
         (("6c", "splendour"), ("7c", "mercy")), (("8c", "severity"), ("9c", "wisdom"))]
LAST = ("2s", "10s")  # resolves the Foundation (M2) and Understanding (M10)


def almost_won(extra_majors=()):
    """All ten Sefira filled and all but two resolved; the Ace of Wands and 7 of Swords wait
    in the middle column, so the last pair also raises the 7 of Swords."""
    cards = [m for m, _ in MAJORS_TO] + list(extra_majors) + ["Aw", "7s"]
    cards += [c for pair in PAIRS for c, _ in pair] + list(LAST)
    state = new_game(*cards)
    for card, space in MAJORS_TO:
        state = play(state, card, space)
    for card, space in zip(extra_majors, ["sun"]):
        state = play(state, card, space)
    state = play(play(state, "Aw", 1), "7s", 1)
    for pair in PAIRS:
        state = play(play(state, pair[0][0], 0), pair[1][0], 0)
        for card, space in pair:
            state = place(state, card, space)
    state = play(play(state, "2s", 0), "10s", 0)
    assert state["waiting"] == ["2s", "10s", "7s"]
    return place(state, "2s", "foundation")


def test_victory_comes_the_moment_the_last_sefira_is_resolved():
    state = almost_won()
    assert KT.outcome(state) is None
    state = place(state, "10s", "understanding")
    assert KT.outcome(state) == {
        "result": "win", "winners": [0], "scores": [56],
        "reason": "All ten Sefira hold resolved Majors: the Tree of Life is complete, scoring 56."
                  " (1 raised card no longer needed a place.)"}
    assert KT.to_act(state) == [] and KT.legal_moves(state, 0) == []
    # The leftover 7 of Swords is simply dropped.
    assert KT.zones(state)["waiting"] == ["7s"]
    assert refused(state, {"type": "place", "card": "7s", "to": "grace:0"}) == "The game is over."


def test_an_occupied_sun_space_must_be_resolved_too():
    state = almost_won(extra_majors=("M19",))
    state = place(state, "10s", "understanding")
    assert KT.outcome(state) is None and not KT.view(state, 0)["tree"]["sun"]["resolved"]
    assert places_for(state, "7s") == ["sun"]


def test_score_counts_resolved_majors_as_valued_on_the_tree():
    state = place(almost_won(), "10s", "understanding")
    # Knowledge doubles the Magician: 2 + 2 + 3 + ... + 10.
    assert KT.view(state, 0)["score"] == 2 + sum(range(2, 11))


def test_defeat_when_a_raised_card_has_nowhere_to_go():
    state = new_game("8c", "9c", "8s", "9s", "8w", "9w")
    for a, b in [("8c", "9c"), ("8s", "9s")]:
        state = play(play(state, a, 0), b, 0)
        state = place(state, a, places_for(state, a)[0])
        state = place(state, b, places_for(state, b)[0])
    assert state["grace"] == ["8c", "9c", "8s", "9s"]
    state = play(play(state, "8w", 2), "9w", 2)
    assert KT.outcome(state) == {
        "result": "loss", "winners": [], "scores": [0],
        "reason": "The 8 of Wands was raised but fits on no Sefira and every Grace Field is taken."}
    assert state["result"]["obstacle"] == "8w"


def test_the_player_may_place_the_others_first_and_the_obstacle_is_the_first_to_leave():
    state = new_game("M3", "8c", "9c", "8s", "9s", "Kw", "2w")
    state = play(state, "M3", "foundation")
    for a, b in [("8c", "9c"), ("8s", "9s")]:
        state = play(play(state, a, 0), b, 0)
        state = place(state, a, places_for(state, a)[0])
        state = place(state, b, places_for(state, b)[0])
    state = play(play(state, "Kw", 1), "2w", 1)
    assert state["waiting"] == ["Kw", "2w"]
    assert KT.outcome(state) is None and places_for(state, "Kw") == []
    state = place(state, "2w", "foundation")
    assert KT.outcome(state)["result"] == "loss"
    assert state["result"]["obstacle"] == "Kw"


def test_defeat_when_only_majors_are_left_with_nowhere_to_go():
    spaces = [s for _, s in MAJORS_TO] + ["grace:0", "grace:1", "grace:2", "grace:3"]
    majors = ["M2", "M3", "M1", "M4", "M5", "M6", "M7", "M8", "M9", "M10", "M18", "M19",
              "M11", "M12", "M13", "M14", "M15", "M16"]
    state = new_game(*majors)
    for card, space in zip(majors, spaces):
        state = play(state, card, space)
    assert state["hand"] == ["M13", "M14", "M15", "M16"]
    assert KT.outcome(state) == {
        "result": "loss", "winners": [], "scores": [0],
        "reason": "Only Majors are left in your hand and none has anywhere to go."}
    assert state["result"]["obstacle"] == "M13"


def test_defeat_when_hand_and_deck_are_empty():
    # Unreachable in a real game (22 Majors never all find a place), so set up directly.
    state = new_game("2c", "3s", "4p", "5w")
    state["discard"], state["deck"] = state["deck"] + state["hand"][1:], []
    state["hand"] = ["2c"]
    state = play(state, "2c", 0)
    assert KT.outcome(state)["reason"] == (
        "Your hand and the deck are both empty: there is nothing left to play.")
    assert state["result"]["obstacle"] is None


def test_the_reading_shows_the_four_central_sefira_with_their_minors():
    state = place(almost_won(), "10s", "understanding")
    reading = KT.reading(state)
    assert [(p["space"], p["major"], p["minors"], p["source"]) for p in reading["positions"]] == [
        ("foundation", "M2", ["2s"], "tree"), ("spirit", "M3", ["3c"], "tree"),
        ("knowledge", "M1", ["2c"], "tree"), ("crown", "M4", ["4c"], "tree")]
    assert reading["obstacle"] is None and reading["complete"]
    assert all(p["question"].endswith("?") and p["keyword"] for p in reading["positions"])
    assert reading["positions"][0]["suits"] == {"s": 1}
    assert reading["cards"] == ["M2", "2s", "M3", "3c", "M1", "2c", "M4", "4c"]


def test_an_empty_central_sefira_is_filled_after_the_game_from_hand_then_deck():
    state = new_game("M3", "M5", "8c", "9c", "8s", "9s", "8w", "9w")
    state = play(state, "M3", "victory")
    for a, b in [("8c", "9c"), ("8s", "9s")]:
        state = play(play(state, a, 0), b, 0)
        state = place(state, a, places_for(state, a)[0])
        state = place(state, b, places_for(state, b)[0])
    # While playing, only what is on the tree counts.
    assert [p["major"] for p in KT.reading(state)["positions"]] == [None, None, None, None]
    state = play(play(state, "8w", 2), "9w", 2)
    assert KT.outcome(state)["result"] == "loss"
    hand_majors = [c for c in state["hand"] if c.startswith("M")]
    assert hand_majors == ["M5", "M0", "M1"]
    deck_majors = [c for c in state["deck"] if c.startswith("M")]
    reading = KT.reading(state)
    assert [(p["space"], p["major"], p["source"]) for p in reading["positions"]] == [
        ("foundation", "M5", "hand"), ("spirit", "M0", "hand"),
        ("knowledge", "M1", "hand"), ("crown", deck_majors[0], "deck")]
    assert reading["obstacle"]["card"] == "8w" and reading["obstacle"]["question"]
    assert reading["cards"][-1] == "8w"


def test_the_reading_grows_while_playing():
    state = play(play(new_game("M9", "M4", "2c", "3c"), "M9", "foundation"), "M4", "spirit")
    positions = KT.reading(state)["positions"]
    assert [p["major"] for p in positions] == ["M9", "M4", None, None]
    assert not KT.reading(state)["complete"]


def test_every_card_of_a_reading_is_a_real_card():
    state = place(almost_won(), "10s", "understanding")
    assert set(KT.reading(state)["cards"]) <= set(DECK)


def test_the_majors_the_reading_draws_at_the_end_are_in_the_reading_zone_not_the_deck():
    import random

    from games.engine import get_rules
    from games.engine.base import check_zones
    from games.engine.cards import CARDS

    rules = get_rules("know_thyself")
    checked = 0
    for seed in range(60):
        state, choose = rules.new_game(seed, 1, {"variant": "standard"}), random.Random(seed)
        while rules.outcome(state) is None:
            state = rules.apply(state, 0, choose.choice(rules.legal_moves(state, 0)))
        drawn = [p["major"] for p in rules.reading(state)["positions"] if p["source"] in ("hand", "deck")]
        zones = rules.zones(state)
        check_zones(zones, CARDS)
        assert sorted(zones["reading"]) == sorted(drawn)
        assert not set(drawn) & (set(zones["deck"]) | set(zones["hand:0"]))
        checked += bool(drawn)
    assert checked, "no seeded game drew a Major for its reading"
