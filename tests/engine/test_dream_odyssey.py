"""Dream Odyssey rules, one test per rule of the chapter (RULINGS 6 where it decides).

Scenarios use stacked decks (see dream_odyssey_support); every move made through ``act``
also proves that all 78 cards are still in exactly one zone and that no view shows a hidden
card.
"""

from __future__ import annotations

import json

import pytest

from games.engine import get_rules
from games.engine.cards import MAJORS, MINORS
from games.engine.dream_odyssey.tables import COURT_PEOPLE, LANDSCAPES, PLACES, STACK_SIZES
from games.engine.tree import ADJACENT, SPACES

from .conftest import codes_in
from .dream_odyssey_support import (DO, act, check, discard_pile, laid_down, moves_of, new, play,
                                    refused, resolve, settle, slot_of, slots, stacked, travel)


# --- set-up -----------------------------------------------------------------------------------

def test_the_game_is_registered_for_one_seat():
    assert get_rules("dream_odyssey") is DO
    with pytest.raises(ValueError, match="1 player"):
        DO.new_game(1, 2, {})


def test_setup_puts_a_major_on_every_space_and_reveals_the_crown():
    state = new(spaces={"crown": "M17", "spirit": "M5", "foundation": "M3"})
    assert state["spaces"]["crown"]["major"] == "M17"
    assert state["spaces"]["spirit"]["major"] == "M5"
    assert sorted(s["major"] for s in state["spaces"].values()) == sorted(
        m for m in state["options"]["majors_deck"][:12])
    view = DO.view(state, 0)
    assert view["spaces"]["crown"]["major"] == "M17"
    assert view["spaces"]["spirit"]["major"] is None  # face down
    assert view["spaces"]["foundation"]["major"] == "M3"  # attainable, so flipped
    assert view["majors_deck_count"] == 22 - 12 - 1


def test_setup_deals_each_stack_at_its_ruled_size_first_dealt_on_top():
    state = new(stacks={"foundation": ["7w", "8w"], "crown": ["Ac", "As", "Ap", "Aw"]})
    for space in SPACES:
        assert len(state["spaces"][space]["stack"]) == STACK_SIZES[space]
    assert state["spaces"]["foundation"]["stack"] == ["7w", "8w"]
    assert DO.view(state, 0)["spaces"]["foundation"]["stack_top"] == "7w"
    assert sum(STACK_SIZES.values()) == 32


def test_the_opening_hand_is_three_pips_and_courts_drawn_for_it_join_the_party():
    # RULINGS 6: a court drawn at any time other than the travel draw goes to the Party.
    state = new(party="M4", hand=("5c", "Qs", "6c", "Kp", "7c"))
    assert state["hand"] == ["5c", "6c", "7c"]
    assert state["party"] == ["M4", "Qs", "Kp"]


def test_the_party_starts_with_the_thirteenth_major():
    state = new(party="M12")
    assert state["party"] == ["M12"]
    assert state["options"]["majors_deck"][12] == "M12"


def test_the_three_lowest_sefira_start_attainable_and_the_player_at_the_root():
    state = new()
    assert state["position"] == "root"
    open_spaces = {s for s in SPACES if state["spaces"][s]["open"]}
    assert open_spaces == {"foundation", "victory", "splendour"} == set(ADJACENT["root"])
    view = DO.view(state, 0)
    assert {s for s, v in view["spaces"].items() if v["status"] == "attainable"} == open_spaces


def test_the_crown_major_sets_the_landscape_and_world_type():
    state = new(spaces={"crown": "M5"})
    assert state["world"] == {"crown": "M5", "landscape": "City of scholars", "type": "City"}
    assert "city of scholars" in DO.view(state, 0)["tale"][0]


def test_stacked_piles_are_checked():
    good = stacked()
    with pytest.raises(ValueError, match="majors_deck"):
        DO.new_game(1, 1, {**good, "majors_deck": good["majors_deck"][:-1]})
    with pytest.raises(ValueError, match="minors_deck"):
        DO.new_game(1, 1, {**good, "minors_deck": good["minors_deck"][:-1] + ["M0"]})
    with pytest.raises(ValueError, match="Unknown option"):
        DO.new_game(1, 1, {"speed": "fast"})
    with pytest.raises(ValueError, match="two piles"):
        DO.new_game(1, 1, {}, deck=list(MAJORS + MINORS))
    with pytest.raises(ValueError, match="variant"):
        DO.new_game(1, 1, {"variant": "meditative"})


def test_the_same_seed_deals_the_same_game_and_another_seed_another():
    assert DO.dumps(DO.new_game(5, 1, {})) == DO.dumps(DO.new_game(5, 1, {}))
    assert DO.new_game(5, 1, {})["minors"] != DO.new_game(6, 1, {})["minors"]


def test_the_stacked_piles_never_appear_in_a_view():
    state = new()
    for seat in (0, None):
        view = DO.view(state, seat)
        assert not {"options", "majors_deck", "minors_deck"} & set(view)
        text = json.dumps(view)
        for pile in ("majors_deck", "minors_deck"):
            assert json.dumps(state["options"][pile][-8:])[1:-1] not in text


# --- travel -----------------------------------------------------------------------------------

