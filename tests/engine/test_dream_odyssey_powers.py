"""The 22 Major powers of Dream Odyssey, each in at least one stacked-deck scenario.

How each unclear power is read is written down in games/engine/dream_odyssey/notes.md; the
tests below pin those readings.  Every move goes through ``act``, which also proves the 78
cards are conserved and that no view shows a hidden card (peeked cards included).
"""

from __future__ import annotations

import pytest

from games.engine.dream_odyssey.tables import POWERS, TIMING

from .dream_odyssey_support import (DO, act, check, discard_pile, laid_down, moves_of, new, play,
                                    powers, refused, resolve, settle, slot_of, slots, travel)


def test_every_major_has_a_power_and_a_timing():
    assert sorted(POWERS, key=lambda m: int(m[1:])) == [f"M{n}" for n in range(22)]
    assert set(TIMING) == set(POWERS)


def test_a_used_major_is_discarded():
    state = new(party="M9")
    state = act(state, "power", card="M9")
    assert "M9" not in state["party"] and state["majors_discard"] == ["M9"]


def test_encounter_powers_are_offered_only_in_encounters_and_outside_powers_only_outside():
    state = new(party="M0", draws=("9w",))
    assert not powers(state, "M0")
    assert "only during an encounter" in refused(state, {"type": "power", "card": "M0"})
    state = travel(state, "victory")
    assert powers(state, "M0")
    state = new(party="M9", draws=("9w",))
    assert powers(state, "M9")
    state = travel(state, "victory")
    assert not powers(state, "M9")


# --- 0 The Fool ---------------------------------------------------------------------------------

def test_the_fool_makes_aces_worth_eleven_and_returns_them_to_the_hand():
    state = new(party="M0", hand=("Ac", "As", "2c"), stacks={"foundation": ["9s", "Kw"]},
                draws=("4p", "5p"))
    state = travel(state, "foundation")
    state = play(state, "Ac", "9s")
    state = play(state, "As", "Kw")
    state = act(state, "power", card="M0")  # after the plays: it still counts
    assert [s["strength"] for s in DO.view(state, 0)["encounter"]["slots"]] == [11, 11]
    assert not powers(state, "M0")  # once
    state = resolve(state)
    assert state["spaces"]["foundation"]["won"]
    assert {"Ac", "As"} <= set(state["hand"])
    assert "M0" in state["majors_discard"]


# --- I The Magician -----------------------------------------------------------------------------

def test_the_magician_swaps_a_stack_for_the_top_of_the_discard_pile():
    state = new(party="M1", stacks={"foundation": ["9s", "8s"]}, draws=("2w", "3w", "4w"))
    state = discard_pile(state, "2w", "3w", "4w")
    targets = {m["to"] for m in powers(state, "M1")}
    assert "foundation" in targets and "spirit" in targets  # 2 and 3 cards: the pile has 3
    assert "crown" not in targets  # 4 cards: the pile is too small
    state = act(state, "power", card="M1", to="foundation")
    assert state["spaces"]["foundation"]["stack"] == ["2w", "3w"]
    # the old stack waits to be discarded; the usual order keeps its top card on top
    assert state["phase"] == "discarding" and state["minors_discard"] == ["4w"]
    state = act(state, "discard_rest")
    assert state["minors_discard"] == ["9s", "8s", "4w"]
    assert DO.view(state, 0)["spaces"]["foundation"]["stack_top"] == "2w"


def test_the_magicians_discarded_stack_is_laid_down_in_the_players_order_unseen_by_others():
    state = new(party="M1", stacks={"foundation": ["9s", "8s"]}, draws=("2w", "3w", "4w"))
    state = discard_pile(state, "2w", "3w", "4w")
    state = act(state, "power", card="M1", to="foundation")
    assert DO.view(state, 0)["discarding"] == ["8s", "9s"]
    # the stack lay face down under its top card: a spectator learns only how many
    spectator = DO.view(state, None)
    assert spectator["discarding"] is None and spectator["discarding_count"] == 2
    state = act(state, "discard", card="9s")
    assert state["minors_discard"] == ["8s", "9s", "4w"] and state["phase"] == "travel"


