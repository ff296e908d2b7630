"""Hermit's Arcana with fixed piles: every ritual, every maneuver, the strange Sigils and
the score (hermits-arcana.txt, RULINGS 7)."""

from __future__ import annotations

import pytest

from games.engine import IllegalMove
from games.engine.cards import MAJORS, MINORS

from .hermits_arcana_support import RULES, end_round, fillers, ground_round, new, play, play_careful, slot

SPARE = ["8c", "8s", "8p", "8w", "10w", "10s", "10p", "9w", "6c", "6s"]

RITUALS = {
    "M1": ["4c", "5s", "6p"],
    "M2": ["2p", "5p", "9p"],
    "M3": ["2c", "5c", "9c"],
    "M4": ["2s", "5s", "9s"],
    "M5": ["2w", "5w", "9w"],
    "M6": ["Qc", "Ks"],
    "M7": ["Ac", "Ks"],
    "M8": ["Pc", "Ps"],
    "M9": ["Kw", "2c", "5s", "9p"],
    "M10": ["3c", "4c", "5s", "6w"],
    "M11": ["7w", "Ns"],
    "M12": ["7p", "Qc"],
    "M17": ["Qc", "Kp"],
    "M18": ["Qw", "Ks"],
    "M19": ["Ac", "Pw", "Ns"],
    "M20": ["Qc", "Ks", "3c", "7s"],
    "M21": ["10c", "9s", "2p"],
}
# A set one card wrong for each ritual: near misses the text rules out.
NEAR_MISSES = {
    "M1": ["4c", "5c", "6p"],      # two of one suit
    "M2": ["2p", "5p", "Pp"],      # a Page is no number
    "M6": ["Qc", "Kc"],            # one suit
    "M7": ["Nc", "Ks"],            # a Knight with a King
    "M8": ["Pc", "Ns"],            # two ranks
    "M9": ["Kw", "2c", "3s", "9p"],  # 2 and 3 are consecutive
    "M10": ["3c", "4c", "5s", "7w"],
    "M11": ["7s", "Nw"],           # suits the wrong way round
    "M17": ["Qc", "Ks"],
    "M19": ["Ac", "Pw", "Qs"],
    "M20": ["Qc", "Ks", "3c", "7p"],
    "M21": ["10c", "9s", "3p"],    # 22
}


def table_with(cards):
    rest = [c for c in SPARE if c not in cards]
    return list(cards) + rest[:8 - len(cards)]


def exalt(cards, to):
    # In the deck's order, as legal_moves lists a set (apply takes any order).
    return RULES.normalise_move({"type": "exalt", "cards": list(cards), "to": to})


@pytest.mark.parametrize("sigil", sorted(RITUALS, key=lambda m: int(m[1:])))
def test_each_sigil_is_honoured_when_its_ritual_is_met_and_not_one_card_short(sigil):
    cards = RITUALS[sigil]
    state = new([sigil] + fillers(3, avoid=[sigil]), table_with(cards))
    to = slot(state, sigil)
    assert exalt(cards, to) in RULES.legal_moves(state, 0)
    for short in range(len(cards)):
        fewer = cards[:short] + cards[short + 1:]
        with pytest.raises(IllegalMove, match="do not complete"):
            play(state, exalt(fewer, to))
    after = play(state, exalt(cards, to))
    assert sigil in after["honour"] and sigil not in after["altar"]
    assert after["heap"][-len(cards):] == exalt(cards, to)["cards"]  # the offerings go to the heap


@pytest.mark.parametrize("sigil", sorted(NEAR_MISSES))
def test_a_near_miss_does_not_honour(sigil):
    cards = NEAR_MISSES[sigil]
    state = new([sigil] + fillers(3, avoid=[sigil]), table_with(cards))
    with pytest.raises(IllegalMove):
        play(state, exalt(cards, slot(state, sigil)))


def test_a_ritual_may_be_built_over_rounds_by_devotion_and_the_last_card_exalts():
    state = new(["M2", "M3", "M4", "M5"], table_with(["2p", "5p", "9p"]))
    state = play(state, {"type": "devote", "card": "2p", "to": "altar:0"})
    state = end_round(state)
    state = play(state, {"type": "devote", "card": "5p", "to": "altar:0"})
    state = end_round(state)
    # The third card would complete it: that is an exalt, not a devotion.
    assert {"type": "devote", "card": "9p", "to": "altar:0"} not in RULES.legal_moves(state, 0)
    state = play(state, exalt(["9p"], "altar:0"))
    assert "M2" in state["honour"]
    assert state["owed"] == 0 and state["phase"] == "shift"  # offered before: no bonus