def test_travel_follows_branches_to_attainable_spaces_only():
    state = new(party="M0", hand=("2c", "3c", "4c"), stacks={"foundation": ["9s", "8s"]})
    assert {m["to"] for m in moves_of(state, "travel")} == {"foundation", "victory", "splendour"}
    assert "branch" in refused(state, {"type": "travel", "to": "crown"})
    assert "not a space" in refused(state, {"type": "travel", "to": "atlantis"})
    state = _finish_encounter_quickly(travel(state, "foundation"))  # lost: Spirit stays shut
    assert state["position"] == "foundation"
    assert {m["to"] for m in moves_of(state, "travel")} == {"victory", "splendour"}
    assert "attainable" in refused(state, {"type": "travel", "to": "spirit"})
    assert "already at" in refused(state, {"type": "travel", "to": "foundation"})


def test_a_pip_drawn_on_the_road_goes_to_the_hand_before_the_sefira_encounter():
    state = new(stacks={"foundation": ["5s", "6s"]}, draws=("9w",))
    state = act(state, "travel", to="foundation")
    assert "9w" in state["hand"]
    assert state["phase"] == "arrive"  # the Hermit in the Party could still be used
    state = act(state, "enter")
    assert state["phase"] == "encounter"
    assert slots(state) == ["5s", "6s"]
    assert state["spaces"]["foundation"]["stack"] == []


def test_the_arrival_pause_comes_only_when_something_can_be_done_outside_an_encounter():
    # The Fool's power is for encounters, but any Major can pay for help: a pause.
    state = new(party="M0", draws=("9w",))
    state = act(state, "travel", to="foundation")
    assert state["phase"] == "arrive"
    assert {m["type"] for m in DO.legal_moves(state, 0)} == {"enter", "assistance", "inspiration"}
    # With the Party spent beforehand there is nothing to do on arrival: straight in.
    state = new(party="M0", draws=("8w", "9w"))
    state = act(state, "assistance", card="M0")
    state = act(state, "travel", to="foundation")
    assert state["phase"] == "encounter"


def test_a_court_drawn_on_the_road_starts_a_travel_encounter_with_the_next_card():
    state = new(party="M9", draws=("Nc", "6w"))
    state = act(state, "travel", to="victory")
    assert state["phase"] == "encounter"
    assert state["encounter"]["kind"] == "travel"
    assert state["encounter"]["trigger"] == "Nc"
    assert slots(state) == ["6w"]
    assert "Nc" not in state["party"] and "Nc" not in state["hand"]


def test_winning_a_travel_encounter_wins_the_court_then_the_journey_goes_on():
    state = new(party="M9", hand=("2c", "3c", "7c"), draws=("Nc", "6w", "8p"),
                stacks={"victory": ["As", "2s"]})
    state = act(state, "travel", to="victory")
    state = play(state, "7c", "6w")
    state = resolve(state)
    assert "Nc" in state["party"]
    assert "8p" in state["hand"]  # the draw after the encounter
    assert state["phase"] == "arrive" and state["position"] == "victory"
    state = act(state, "enter")
    assert state["encounter"]["kind"] == "sefira" and slots(state) == ["As", "2s"]


def test_losing_a_travel_encounter_discards_the_court_and_the_unbeaten_card():
    state = new(party="M0", hand=("2c", "3c", "4c"), draws=("Kc", "9w", "8p", "7p"))
    state = act(state, "travel", to="victory")
    state = play(state, "2c", "9w")
    state = resolve(state)
    assert state["wounds"][0] == "2c"
    bottom = state["minors"][-3:]
    state = laid_down(act(state, "draw_top"))  # the wound's draw, then the discards
    assert "8p" in state["hand"]
    # the lost encounter: peek at the bottom three, discard one, the rest go back
    assert state["phase"] == "introspect"
    assert state["peek"] == bottom
    state = act(state, "discard", card=bottom[0])
    state = act(state, "place", card=bottom[1])
    assert state["minors"][-2:] == [bottom[1], bottom[2]]
    assert state["minors_discard"][:3] == [bottom[0], "9w", "Kc"]
    assert "Kc" not in state["party"]
    assert "7p" in state["hand"]  # the draw after every encounter


def test_travelling_to_an_overcome_sefira_arrives_at_once_with_no_draw():
    state = new(party="M0", hand=("9c", "9s", "4c"), draws=("5w", "6w"),
                stacks={"foundation": ["2s", "3s"]})
    state = travel(state, "foundation")
    state = play(state, "9c", "2s")
    state = play(state, "9s", "3s")
    state = resolve(state)
    assert state["spaces"]["foundation"]["won"]
    state = _finish_encounter_quickly(act(state, "travel", to="victory"))
    # back through the overcome Foundation: no draw, no encounter
    deck = len(state["minors"])
    state = act(state, "travel", to="foundation")
    assert state["position"] == "foundation" and state["phase"] == "travel"
    assert len(state["minors"]) == deck
    assert "again" in DO.view(state, 0)["tale"][-1]


def _finish_encounter_quickly(state):
    """Play the first legal plays until the encounter can be resolved, then answer every
    choice with its first option, until the next turn starts."""
    while state["phase"] != "travel":
        options = DO.legal_moves(state, 0)
        plays = [m for m in options if m["type"] == "play"]
        resolve = [m for m in options if m["type"] == "resolve"]
        enter = [m for m in options if m["type"] == "enter"]
        move = (plays or resolve or enter or options)[0]
        state = act(state, move.pop("type"), **move)
    return state