def test_the_magician_needs_as_many_discards_as_the_stack_holds():
    state = new(party="M1")
    assert not powers(state, "M1")
    assert "cannot be used now" in refused(state, {"type": "power", "card": "M1", "to": "foundation"})


# --- II The High Priestess ----------------------------------------------------------------------

def test_the_high_priestess_keeps_two_of_the_bottom_three_of_the_deck():
    state = new(party="M2", bottom=("5w", "6w", "7w"))
    assert [m["to"] for m in powers(state, "M2")] == ["deck:minors"]  # the discard is empty
    state = act(state, "power", card="M2", to="deck:minors")
    assert state["phase"] == "priestess"
    assert DO.view(state, 0)["choice"]["cards"] == ["5w", "6w", "7w"]
    assert DO.view(state, None)["choice"]["cards"] is None
    state = act(state, "replace", card="6w")
    assert state["minors"][-1] == "6w"
    assert {"5w", "7w"} <= set(state["hand"])
    assert state["phase"] == "travel" and DO.view(state, 0)["choice"] is None


def test_the_high_priestess_may_search_the_bottom_of_the_discard_pile():
    state = new(party="M2", draws=("5w", "6w", "7w", "8w"))
    state = discard_pile(state, "8w", "5w", "6w", "7w")
    state = act(state, "power", card="M2", to="discard:minors")
    assert state["peek"] == ["5w", "6w", "7w"]
    state = act(state, "replace", card="5w")
    assert state["minors_discard"] == ["8w", "5w"]
    assert {"6w", "7w"} <= set(state["hand"])


# --- III The Empress ----------------------------------------------------------------------------

def test_the_empress_keeps_one_of_the_bottom_three_and_plants_the_others_on_top():
    state = new(party="M3", bottom=("5w", "6w", "7w"))
    state = act(state, "power", card="M3")
    assert state["phase"] == "keep" and state["peek"] == ["5w", "6w", "7w"]
    state = act(state, "keep", card="6w")
    assert "6w" in state["hand"]
    assert state["phase"] == "order"
    state = act(state, "place", card="5w")  # then 7w goes on top of it by itself
    assert state["minors"][:2] == ["7w", "5w"]
    assert DO.view(state, 0)["minors_deck_count"] == len(state["minors"])
    state = act(state, "travel", to="victory")
    assert "7w" in state["hand"]  # the planted card is the next draw


# --- IV The Emperor -----------------------------------------------------------------------------

def test_the_emperor_takes_an_encountered_court_into_the_party():
    state = new(party="M4", stacks={"foundation": ["Kw", "3s"]}, hand=("4c", "5c", "6c"),
                draws=("9w", "8w"))
    state = travel(state, "foundation")
    assert [m["to"] for m in powers(state, "M4")] == [slot_of(state, "Kw")]  # courts only
    state = act(state, "power", card="M4", to=slot_of(state, "Kw"))
    assert "Kw" in state["party"]
    state = play(state, "4c", "3s")
    state = resolve(state)
    assert state["spaces"]["foundation"]["won"]  # nothing was left unbeaten


# --- V The Hierophant ---------------------------------------------------------------------------

def test_the_hierophant_keeps_up_to_two_played_pips():
    state = new(party="M5", hand=("9c", "9s", "4c"), stacks={"foundation": ["2s", "3s"]},
                draws=("5w", "6w"))
    state = travel(state, "foundation")
    assert not powers(state, "M5")  # nothing played yet
    state = play(state, "9c", "2s")
    state = play(state, "9s", "3s")
    assert [m["cards"] for m in powers(state, "M5")] == [["9c"], ["9s"], ["9c", "9s"]]
    state = act(state, "power", card="M5", cards=["9s", "9c"])  # any order is understood
    state = resolve(state)
    assert {"9c", "9s"} <= set(state["hand"])
    assert "9c" not in state["minors_discard"] and "2s" in state["minors_discard"]


