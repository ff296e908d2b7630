"""Lovers' Discourse and Warring Planets as first printed (the 2021 prototype text,
RULINGS 7): where a Minor may go, transfers from the Material Plane, Guards, the
resolver's points, the Sun and the Moon on the centre, and Easy.  Positions are laid out
with ``arrange`` (every card not named stays in the deck) or dealt from a stacked deck."""

from __future__ import annotations

from functools import partial

import pytest

from games.engine import get_rules
from games.engine.cards import DECK

from .conftest import refused_by
from .starfield_support import act as _act, arrange as _arrange, targets as _targets

LD = get_rules("lovers_discourse_2021")
WP = get_rules("warring_planets_2021")


def major(card, by, minors=(), resolved_by=None, facing=None):
    entry = {"majors": [card], "by": [by], "minors": list(minors), "resolved_by": resolved_by}
    if facing is not None:
        entry["facing"] = facing
    return entry


# --- both games --------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", [LD, WP], ids=lambda r: r.slug)
def test_a_stacked_deck_deals_three_each_and_fills_the_plane_in_reading_order(rules):
    # Seat 0's hand, seat 1's hand, then one draw a turn.
    deck = ["2c", "4s", "5p", "Ac", "Aw", "As", "8w", "2w", "3w", "4w"]
    state = rules.new_game(0, 2, {"variant": "standard"}, deck=deck + [c for c in DECK if c not in deck])
    assert state["hands"] == [["2c", "4s", "5p", "8w"], ["Ac", "Aw", "As"]]
    assert _targets(rules, state, "2c") == {0}
    for seat, card in ((0, "2c"), (1, "Ac"), (0, "4s"), (1, "Aw"), (0, "5p"), (1, "As")):
        state = _act(rules, state, seat, "play", card=card, column=_targets(rules, state, card, seat).pop())
    assert state["planes"][0] == [["2c"], ["4s"], ["5p"]]
    assert _targets(rules, state, "8w") == {0}
    # 2c and 8w share the left column: 10 rises; with no Major on the Starfield it is discarded.
    state = _act(rules, state, 0, "play", card="8w", column=0)
    assert sorted(state["discard"]) == ["2c", "8w"] and state["planes"][0] == [[], ["4s"], ["5p"]]


@pytest.mark.parametrize("rules", [LD, WP], ids=lambda r: r.slug)
def test_a_choice_between_two_sets_on_a_seats_own_plane(rules):
    state = _arrange(rules, hands=(["7p"], []), planes=[[["3c"], ["3s"], []], [[], [], []]],
                     board={"C0": major("M21", 0, facing=0 if rules is WP else None)})
    if rules is LD:
        state["board"]["C0"].pop("facing", None)
    state = _act(rules, state, 0, "play", card="7p", column=2)
    assert state["phase"] == "choose_set"
    assert [m["cards"] for m in rules.legal_moves(state, 0) if m["type"] == "match"] == [["3c", "7p"], ["3s", "7p"]]
    state = _act(rules, state, 0, "match", cards=["3c", "7p"])
    assert state["raised"] == ["3c", "7p"] and state["planes"][0] == [[], ["3s"], []]
    assert _targets(rules, state, "3c", type="place") == {"C0"}


# --- Lovers' Discourse 2021 ---------------------------------------------------------------------

arrange_ld = partial(_arrange, LD)


def test_a_minor_goes_on_the_partners_major_only_beside_a_major_you_played():
    board = {"C1": major("M9", 1), "L3": major("M7", 1)}
    state = arrange_ld(hands=(["3c", "M4"], []), board=board)
    assert _targets(LD, state, "3c") == {0}  # only the plane: no Major of yours beside C1
    assert "out of your reach" in refused_by(LD, state, 0, {"type": "play", "card": "3c", "to": "C1"})
    board["C0"] = major("M4", 0)
    state = arrange_ld(hands=(["3c"], []), board=board)
    assert _targets(LD, state, "3c") == {0, "C0", "C1"}  # not L3, far from C0
    state = _act(LD, state, 0, "play", card="3c", to="C1")
    assert state["board"]["C1"]["minors"] == ["3c"] and state["turn"] == 1