# --- encounters -------------------------------------------------------------------------------

def test_a_pip_equal_to_the_encountered_card_defeats_it():
    state = new(party="M0", hand=("6c", "2c", "3c"), draws=("4p", "5p"),
                stacks={"foundation": ["6s", "Ap"]})
    state = travel(state, "foundation")
    state = play(state, "6c", "6s")
    state = play(state, "2c", "Ap")
    state = resolve(state)
    assert state["spaces"]["foundation"]["won"]
    assert state["wounds"] == [None] * 4
    assert {"6c", "6s", "2c", "Ap"} <= set(state["minors_discard"])


def test_a_lower_pip_takes_a_wound_and_the_wound_draws_from_top_or_bottom():
    state = new(party="M0", hand=("2c", "3c", "4c"), draws=("4p",),
                stacks={"foundation": ["9s", "Ap"]})
    state = travel(state, "foundation")
    state = play(state, "2c", "9s")
    state = play(state, "3c", "Ap")
    state = resolve(state)
    assert state["wounds"] == ["2c", None, None, None]
    assert state["phase"] == "draw"
    bottom = state["minors"][-1]
    state = act(state, "draw_bottom")
    assert bottom in state["hand"] or bottom in state["party"]


def test_while_the_hand_lasts_every_encountered_card_must_be_answered():
    state = new(party="M0", hand=("2c", "3c", "4c"), stacks={"foundation": ["5s", "6s"]},
                draws=("8p",))
    state = travel(state, "foundation")
    assert not moves_of(state, "resolve")
    assert "every encountered card" in refused(state, {"type": "resolve"})
    state = play(state, "2c", "5s")
    assert not moves_of(state, "resolve")
    state = play(state, "3c", "6s")
    assert moves_of(state, "resolve")


def test_encountered_cards_beyond_the_hand_simply_remain_unbeaten():
    state = new(party="M0", hand=("9c", "2c", "3c"), stacks={"foundation": ["5s", "6s"]},
                draws=("8p", "7p"))
    state = travel(state, "foundation")
    # scenario: only the 9 of Cups is left in hand when the encounter begins
    state = DO.loads(DO.dumps(state))
    for card in ("2c", "3c", "8p"):
        state["hand"].remove(card)
        state["minors_discard"].insert(0, card)
    check(state)
    state = play(state, "9c", "5s")
    assert state["hand"] == [] and moves_of(state, "resolve")
    state = resolve(state)
    assert state["spaces"]["foundation"]["stack"] == ["6s"]  # unbeaten, back on its Sefira


def test_winning_a_sefira_encounter_takes_its_major_and_opens_its_neighbours():
    state = new(party="M0", spaces={"foundation": "M6"}, hand=("9c", "9s", "4c"),
                stacks={"foundation": ["2s", "3s"]}, draws=("5w", "6w"))
    state = travel(state, "foundation")
    state = play(state, "9c", "2s")
    state = play(state, "9s", "3s")
    state = resolve(state)
    assert "M6" in state["party"]
    assert state["spaces"]["foundation"] == {"major": None, "stack": [], "open": True, "won": True}
    assert state["spaces"]["spirit"]["open"]
    assert {"card": "M6", "from": "foundation"} in state["gained"]
    view = DO.view(state, 0)
    assert view["spaces"]["spirit"]["status"] == "attainable"
    assert view["spaces"]["spirit"]["major"] == state["spaces"]["spirit"]["major"]
    assert view["spaces"]["foundation"]["status"] == "won"
    assert state["phase"] == "travel" and state["encounter"] is None


def test_losing_a_sefira_encounter_puts_the_unbeaten_cards_back_on_their_sefira():
    state = new(party="M0", hand=("9c", "2c", "3c"), stacks={"spirit": ["8s", "2s", "9s"],
                "foundation": ["5s", "8p"]}, draws=("4w",))
    state = travel(state, "foundation")
    state = play(state, "9c", "5s")
    state = play(state, "2c", "8p")
    state = resolve(state)
    state = act(state, "draw_top")
    assert state["spaces"]["foundation"]["stack"] == ["8p"]
    assert not state["spaces"]["foundation"]["won"]
    assert state["spaces"]["foundation"]["major"] is not None
    assert DO.view(state, 0)["spaces"]["foundation"]["stack_top"] == "8p"


def test_a_lost_encounter_peeks_at_the_bottom_three_discards_one_and_orders_the_rest():
    state = new(party="M0", hand=("2c", "3c", "4c"), stacks={"foundation": ["9s", "8s"]},
                draws=("5w", "6w"))
    state = travel(state, "foundation")
    state = play(state, "2c", "9s")
    state = play(state, "3c", "8s")
    state = resolve(state)
    state = act(state, "draw_top")
    bottom = state["minors"][-3:]
    state = act(state, "draw_top")
    assert state["phase"] == "introspect"
    assert state["peek"] == bottom
    view = DO.view(state, 0)
    assert view["choice"]["cards"] == bottom
    assert DO.view(state, None)["choice"]["cards"] is None
    assert DO.view(state, None)["choice"]["count"] == 3
    state = act(state, "discard", card=bottom[1])
    assert state["minors_discard"][0] == bottom[1]
    assert state["phase"] == "order"
    state = act(state, "place", card=bottom[2])
    assert state["minors"][-2:] == [bottom[2], bottom[0]]  # the last placed is undermost