# --- VI The Lovers ------------------------------------------------------------------------------

def test_the_lovers_trade_a_hand_card_for_an_encountered_card_of_its_suit():
    state = new(party="M6", hand=("2s", "4c", "5c"), stacks={"foundation": ["8s", "3p"]},
                draws=("9w", "6w"))
    state = travel(state, "foundation")
    offered = powers(state, "M6")
    assert offered == [{"type": "power", "card": "M6", "cards": ["2s"], "to": slot_of(state, "8s")}]
    state = act(state, "power", card="M6", cards=["2s"], to=slot_of(state, "8s"))
    assert "8s" in state["hand"] and state["minors_discard"][0] == "2s"
    state = play(state, "4c", "3p")
    state = resolve(state)
    assert state["spaces"]["foundation"]["won"]


# --- VII The Chariot ----------------------------------------------------------------------------

def test_the_chariot_flees_an_encounter_before_any_card_is_played():
    state = new(party="M7", hand=("2c", "3c", "4c"), stacks={"foundation": ["9s", "8s"]},
                draws=("5w", "6w"))
    state = travel(state, "foundation")
    state = act(state, "power", card="M7")
    assert state["phase"] == "travel" and state["encounter"] is None
    assert state["spaces"]["foundation"]["stack"] == ["9s", "8s"]
    assert state["wounds"] == [None] * 4
    assert "6w" in state["hand"]  # the draw after the encounter still comes
    assert state["position"] == "foundation"


def test_the_chariot_is_not_offered_once_a_card_is_played():
    state = new(party="M7", hand=("2c", "3c", "4c"), stacks={"foundation": ["9s", "8s"]},
                draws=("5w", "6w"))
    state = travel(state, "foundation")
    state = play(state, "2c", "9s")
    assert not powers(state, "M7")


def _lose_at_foundation(state):
    """Travel to the Foundation, answer its 9 of Swords with the 2 of Cups and its Ace of
    Wands with the 3, and resolve: the encounter is lost.  The deal must hold those cards."""
    state = travel(state, "foundation")
    state = play(state, "2c", "9s")
    state = play(state, "3c", "Aw")
    return resolve(state)


# --- VIII Strength ------------------------------------------------------------------------------

def _wounded(party, **deal):
    """Lose one card at the Foundation: the 2 of Cups becomes a wound."""
    state = new(party=party, hand=("2c", "3c", "4c"), stacks={"foundation": ["9s", "Aw"]},
                draws=("5w", "6w", "7w"), **deal)
    return settle(_lose_at_foundation(state))


def test_strength_takes_a_wound_back_into_the_hand():
    state = _wounded("M8")
    assert state["wounds"][0] == "2c"
    state = act(state, "power", card="M8", cards=["2c"])
    assert state["wounds"] == [None] * 4 and "2c" in state["hand"]


# --- IX The Hermit ------------------------------------------------------------------------------

def test_the_hermit_draws_two_each_from_the_top_or_the_bottom():
    state = new(party="M9", draws=("5w",), bottom=("6w",))
    state = act(state, "power", card="M9")
    assert state["phase"] == "draw"
    state = act(state, "draw_top")
    state = act(state, "draw_bottom")
    assert state["hand"][-2:] == ["5w", "6w"] and state["phase"] == "travel"


# --- X Wheel of Fortune -------------------------------------------------------------------------

def test_the_wheel_of_fortune_redraws_the_hand_and_fills_it_to_three():
    state = new(party="M10", hand=("2c", "3c", "4c"), draws=("5w", "Qw", "6w", "7w"))
    state = act(state, "power", card="M10")
    # the hand waits to be discarded before the new cards are drawn
    assert state["phase"] == "discarding" and state["hand"] == []
    assert DO.view(state, 0)["discarding"] == ["2c", "3c", "4c"]
    assert DO.view(state, None)["discarding"] is None  # the hand was never on show
    state = act(state, "discard_rest")
    assert state["minors_discard"][:3] == ["4c", "3c", "2c"]
    # three drawn (one a court, to the Party), then on until three are in hand
    assert state["hand"] == ["5w", "6w", "7w"] and "Qw" in state["party"]