def test_a_devotion_that_can_never_be_completed_locks_the_sigil():
    state = new(["M2", "M3", "M4", "M5"], table_with(["2c"]))
    state = play(state, {"type": "devote", "card": "2c", "to": "altar:0"})
    view = RULES.view(state, 0)
    assert view["altar"][0]["locked"] and not view["altar"][1]["locked"]


# --- Banish, Devote, Ground, Shift --------------------------------------------------------


@pytest.mark.parametrize("sigil", ["M13", "M14", "M15", "M16"])
def test_banish_is_refused_for_the_four_that_cannot_be_banished(sigil):
    state = new([sigil] + fillers(3), table_with([]), reversed_=[])
    if sigil not in state["altar"]:  # Death may have acted; never at the opening
        pytest.fail("the sigil should stand on the altar")
    with pytest.raises(IllegalMove, match="cannot be banished"):
        play(state, {"type": "banish", "card": "8c", "to": slot(state, sigil)})


def test_banish_is_refused_for_a_sigil_with_offerings_and_sends_others_under_fate():
    state = new(["M2", "M3", "M4", "M5"], table_with(["2p"]), fate=["M6"])
    state = play(state, {"type": "devote", "card": "2p", "to": "altar:0"})
    state = end_round(state)
    with pytest.raises(IllegalMove, match="has cards offered"):
        play(state, {"type": "banish", "card": "8c", "to": "altar:0"})
    after = play(state, {"type": "banish", "card": "8c", "to": "altar:1"})
    assert after["fate"][-1] == "M3" and after["heap"][-1] == "8c" and after["altar"][1] is None
    after = end_round(after)
    assert after["altar"][1] == "M6"  # the next of Fate came up in its place


@pytest.mark.parametrize("sigil", ["M13", "M14", "M15", "M16", "M0"])
def test_devote_is_refused_on_the_sigils_that_take_no_offerings(sigil):
    state = new([sigil] + fillers(3), table_with([]))
    with pytest.raises(IllegalMove, match="cannot be devoted to"):
        play(state, {"type": "devote", "card": "8c", "to": slot(state, sigil)})


def test_ground_discards_a_row_and_the_shift_moves_a_card_before_the_draws():
    table = ["2c", "3c", "4c", "5c", "6s", "7s", "8s", "9s"]
    state = new(["M2", "M3", "M4", "M5"], table, chance=["Kc", "Qc", "Nc", "Pc", "Ac"])
    state = play(state, {"type": "ground", "to": "row:0"})
    assert state["heap"] == ["2c", "3c", "4c", "5c"] and state["phase"] == "shift"
    state = play(state, {"type": "shift", "card": "9s", "to": "table:1"})
    # The Evening fills the top row left to right, then the bottom row right to left.
    assert state["table"] == ["Kc", "9s", "Qc", "Nc", "6s", "7s", "8s", "Pc"]
    assert state["round"] == 2 and state["phase"] == "maneuver"


def test_grounding_the_bottom_row_discards_it_dexter_to_sinister_so_its_sinister_most_card_is_on_top():
    # The text's order for many cards at once ends at the bottom row's sinister-most spot
    # (table:4), as the Evening's fill does: that card is discarded last, onto the top.
    table = ["2c", "3c", "4c", "5c", "6s", "7s", "8s", "9s"]
    state = new(["M2", "M3", "M4", "M5"], table, chance=["Kc", "Qc", "Nc", "Pc"])
    state = play(state, {"type": "ground", "to": "row:1"})
    assert state["heap"] == ["9s", "8s", "7s", "6s"] and state["table"][4:] == [None] * 4
    assert state["log"][-1] == "ground 1 9s,8s,7s,6s"