def _won_with_a_page():
    """A Sefira encounter won with two pips, one augmented by a Party Page, just resolved:
    five cards leave together (the usual order: pips, the court, the defeated, last on top)."""
    state = new(party="M9", hand=("Ps", "9c", "8s", "4c"), stacks={"foundation": ["2s", "9p"]},
                draws=("5w", "6w"))
    state = travel(state, "foundation")
    state = play(state, "9c", "2s")
    state = play(state, "8s", "9p")
    state = act(state, "augment", card="Ps", to=slot_of(state, "9p"))
    return act(state, "resolve")


def test_cards_leaving_an_encounter_together_wait_for_the_player_to_lay_them_down():
    # "Remember: you may discard cards in any order!"
    state = _won_with_a_page()
    assert state["phase"] == "discarding"
    waiting = ["9c", "8s", "Ps", "2s", "9p"]
    assert DO.zones(state)["discarding"] == waiting and state["minors_discard"] == []
    assert DO.legal_moves(state, 0) == ([{"type": "discard", "card": c} for c in waiting]
                                        + [{"type": "discard_rest"}])
    assert "6w" not in state["hand"]  # the draw after the encounter comes once they are down
    view = DO.view(state, 0)
    assert view["discarding"] == waiting and view["choice"]["kind"] == "discarding"
    assert "any order" in view["prompt"]
    # they were all on show in the encounter, so a spectator sees them too
    assert DO.view(state, None)["discarding"] == waiting


def test_the_order_chosen_is_the_order_on_the_pile_the_last_placed_on_top():
    state = _won_with_a_page()
    for card in ("2s", "Ps", "9p"):
        state = act(state, "discard", card=card)
        assert state["minors_discard"][0] == card
        assert {"type": "discard", "card": card} not in DO.legal_moves(state, 0)
    assert state["phase"] == "discarding"
    state = act(state, "discard", card="8s")  # the last one goes by itself
    assert state["minors_discard"] == ["9c", "8s", "9p", "Ps", "2s"]
    assert state["phase"] == "travel" and DO.zones(state)["discarding"] == []
    assert "6w" in state["hand"]


def test_a_power_taking_the_top_of_the_pile_takes_the_card_the_player_put_on_top():
    # The player lays the weakest cards on top, then The Magician swaps the Victory's
    # strong guardians for the top two of the discard pile.
    def won_at_foundation():
        state = new(party="M1", hand=("9c", "10s", "4c"), draws=("5w",),
                    stacks={"foundation": ["2s", "9p"], "victory": ["10w", "9w"]})
        state = travel(state, "foundation")
        state = play(state, "9c", "2s")
        state = play(state, "10s", "9p")
        return act(state, "resolve")

    state = won_at_foundation()
    state = act(state, "discard", card="9p")
    state = act(state, "discard", card="10s")
    state = act(state, "discard", card="9c")
    assert state["minors_discard"] == ["2s", "9c", "10s", "9p"]
    state = act(state, "power", card="M1", to="victory")
    assert state["spaces"]["victory"]["stack"] == ["2s", "9c"]
    assert DO.view(state, 0)["spaces"]["victory"]["stack_top"] == "2s"
    # laid down in the usual order, the Nine of Pentacles would have come off the top
    usual = act(act(won_at_foundation(), "discard_rest"), "power", card="M1", to="victory")
    assert usual["spaces"]["victory"]["stack"] == ["9p", "2s"]


def test_discard_rest_lays_the_cards_down_in_the_usual_order():
    # The usual order: judged pips in row order, then the Party courts played, then the
    # defeated encountered cards in row order, the last on top.
    state = act(_won_with_a_page(), "discard_rest")
    assert state["phase"] == "travel"
    assert state["minors_discard"] == ["9p", "2s", "Ps", "8s", "9c"]
    # after some chosen by hand, the rest keep their usual order above them
    state = act(act(_won_with_a_page(), "discard", card="9p"), "discard_rest")
    assert state["minors_discard"] == ["2s", "Ps", "8s", "9c", "9p"]


def test_a_single_card_to_discard_needs_no_choice():
    # The Fool's Ace comes back to the hand, so only the stranger's card is discarded.
    state = new(party="M0", hand=("Ac", "3c", "4c"), draws=("Nc", "6w", "8p"))
    state = act(state, "travel", to="victory")
    state = act(state, "power", card="M0")
    state = play(state, "Ac", "6w")
    state = act(state, "resolve")
    assert state["phase"] != "discarding"
    assert state["minors_discard"] == ["6w"] and "Ac" in state["hand"] and "Nc" in state["party"]