# --- XI Justice ---------------------------------------------------------------------------------

def test_justice_prevents_a_wound():
    state = new(party="M11", hand=("2c", "3c", "4c"), stacks={"foundation": ["9s", "Aw"]},
                draws=("5w", "6w"))
    state = _lose_at_foundation(state)
    assert state["phase"] == "guard" and state["choice"]["threat"] == "wound"
    assert moves_of(state, "pass")
    state = act(state, "power", card="M11")
    assert state["wounds"] == [None] * 4 and "2c" in state["discarding"]["cards"]
    state = laid_down(state)
    assert "2c" in state["minors_discard"]
    assert state["phase"] == "introspect"  # still a lost encounter; no wound draw came


def test_justice_may_be_kept_and_the_wound_taken():
    state = new(party="M11", hand=("2c", "3c", "4c"), stacks={"foundation": ["9s", "Aw"]},
                draws=("5w", "6w"))
    state = _lose_at_foundation(state)
    state = act(state, "pass")
    assert state["wounds"][0] == "2c" and state["phase"] == "draw"
    assert "M11" in state["party"]


def test_justice_keeps_a_party_court_from_the_discard():
    state = new(party="M11", hand=("Ps", "4c", "5c", "6c"), stacks={"foundation": ["6s", "2s"]},
                draws=("5w", "6w"))
    state = travel(state, "foundation")
    state = play(state, "4c", "6s")
    state = act(state, "augment", card="Ps", to=slot_of(state, "6s"))
    state = play(state, "5c", "2s")
    state = resolve(state)
    assert state["phase"] == "guard" and state["choice"] == {
        "kind": "guard", "threat": "court", "source": "slot", "slot": 0, "card": "Ps"}
    state = act(state, "power", card="M11")
    assert "Ps" in state["party"] and "Ps" not in state["minors_discard"]
    assert state["spaces"]["foundation"]["won"]


def test_justice_can_stop_the_fourth_wound():
    state = new(party="M11", hand=("2c", "3c", "4c"), stacks={"foundation": ["9s", "Aw"]},
                draws=("5w", "6w"), bottom=("7p", "8p", "9p"))
    state = DO.loads(DO.dumps(state))
    # scenario: three wounds already taken
    for i, card in enumerate(("7p", "8p", "9p")):
        state["minors"].remove(card)
        state["wounds"][i] = card
    check(state)
    state = _lose_at_foundation(state)
    assert state["phase"] == "guard"
    state = act(state, "power", card="M11")
    assert DO.outcome(state) is None and state["wounds"][3] is None


# --- XII The Hanged Man -------------------------------------------------------------------------

def test_the_hanged_man_sacrifices_a_card_for_three_from_top_or_bottom():
    state = new(party="M12", hand=("2c", "3c", "4c"), draws=("5w", "6w"), bottom=("7w",))
    assert {m["cards"][0] for m in powers(state, "M12")} == {"2c", "3c", "4c"}
    state = act(state, "power", card="M12", cards=["3c"])
    assert state["minors_discard"] == ["3c"]
    state = act(state, "draw_top")
    state = act(state, "draw_bottom")
    state = act(state, "draw_top")
    assert state["hand"] == ["2c", "4c", "5w", "7w", "6w"]


# --- XIII Death ---------------------------------------------------------------------------------

def test_death_lays_a_wound_to_rest_and_keeps_one_of_the_top_four_discards():
    state = _wounded("M13")
    top = state["minors_discard"][:3]
    state = act(state, "power", card="M13", cards=["2c"])
    assert state["wounds"] == [None] * 4
    assert state["peek"] == ["2c", *top]  # the wound joined the pile first
    assert DO.view(state, 0)["choice"]["cards"] == state["peek"]
    state = act(state, "keep", card=top[1])
    assert top[1] in state["hand"] + state["party"]
    assert state["minors_discard"][:3] == ["2c", top[0], top[2]]  # the rest as they lay