def test_death_returns_the_sinister_most_card_of_a_grounded_bottom_row():
    state = new(["M13", "M2", "M3", "M4"], ["2c", "3c", "4c", "5c", "6s", "7s", "8s", "9s"],
                chance=["2w", "3w", "4w", "5w", "6w", "7w", "8w", "9w"])
    state = ground_round(state, row=1)
    assert state["table"][4:] == ["5w", "4w", "3w", "2w"]  # filled dexter to sinister
    state = ground_round(state, row=1)  # the third Morning: Death wakes to a table of numbers
    assert state["modes"]["M13"] == "fruitless" and "M13" in state["honour"]
    assert state["chance"][-1] == "5w" and "5w" not in state["heap"]
    assert state["heap"][-3:] == ["2w", "3w", "4w"]


def test_the_opening_deal_fills_the_top_row_left_to_right_and_the_bottom_right_to_left():
    fixed = ["Ac", "2c", "3c", "4c", "5c", "6c", "7c", "8c"]
    state = RULES.new_game(3, 1, {"majors_deck": ["M2", "M3", "M4", "M5"] + [m for m in MAJORS if m not in
                                                                          ("M2", "M3", "M4", "M5")],
                                  "minors_deck": fixed + [m for m in MINORS if m not in fixed]})
    assert state["altar"] == ["M2", "M3", "M4", "M5"]
    assert state["table"] == ["Ac", "2c", "3c", "4c", "8c", "7c", "6c", "5c"]


# --- Exalt bonuses ------------------------------------------------------------------------


def test_exalt_with_nothing_offered_before_returns_one_or_two_when_every_card_faces_the_sigils_way():
    cards = RITUALS["M2"]
    mixed = new(["M2", "M3", "M4", "M5"], table_with(cards), reversed_=["2p"])
    after = play(mixed, exalt(cards, "altar:0"))
    assert after["owed"] == 1 and after["phase"] == "return"
    same = new(["M2", "M3", "M4", "M5"], table_with(cards), reversed_=["M2", "2p", "5p", "9p"])
    after = play(same, exalt(cards, "altar:0"))
    assert after["owed"] == 2
    chance = len(after["chance"])
    after = play(after, {"type": "return", "card": "5p"})
    after = play(after, {"type": "return", "card": "2p"})
    assert after["chance"][-2:] == ["5p", "2p"] and len(after["chance"]) == chance + 2
    assert after["phase"] == "shift"


def test_an_apophatic_sigil_gives_no_bonus():
    # Temperance revealed after Strength is honoured takes Strength's ritual, no bonus.
    state = new(["M8", "M2", "M3", "M4"], table_with(["Pc", "Ps", "Kc", "Ks"]), fate=["M14"])
    state = play(state, exalt(["Pc", "Ps"], "altar:0"))
    state = end_round(state)
    assert state["altar"][0] == "M14" and state["modes"]["M14"] == "triumphant"
    state = play(state, exalt(["Kc", "Ks"], "altar:0"))
    assert "M14" in state["honour"] and state["owed"] == 0
    assert "temperance" in RULES.score_parts(state) and RULES.score_parts(state)["temperance"] == 0


# --- the after-effects ----------------------------------------------------------------------


def test_the_hermits_search_may_return_one_heap_card_of_choice():
    cards = RITUALS["M9"]
    state = new(["M9", "M2", "M3", "M4"], table_with(cards), reversed_=["2c"])
    state = play(state, exalt(cards, "altar:0"))
    state = play(state, {"type": "return", "card": "9p"})  # the bonus
    assert state["phase"] == "search"
    assert {"type": "pass"} in RULES.legal_moves(state, 0)
    state = play(state, {"type": "search", "card": "Kw"})
    assert state["chance"][-1] == "Kw" and state["phase"] == "shift"


@pytest.mark.parametrize("cards, top, owed", [(["Pc", "Ns", "Aw"], "Aw", 3), (["Ac", "Ns", "Pw"], "Pw", 4),
                                              (["Ac", "Ps", "Nw"], "Nw", 5)])
def test_the_sun_returns_by_the_heaps_top_card(cards, top, owed):
    state = new(["M19", "M2", "M3", "M4"], table_with(cards), reversed_=[cards[0]])
    # The offerings reach the heap in the deck's order (Cups, Swords, Pentacles, Wands);
    # the last is the top card.
    state = play(state, exalt(cards, "altar:0"))
    assert state["heap"][-1] == top and state["owed"] == 1 + owed


