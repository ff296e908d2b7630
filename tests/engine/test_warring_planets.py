"""Warring Planets, rule by rule (rulebook chapter and RULINGS.md section 5).

As in the Lovers' Discourse tests, ``arrange`` lays out a position (every card not named
goes to the deck) and the tests drive it only through the contract.
"""

from __future__ import annotations

import json
from functools import partial

import pytest

from games.engine import get_rules
from games.engine.cards import DECK
from games.engine.starfield import SPACES

from . import starfield_support
from .conftest import refused_by

WP = get_rules("warring_planets")
FORFEIT = {"type": "forfeit"}


def major(card, by, minors=(), resolved_by=None, facing=None):
    cards = [card] if isinstance(card, str) else list(card)
    bys = [by] if isinstance(by, int) else list(by)
    if facing is None:
        facing = resolved_by if resolved_by is not None else bys[-1]
    return {"majors": cards, "by": bys, "minors": list(minors), "resolved_by": resolved_by,
            "facing": facing}


def guard(card, seat):
    return {"guard": card, "facing": seat}


arrange = partial(starfield_support.arrange, WP)
act = partial(starfield_support.act, WP)
refused = partial(refused_by, WP)
moves = partial(starfield_support.moves, WP)
targets = partial(starfield_support.targets, WP)


def filled(except_=(), by=1):
    """Resolved Majors of ``by`` on every space but ``except_``, leaving M0, M1, M18, M19
    and M21 free for the scenario."""
    spare = [f"M{n}" for n in range(2, 21) if n not in (18, 19)]
    return {s: major(spare.pop(0), by, resolved_by=by) for s in SPACES if s not in except_}


# --- setting up ---------------------------------------------------------------------------------

def test_each_rival_draws_three_and_seat_0_begins():
    state = WP.new_game(2, 2, {}, deck=list(DECK))
    assert state["hands"] == [list(DECK[0:3]) + [DECK[6]], list(DECK[3:6])]
    assert WP.to_act(state) == [0]


def test_the_variants_are_noble_and_outnumber_and_they_combine():
    assert WP.new_game(1, 2, {"variant": ["outnumber", "noble"]})["options"]["variant"] == ["noble", "outnumber"]
    for bad in ("meditative", "numerology", "fated"):
        with pytest.raises(ValueError, match="Unknown variant"):
            WP.new_game(1, 2, {"variant": bad})


def test_there_are_no_gift_fields():
    state = arrange(hands=(["5s", "M3"], []))
    assert moves(state, 0, "give") == []
    assert not any(z.startswith("gift") for z in WP.zones(state))
    assert "gifts" not in WP.view(state, 0)
    assert "no Gift Fields" in refused(state, 0, {"type": "give", "card": "5s", "to": "gift:1"})


# --- facing and reach ---------------------------------------------------------------------------

def test_a_major_faces_the_seat_that_played_it():
    state = act(arrange(hands=(["M4"], [])), 0, "play", card="M4", to="C0")
    assert state["board"]["C0"]["facing"] == 0
    assert WP.view(state, 1)["board"]["C0"]["facing"] == 0


def test_a_major_goes_on_your_edge_or_next_to_a_major_or_guard_facing_you():
    state = arrange(hands=(["M4"], []))
    assert targets(state, "M4") == {"L0", "C0", "R0"}
    board = {"C0": major("M1", 0), "L1": guard("5w", 0), "R0": major("M2", 1), "C2": major("M3", 1)}
    state = arrange(hands=(["M4"], []), board=board)
    # Next to C0 (C1), next to the Guard on L1 (L2, C1, L0), the edge's free L0. Never next
    # to only the rival's cards (R1 touches R0, C3 touches C2), and never onto a card (the
    # Guard is worth more than The Emperor, so it cannot slip under it either).
    assert targets(state, "M4") == {"L0", "C1", "L2"}


def test_resolving_a_rivals_major_turns_it_to_face_you_and_widens_your_reach():
    board = {"C0": major("M1", 0), "C1": major("M2", 1, ["Ac"])}
    state = arrange(board=board, waiting=["Ap"], phase="place", hands=([], ["2s"]))
    state = act(state, 0, "place", card="Ap", to="C1")
    assert state["board"]["C1"]["facing"] == 0 and state["board"]["C1"]["resolved_by"] == 0
    state["turn"], state["phase"], state["hands"][0] = 0, "play", ["M7"]
    state["deck"].remove("M7")
    assert "C2" in targets(state, "M7")