# --- XIV Temperance -----------------------------------------------------------------------------

def test_temperance_discards_an_encountered_card():
    state = new(party="M14", hand=("2c", "3c", "4c"), stacks={"foundation": ["9s", "Aw"]},
                draws=("5w", "6w"))
    state = travel(state, "foundation")
    state = act(state, "power", card="M14", to=slot_of(state, "9s"))
    assert state["minors_discard"][0] == "9s"
    assert [m["to"] for m in moves_of(state, "play")][:1] == [slot_of(state, "Aw")]
    state = play(state, "2c", "Aw")
    state = resolve(state)
    assert state["spaces"]["foundation"]["won"]


# --- XV The Devil -------------------------------------------------------------------------------

def test_the_devil_gives_two_cards_and_a_wound():
    state = new(party="M15", draws=("5w", "Qw", "7w"))
    state = act(state, "power", card="M15")
    assert state["phase"] == "bargain" and state["peek"] == ["5w", "Qw", "7w"]
    state = act(state, "wound", card="7w")
    assert state["wounds"][0] == "7w"
    assert "5w" in state["hand"] and "Qw" in state["party"]
    assert state["phase"] == "travel"  # no draw follows this wound: it was no failed play


# --- XVI The Tower ------------------------------------------------------------------------------

def test_the_tower_gives_up_a_party_card_to_defeat_two_encountered_cards():
    state = new(party="M16", hand=("Ps", "2c", "3c", "4c"), stacks={"foundation": ["9s", "8s"]},
                draws=("5w", "6w"))
    state = travel(state, "foundation")
    assert [m["cards"] for m in powers(state, "M16")] == [["Ps"]]
    state = act(state, "power", card="M16", cards=["Ps"])
    assert "Ps" in state["minors_discard"] and state["phase"] == "tower"
    assert not moves_of(state, "done")  # at least one falls
    state = act(state, "target", to=slot_of(state, "9s"))
    assert moves_of(state, "done")
    state = act(state, "target", to=slot_of(state, "8s"))
    assert state["phase"] == "encounter" and moves_of(state, "resolve")
    state = resolve(state)
    assert state["spaces"]["foundation"]["won"]
    assert state["hand"][:3] == ["2c", "3c", "4c"]


def test_the_tower_may_stop_after_one():
    state = new(party="M16", hand=("Ps", "2c", "3c", "4c"), stacks={"foundation": ["9s", "8s"]},
                draws=("5w", "6w"))
    state = travel(state, "foundation")
    state = act(state, "power", card="M16", cards=["Ps"])
    state = act(state, "target", to=slot_of(state, "8s"))
    state = act(state, "done")
    assert state["phase"] == "encounter"
    assert [s["state"] for s in state["encounter"]["slots"]] == ["open", "defeated"]


# --- XVII The Star ------------------------------------------------------------------------------

def test_the_star_takes_a_card_just_defeated():
    state = new(party="M17", hand=("9c", "10c", "4c"), stacks={"foundation": ["2s", "Kw"]},
                draws=("5w", "6w"))
    state = travel(state, "foundation")
    state = play(state, "9c", "2s")
    state = play(state, "10c", "Kw")
    state = resolve(state)
    assert state["phase"] == "hope"
    assert [m.get("cards") for m in DO.legal_moves(state, 0)] == [["2s"], ["Kw"], None]
    state = laid_down(act(state, "power", card="M17", cards=["Kw"]))
    assert "Kw" in state["party"] and "2s" in state["minors_discard"]
    assert state["spaces"]["foundation"]["won"]


def test_the_star_may_be_kept_for_later():
    state = new(party="M17", hand=("9c", "10c", "4c"), stacks={"foundation": ["2s", "Kw"]},
                draws=("5w", "6w"))
    state = travel(state, "foundation")
    state = play(state, "9c", "2s")
    state = play(state, "10c", "Kw")
    state = resolve(state)
    state = laid_down(act(state, "pass"))
    assert "M17" in state["party"] and "Kw" in state["minors_discard"]