def test_discard_moves_are_refused_with_reasons_and_described_in_words():
    state = _won_with_a_page()
    assert "not among the cards waiting" in refused(state, {"type": "discard", "card": "4c"})
    assert "needs 'card'" in refused(state, {"type": "discard"})
    assert "names no card" in refused(state, {"type": "discard_rest", "card": "9c"})
    assert "Not now" in refused(state, {"type": "travel", "to": "victory"})
    assert DO.describe_move(state, 0, {"type": "discard", "card": "2s"}) == \
        "Discard the Two of Swords next"
    assert DO.describe_move(state, 0, {"type": "discard_rest"}) == \
        "Discard the 5 cards in the usual order (the Nine of Pentacles ends on top)"
    for card in ("2s", "Ps", "9p"):
        state = act(state, "discard", card=card)
    assert DO.describe_move(state, 0, {"type": "discard", "card": "8s"}) == \
        "Discard the Eight of Swords, then the Nine of Cups on top of it"
    state = act(state, "discard_rest")
    assert "No cards are waiting" in refused(state, {"type": "discard_rest"})


def test_a_game_saved_before_discards_were_ordered_still_loads():
    state = new()
    old = json.loads(DO.dumps(state))
    del old["discarding"]
    loaded = DO.loads(json.dumps(old))
    assert loaded["discarding"] == {"cards": [], "public": True}
    check(loaded)


def test_a_minor_is_drawn_after_every_encounter_and_a_court_joins_the_party():
    state = new(party="M0", hand=("9c", "9s", "4c"), stacks={"foundation": ["2s", "3s"]},
                draws=("5w", "Qw"))
    state = travel(state, "foundation")
    state = play(state, "9c", "2s")
    state = play(state, "9s", "3s")
    state = resolve(state)
    assert "Qw" in state["party"] and "Qw" not in state["hand"]


def test_an_empty_hand_outside_an_encounter_is_refilled_at_once():
    state = new(party="M0", hand=("9c", "9s", "4c"), stacks={"foundation": ["2s", "3s"]},
                draws=("5w", "Qw", "Kw", "6p"))
    state = travel(state, "foundation")
    state = play(state, "9c", "2s")
    state = play(state, "9s", "3s")
    state = DO.loads(DO.dumps(state))
    # scenario: the hand is spent (4c, 5w discarded) before resolving
    for card in list(state["hand"]):
        state["hand"].remove(card)
        state["minors_discard"].insert(0, card)
    state = resolve(state)
    # the after-encounter draw is a court (Party); the hand is still empty, so the refill
    # keeps drawing until a pip arrives
    assert [c for c in state["party"] if c[0] != "M"] == ["Qw", "Kw"]
    assert state["hand"] == ["6p"]


def test_the_discard_pile_becomes_the_deck_when_the_minors_deck_runs_out():
    state = new(party="M0", hand=("9c", "9s", "4c"), stacks={"foundation": ["2s", "3s"]})
    state = DO.loads(DO.dumps(state))
    # scenario: all but one card of the deck already discarded
    rest = state["minors"][1:]
    state["minors"] = state["minors"][:1]
    state["minors_discard"] = rest
    check(state)
    state = act(state, "travel", to="foundation")  # the travel draw empties the deck
    assert state["minors_discard"] == []
    assert sorted(state["minors"]) == sorted(rest)


# --- the Party --------------------------------------------------------------------------------

@pytest.mark.parametrize("courts, worth", [
    (["Ps"], 6), (["Ns"], 7), (["Qs"], 8), (["Ks"], 8),
    (["Ps", "Ks"], 12), (["Ks", "Ps"], 10), (["Ps", "Ns", "Qs"], 13),
])
def test_party_courts_augment_a_played_pip_in_the_order_placed(courts, worth):
    state = new(party="M0", hand=("4c", *courts, "2c", "3c"), stacks={"foundation": ["Kw", "Aw"]},
                draws=("5p",))
    assert [c for c in state["party"] if c != "M0"] == courts
    state = travel(state, "foundation")
    state = play(state, "4c", "Kw")
    assert not [m for m in moves_of(state, "augment") if m["to"] == slot_of(state, "Aw")]
    for court in courts:
        state = act(state, "augment", card=court, to=slot_of(state, "Kw"))
    assert DO.view(state, 0)["encounter"]["slots"][0]["strength"] == worth
    state = play(state, "2c", "Aw")
    state = settle(resolve(state))
    defeated = worth >= 10
    assert (state["wounds"][0] is None) == defeated
    # the courts are discarded after the encounter either way
    assert all(c in state["minors_discard"] for c in courts)


def test_a_party_court_wins_over_an_encountered_court_of_its_suit_or_rank():
    state = new(party="M0", hand=("Ns", "Qp", "2c", "3c", "4c"),
                stacks={"foundation": ["Kw", "Qc"]}, draws=("5p",))
    state = travel(state, "foundation")
    defeats = {(m["card"], m["to"]) for m in moves_of(state, "defeat")}
    assert defeats == {("Qp", slot_of(state, "Qc"))}  # same rank; Ns shares nothing
    state = act(state, "defeat", card="Qp", to=slot_of(state, "Qc"))
    assert state["encounter"]["slots"][1]["state"] == "defeated"
    # a defeated card is no longer there to be answered
    assert {m["to"] for m in moves_of(state, "play")} == {slot_of(state, "Kw")}


def test_a_court_of_the_same_suit_also_wins_over_an_encountered_court():
    state = new(party="M0", hand=("Pw", "2c", "3c", "4c"), stacks={"foundation": ["Kw", "5s"]},
                draws=("5p",))
    state = travel(state, "foundation")
    state = act(state, "defeat", card="Pw", to=slot_of(state, "Kw"))
    state = play(state, "4c", "5s")
    assert state["encounter"]["slots"][0]["state"] == "defeated"