def test_there_is_no_reach_across_resolved_spaces():
    board = {"C0": major("M1", 0), "C1": major("M2", 1, ["2c"], resolved_by=1), "C2": major("M9", 1)}
    state = arrange(board=board, waiting=["Ac"], phase="place")
    assert "C2" not in targets(state, "Ac", type="place")


# --- Majors and Guards --------------------------------------------------------------------------

def test_the_rulebooks_page_and_knight_of_pentacles_become_guards():
    planes = [[["Pp"], [], []], [[], [], []]]
    state = arrange(hands=(["Np"], []), planes=planes)
    state = act(state, 0, "play", card="Np", column=1)
    assert state["phase"] == "place" and state["raised"] == ["Pp", "Np"]  # no negation here
    assert targets(state, "Pp", type="guard") == {"L0", "C0", "R0"}
    state = act(state, 0, "guard", card="Pp", to="C0")
    assert state["board"]["C0"] == {"guard": "Pp", "facing": 0}
    # The Guard widens the reach: the Knight may now guard C1 as well.
    assert targets(state, "Np", type="guard") == {"L0", "R0", "C1"}
    state = act(state, 0, "guard", card="Np", to="C1")
    assert WP.to_act(state) == [1]


def test_the_rulebooks_devil_beside_or_beneath_the_page_of_pentacles():
    state = arrange(hands=(["M15"], []), board={"C0": guard("Pp", 0)})
    assert targets(state, "M15") == {"L0", "R0", "C1", "C0"}
    beside = act(state, 0, "play", card="M15", to="C1")
    assert beside["board"]["C0"] == {"guard": "Pp", "facing": 0}
    beneath = act(state, 0, "play", card="M15", to="C0")
    entry = beneath["board"]["C0"]
    assert entry["majors"] == ["M15"] and entry["minors"] == ["Pp"] and entry["resolved_by"] is None
    assert WP.view(beneath, 0)["board"]["C0"]["total"] == 10


def test_a_major_slips_only_under_your_own_guard_worth_no_more_than_it():
    board = {"C0": guard("Kp", 0), "R0": guard("3w", 1), "L0": guard("9c", 0)}
    state = arrange(hands=(["M9", "M0"], []), board=board)
    assert "C0" not in targets(state, "M9")  # the King is worth 10 > 9
    assert "L0" in targets(state, "M9")  # the 9 of Cups: equal values
    assert "R0" not in targets(state, "M9")  # the rival's Guard: never
    assert "L0" not in targets(state, "M0") and "C0" not in targets(state, "M0")


def test_equal_values_resolve_the_major_at_once_for_you():
    state = arrange(hands=(["M9"], []), board={"L0": guard("9c", 0)})
    state = act(state, 0, "play", card="M9", to="L0")
    assert state["board"]["L0"]["resolved_by"] == 0
    assert WP.scores(state) == [9, 0]


def test_a_rivals_guard_keeps_you_off_its_space():
    state = arrange(hands=(["M20"], []), board={"C0": guard("2w", 1)}, waiting=[], phase="play")
    assert "C0" not in targets(state, "M20")
    assert "rival's Guard holds C0" in refused(state, 0, {"type": "play", "card": "M20", "to": "C0"})


# --- raised Minors ------------------------------------------------------------------------------

def example_board():
    return {
        "C0": major("M10", 0), "L0": major("M12", 0),
        "C4": major("M7", 1), "L3": major("M13", 1), "C3": major("M17", 1), "C2": major("M19", 1),
        "C1": major("M4", 1), "R1": major("M5", 1), "R0": major("M3", 1),
    }


def test_the_rulebooks_nine_and_three_of_cups():
    state = arrange(board=example_board(), waiting=["9c", "3c"], phase="place")
    assert targets(state, "9c", type="place") == {"C0", "L0"}
    three = targets(state, "3c", type="place")
    assert three == {"C0", "L0", "C1", "R0"}  # the rival's Emperor and Empress included
    assert "C4" not in three and "L3" not in three  # never the Chariot or Death