# --- XVIII The Moon -----------------------------------------------------------------------------

def test_the_moon_keeps_one_of_the_bottom_four_and_returns_the_rest_beneath():
    state = new(party="M18", bottom=("5w", "6w", "7w", "8w"))
    state = act(state, "power", card="M18")
    assert state["peek"] == ["5w", "6w", "7w", "8w"]
    state = act(state, "keep", card="6w")
    state = act(state, "place", card="8w")
    state = act(state, "place", card="5w")
    assert state["minors"][-3:] == ["8w", "5w", "7w"]  # the last placed is undermost
    assert "6w" in state["hand"]


# --- XIX The Sun --------------------------------------------------------------------------------

def test_the_sun_takes_one_of_the_top_four_discards_and_puts_the_rest_under_the_deck():
    state = new(party="M19", draws=("5w", "6w", "7w", "8w"))
    assert not powers(state, "M19")  # needs four discards
    state = discard_pile(state, "5w", "6w", "7w", "8w")
    state = act(state, "power", card="M19")
    assert state["peek"] == ["5w", "6w", "7w", "8w"] and state["minors_discard"] == []
    state = act(state, "keep", card="5w")
    state = act(state, "place", card="6w")
    state = act(state, "place", card="7w")
    assert state["minors"][-3:] == ["6w", "7w", "8w"]


# --- XX The Gate --------------------------------------------------------------------------------

def test_the_gate_discards_the_bottom_card_then_takes_any_discard():
    state = new(party="M20", draws=("9w",), bottom=("5w",))
    state = discard_pile(state, "9w")
    state = act(state, "power", card="M20")
    assert state["minors_discard"] == ["5w", "9w"] and state["phase"] == "gate"
    assert [m["card"] for m in moves_of(state, "take")] == ["5w", "9w"]
    state = act(state, "take", card="9w")
    assert "9w" in state["hand"] and state["minors_discard"] == ["5w"]


# --- XXI The World ------------------------------------------------------------------------------

def test_the_world_keeps_one_of_the_top_four_and_returns_the_rest_on_top():
    state = new(party="M21", draws=("5w", "6w", "7w", "8w"))
    state = act(state, "power", card="M21")
    assert state["peek"] == ["5w", "6w", "7w", "8w"]
    assert DO.view(state, None)["choice"] == {"kind": "keep", "prompt": "Choose the card to keep.",
                                              "power": "M21", "rest": "top", "cards": None,
                                              "count": 4}
    state = act(state, "keep", card="8w")
    state = act(state, "place", card="5w")
    state = act(state, "place", card="6w")
    assert state["minors"][:3] == ["7w", "6w", "5w"]  # the last placed is on top
    assert DO.view(state, 0)["choice"] is None  # no longer shown once decided


# --- the deck must hold what a power needs ------------------------------------------------------

@pytest.mark.parametrize("major, usable", [
    ("M3", False), ("M9", True), ("M12", False), ("M15", False), ("M18", False), ("M20", True),
    ("M21", False), ("M2", False), ("M10", False), ("M19", False),
])
def test_a_power_needing_more_cards_than_the_deck_holds_waits(major, usable):
    state = new(party=major)
    state = DO.loads(DO.dumps(state))
    # scenario: two cards left in the Minors deck, two on the discard pile, the rest in hand
    deck = state["minors"]
    state["minors"], state["minors_discard"], rest = deck[:2], deck[2:4], deck[4:]
    state["hand"] += rest
    check(state)
    assert bool(powers(state, major)) == usable


# --- each power at its printed time, and the edges of the readings --------------------------------

# The printed words that set a power's time; a power that says nothing is for outside encounters.
PRINTED_TIMING = {
    "encounter": {"M0", "M4", "M5", "M6", "M7", "M14", "M16"},  # "Play during encounter."
    "guard": {"M11"},  # "Play any time." (it acts only when a wound or a court's discard threatens)
    "after": {"M17"},  # "Play immediately after an encounter."
}