def test_there_are_no_gift_fields_and_no_negation():
    state = arrange_ld(hands=(["3c", "Kc"], ["4c"]))
    assert {m["type"] for m in LD.legal_moves(state, 0)} == {"play"}
    assert "gifts" not in LD.view(state, 0)
    assert "no Gift Fields" in refused_by(LD, state, 0, {"type": "give", "card": "3c", "to": "gift:1"})
    assert not any(z.startswith("gift") for z in LD.zones(state))


def test_a_transfer_with_no_place_loses_the_game_for_both():
    state = arrange_ld(hands=(["7s"], []), board={"C0": major("M1", 0)}, planes=[[["3c"], [], []], [[], [], []]])
    state = _act(LD, state, 0, "play", card="7s", column=1)
    outcome = LD.outcome(state)
    assert outcome["result"] == "loss" and outcome["winners"] == []
    assert "had no Major to go on" in outcome["reason"]


def test_all_thirteen_spaces_resolved_win_together_and_the_fool_does_not_stand_in_the_way():
    spaces = ["L0", "L1", "L2", "L3", "C0", "C1", "C3", "C4", "R0", "R1", "R2", "R3"]
    board = {s: major(f"M{n + 4}", n % 2, resolved_by=n % 2) for n, s in enumerate(spaces)}
    board["L3"] = major("M0", 1)  # The Fool: worth nothing, never resolved
    board["C2"] = major("M3", 0)
    state = arrange_ld(hands=(["3c"], []), board=board)
    assert "L3" not in _targets(LD, state, "3c")
    state = _act(LD, state, 0, "play", card="3c", to="C2")
    outcome = LD.outcome(state)
    assert outcome["result"] == "win" and outcome["winners"] == [0, 1]
    assert LD.view(state, 0)["board"]["L3"]["never"] is True


def test_easy_doubles_every_value_in_lovers_discourse():
    state = arrange_ld(hands=(["Kc"], []), board={"C0": major("M5", 0)}, variant="easy")
    assert LD.view(state, 0)["board"]["C0"]["capacity"] == 10
    state = _act(LD, state, 0, "play", card="Kc", to="C0")
    assert state["board"]["C0"]["resolved_by"] == 0
    plain = arrange_ld(hands=(["Kc"], []), board={"C0": major("M5", 0)})
    assert "C0" not in _targets(LD, plain, "Kc")
    with pytest.raises(ValueError, match="Unknown variant"):
        LD.new_game(0, 2, {"variant": "numerology"})


# --- Warring Planets 2021 -----------------------------------------------------------------------

arrange_wp = partial(_arrange, WP)


def test_a_guard_goes_on_an_empty_space_next_to_any_major_and_blocks_the_rivals_majors():
    board = {"C1": major("M9", 1, facing=1), "C4": major("M2", 1, facing=1)}
    state = arrange_wp(hands=(["5c", "M4"], ["M6", "5s", "4s"]), board=board)
    assert _targets(WP, state, "5c", type="guard") == {"C0", "C2", "L1", "R1", "C3"}
    state = _act(WP, state, 0, "guard", card="5c", to="C2")
    assert state["board"]["C2"] == {"guard": "5c", "facing": 0}
    # Seat 1 could reach C2 from its Hermit on C1, but seat 0's Guard holds it.
    assert "C2" not in _targets(WP, state, "M6", seat=1)
    assert "rival's Guard" in refused_by(WP, state, 1, {"type": "play", "card": "M6", "to": "C2"})
    state = _act(WP, state, 1, "play", card="M6", to="C0")
    # Seat 0 may now play a Major beside its Guard, far from its own edge.
    assert "C3" in _targets(WP, state, "M4")