@pytest.mark.parametrize("kind, end", [("assistance", "top"), ("inspiration", "bottom")])
def test_one_major_or_two_courts_buy_a_draw_from_the_top_or_the_bottom(kind, end):
    state = new(party="M4", hand=("Ps", "Pw", "2c", "3c", "4c"))
    expected = state["minors"][0 if end == "top" else -1]
    after = act(state, kind, card="M4")
    assert "M4" in after["majors_discard"] and "M4" not in after["party"]
    assert expected in after["hand"] + after["party"]
    # two courts: the first names the help, the second pays the rest
    paid = act(state, kind, card="Ps")
    assert paid["phase"] == "pay"
    assert [m["card"] for m in moves_of(paid, "pay")] == ["Pw"]
    paid = act(paid, "pay", card="Pw")
    assert paid["phase"] == "travel"
    assert {"Ps", "Pw"} <= set(paid["minors_discard"])
    assert expected in paid["hand"] + paid["party"]


def test_a_single_court_cannot_pay_for_help():
    state = new(party="M4", hand=("Ps", "2c", "3c", "4c"))
    assert {m["card"] for m in moves_of(state, "assistance")} == {"M4"}


def test_party_help_is_never_offered_during_an_encounter():
    state = new(party="M4", hand=("Ps", "Pw", "2c", "3c", "4c"), draws=("5p",))
    state = travel(state, "foundation")
    assert state["phase"] == "encounter"
    assert not moves_of(state, "assistance") and not moves_of(state, "inspiration")
    assert "Not now" in refused(state, {"type": "assistance", "card": "M4"})


# --- wounds, the Sun and Moon, the end --------------------------------------------------------

def test_the_fourth_wound_ends_the_game_in_defeat():
    state = new(party="M0", hand=("2c", "3c", "4c"),
                stacks={"foundation": ["9s", "8s"], "victory": ["9p", "8p"]},
                draws=("Ac", "5c", "6c", "7c", "As", "5s"))
    state = travel(state, "foundation")  # road: Ac
    state = play(state, "2c", "9s")
    state = play(state, "3c", "8s")
    state = settle(resolve(state))  # two wounds, drawing 5c and 6c; after: 7c
    assert state["wounds"] == ["2c", "3c", None, None]
    assert state["hand"] == ["4c", "Ac", "5c", "6c", "7c"]
    state = travel(state, "victory")  # road: As
    state = play(state, "Ac", "9p")
    state = play(state, "4c", "8p")
    state = resolve(state)
    state = act(state, "draw_top")  # the third wound's draw; the fourth ends it
    outcome = DO.outcome(state)
    assert outcome["result"] == "loss" and outcome["winners"] == []
    assert "Wound Fields are full" in outcome["reason"]
    assert all(state["wounds"])
    assert DO.to_act(state) == [] and DO.legal_moves(state, 0) == []
    assert "over" in refused(state, {"type": "travel", "to": "victory"})
    assert "fourth wound" in DO.view(state, 0)["tale"][-1]


def _to_the_crown(**extra):
    """A stacked journey root -> Foundation -> Spirit -> Knowledge -> Crown, every card
    answered by a higher pip; returns the state on arrival at the Crown."""
    state = new(
        spaces={"crown": "M17", "foundation": "M3", "spirit": "M5", "knowledge": "M1",
                **extra.pop("spaces", {})},
        party=extra.pop("party", "M9"),
        stacks={"foundation": ["2c", "3c"], "spirit": ["2s", "3s", "4s"],
                "knowledge": ["4p", "5p", "6p"], "crown": ["2w", "3w", "4w", "5w"]},
        hand=("10c", "10s", "10p"),
        draws=("10w", "9c", "9s", "9p", "9w", "8c", "8s", "7c", "7s", "6c"), **extra)
    state = travel(state, "foundation")  # road: 10w
    state = play(state, "10c", "2c")
    state = play(state, "10s", "3c")
    state = resolve(state)  # after: 9c
    state = travel(state, "spirit")  # road: 9s
    state = play(state, "10p", "2s")
    state = play(state, "10w", "3s")
    state = play(state, "9c", "4s")
    state = resolve(state)  # after: 9p
    state = travel(state, "knowledge")  # road: 9w
    state = play(state, "9s", "4p")
    state = play(state, "9p", "5p")
    state = play(state, "9w", "6p")
    state = resolve(state)  # after: 8c
    state = act(state, "travel", to="crown")  # road: 8s
    assert state["phase"] == "arrive"
    return state