def test_the_timing_table_follows_the_printed_power_texts():
    for major, timing in TIMING.items():
        printed = next((t for t, majors in PRINTED_TIMING.items() if major in majors), "outside")
        assert timing == printed, major


def _ready_for_any_power(major):
    """At rest with what every power may need: a wound, six cards on the discard pile, a
    full deck, a Party court to pay the Tower, and an encounter ahead at the Foundation
    (an encountered court, a pip of a suit in hand)."""
    state = new(party=major, hand=("Ps", "2c", "3c", "4w"), stacks={"foundation": ["Kw", "3s"]},
                draws=("9w", "8w"), bottom=("5p", "6p", "7p", "8p", "9p", "10p", "Ap"))
    state = DO.loads(DO.dumps(state))
    # scenario: earlier play left a wound and six cards on the discard pile
    state["minors"].remove("Ap")
    state["wounds"][0] = "Ap"
    check(state)
    return discard_pile(state, "5p", "6p", "7p", "8p", "9p", "10p")


@pytest.mark.parametrize("major", [f"M{n}" for n in range(22)])
def test_each_power_is_offered_only_at_its_printed_time(major):
    state = _ready_for_any_power(major)
    at_rest = bool(powers(state, major))
    state = act(state, "travel", to="foundation")  # the road gives the 9 of Wands
    assert state["phase"] == "arrive"  # any Major may pay for help, so the game pauses
    on_arrival = bool(powers(state, major))
    state = act(state, "enter")
    before_playing = bool(powers(state, major))  # the Chariot's moment
    state = play(state, "4w", "3s")
    after_playing = bool(powers(state, major))  # the Hierophant's moment
    assert at_rest == on_arrival == (TIMING[major] == "outside")
    assert (before_playing or after_playing) == (TIMING[major] == "encounter")


def test_the_fool_counts_an_ace_eleven_before_a_king_doubles_it():
    state = new(party="M0", hand=("Ks", "Ac", "2c", "3c"), stacks={"foundation": ["Qw", "2s"]},
                draws=("5p", "6p"))
    state = travel(state, "foundation")
    state = act(state, "power", card="M0")
    state = play(state, "Ac", "Qw")
    state = act(state, "augment", card="Ks", to=slot_of(state, "Qw"))
    assert DO.view(state, 0)["encounter"]["slots"][0]["strength"] == 22


def test_the_emperor_takes_only_a_court_nothing_has_been_played_against():
    state = new(party="M4", hand=("2c", "3c", "4c"), stacks={"foundation": ["Kw", "Qs"]},
                draws=("5p", "6p"))
    state = travel(state, "foundation")
    state = play(state, "2c", "Kw")
    assert [m["to"] for m in powers(state, "M4")] == [slot_of(state, "Qs")]


def test_a_pip_the_hierophant_keeps_still_becomes_a_wound_when_it_fails():
    state = new(party="M5", hand=("2c", "9c", "4c"), stacks={"foundation": ["9s", "3s"]},
                draws=("5p", "6p", "7p"))
    state = travel(state, "foundation")
    state = play(state, "2c", "9s")
    state = play(state, "9c", "3s")
    state = act(state, "power", card="M5", cards=["2c", "9c"])
    state = settle(resolve(state))
    assert state["wounds"][0] == "2c"  # it prevents discarding, not wounding
    assert "9c" in state["hand"]


def test_the_lovers_take_an_encountered_court_into_the_party():
    state = new(party="M6", hand=("2w", "3c", "4c"), stacks={"foundation": ["Kw", "3s"]},
                draws=("5p", "6p"))
    state = travel(state, "foundation")
    state = act(state, "power", card="M6", cards=["2w"], to=slot_of(state, "Kw"))
    assert "Kw" in state["party"] and "Kw" not in state["hand"]