def test_judgement_returns_two_and_the_world_four():
    state = new(["M20", "M21", "M3", "M4"], table_with(RITUALS["M20"]) [:4] + ["10c", "9s", "2p", "8c"],
                reversed_=["Qc"])
    state = play(state, exalt(RITUALS["M20"], "altar:0"))
    assert state["owed"] == 1 + 2  # the Queen of Cups faces the other way: the bonus is 1
    state = end_round(state)
    state = play(state, exalt(RITUALS["M21"], slot(state, "M21")))
    assert state["owed"] == 4 + 2  # every card upright like the World: the bonus is 2


# --- the strange Sigils ---------------------------------------------------------------------


def test_death_revealed_with_figures_is_fruitful():
    cards = RITUALS["M2"]
    table = cards + ["Kc", "Qs", "8c", "8s", "8w"]
    state = new(["M2", "M3", "M4", "M5"], table, fate=["M13", "M6"], reversed_=["2p"])
    state = play(state, exalt(cards, "altar:0"))
    state = play(state, {"type": "return", "card": "2p"})
    heap_before = list(state["heap"])
    state = play(state, {"type": "rest"})
    assert "M13" in state["honour"] and state["modes"]["M13"] == "fruitful"
    # Two figures: two cards back from the top of the heap, then the figures to the heap.
    assert state["heap"][:len(heap_before) - 2] == heap_before[:-2]
    assert state["heap"][-2:] == ["Kc", "Qs"] and "Kc" not in state["table"]
    assert RULES.score_parts(state)["death"] == 20
    assert state["altar"][0] == "M6"  # the next Sigil took Death's place at once


def test_death_revealed_with_no_figures_is_fruitless():
    cards = RITUALS["M2"]
    table = cards + ["8c", "8s", "8w", "10s", "10c"]
    state = new(["M2", "M3", "M4", "M5"], table, fate=["M13"], reversed_=["2p"])
    state = play(state, exalt(cards, "altar:0"))
    state = play(state, {"type": "return", "card": "2p"})
    top = state["heap"][-1]
    state = play(state, {"type": "rest"})
    assert state["modes"]["M13"] == "fruitless" and state["chance"][-1] == top
    assert RULES.score_parts(state)["death"] == -50


def test_death_on_the_opening_altar_sleeps_until_the_third_round():
    state = new(["M13", "M2", "M3", "M4"], ["Kc", "2c", "3c", "4c", "5s", "6s", "7s", "8s"],
                chance=["2w", "3w", "4w", "5w", "6w", "7w", "8w", "9w"])
    assert state["altar"][0] == "M13" and RULES.view(state, 0)["death_wakes"] == 3
    state = ground_round(state, row=1)
    assert state["round"] == 2 and "M13" in state["altar"]
    state = ground_round(state, row=1)
    assert state["round"] == 3 and "M13" in state["honour"]
    assert state["modes"]["M13"] == "fruitful" and state["death"]["removed"] == 1


def test_temperance_tempered_when_strength_is_honoured_scores_fifty():
    state = new(["M14", "M8", "M2", "M3"], table_with(RITUALS["M8"]))
    assert state["modes"]["M14"] == "waiting"
    with pytest.raises(IllegalMove):
        play(state, exalt(RITUALS["M8"], "altar:0"))
    state = play(state, exalt(RITUALS["M8"], "altar:1"))
    assert state["honour"] == ["M8", "M14"] and state["modes"]["M14"] == "tempered"
    assert RULES.score_parts(state)["temperance"] == 50


def test_temperance_abandoned_when_the_hermit_comes_first_costs_fifty():
    state = new(["M14", "M9", "M2", "M3"], table_with(RITUALS["M9"]))
    state = play(state, exalt(RITUALS["M9"], "altar:1"))
    assert state["honour"] == ["M9", "M14"] and state["modes"]["M14"] == "abandoned"
    assert RULES.score_parts(state)["temperance"] == -50


def test_the_devil_fooled_after_the_lovers_takes_their_ritual_and_scores_fifty():
    state = new(["M6", "M2", "M3", "M4"], table_with(["Qc", "Ks", "Np", "Pw"]), fate=["M15"])
    state = play(state, exalt(["Qc", "Ks"], "altar:0"))
    state = end_round(state)
    assert state["altar"][0] == "M15" and state["modes"]["M15"] == "fooled"
    state = play(state, exalt(["Np", "Pw"], "altar:0"))
    assert "M15" in state["honour"] and RULES.score_parts(state)["devil"] == 50