def test_a_guard_falls_to_a_minor_worth_as_much_or_more_and_both_leave():
    board = {"C1": major("M9", 1, facing=1), "C2": {"guard": "5c", "facing": 0}}
    state = arrange_wp(hands=([], ["5s", "4s"]), board=board, turn=1)
    assert _targets(WP, state, "5s", seat=1, type="attack") == {"C2"}  # equal is enough
    assert _targets(WP, state, "4s", seat=1, type="attack") == set()
    assert "worth less than the Guard" in refused_by(WP, state, 1, {"type": "attack", "card": "4s", "to": "C2"})
    state = _act(WP, state, 1, "attack", card="5s", to="C2")
    assert "C2" not in state["board"] and sorted(state["discard"])[-2:] == ["5c", "5s"]


def test_a_minor_goes_on_the_rivals_major_only_beside_a_major_or_guard_you_played():
    board = {"C0": major("M3", 0, facing=0), "R3": major("M8", 1, facing=1)}
    state = arrange_wp(hands=([], ["3s"]), board=board, turn=1)
    assert "C0" not in _targets(WP, state, "3s", seat=1)
    board["C1"] = {"guard": "2w", "facing": 1}
    state = arrange_wp(hands=([], ["3s"]), board=board, turn=1)
    assert "C0" in _targets(WP, state, "3s", seat=1)


def test_the_resolver_claims_the_points_of_the_major():
    board = {"C0": major("M3", 0, facing=0), "C1": major("M9", 1, facing=1)}
    state = arrange_wp(hands=([], ["3s"]), board=board, turn=1)
    state = _act(WP, state, 1, "play", card="3s", to="C0")
    assert state["board"]["C0"]["resolved_by"] == 1 and state["board"]["C0"]["facing"] == 0
    assert WP.scores(state) == [0, 3]


def test_the_sun_and_the_moon_together_on_the_centre_are_worth_50():
    board = {"C2": major("M19", 0, minors=["4c"], facing=0), "C3": major("M2", 1, facing=1)}
    state = arrange_wp(hands=([], ["M18"]), board=board, turn=1)
    assert "C2" in _targets(WP, state, "M18", seat=1)
    state = _act(WP, state, 1, "play", card="M18", to="C2")
    view = WP.view(state, 0)["board"]["C2"]
    assert view["majors"] == ["M19", "M18"] and view["capacity"] == 50 and view["total"] == 4


def test_the_war_ends_when_every_space_holds_a_resolved_major_and_the_higher_score_wins():
    spaces = ["L0", "L1", "L2", "L3", "C0", "C1", "C3", "C4", "R0", "R1", "R2", "R3"]
    board = {s: major(f"M{n + 4}", 0, resolved_by=0, facing=0) for n, s in enumerate(spaces)}
    board["C3"] = major("M10", 1, resolved_by=1, facing=1)
    board["C2"] = major("M3", 0, facing=0)
    state = arrange_wp(hands=([], ["3s"]), board=board, turn=1)
    assert WP.outcome(state) is None
    state = _act(WP, state, 1, "play", card="3s", to="C2")
    outcome = WP.outcome(state)
    seat_0 = sum(range(4, 16)) - 10  # every Major but The Wheel (C3) and The Empress (C2)
    assert outcome["scores"] == [seat_0, 10 + 3] and outcome["winners"] == [0]


def test_easy_doubles_every_value_in_warring_planets():
    state = arrange_wp(hands=(["Kc"], []), board={"C0": major("M5", 0, facing=0)}, variant="easy")
    assert "C0" in _targets(WP, state, "Kc")
    with pytest.raises(ValueError, match="Unknown variant"):
        WP.new_game(0, 2, {"variant": "noble"})


def test_either_rival_may_forfeit_even_while_a_set_is_being_chosen():
    state = _arrange(WP, hands=(["7p"], []), planes=[[["3c"], ["3s"], []], [[], [], []]],
                     board={"C0": major("M21", 0, facing=0)})
    state = _act(WP, state, 0, "play", card="7p", column=2)
    assert state["phase"] == "choose_set"
    assert {"type": "forfeit"} in WP.legal_moves(state, 0) and WP.legal_moves(state, 1) == [{"type": "forfeit"}]
    over = WP.apply(state, 0, {"type": "forfeit"})
    assert WP.outcome(over)["winners"] == [1]