def test_a_raised_minor_may_go_on_a_major_facing_you_anywhere():
    # Seat 0's own Major, far from its edge and cut off from everything else it holds.
    board = {"C3": major("M20", 0)}
    state = arrange(board=board, waiting=["5c"], phase="place")
    assert "C3" in targets(state, "5c", type="place")


def test_guards_go_only_on_empty_spaces_in_reach():
    board = {"C0": major("M1", 0), "C1": major("M2", 1)}
    state = arrange(board=board, waiting=["5c"], phase="place")
    assert targets(state, "5c", type="guard") == {"L0", "R0"}


def test_an_attack_needs_at_least_the_guards_value_and_discards_both():
    board = {"C0": major("M1", 0), "C1": guard("7s", 1)}
    state = arrange(board=board, waiting=["6c", "7c", "2c"], phase="place")
    assert targets(state, "6c", type="attack") == set()
    assert targets(state, "7c", type="attack") == {"C1"}
    state = act(state, 0, "attack", card="7c", to="C1")
    assert "C1" not in state["board"] and state["discard"] == ["7c", "7s"]
    assert WP.view(state, 1)["discard"] == ["7c", "7s"]  # both were in plain sight


def test_only_guards_in_reach_may_be_attacked():
    board = {"C0": major("M1", 0), "C2": guard("2s", 1)}
    state = arrange(board=board, waiting=["9c"], phase="place")
    assert moves(state, 0, "attack") == []


def test_a_court_guard_falls_to_a_court_or_a_ten():
    board = {"C0": guard("Qs", 1)}
    state = arrange(board=board, waiting=["9c", "10c", "Pc"], phase="place")
    assert {m["card"] for m in moves(state, 0, "attack")} == {"10c", "Pc"}


def test_noble_lets_only_a_court_defeat_a_court_guard():
    board = {"C0": guard("Qs", 1), "R0": guard("9s", 1)}
    state = arrange(board=board, waiting=["10c", "Pc"], phase="place", variant="noble")
    assert targets(state, "10c", type="attack") == {"R0"}
    assert targets(state, "Pc", type="attack") == {"C0", "R0"}


def test_outnumber_lets_raised_minors_attack_a_guard_together():
    board = {"C0": guard("9s", 1)}
    state = arrange(board=board, waiting=["4c", "5c", "2c", "Ac"], phase="place", variant="outnumber")
    together = [m["cards"] for m in moves(state, 0, "attack") if "cards" in m]
    # Minimal sets reaching 9: 4+5, 4+5 with nothing spare...; 5+2+... 5+2+1=8 falls short.
    assert together == [["4c", "5c"]]
    state = act(state, 0, "attack", cards=["5c", "4c"], to="C0")  # any order is accepted
    assert "C0" not in state["board"] and sorted(state["discard"]) == ["4c", "5c", "9s"]
    assert state["raised"] == ["2c", "Ac"]


def test_without_outnumber_cards_never_join_an_attack():
    board = {"C0": guard("9s", 1)}
    state = arrange(board=board, waiting=["4c", "5c"], phase="place")
    assert moves(state, 0, "attack") == []
    refused(state, 0, {"type": "attack", "cards": ["4c", "5c"], "to": "C0"})


def test_noble_and_outnumber_together_want_only_courts_against_a_court_guard():
    board = {"C0": guard("Ks", 1), "R0": guard("10s", 1)}
    state = arrange(board=board, waiting=["5c", "6c", "Pw"], phase="place", variant=["noble", "outnumber"])
    attacks = moves(state, 0, "attack")
    assert {"type": "attack", "cards": ["5c", "6c"], "to": "R0"} in attacks
    assert not any(m.get("to") == "C0" and "cards" in m for m in attacks)
    assert {"type": "attack", "card": "Pw", "to": "C0"} in attacks


# --- The Sun and The Moon ---------------------------------------------------------------------