def test_the_devil_fought_with_the_chariot_scores_nothing_and_triumphant_with_the_lovers_costs_fifty():
    fought = new(["M15", "M7", "M2", "M3"], table_with(RITUALS["M7"]))
    fought = play(fought, exalt(RITUALS["M7"], "altar:1"))
    assert fought["modes"]["M15"] == "fought" and RULES.score_parts(fought)["devil"] == 0
    won = new(["M15", "M6", "M2", "M3"], table_with(RITUALS["M6"]))
    won = play(won, exalt(RITUALS["M6"], "altar:1"))
    assert won["modes"]["M15"] == "triumphant" and RULES.score_parts(won)["devil"] == -50


def test_the_tower_takes_another_sigils_honour_and_its_offerings_go_to_the_heap():
    state = new(["M16", "M2", "M3", "M4"], table_with(RITUALS["M2"]))
    state = play(state, exalt(RITUALS["M2"], "altar:1"))
    assert state["honour"] == ["M16"] and state["altar"][1] == "M2" and state["offered"]["M2"] == []
    assert state["heap"][-3:] == RITUALS["M2"] and state["owed"] == 0
    assert "tower" not in RULES.score_parts(state)  # three table cards were discarded


def test_the_tower_honoured_with_nothing_discarded_costs_fifty():
    # Death comes up while the Tower stands: the Tower takes Death's honour, no table card
    # is discarded by it, and Death acts again the next Morning.
    cards = RITUALS["M2"]
    state = new(["M16", "M2", "M3", "M4"], cards + ["8c", "8s", "8w", "10s", "10c"], fate=["M13"])
    state = play(state, {"type": "banish", "card": "8c", "to": "altar:2"})
    state = play(state, {"type": "rest"})
    assert state["honour"] == ["M16", "M13"] and state["death"]["acted"] == 2
    assert RULES.score_parts(state)["tower"] == -50
    # Death stayed on the altar and acted again the next Morning (round 2).
    assert state["round"] == 2 and "Death acted" in " ".join(RULES.view(state, 0)["log"])


def test_the_fools_maneuver_returns_three_and_keeps_one_table_card():
    state = new(["M0", "M2", "M3", "M4"], ["2c", "3c", "4c", "5c", "6s", "7s", "8s", "9s"])
    state = play(state, {"type": "ground", "to": "row:0"})  # four cards on the heap
    state = end_round(state)
    state = play(state, {"type": "fool", "to": "altar:0"})
    assert "M0" in state["honour"] and state["owed"] == 3
    for _ in range(3):
        state = play(state, {"type": "return", "card": state["heap"][-1]})
    assert state["phase"] == "keep"
    keep = state["table"][4]
    state = play(state, {"type": "keep", "card": keep})
    assert [c for c in state["table"] if c] == [keep]
    assert "fool" in RULES.score_parts(state) and RULES.score_parts(state)["fool"] == 0


@pytest.mark.parametrize("heap, penalty", [(1, -20), (0, -100)])
def test_the_fool_with_a_short_heap_costs_ten_a_card_and_a_hundred_for_none(heap, penalty):
    state = new(["M0", "M2", "M3", "M4"], ["2c", "3c", "4c", "5c", "6s", "7s", "8s", "9s"])
    if heap:
        state = play(state, {"type": "banish", "card": "2c", "to": "altar:1"})
        state = end_round(state)
    state = play(state, {"type": "fool", "to": "altar:0"})
    if heap:
        state = play(state, {"type": "return", "card": "2c"})
    assert state["phase"] == "keep"
    assert RULES.score_parts(state)["fool"] == penalty


# --- the end ---------------------------------------------------------------------------------


def test_the_game_is_lost_when_no_maneuver_is_left():
    state = new(["M2", "M3", "M4", "M5"], ["2c", "3c", "4c", "5c", "6s", "7s", "8s", "9s"])
    state["chance"] = []  # an edited state: Chance is spent
    state = play(state, {"type": "ground", "to": "row:0"})
    state = play(state, {"type": "rest"})
    state = play(state, {"type": "ground", "to": "row:1"})
    assert state["phase"] == "over"
    outcome = RULES.outcome(state)
    assert outcome["result"] == "loss" and "No maneuver" in outcome["reason"]
    assert outcome["scores"] == [0] and RULES.legal_moves(state, 0) == []


