"""What a person reads: move descriptions, refusals, the view and the log."""

from __future__ import annotations

import json

from .conftest import KT, act, new_game, place, places_for, play, refused
from .test_know_thyself_matching import worked_example
from .test_know_thyself_negation import queen_and_king_of_cups
from .test_know_thyself_numerology import two_sets


def describe(state, **move):
    return KT.describe_move(state, 0, move)


def test_moves_are_described_in_words():
    state = new_game("M9", "2c", "3c", "4c")
    assert describe(state, type="play", card="M9", to="foundation") == (
        "Play IX The Hermit to the Foundation")
    assert describe(state, type="play", card="2c", column=2) == (
        "Play the 2 of Cups onto the right Seeress")
    state = worked_example()
    assert describe(state, type="place", card="9p", to="foundation") == (
        "Place the 9 of Pentacles on The Hermit in the Foundation: 9 of 9 (resolves it)")
    assert describe(state, type="place", card="3c", to="splendour") == (
        "Place the 3 of Cups on Temperance in Splendour: 3 of 14")
    state = queen_and_king_of_cups()
    assert describe(state, type="negate", cards=["Qc", "Kc"]) == (
        "Negate the Queen of Cups and the King of Cups: both leave the game, then discard and "
        "draw up to four")
    assert describe(state, type="raise") == "Raise the matched cards without negating any more"
    state = act(state, "negate", cards=["Qc", "Kc"])
    card = state["hand"][0]
    assert describe(state, type="discard", card=card).startswith("Discard ")
    assert describe(state, type="refill") == "Stop discarding and draw 1 card (up to four)"
    assert describe(two_sets(), type="match", cards=["4c", "6s"]) == (
        "Take the set: the 4 of Cups and the 6 of Swords (total 10)")


def test_a_grace_field_and_the_fool_are_described():
    state = new_game("M0", "Kc", "Qc")
    state = play(play(play(state, "M0", "victory"), "Kc", 0), "Qc", 0)
    state = act(state, "raise")
    assert describe(state, type="place", card="Kc", to="victory") == (
        "Place the King of Cups on The Fool in Victory (resolves it)")
    state = place(state, "Kc", "victory")
    assert describe(state, type="place", card="Qc", to="grace:0") == (
        "Place the Queen of Cups on Grace Field 1")


def test_refusals_say_what_is_wrong():
    state = new_game("M9", "2c", "3c", "4c")
    assert refused(state, {"type": "play", "card": "Kc", "column": 0}) == (
        "The King of Cups is not in your hand.")
    assert refused(state, {"type": "play", "card": "Zz", "column": 0}) == (
        "'Zz' is not a card code (e.g. \"9p\", \"Qc\", \"M9\").")
    assert refused(state, {"type": "play", "card": "2c", "column": 3}) == (
        "3 is not a Seeress column; they are 0, 1 and 2.")
    assert refused(state, {"type": "play", "card": "2c", "to": "crown"}) == (
        "The 2 of Cups is a Minor: play it onto a Seeress (\"column\" 0-2).")
    assert refused(state, {"type": "play", "card": "M9", "column": 0}) == (
        "IX The Hermit is a Major: play it to a space of the Tree (\"to\").")
    assert refused(state, {"type": "play", "card": "M9", "to": "heaven"}).startswith(
        "'heaven' is not a space; the spaces are crown, ")
    assert refused(state, {"type": "place", "card": "2c", "to": "crown"}) == (
        "Not now: Play a card: a Major to a Sefira, or a Minor onto a Seeress.")
    assert refused(state, {"type": "raise", "card": "2c"}).startswith("Not now:")
    assert refused(state, {"type": "play", "card": "2c", "column": 0, "angle": 3}) == (
        "A move cannot have the key(s) angle.")
    assert refused(state, ["play"]) == 'A move must be an object with a "type".'


def test_refusals_while_placing():
    state = worked_example()
    state = place(state, "9p", "foundation")
    assert refused(state, {"type": "place", "card": "3c", "to": "foundation"}) == (
        "The Hermit on the Foundation is already resolved.")
    assert refused(state, {"type": "place", "card": "3c", "to": "crown"}) == (
        "The Crown holds no Major yet.")
    assert refused(state, {"type": "place", "card": "9p", "to": "victory"}) == (
        "The 9 of Pentacles is not waiting to be placed.")


def test_the_view_shows_the_player_everything_but_the_deck():
    state = worked_example()
    view = KT.view(state, 0)
    json.dumps(view)
    assert "deck" not in view and view["deck_count"] == 68
    assert view["hand"] == state["hand"] and view["phase"] == "place"
    assert view["waiting"] == ["9p", "Qp", "3c", "Qc"]
    assert view["tree"]["foundation"] == {"major": "M9", "minors": [], "value": 9, "needs": 9,
                                          "takes_any": False, "resolved": False}
    assert view["prompt"].startswith("Place the raised cards")
    assert view["reading"] is None and view["outcome"] is None
    assert view["variant"] == ["standard"] and view["sacred"] is None