def test_the_sun_joins_the_moon_on_c2_even_after_it_was_resolved():
    board = {"C0": major("M1", 0), "C1": major("M2", 0),
             "C2": major("M18", 1, ["10c", "8c"], resolved_by=1)}
    state = arrange(hands=(["M19"], []), board=board)
    assert WP.scores(state) == [0, 18]
    state = act(state, 0, "play", card="M19", to="C2")
    entry = state["board"]["C2"]
    assert entry["majors"] == ["M18", "M19"] and entry["resolved_by"] is None
    assert entry["facing"] == 0  # the seat that played the second card
    assert WP.scores(state) == [0, 0]
    assert WP.view(state, 1)["board"]["C2"]["capacity"] == 50


def test_the_pair_faces_its_resolver_and_scores_50():
    board = {"C2": major(["M18", "M19"], [1, 0], ["10c", "10s", "10p", "10w"]), "C1": major("M2", 1)}
    state = arrange(board=board, waiting=["Kc"], phase="place", turn=1)
    state = act(state, 1, "place", card="Kc", to="C2")
    assert state["board"]["C2"]["facing"] == 1 and WP.scores(state) == [0, 50]


# --- forfeit ------------------------------------------------------------------------------------

def test_forfeit_is_legal_for_either_seat_at_any_time():
    state = WP.new_game(4, 2, {})
    assert WP.to_act(state) == [0]
    assert FORFEIT in WP.legal_moves(state, 0)
    assert WP.legal_moves(state, 1) == [FORFEIT]
    assert "not your turn" in refused(state, 1, {"type": "play", "card": state["hands"][1][0], "column": 0})
    over = WP.apply(state, 1, FORFEIT)
    outcome = WP.outcome(over)
    assert outcome["result"] == "win" and outcome["winners"] == [0]
    assert "forfeit" in outcome["reason"]
    assert WP.to_act(over) == [] and WP.legal_moves(over, 0) == [] and WP.legal_moves(over, 1) == []
    assert refused(over, 0, FORFEIT) == "The game is over."
    assert refused(state, 0, {"type": "forfeit", "card": "M1"})
    assert refused(state, 2, FORFEIT)


def test_a_forfeit_loses_even_when_ahead():
    state = arrange(hands=(["2c"], []), board={"C0": major("M9", 0, ["9c"], resolved_by=0)})
    outcome = WP.outcome(WP.apply(state, 0, FORFEIT))
    assert outcome["winners"] == [1] and outcome["scores"] == [9, 0]


def test_forfeit_works_in_the_middle_of_placing_raised_cards():
    state = arrange(board={"C0": major("M9", 0)}, waiting=["9c"], phase="place")
    assert WP.outcome(WP.apply(state, 1, FORFEIT))["winners"] == [0]


# --- the end ------------------------------------------------------------------------------------

def test_the_game_ends_when_all_thirteen_hold_resolved_majors():
    board = {s: major(f"M{n}", n % 2, resolved_by=n % 2) for n, s in enumerate(SPACES, start=1)}
    board["C0"] = major("M5", 0)
    state = arrange(board=board, waiting=["5c", "4c"], phase="place")
    state = act(state, 0, "place", card="5c", to="C0")
    outcome = WP.outcome(state)
    # Seat 0 holds the even Majors and now C0's Hierophant; seat 1 the other odd ones.
    odd = sum(n for n in range(1, 14) if n % 2)
    even = sum(n for n in range(1, 14) if not n % 2)
    assert outcome["scores"] == [even + 5, odd - 5] == [47, 44]
    assert outcome["result"] == "win" and outcome["winners"] == [0]
    assert "Every space" in outcome["reason"]


def test_the_game_ends_when_a_raised_minor_has_nowhere_to_go():
    board = filled(except_=("C0",))
    board["C0"] = major("M20", 0, ["10s", "9s"])  # needs only 1 more
    planes = [[["8c"], [], []], [[], [], []]]
    state = arrange(board=board, hands=(["9c"], []), planes=planes)
    state = act(state, 0, "play", card="9c", column=1)
    outcome = WP.outcome(state)
    assert outcome is not None and "Eight of Cups" in outcome["reason"]
    assert state["end"]["how"] == "stuck" and state["end"]["obstacle"] == "8c"