def test_the_chariot_leaves_a_travel_encounter_and_the_journey_goes_on():
    state = new(party="M7", draws=("Nc", "9w", "5p"), stacks={"victory": ["As", "2s"]})
    state = act(state, "travel", to="victory")
    assert state["encounter"]["kind"] == "travel"
    state = laid_down(act(state, "power", card="M7"))
    # the stranger and its card are left behind, unwon; no introspection, no wound
    assert state["minors_discard"][:2] == ["9w", "Nc"] and "Nc" not in state["party"]
    assert "5p" in state["hand"]  # the draw after the encounter
    assert state["phase"] == "encounter" and state["encounter"]["kind"] == "sefira"
    assert slots(state) == ["As", "2s"]


def test_the_star_may_take_a_card_the_tower_felled_before_the_chariot_fled():
    state = new(party="M16", hand=("Ps", "2c", "3c", "4c"), stacks={"foundation": ["9s", "8s"]},
                draws=("5p", "6p"), majors_after=("M17", "M7"))
    state = DO.loads(DO.dumps(state))
    # scenario: the Star and the Chariot already joined the Party
    for major in ("M17", "M7"):
        state["majors"].remove(major)
        state["party"].append(major)
    check(state)
    state = travel(state, "foundation")
    state = act(state, "power", card="M16", cards=["Ps"])
    state = act(state, "target", to=slot_of(state, "9s"))
    state = act(state, "done")
    state = act(state, "power", card="M7")
    assert state["phase"] == "hope"
    state = act(state, "power", card="M17", cards=["9s"])
    assert "9s" in state["hand"]
    assert state["spaces"]["foundation"]["stack"] == ["8s"] and not state["spaces"]["foundation"]["won"]


def test_the_tower_needs_another_party_card_to_give_up():
    state = new(party="M16", hand=("2c", "3c", "4c"), stacks={"foundation": ["9s", "8s"]},
                draws=("5p", "6p"))
    state = travel(state, "foundation")
    assert not powers(state, "M16")
    assert "cannot be used now" in refused(state, {"type": "power", "card": "M16", "cards": ["M16"]})


def test_justice_also_stops_the_devils_wound_outside_an_encounter():
    state = new(party="M15", draws=("5w", "6w", "7w"), majors_after=("M11",))
    state = DO.loads(DO.dumps(state))
    state["majors"].remove("M11")
    state["party"].append("M11")  # scenario: Justice is in the Party too
    check(state)
    state = act(state, "power", card="M15")
    state = act(state, "wound", card="6w")
    assert state["phase"] == "guard" and DO.view(state, 0)["choice"]["card"] == "6w"
    assert "card" not in DO.view(state, None)["choice"]  # a drawn card: the player's alone
    state = act(state, "power", card="M11")
    assert state["wounds"] == [None] * 4 and state["minors_discard"][0] == "6w"
    assert {"5w", "7w"} <= set(state["hand"]) and state["phase"] == "travel"


def test_justice_does_not_keep_the_stranger_of_a_lost_travel_encounter():
    state = new(party="M11", draws=("Nc", "9w", "5p", "6p"), hand=("2c", "3c", "4c"))
    state = act(state, "travel", to="victory")
    state = play(state, "2c", "9w")
    state = resolve(state)
    assert state["choice"]["threat"] == "wound"
    state = settle(act(state, "pass"))  # no second offer: the stranger was never a Party member
    assert "Nc" in state["minors_discard"] and state["party"] == ["M11"]


def test_the_devils_wound_can_be_the_fourth_and_end_the_journey():
    state = new(party="M15", draws=("5w", "6w", "7w"), bottom=("7p", "8p", "9p"))
    state = DO.loads(DO.dumps(state))
    # scenario: three wounds already taken
    for i, card in enumerate(("7p", "8p", "9p")):
        state["minors"].remove(card)
        state["wounds"][i] = card
    check(state)
    state = act(state, "power", card="M15")
    state = act(state, "wound", card="6w")
    assert DO.outcome(state)["result"] == "loss"