def test_overcoming_the_crown_wins_the_journey():
    state = _to_the_crown()
    assert state["hand"] == ["8c", "8s"]
    # two Majors won on the way each buy a draw before the Crown's four guardians
    state = act(state, "assistance", card="M3")
    state = act(state, "assistance", card="M5")
    assert state["hand"] == ["8c", "8s", "7c", "7s"]
    state = act(state, "enter")
    for pip, guard in zip(["8c", "8s", "7c", "7s"], ["2w", "3w", "4w", "5w"]):
        state = play(state, pip, guard)
    state = resolve(state)
    outcome = DO.outcome(state)
    assert outcome == {"result": "win", "winners": [0], "scores": [4],
                       "reason": "You overcame the Crown and met The Star: the journey is complete."}
    assert state["spaces"]["crown"]["major"] == "M17"
    assert DO.legal_moves(state, 0) == []
    # with the game over no order is asked: the encounter's cards go down as usual
    assert DO.zones(state)["discarding"] == []
    assert state["minors_discard"][:8] == ["5w", "4w", "3w", "2w", "7s", "7c", "8s", "8c"]
    reading = DO.reading(state)
    assert reading["crown"]["card"] == "M17" and reading["complete"]
    assert [g["card"] for g in reading["majors_gained"]] == ["M9", "M3", "M5", "M1"]
    assert reading["cards"] == ["M17", "M9", "M3", "M5", "M1"]
    assert reading["seal"] == {"min": 2, "max": 5}
    assert "blessing" in reading["tale"][-1]


def test_party_cards_used_at_the_crown_are_part_of_the_reading():
    state = _to_the_crown(party="M0")
    state = act(state, "enter") if state["phase"] == "arrive" else state
    state = act(state, "power", card="M0")  # the Fool helps at the Crown
    state = play(state, "8c", "5w")
    state = play(state, "8s", "4w")
    state = resolve(state)  # two guardians stand: the Crown is not won yet
    assert DO.outcome(state) is None
    assert state["crown_party"] == ["M0"]
    assert DO.reading(state)["crown_party"] == ["M0"]
    assert DO.reading(state)["cards"][:2] == ["M17", "M0"]


@pytest.mark.parametrize("space, light", [("sun", "sunlight"), ("moon", "moonlight")])
def test_overcoming_the_sun_or_moon_space_also_draws_a_major(space, light):
    state = new(party="M0", spaces={space: "M19" if space == "sun" else "M18"},
                majors_after=("M21",), hand=("9c", "9s", "4c"),
                stacks={space: ["2s", "3s"]}, draws=("5w", "6w"))
    state = DO.loads(DO.dumps(state))
    # scenario: the way to the space is already open and the player stands beside it
    neighbour = "understanding" if space == "sun" else "wisdom"
    state["spaces"][space]["open"] = True
    state["spaces"][neighbour]["open"] = True
    state["position"] = neighbour
    check(state)
    state = travel(state, space)
    state = play(state, "9c", "2s")
    state = play(state, "9s", "3s")
    state = resolve(state)
    assert state["party"][:3] == ["M0", "M19" if space == "sun" else "M18", "M21"]
    assert {"card": "M21", "from": f"{space} reward"} in state["gained"]
    assert light in " ".join(DO.view(state, 0)["tale"])


# --- hidden information -------------------------------------------------------------------------

def test_only_the_top_card_of_an_attainable_stack_is_visible():
    state = new(stacks={"foundation": ["7w", "8w"], "spirit": ["Ac", "As", "Ap"]})
    view = DO.view(state, 0)
    assert view["spaces"]["foundation"]["stack_top"] == "7w"
    assert view["spaces"]["foundation"]["stack_count"] == 2
    assert view["spaces"]["spirit"]["stack_top"] is None
    assert view["spaces"]["spirit"]["stack_count"] == 3
    assert not {"8w", "Ac", "As", "Ap"} & codes_in(view)


def test_face_down_majors_and_both_decks_are_hidden_as_counts():
    state = new()
    view = DO.view(state, 0)
    hidden = set(state["minors"]) | set(state["majors"])
    hidden |= {state["spaces"][s]["major"] for s in SPACES
               if not state["spaces"][s]["open"] and s != "crown"}
    assert not hidden & codes_in(view)
    assert view["minors_deck_count"] == len(state["minors"])
    assert view["majors_deck_count"] == len(state["majors"])


def test_a_spectator_sees_the_table_but_not_the_hand():
    state = new(hand=("5c", "6c", "7c"))
    view = DO.view(state, None)
    assert view["hand"] is None and view["hand_count"] == 3
    assert view["prompt"] is None
    assert not {"5c", "6c", "7c"} & codes_in(view)
    assert DO.view(state, 0)["hand"] == ["5c", "6c", "7c"]


def test_a_seat_that_is_not_in_the_game_gets_nothing():
    state = new()
    with pytest.raises(ValueError, match="one seat"):
        DO.view(state, 1)
    assert DO.legal_moves(state, 1) == []
    assert "not your turn" in refused_for_seat(state, 1)


def refused_for_seat(state, seat):
    from games.engine import IllegalMove
    with pytest.raises(IllegalMove) as error:
        DO.apply(state, seat, {"type": "travel", "to": "victory"})
    return str(error.value)


def test_road_draws_are_told_to_the_player_and_kept_from_spectators():
    state = new(draws=("9w",))
    state = act(state, "travel", to="victory")
    assert "Nine of Wands" in DO.view(state, 0)["tale"][-1]
    assert "Nine of Wands" not in " ".join(DO.view(state, None)["tale"])