def test_the_game_ends_when_a_seat_holds_only_majors_it_cannot_place():
    board = {s: major(f"M{n}", 0) for n, s in enumerate(SPACES, start=1)}
    state = arrange(board=board, hands=(["2c"], ["M14"]), deck=["M15"])
    state = act(state, 0, "play", card="2c", column=0)
    assert state["end"]["how"] == "blocked" and state["end"]["obstacle"] == "M15"
    assert WP.outcome(state)["result"] == "draw"  # nothing resolved: 0 to 0
    blunder = {p["id"]: p for p in WP.reading(state)["positions"]}["blunder"]
    assert blunder["card"] == "M15"  # the unplayable card: the Major it drew last


def test_the_game_ends_when_a_seat_has_no_card_at_all():
    state = arrange(hands=(["2c"], []), empty_deck=True)
    state = act(state, 0, "play", card="2c", column=0)
    assert state["end"]["how"] == "empty" and WP.outcome(state)["result"] == "draw"


def test_scores_count_only_resolved_majors_facing_you():
    board = {"C0": major("M9", 0, ["9c"], resolved_by=0),
             "C1": major("M6", 0, ["6c"], resolved_by=1),  # resolved by the rival: theirs
             "C2": major("M20", 1, ["10s"]),  # half full: nobody's
             "C3": major("M0", 1, ["2s"], resolved_by=1)}  # The Fool scores nothing
    state = arrange(board=board)
    assert WP.scores(state) == [9, 6]


# --- the reading --------------------------------------------------------------------------------

def test_the_conflict_story_remembers_its_events():
    state = arrange(hands=(["M17"], ["M15"]), deck=["2c", "M6"])
    state = act(state, 0, "play", card="M17", to="C0")
    state = act(state, 1, "play", card="M15", to="C4")
    reading = WP.reading(state)
    first = {p["id"]: p for p in reading["positions"]}
    assert first["combatant:0"]["card"] == "M17" and first["combatant:0"]["keyword"] == "hope"
    assert first["combatant:1"]["card"] == "M15"
    assert first["spark"]["card"] is None and reading["complete"] is False
    assert reading["story"][0] == "Seat 0 took the field as XVII The Star (hope)."


def test_a_guard_may_be_the_spark_that_joins_the_two_edges():
    board = {"C0": major("M1", 0), "C1": major("M2", 0), "C2": major("M3", 0), "C4": major("M4", 1)}
    state = arrange(board=board, waiting=["5c"], phase="place")
    state = act(state, 0, "guard", card="5c", to="C3")
    spark = {p["id"]: p for p in WP.reading(state)["positions"]}["spark"]
    assert spark["card"] == "5c" and spark["space"] == "C3"


def test_the_sacrifice_the_blunder_and_the_decisive_blow():
    board = filled(except_=("C0", "C1"))
    board["C0"] = major("M1", 0)
    board["C1"] = major("M21", 1, ["10c", "5c"])  # 15 of 21: a King would overfill it
    planes = [[["Kc"], [], []], [[], [], []]]
    state = arrange(board=board, hands=(["Ac"], []), planes=planes)
    state = act(state, 0, "play", card="Ac", column=1)  # Kc and Ac rise
    state = act(state, 0, "place", card="Ac", to="C0")  # The Magician: resolved, own card
    assert state["end"]["how"] == "stuck"  # the King of Cups has nowhere to go
    reading = WP.reading(state)
    pos = {p["id"]: p for p in reading["positions"]}
    assert pos["sacrifice"]["card"] is None  # nobody resolved a rival's Major
    assert pos["blunder"]["card"] == "Kc"
    assert pos["decisive"]["card"] == "M1" and pos["decisive"]["minors"] == ["Ac"]
    assert reading["cards"] == ["Kc", "M1"]
    assert any("blunder" in line for line in reading["story"])
    assert {s["id"] for s in reading["sections"]} == {"conflict", "sacred_columns", "ouroboros"}


def test_the_first_major_resolved_by_the_rival_is_the_sacrifice():
    board = {"C0": major("M1", 0), "C1": major("M3", 1, ["Ac"])}
    state = arrange(board=board, waiting=["2c"], phase="place")
    state = act(state, 0, "place", card="2c", to="C1")
    pos = {p["id"]: p for p in WP.reading(state)["positions"]}
    assert pos["sacrifice"]["card"] == "M3" and pos["sacrifice"]["minors"] == ["Ac", "2c"]


# --- views --------------------------------------------------------------------------------------