def test_a_won_game_scores_ten_a_sigil_and_one_a_card_left_in_chance():
    state = new(["M2", "M3", "M4", "M5"], table_with(RITUALS["M2"]))
    # Every other Sigil honoured already (an edited state), M2 the last.
    state["honour"] = [m for m in MAJORS if m != "M2"]
    state["altar"] = ["M2", None, None, None]
    state["fate"] = []
    state["offered"] = {"M2": []}
    state["tower_discards"] = 2  # the Tower took an honour with two cards
    state = play(state, exalt(RITUALS["M2"], "altar:0"))
    state = end_round(state) if state["phase"] != "over" else state
    outcome = RULES.outcome(state)
    assert outcome["result"] == "win" and "All 22" in outcome["reason"]
    assert outcome["scores"][0] == 220 + len(state["chance"]) >= 220


def test_an_esoteric_victory_scores_220_without_all_22():
    state = new(["M2", "M3", "M4", "M5"], ["2c", "3c", "4c", "5c", "6s", "7s", "8s", "9s"])
    state["honour"] = [m for m in MAJORS if m not in ("M2", "M3", "M4", "M5", "M1")]  # 17
    state["fate"] = ["M1"]
    state["chance"] = state["chance"][:60]
    state["death"] = {"acted": 1, "removed": 6, "wakes": None}  # +60
    state["modes"] = {"M13": "fruitful", "M14": "tempered", "M15": "fooled"}  # +100
    state["tower_discards"] = 2
    state["fool_returned"] = 3
    state["chance"] = []
    state = play(state, {"type": "ground", "to": "row:0"})
    state = play(state, {"type": "rest"})
    state = play(state, {"type": "ground", "to": "row:1"})
    outcome = RULES.outcome(state)
    assert outcome["result"] == "win" and "esoteric" in outcome["reason"]
    assert outcome["scores"] == [170 + 60 + 100]


def test_a_whole_game_played_with_care_is_won_with_all_22_and_scores_over_220():
    state = play_careful(21)
    outcome = RULES.outcome(state)
    assert outcome["result"] == "win" and len(state["honour"]) == 22 and "All 22" in outcome["reason"]
    parts = RULES.score_parts(state)
    assert parts["honoured"] == 220 and parts["chance"] == len(state["chance"])
    assert outcome["scores"] == [sum(parts.values())] and outcome["scores"][0] >= 220
    reading = RULES.reading(state)
    # On a win the present rites are the last four honoured.
    assert [p["card"] for p in reading["positions"][:4]] == state["honour"][-4:]


def test_a_whole_game_may_end_in_an_esoteric_victory():
    state = play_careful(2)
    outcome = RULES.outcome(state)
    assert outcome["result"] == "win" and len(state["honour"]) < 22 and outcome["scores"][0] >= 220
    assert "esoteric victory" in outcome["reason"]


@pytest.mark.parametrize("model, sigil, first, then", [
    ("M8", "M14", ["Pc", "Ps"], ["Kc", "Ks"]),   # Temperance as Strength
    ("M6", "M15", ["Qc", "Ks"], ["Np", "Pw"]),   # the Devil as the Lovers
])
def test_a_borrowed_ritual_is_refused_one_card_short(model, sigil, first, then):
    state = new([model, "M2", "M3", "M4"], table_with(first + then), fate=[sigil])
    state = end_round(play(state, exalt(first, "altar:0")))
    assert state["altar"][0] == sigil
    for card in then:
        with pytest.raises(IllegalMove):
            play(state, exalt([card], "altar:0"))
    assert sigil in play(state, exalt(then, "altar:0"))["honour"]


def test_temperance_and_the_devil_waiting_cannot_be_exalted_at_all():
    state = new(["M14", "M15", "M2", "M3"], table_with(["Pc", "Ps", "Qc", "Ks"]))
    assert not [m for m in RULES.legal_moves(state, 0) if m["to"] in ("altar:0", "altar:1")]