def test_a_spectator_reads_only_the_public_tale_even_once_the_game_is_over():
    state = new(draws=("9w",))
    state = act(state, "travel", to="victory")
    state = DO.loads(DO.dumps(state))
    state["result"] = {"result": "loss", "reason": "scenario: the journey ends here"}
    state["phase"] = "over"
    player, spectator = DO.view(state, 0), DO.view(state, None)
    assert "Nine of Wands" in " ".join(player["reading"]["tale"])
    assert spectator["reading"]["tale"] == spectator["tale"]
    assert "Nine of Wands" not in " ".join(spectator["reading"]["tale"])
    assert DO.reading(state)["tale"] == player["tale"]  # the journal keeps the full story


# --- the Unfolding Tale -----------------------------------------------------------------------

def test_the_tale_names_the_place_from_the_hosted_major_and_the_world_type():
    state = new(spaces={"crown": "M13", "foundation": "M2"}, party="M0",
                stacks={"foundation": ["5s", "Qc"]}, draws=("9w",))
    state = travel(state, "foundation")
    line = DO.view(state, 0)["tale"][-1]
    assert LANDSCAPES["M13"] == ("Plague town", "City")
    assert PLACES["M2"]["City"] in line  # Seer's temple
    assert COURT_PEOPLE["Qc"]["City"].lower() in line  # a confessor
    assert "The High Priestess" in line


def test_the_tale_names_the_people_met_on_the_road():
    state = new(spaces={"crown": "M7"}, party="M0", draws=("Ks", "6w"))
    state = act(state, "travel", to="victory")
    assert COURT_PEOPLE["Ks"]["Waste"].lower() in DO.view(state, 0)["tale"][-1]


def test_the_tale_grows_one_line_per_event_and_is_kept_for_the_journal():
    state = new(party="M0", hand=("9c", "9s", "4c"), stacks={"foundation": ["2s", "3s"]},
                draws=("5w", "6w"))
    before = len(state["tale"])
    state = travel(state, "foundation")
    state = play(state, "9c", "2s")
    state = play(state, "9s", "3s")
    state = resolve(state)
    lines = DO.view(state, 0)["tale"][before:]
    assert lines[0].startswith("You set out from the root toward the Foundation")
    assert any("overcomes the Two of Swords" in line for line in lines)
    assert any("is overcome" in line for line in lines)
    assert DO.reading(state)["tale"] == DO.view(state, 0)["tale"]


# --- the contract -----------------------------------------------------------------------------

@pytest.mark.parametrize("move, words", [
    ("travel", "object"),
    ({}, "type"),
    ({"type": 3}, "type"),
    ({"type": "travel", "to": "victory", "speed": 2}, "speed"),
    ({"type": "fly", "to": "crown"}, "Not now"),
    ({"type": "travel"}, "needs 'to'"),
    ({"type": "travel", "to": ["victory"]}, "string"),
    ({"type": "power", "card": "M3"}, "not in your Party"),
    ({"type": "power", "card": "M99"}, "not a card"),
    ({"type": "assistance", "card": "Kc"}, "not in your Party"),
])
def test_malformed_or_illegal_moves_are_refused_and_change_nothing(move, words):
    state = new(party="M9")
    assert words in refused(state, move)


def test_encounter_moves_are_refused_with_reasons():
    state = new(party="M9", hand=("2c", "3c", "4c"), stacks={"foundation": ["9s", "8s"]},
                draws=("5w",))
    state = travel(state, "foundation")
    assert "not in your hand" in refused(state, {"type": "play", "card": "9c", "to": "encounter:0"})
    assert "encounter:0" in refused(state, {"type": "play", "card": "2c", "to": "encounter:7"})
    assert "encounter:0" in refused(state, {"type": "play", "card": "2c", "to": "foundation"})
    assert "Not now" in refused(state, {"type": "travel", "to": "victory"})
    assert "cannot be used during an encounter" in refused(state, {"type": "power", "card": "M9"})
    assert "not in your Party" in refused(state, {"type": "augment", "card": "Kc", "to": "encounter:0"})
    state = play(state, "2c", "9s")
    assert "already been answered" in refused(state, {"type": "play", "card": "3c", "to": "encounter:0"})


def test_moves_are_described_in_words():
    state = new(party="M9", draws=("5w",))
    words = {DO.describe_move(state, 0, m) for m in DO.legal_moves(state, 0)}
    assert "Travel to Victory" in words
    assert any(w.startswith("The Hermit (Inner knowledge)") for w in words)
    assert "Discard The Hermit to seek assistance (draw from the top)" in words


def test_a_game_replays_to_identical_text_from_its_seed_and_moves():
    state = DO.new_game(11, 1, {})
    record = []
    while DO.outcome(state) is None and len(record) < 400:
        move = DO.legal_moves(state, 0)[len(record) % len(DO.legal_moves(state, 0))]
        record.append((0, move))
        state = DO.apply(state, 0, move)
    assert DO.dumps(DO.replay(11, 1, {}, record)) == DO.dumps(state)
    assert DO.dumps(DO.loads(DO.dumps(state))) == DO.dumps(state)


def test_apply_never_changes_the_given_state():
    state = new(draws=("9w",))
    before = DO.dumps(state)
    DO.apply(state, 0, {"type": "travel", "to": "victory"})
    assert DO.dumps(state) == before


def test_stacking_the_discard_in_a_scenario_keeps_every_card():
    state = discard_pile(new(), "Kc", "Kw")
    assert state["minors_discard"] == ["Kc", "Kw"]