def test_a_view_shows_only_your_own_hand():
    state = WP.new_game(11, 2, {})
    for seat in (0, 1):
        text = json.dumps(WP.view(state, seat))
        assert not any(f'"{c}"' in text for c in state["hands"][1 - seat] + state["deck"])
    spectator = json.dumps(WP.view(state, None))
    assert not any(f'"{c}"' in spectator for c in state["hands"][0] + state["hands"][1])
    assert WP.view(state, 1)["legal_moves"] == [FORFEIT]


# --- refusals -----------------------------------------------------------------------------------

def test_refusals_say_what_is_wrong():
    board = {"C0": guard("9s", 1), "R0": guard("Qs", 1), "L0": guard("Kp", 0), "C1": major("M3", 0)}
    state = arrange(board=board, waiting=["4c", "5c"], phase="place", variant="noble")
    assert "(4) cannot beat the Guard on C0 (Nine of Swords, 9)" in \
        refused(state, 0, {"type": "attack", "card": "4c", "to": "C0"})
    assert "Outnumber" in refused(state, 0, {"type": "attack", "cards": ["4c", "5c"], "to": "C0"})
    assert "Noble" in refused(state, 0, {"type": "attack", "card": "5c", "to": "R0"})
    assert "your own" in refused(state, 0, {"type": "attack", "card": "5c", "to": "L0"})
    assert "no Guard on C1" in refused(state, 0, {"type": "attack", "card": "5c", "to": "C1"})
    assert "only on an empty space" in refused(state, 0, {"type": "guard", "card": "5c", "to": "C1"})
    assert "would overfill III The Empress on C1" in refused(state, 0, {"type": "place", "card": "4c", "to": "C1"})
    assert "not waiting" in refused(state, 0, {"type": "place", "card": "Ac", "to": "C1"})
    assert "You cannot play a card now" in refused(state, 0, {"type": "play", "card": "4c", "column": 0})
    assert "no court negation" in refused(state, 0, {"type": "negate", "cards": ["Qs", "Kp"]})
    assert "no move called 'match'" in refused(state, 0, {"type": "match", "cards": ["4c", "5c"]})
    state = arrange(board=board, hands=(["M9"], []))
    assert "worth more than IX The Hermit" in refused(state, 0, {"type": "play", "card": "M9", "to": "L0"})
    state = arrange(board={"C0": guard("9s", 1)}, waiting=["4c", "5c", "Ac"], phase="place",
                    variant="outnumber")
    assert "must be needed" in refused(state, 0, {"type": "attack", "cards": ["4c", "5c", "Ac"], "to": "C0"})
    assert "single card attacks with \"card\"" in refused(state, 0, {"type": "attack", "cards": ["5c"], "to": "C0"})
    assert "not both" in refused(state, 0, {"type": "attack", "card": "4c", "cards": ["4c", "5c"], "to": "C0"})


GARBAGE = [
    {"type": "play"}, {"type": "play", "card": None, "to": "C0"}, {"type": "play", "card": "M1", "to": 7},
    {"type": "play", "card": "4c", "column": [0]}, {"type": "place", "card": "4c", "to": {"x": 1}},
    {"type": "attack", "cards": "4c", "to": "C0"}, {"type": "attack", "cards": [], "to": "C0"},
    {"type": "attack", "cards": ["4c", "4c"], "to": "C0"}, {"type": "attack", "cards": [["4c"]], "to": "C0"},
    {"type": "match", "cards": ["4c"]}, {"type": "negate", "cards": ["Kc", "Qc"]}, {"type": "raise"},
    {"type": "refill", "card": "4c"}, {"type": "forfeit", "cards": []}, {"type": ""},
    {"type": "guard", "card": "5c"}, {"type": "give", "card": "4c", "to": "gift:1"},
]


@pytest.mark.parametrize("phase", ["play", "place"])
def test_garbage_is_refused_with_a_message_and_changes_nothing(phase):
    state = arrange(board={"C0": guard("9s", 1), "C1": major("M3", 0)}, hands=(["M1", "2w"], []),
                    waiting=["4c", "5c"] if phase == "place" else [], phase=phase, variant="outnumber")
    for move in GARBAGE:
        assert refused(state, 0, move)