def test_a_spectator_sees_the_board_but_not_the_hand_nor_what_was_drawn():
    state = worked_example()
    view = KT.view(state, None)
    assert view["hand"] is None and view["hand_count"] == 3 and view["prompt"] is None
    assert view["waiting"] == ["9p", "Qp", "3c", "Qc"]
    assert "A card was drawn." in view["log"]
    assert not any(line.startswith("You drew") for line in view["log"])


def test_the_log_tells_the_game_in_words():
    state = place(worked_example(), "9p", "foundation")
    log = KT.view(state, 0)["log"]
    assert log[:4] == ["You drew The Hermit.", "You drew Wheel of Fortune.", "You drew Temperance.",
                       "Turn 1."]
    assert "IX The Hermit was played to the Foundation." in log
    assert "The Queen of Pentacles was played onto the middle Seeress." in log
    assert log[-4:] == [
        "The 9 of Pentacles and the Queen of Pentacles matched and rose to the Heavens.",
        "The 3 of Cups and the Queen of Cups matched and rose to the Heavens.",
        "The 9 of Pentacles was placed on the Foundation.",
        "The Foundation is resolved."]


def test_the_sacred_number_is_announced_but_not_its_card_until_the_end():
    state = new_game("M7", "3c", variant="numerology")
    view = KT.view(state, 0)
    assert view["sacred"] == 7 and view["sacred_card"] is None
    assert view["log"][0] == "The sacred number is 7."


def test_a_column_must_be_a_whole_number_not_true_nor_1_point_0():
    # Python counts True and 1.0 equal to 1: a plain membership test would accept them.
    state = new_game("2c", "3s", "4p", "5w")
    assert refused(state, {"type": "play", "card": "2c", "column": True}) == (
        "True is not a Seeress column; they are 0, 1 and 2.")
    assert refused(state, {"type": "play", "card": "2c", "column": 1.0}) == (
        "1.0 is not a Seeress column; they are 0, 1 and 2.")
    assert refused(state, {"type": "play", "card": "2c", "column": "1"}) == (
        "'1' is not a Seeress column; they are 0, 1 and 2.")


def test_a_legal_move_with_a_stray_key_is_refused_for_that_key():
    state = worked_example()
    assert refused(state, {"type": "place", "card": "9p", "to": "foundation", "column": 0}) == (
        "A place move takes no column.")
    assert refused(state, {"type": "place", "card": "9p", "to": "foundation", "cards": ["9p"]}) == (
        "A place move takes no cards.")
    assert refused(queen_and_king_of_cups(),
                   {"type": "negate", "cards": ["Qc", "Kc"], "to": "splendour"}) == (
        "A negate move takes no to.")
    assert refused(two_sets(), {"type": "match", "cards": ["4c", "6s"], "card": "4c"}) == (
        "A match move takes no card.")
    assert refused(new_game("2c", "3s", "4p", "5w"),
                   {"type": "play", "card": "2c", "column": 0, "cards": ["2c"]}) == (
        "A play move takes no cards.")


def test_a_spectator_is_not_told_which_hand_card_was_the_obstacle():
    # Lost with only Majors in hand: the obstacle is a hand card, the player's secret.
    majors = ["M2", "M3", "M1", "M4", "M5", "M6", "M7", "M8", "M9", "M10", "M18", "M19",
              "M11", "M12", "M13", "M14", "M15", "M16"]
    spaces = ["foundation", "spirit", "knowledge", "crown", "victory", "splendour", "mercy",
              "severity", "wisdom", "understanding", "grace:0", "grace:1", "grace:2", "grace:3"]
    state = new_game(*majors)
    for card, space in zip(majors, spaces):
        state = play(state, card, space)
    assert KT.outcome(state)["result"] == "loss" and state["result"]["obstacle"] == "M13"
    assert KT.view(state, 0)["log"][-1] == "Defeat: XIII Death is the obstacle."
    spectator = KT.view(state, None)
    assert spectator["log"][-1] == "Defeat." and spectator["hand"] is None
    assert "M13" not in json.dumps(spectator)


def test_a_spectator_is_told_a_raised_obstacle_since_it_was_on_the_plane():
    state = new_game("8c", "9c", "8s", "9s", "8w", "9w")
    for a, b in [("8c", "9c"), ("8s", "9s")]:
        state = play(play(state, a, 0), b, 0)
        state = place(state, a, places_for(state, a)[0])  # a Grace Field: no Major yet
        state = place(state, b, places_for(state, b)[0])
    state = play(play(state, "8w", 2), "9w", 2)
    assert KT.view(state, None)["log"][-1] == "Defeat: Eight of Wands is the obstacle."
