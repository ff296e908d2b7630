"""Lovers' Discourse, rule by rule (rulebook chapter and RULINGS.md section 5).

Most tests lay out a position directly (``arrange``: the hands, the board, the planes, the
cards waiting to be placed) and then drive it only through the contract; every card not
named goes to the deck, so the 78 cards stay conserved.
"""

from __future__ import annotations

import json
from functools import partial

import pytest

from games.engine import get_rules
from games.engine.cards import DECK

from . import starfield_support
from .conftest import refused_by

LD = get_rules("lovers_discourse")


# --- laying out positions ---------------------------------------------------------------

def major(card, by, minors=(), resolved_by=None):
    """A board entry: ``card`` (or The Sun and The Moon as a list) played by ``by``."""
    cards = [card] if isinstance(card, str) else list(card)
    bys = [by] if isinstance(by, int) else list(by)
    return {"majors": cards, "by": bys, "minors": list(minors), "resolved_by": resolved_by}


def arrange(*, gifts=(None, None), sacred=None, **layout):
    """A position (``starfield_support.arrange``); a gift is (card, locked), and ``sacred``
    makes it a Numerology game with that sacred number."""
    state = starfield_support.arrange(LD, gifts=gifts, **layout)
    if sacred:
        state["sacred"] = {"number": sacred, "card": "M6"}
    return state


act = partial(starfield_support.act, LD)
refused = partial(refused_by, LD)
moves = partial(starfield_support.moves, LD)
targets = partial(starfield_support.targets, LD)


def full_board(except_=(), by=0, resolved=False):
    """Majors M1..M13 on all 13 spaces (minus ``except_``), placed by ``by``."""
    from games.engine.starfield import SPACES
    board = {}
    for n, s in enumerate(SPACES, start=1):
        if s not in except_:
            board[s] = major(f"M{n}", by)
    return board


# --- setting up and taking turns ----------------------------------------------------------

def test_each_partner_draws_three_and_seat_0_begins_with_a_fourth():
    deck = list(DECK)
    state = LD.new_game(5, 2, {}, deck=deck)
    assert state["hands"][0] == deck[0:3] + [deck[6]]  # the turn's draw happened by itself
    assert state["hands"][1] == deck[3:6]
    assert LD.to_act(state) == [0] and state["phase"] == "play"
    assert LD.legal_moves(state, 1) == []


def test_seats_alternate():
    state = LD.new_game(5, 2, {}, deck=list(DECK))
    state = act(state, 0, "play", card="M1", to="C0")
    assert LD.to_act(state) == [1]
    assert state["hands"][1][-1] == DECK[7]  # seat 1's draw happened by itself
    state = act(state, 1, "play", card="M5", to="C4")
    assert LD.to_act(state) == [0]


def test_the_same_seed_deals_the_same_game_and_options_are_checked():
    assert LD.dumps(LD.new_game(3, 2, {})) == LD.dumps(LD.new_game(3, 2, {}))
    assert LD.new_game(3, 2, {})["deck"] != LD.new_game(4, 2, {})["deck"]
    with pytest.raises(ValueError, match="Unknown variant"):
        LD.new_game(1, 2, {"variant": "noble"})
    with pytest.raises(ValueError, match="Unknown option"):
        LD.new_game(1, 2, {"variant": "standard", "speed": 3})
    with pytest.raises(ValueError, match="player"):
        LD.new_game(1, 1, {})
    with pytest.raises(ValueError, match="78"):
        LD.new_game(1, 2, {}, deck=list(DECK)[:-1])
    state = LD.new_game(1, 2, {"variant": ["numerology", "fated", "meditative"]})
    assert state["options"]["variant"] == ["fated", "meditative", "numerology"]


# --- playing Majors -----------------------------------------------------------------------

def test_a_major_goes_to_an_empty_space_on_your_own_edge():
    state = arrange(hands=(["M4"], []))
    assert targets(state, "M4") == {"L0", "C0", "R0"}
    state = arrange(hands=([], ["M4"]), turn=1)
    assert targets(state, "M4", seat=1) == {"L3", "C4", "R3"}


def test_a_major_goes_next_to_a_chain_of_majors_joined_to_your_edge():
    board = {"C0": major("M1", 0), "C1": major("M2", 0), "L3": major("M3", 1)}
    state = arrange(hands=(["M4"], []), board=board)
    # Next to C0/C1 (joined to seat 0's edge), plus the edge itself; not next to L3.
    assert targets(state, "M4") == {"L0", "R0", "C2", "L1", "R1"}


def test_partners_majors_join_your_chain_too():
    board = {"C0": major("M1", 0), "C1": major("M2", 1), "C2": major("M3", 1)}
    state = arrange(hands=(["M4"], []), board=board)
    assert "C3" in targets(state, "M4")


def test_a_chain_broken_by_an_empty_space_gives_no_reach():
    board = {"C0": major("M1", 0), "C2": major("M2", 0)}
    state = arrange(hands=(["M4"], []), board=board)
    assert targets(state, "M4") == {"L0", "R0", "C1"}
    assert "C3 is out of your reach" in refused(state, 0, {"type": "play", "card": "M4", "to": "C3"})


def test_only_one_major_per_space_and_none_once_all_thirteen_are_full():
    state = arrange(hands=(["M20", "2c"], []), board=full_board())
    assert moves(state, 0, "play", "M20") == []
    assert "C0 already holds V The Hierophant" in refused(state, 0, {"type": "play", "card": "M20", "to": "C0"})


# --- The Sun and The Moon -----------------------------------------------------------------

def test_the_sun_and_the_moon_may_share_the_central_space():
    board = {"C0": major("M1", 0), "C1": major("M2", 0), "C2": major("M18", 1)}
    state = arrange(hands=(["M19"], []), board=board)
    assert "C2" in targets(state, "M19")
    state = act(state, 0, "play", card="M19", to="C2")
    entry = state["board"]["C2"]
    assert entry["majors"] == ["M18", "M19"] and entry["by"] == [1, 0]
    assert LD.view(state, 0)["board"]["C2"]["capacity"] == 50


def test_only_the_other_of_the_pair_may_join_c2():
    board = {"C0": major("M1", 0), "C1": major("M2", 0), "C2": major("M7", 1)}
    state = arrange(hands=(["M19", "M18"], []), board=board)
    assert "C2" not in targets(state, "M19") and "C2" not in targets(state, "M18")
    board["C2"] = major("M19", 1)
    state = arrange(hands=(["M18", "M17"], []), board=board)
    assert "C2" in targets(state, "M18") and "C2" not in targets(state, "M17")


def test_joining_c2_needs_c2_within_reach():
    # C2's Sun is joined only to seat 1's edge; seat 0 has nothing joined next to it.
    board = {"C4": major("M1", 1), "C3": major("M2", 1), "C2": major("M19", 1), "C0": major("M3", 0)}
    state = arrange(hands=(["M18"], []), board=board)
    assert "C2" not in targets(state, "M18")


def test_joining_a_resolved_sun_unresolves_it_and_the_pair_is_worth_50():
    board = {"C0": major("M1", 0), "C1": major("M2", 0),
             "C2": major("M19", 1, ["10c", "9c"], resolved_by=1)}
    state = arrange(hands=(["M18"], []), board=board)
    assert LD.scores(state) == [19, 19]
    state = act(state, 0, "play", card="M18", to="C2")
    assert state["board"]["C2"]["resolved_by"] is None
    assert LD.scores(state) == [0, 0]
    # Raised cards now fill the pair up to 50 (19 already there): 31 more.
    state = arrange(board=state["board"], waiting=["10s", "10p", "10w", "Aw"], phase="place")
    for card in ("10s", "10p", "10w"):
        state = act(state, 0, "place", card=card, to="C2")
    assert state["board"]["C2"]["resolved_by"] is None
    state = act(state, 0, "place", card="Aw", to="C2")
    assert state["board"]["C2"]["resolved_by"] == 0
    assert LD.scores(state) == [50, 50]


# --- the Material Plane ---------------------------------------------------------------------

def test_a_minor_goes_on_top_of_any_column_of_your_own_plane():
    planes = [[["2c"], [], []], [["3c"], [], []]]
    state = arrange(hands=(["4s"], []), planes=planes)
    assert targets(state, "4s") == {0, 1, 2}
    state = act(state, 0, "play", card="4s", column=0)  # a new row although row 0 has room
    assert state["planes"][0] == [["2c", "4s"], [], []]
    assert state["planes"][1] == [["3c"], [], []]  # the partner's plane is their own


def test_cards_of_one_suit_in_a_row_or_column_match_even_apart():
    planes = [[["2c"], ["5s"], []], [[], [], []]]
    board = {"C0": major("M10", 0)}
    state = arrange(hands=(["4c"], []), planes=planes, board=board)
    state = act(state, 0, "play", card="4c", column=2)  # same row as 2c, apart from it
    assert state["raised"] == ["2c", "4c"]
    assert state["phase"] == "place"
    assert state["planes"][0] == [[], ["5s"], []]


def test_matches_in_a_row_and_a_column_leave_together():
    # The 5 of Swords lands on the 6 of Swords (its column) beside the 3 of Swords (its row).
    planes = [[["2c", "3s"], ["4w"], ["6s"]], [[], [], []]]
    state = arrange(hands=(["5s"], []), planes=planes, board={"C0": major("M21", 0)})
    state = act(state, 0, "play", card="5s", column=2)
    assert state["raised"] == ["6s", "3s", "5s"]  # in the order they left: row, then column
    assert state["planes"][0] == [["2c"], ["4w"], []]


def test_the_rulebooks_cascade_example():
    # The 9 and 4 of Cups match; the 6 of Pentacles slides up and meets the Knight of
    # Pentacles in its new row.
    planes = [[["9c", "6p"], ["Np"], []], [[], [], []]]
    state = arrange(hands=(["4c"], []), planes=planes, board={"C0": major("M21", 0)})
    state = act(state, 0, "play", card="4c", column=0)
    assert state["raised"] == ["9c", "4c", "6p", "Np"]
    assert state["planes"][0] == [[], [], []]


def test_fated_lets_a_minor_only_onto_the_shortest_columns():
    planes = [[["2c"], [], []], [[], [], []]]
    state = arrange(hands=(["4s"], []), planes=planes, variant="fated")
    assert targets(state, "4s") == {1, 2}
    assert "play on column 1 or 2" in refused(state, 0, {"type": "play", "card": "4s", "column": 0})


# --- raised Minors ----------------------------------------------------------------------------

def example_board():
    """The rulebook's first example, seen from seat 0: its Wheel of Fortune (C0) and Hanged
    Man (L0); the partner's Emperor next to the Wheel (C1), the partner's Empress on seat
    0's edge (R0), and far away the partner's Chariot (C4) and Death (L3)."""
    return {
        "C0": major("M10", 0), "L0": major("M12", 0),
        "C4": major("M7", 1), "L3": major("M13", 1), "C3": major("M17", 1), "C2": major("M19", 1),
        "C1": major("M4", 1), "R1": major("M5", 1), "R0": major("M3", 1),
    }


def test_the_rulebooks_nine_and_three_of_cups():
    state = arrange(board=example_board(), waiting=["9c", "3c"], phase="place")
    # The 9 fits the Wheel (10) or the Hanged Man (12), nothing smaller.
    assert targets(state, "9c", type="place") == {"C0", "L0"}
    # The 3 may go on the partner's Emperor (next to the Wheel) or Empress (on our edge),
    # never on the Chariot or Death.
    three = targets(state, "3c", type="place")
    assert {"C1", "R0"} <= three and three == {"C0", "L0", "C1", "R0"}
    assert "C4" not in three and "L3" not in three
    message = refused(state, 0, {"type": "place", "card": "3c", "to": "C4"})
    assert "C4 is out of your reach" in message


def adjacency_board():
    """The rulebook's second picture: seat 0 owns the Tower (C0) and the Lovers (C1);
    the partner's Death (R1) and Emperor (C2) touch the Lovers; the partner's resolved
    Temperance (L1) stands between the Lovers and the partner's Hanged Man (L2); the
    partner's Empress (L3) touches nothing of seat 0's."""
    return {
        "C0": major("M16", 0), "C1": major("M6", 0),
        "R1": major("M13", 1), "C2": major("M4", 1),
        "L1": major("M14", 1, ["10s", "4s"], resolved_by=1), "L2": major("M12", 1),
        "L3": major("M3", 1), "C4": major("M20", 1), "C3": major("M21", 1), "R2": major("M17", 1),
    }


def test_the_rulebooks_adjacency_picture():
    state = arrange(board=adjacency_board(), waiting=["Ac"], phase="place")
    assert targets(state, "Ac", type="place") == {"C0", "C1", "R1", "C2", "L2"}
    assert "L3" not in targets(state, "Ac", type="place")


def test_a_major_on_your_edge_takes_minors_even_if_you_did_not_place_it():
    board = {"R0": major("M5", 1), "R1": major("M6", 1), "R2": major("M7", 1), "R3": major("M8", 1)}
    state = arrange(board=board, waiting=["2c"], phase="place")
    assert targets(state, "2c", type="place") == {"R0"}


def test_nothing_more_goes_on_a_resolved_major_and_the_total_may_not_pass_its_value():
    board = {"C0": major("M3", 0, ["3c"], resolved_by=0), "L0": major("M4", 0, ["3s"])}
    state = arrange(board=board, waiting=["2p", "Ap"], phase="place")
    assert targets(state, "2p", type="place") == set()  # 3 + 2 > 4, C0 resolved
    assert targets(state, "Ap", type="place") == {"L0"}


def test_a_major_is_resolved_when_its_minors_total_exactly_its_value():
    state = arrange(board={"C0": major("M9", 0)}, waiting=["9p"], phase="place",
                    hands=([], ["2c"]))
    state = act(state, 0, "place", card="9p", to="C0")
    assert state["board"]["C0"]["resolved_by"] == 0
    assert LD.view(state, None)["board"]["C0"]["resolved"] is True


def test_the_fool_is_resolved_by_any_single_minor_and_scores_nothing():
    board = {"C0": major("M0", 0)}
    state = arrange(board=board, waiting=["Kc", "Ac"], phase="place", hands=([], ["2s"]))
    assert targets(state, "Kc", type="place") == {"C0"}
    state = act(state, 0, "place", card="Kc", to="C0")
    assert state["board"]["C0"]["resolved_by"] == 0
    assert LD.scores(state) == [0, 0]
    assert moves(state, 0, "place", "Ac") == []


def test_a_raised_minor_with_no_place_may_lock_any_empty_gift_field():
    board = {"C0": major("M2", 0)}
    state = arrange(board=board, waiting=["9c"], phase="place", gifts=(None, ("5s", False)),
                    hands=([], ["2s"]))
    assert moves(state, 0) == [{"type": "lock", "card": "9c", "to": "gift:0"}]
    state = act(state, 0, "lock", card="9c", to="gift:0")
    assert state["gifts"][0] == {"card": "9c", "locked": True}
    # Face down: nobody's view shows which card locked it.
    for seat in (0, 1, None):
        view = LD.view(state, seat)
        assert view["gifts"]["gift:0"] == {"locked": True}
        assert "9c" not in json.dumps({k: v for k, v in view.items() if k != "log"})
    assert "9c" not in json.dumps(LD.view(state, 1)["log"])


def test_a_card_that_fits_somewhere_may_not_lock_a_gift_field():
    board = {"C0": major("M10", 0)}
    state = arrange(board=board, waiting=["9c"], phase="place")
    assert moves(state, 0, "lock") == []
    refused(state, 0, {"type": "lock", "card": "9c", "to": "gift:1"})


def test_with_no_place_and_no_open_gift_field_both_partners_lose():
    board = {"C0": major("M2", 0)}
    gifts = (("5s", True), ("6s", False))
    state = arrange(board=board, hands=(["9c"], []), planes=[[["8c"], [], []], [[], [], []]],
                    gifts=gifts)
    state = act(state, 0, "play", card="9c", column=1)
    outcome = LD.outcome(state)
    assert outcome["result"] == "loss" and outcome["winners"] == []
    assert "Eight of Cups" in outcome["reason"]
    assert LD.to_act(state) == [] and LD.legal_moves(state, 0) == []
    refused(state, 0, {"type": "play", "card": "9c", "column": 0})


def test_the_loss_waits_while_another_raised_card_can_still_be_placed():
    board = {"C0": major("M2", 0)}
    gifts = (("5s", True), ("6s", True))
    state = arrange(board=board, waiting=["9c", "2c"], phase="place", gifts=gifts)
    assert moves(state) == [{"type": "place", "card": "2c", "to": "C0"}]
    state = act(state, 0, "place", card="2c", to="C0")
    assert LD.outcome(state)["result"] == "loss"
    assert state["end"]["obstacle"] == "9c"


def test_placing_a_card_can_open_a_way_across_a_resolved_sefira():
    # Resolving the partner's L1 lets seat 0 reach L2 across it.
    board = {"C1": major("M6", 0), "L1": major("M3", 1, ["Ac"]), "L2": major("M12", 1),
             "L3": major("M5", 1)}
    state = arrange(board=board, waiting=["2c", "Qc"], phase="place")
    assert "L2" not in targets(state, "Qc", type="place")
    state = act(state, 0, "place", card="2c", to="L1")
    assert state["board"]["L1"]["resolved_by"] == 0
    assert "L2" in targets(state, "Qc", type="place")


# --- court negation ---------------------------------------------------------------------------

def test_two_matched_court_cards_may_negate_then_discard_and_draw_up_to_four():
    planes = [[["Qc"], [], []], [[], [], []]]
    state = arrange(hands=(["Kc", "2s", "3s"], []), planes=planes, board={"C0": major("M21", 0)},
                    deck=["4s", "5s", "6s", "7s"])
    state = act(state, 0, "play", card="Kc", column=1)
    assert state["phase"] == "negate"
    assert moves(state) == [{"type": "negate", "cards": ["Qc", "Kc"]}, {"type": "raise"}]
    state = act(state, 0, "negate", cards=["Kc", "Qc"])  # any order is accepted
    assert state["out"] == ["Qc", "Kc"] and state["raised"] == []
    assert state["phase"] == "discard"
    assert moves(state) == [{"type": "discard", "card": "2s"}, {"type": "discard", "card": "3s"},
                            {"type": "refill"}]
    state = act(state, 0, "discard", card="2s")
    state = act(state, 0, "refill")
    # Back up to four: 3s plus three drawn; the turn then passed to seat 1.
    assert state["hands"][0] == ["3s", "4s", "5s", "6s"]
    assert LD.to_act(state) == [1]


def test_negation_is_optional():
    planes = [[["Qc"], [], []], [[], [], []]]
    state = arrange(hands=(["Kc"], []), planes=planes, board={"C0": major("M21", 0)})
    state = act(state, 0, "play", card="Kc", column=1)
    state = act(state, 0, "raise")
    assert state["phase"] == "place" and state["raised"] == ["Qc", "Kc"]


def test_a_group_negates_one_pair_and_raises_the_rest():
    planes = [[["Qc"], ["Nc"], []], [[], [], []]]
    state = arrange(hands=(["Kc"], []), planes=planes, board={"C0": major("M21", 0)})
    state = act(state, 0, "play", card="Kc", column=2)
    assert len(moves(state, 0, "negate")) == 3
    state = act(state, 0, "negate", cards=["Nc", "Kc"])
    state = act(state, 0, "refill")
    assert state["phase"] == "place" and state["raised"] == ["Qc"]


def test_hand_discards_stay_hidden_from_the_partner():
    planes = [[["Qc"], [], []], [[], [], []]]
    state = arrange(hands=(["Kc", "7w"], []), planes=planes, board={"C0": major("M21", 0)})
    state = act(state, 0, "play", card="Kc", column=1)
    state = act(state, 0, "negate", cards=["Qc", "Kc"])
    state = act(state, 0, "discard", card="7w")
    assert "7w" in json.dumps(LD.view(state, 0))
    assert "7w" not in json.dumps(LD.view(state, 1))
    assert "7w" not in json.dumps(LD.view(state, None))
    assert LD.view(state, 1)["discard_count"] == 1


# --- Numerology -------------------------------------------------------------------------------

def test_numerology_takes_its_sacred_number_from_the_first_card_worth_six_to_ten():
    deck = ["M2", "Ac", "M12", "Qs"] + [c for c in DECK if c not in ("M2", "Ac", "M12", "Qs")]
    state = LD.new_game(1, 2, {"variant": "numerology"}, deck=deck)
    assert state["sacred"] == {"number": 10, "card": "Qs"}
    assert state["hands"][0][:3] == ["M2", "Ac", "M12"]  # a given deck is not reshuffled
    state = LD.new_game(1, 2, {"variant": "numerology"})
    assert 6 <= state["sacred"]["number"] <= 10
    assert LD.view(state, 0)["sacred"] == state["sacred"]["number"]
    assert LD.view(state, 0)["sacred_card"] is None  # it may be in someone's hand


def test_numerology_matches_sets_totalling_a_multiple_of_the_sacred_number():
    planes = [[["3c"], ["5s"], []], [[], [], []]]
    state = arrange(hands=(["4p"], []), planes=planes, board={"C0": major("M21", 0)},
                    variant="numerology", sacred=7)
    state = act(state, 0, "play", card="4p", column=0)  # 3 + 4 in column 0 = 7
    assert sorted(state["raised"]) == ["3c", "4p"]


def test_numerology_lets_the_player_choose_between_sets():
    planes = [[["3c"], ["4s"], []], [[], [], []]]
    state = arrange(hands=(["3p"], []), planes=planes, board={"C0": major("M21", 0)},
                    variant="numerology", sacred=7)
    state = act(state, 0, "play", card="3p", column=2)  # row: 3+4, 4+3 ; 3+4+3 = 10 no
    assert state["phase"] == "choose_set"
    sets = [m["cards"] for m in moves(state, 0, "match")]
    assert sorted(map(sorted, sets)) == [["3c", "4s"], ["3p", "4s"]]
    state = act(state, 0, "match", cards=["4s", "3p"])
    assert sorted(state["raised"]) == ["3p", "4s"] and state["planes"][0] == [["3c"], [], []]


def test_numerology_court_pairs_of_one_suit_always_negate():
    planes = [[["Qc"], [], []], [[], [], []]]
    state = arrange(hands=(["Kc", "2s"], []), planes=planes, board={"C0": major("M21", 0)},
                    variant="numerology", sacred=7)
    state = act(state, 0, "play", card="Kc", column=1)
    assert state["out"] == ["Qc", "Kc"] and state["phase"] == "discard"


def test_numerology_courts_of_different_suits_never_negate():
    planes = [[["Qc"], [], []], [[], [], []]]
    state = arrange(hands=(["Ks"], []), planes=planes, board={"C0": major("M21", 0)},
                    variant="numerology", sacred=10)
    state = act(state, 0, "play", card="Ks", column=1)  # 10 + 10 = 20: a set, raised
    assert state["out"] == [] and sorted(state["raised"]) == ["Ks", "Qc"]
    assert state["phase"] == "place"


def test_meditative_doubles_values_but_the_fool_still_takes_one_card():
    board = {"C0": major("M3", 0, ["3c"]), "L0": major("M0", 0),
             "C1": major(["M19", "M18"], [0, 1])}
    state = arrange(board=board, waiting=["2c"], phase="place", variant="meditative")
    view = LD.view(state, 0)
    assert view["board"]["C0"]["capacity"] == 6 and view["board"]["C1"]["capacity"] == 100
    state = act(state, 0, "place", card="2c", to="L0")
    assert state["board"]["L0"]["resolved_by"] == 0
    assert state["board"]["C0"]["resolved_by"] is None  # 3 of 6


# --- the Gift Fields --------------------------------------------------------------------------

def test_drawing_or_taking_your_own_gift_is_a_choice_when_both_are_possible():
    state = arrange(hands=(["M1"], ["M2"]), gifts=(None, ("5s", False)), turn=0)
    state = act(state, 0, "play", card="M1", to="C0")
    assert state["phase"] == "draw" and LD.to_act(state) == [1]
    assert moves(state, 1) == [{"type": "draw"}, {"type": "take", "card": "5s"}]
    taken = act(state, 1, "take", card="5s")
    assert "5s" in taken["hands"][1] and taken["gifts"][1] is None
    assert len(taken["deck"]) == len(state["deck"])  # took instead of drawing
    drawn = act(state, 1, "draw")
    assert drawn["gifts"][1] == {"card": "5s", "locked": False}
    assert len(drawn["hands"][1]) == 2


def test_you_take_only_from_your_own_gift_field():
    state = arrange(hands=(["M1"], ["M2"]), gifts=(("5s", False), None))
    state = act(state, 0, "play", card="M1", to="C0")
    assert state["phase"] == "play"  # seat 1's own field is empty: it simply drew
    assert state["gifts"][0] == {"card": "5s", "locked": False}


def test_taking_is_automatic_when_the_deck_is_empty():
    state = arrange(hands=(["M1"], ["M2"]), gifts=(None, ("5s", False)), empty_deck=True)
    state = act(state, 0, "play", card="M1", to="C0")
    assert state["phase"] == "play" and state["hands"][1] == ["M2", "5s"]


def test_a_locked_gift_field_is_never_taken_from():
    state = arrange(hands=(["M1"], ["M2"]), gifts=(None, ("5s", True)))
    state = act(state, 0, "play", card="M1", to="C0")
    assert state["phase"] == "play" and state["gifts"][1] == {"card": "5s", "locked": True}


def test_any_hand_card_may_be_given_face_up_to_the_partners_empty_gift_field():
    state = arrange(hands=(["M1", "5s"], ["2c"]))
    gives = moves(state, 0, "give")
    assert gives == [{"type": "give", "card": "M1", "to": "gift:1"},
                     {"type": "give", "card": "5s", "to": "gift:1"}]
    state = act(state, 0, "give", card="M1", to="gift:1")
    assert state["gifts"][1] == {"card": "M1", "locked": False}
    assert LD.to_act(state) == [1]  # giving was the turn's play
    assert LD.view(state, None)["gifts"]["gift:1"] == {"card": "M1"}  # face up


def test_no_gift_onto_your_own_field_an_occupied_one_or_once_the_deck_is_empty():
    state = arrange(hands=(["5s"], []))
    refused(state, 0, {"type": "give", "card": "5s", "to": "gift:0"})
    state = arrange(hands=(["5s"], []), gifts=(None, ("6s", False)))
    assert moves(state, 0, "give") == []
    state = arrange(hands=(["5s"], []), empty_deck=True)
    assert moves(state, 0, "give") == []
    assert "deck is empty" in refused(state, 0, {"type": "give", "card": "5s", "to": "gift:1"})


def test_a_card_that_came_as_a_gift_is_never_given_again():
    # Seat 0 gives the 5 of Swords; seat 1 takes it instead of drawing and may not hand it
    # straight back (nor later), though any other card may still go.
    state = arrange(hands=(["5s", "M1"], ["2c"]))
    state = act(state, 0, "give", card="5s", to="gift:1")
    state = act(state, 1, "take", card="5s")
    assert {m["card"] for m in moves(state, 1, "give")} == {"2c"}
    message = refused(state, 1, {"type": "give", "card": "5s", "to": "gift:0"})
    assert "Five of Swords came to you as a gift" in message
    state = act(state, 1, "play", card="5s", column=0)
    assert state["given"] == ["5s"]


# --- victory and defeat -----------------------------------------------------------------------

def test_both_win_the_moment_all_thirteen_spaces_hold_resolved_majors():
    board = {s: dict(e, resolved_by=0) for s, e in full_board().items()}
    board["C0"]["resolved_by"] = None  # C0 holds The Hierophant and waits for 5 points
    state = arrange(board=board, waiting=["5c", "2c"], phase="place")
    state = act(state, 0, "place", card="5c", to="C0")
    outcome = LD.outcome(state)
    assert outcome["result"] == "win" and outcome["winners"] == [0, 1]
    assert outcome["scores"][0] == outcome["scores"][1] == sum(range(1, 14))
    assert state["raised"] == ["2c"]  # left over, no longer needing a place
    assert LD.to_act(state) == []


def test_a_partner_who_cannot_act_on_their_turn_loses_the_game_for_both():
    # Seat 1 will hold only Majors, every space is taken, and its gift cannot be made
    # (seat 0's field is occupied).
    state = arrange(hands=(["2c"], ["M14"]), board=full_board(), deck=["M15"],
                    gifts=(("5s", False), None))
    state = act(state, 0, "play", card="2c", column=0)
    outcome = LD.outcome(state)
    assert outcome["result"] == "loss" and "Seat 1" in outcome["reason"]
    assert "Temperance" not in outcome["reason"] and "Devil" not in outcome["reason"]
    assert state["end"]["obstacle"] == "M15"


def test_a_partner_with_majors_and_nowhere_to_put_them_may_still_give_one():
    state = arrange(hands=(["2c"], ["M14"]), board=full_board(), deck=["M15"])
    state = act(state, 0, "play", card="2c", column=0)
    assert LD.outcome(state) is None
    assert {m["type"] for m in moves(state, 1)} == {"give"}


def test_an_empty_hand_with_nothing_to_draw_loses():
    state = arrange(hands=(["2c"], []), empty_deck=True)
    state = act(state, 0, "play", card="2c", column=0)
    assert LD.outcome(state)["result"] == "loss"
    assert state["end"]["obstacle"] is None


# --- readings ---------------------------------------------------------------------------------

def test_the_reading_remembers_the_first_major_joining_both_edges():
    board = {"C0": major("M1", 0), "C1": major("M2", 0), "C3": major("M3", 1), "C4": major("M4", 1)}
    state = arrange(hands=(["M6"], []), board=board)
    state = act(state, 0, "play", card="M6", to="C2")
    first = LD.reading(state)["positions"][0]
    assert first["id"] == "first_contact" and first["card"] == "M6" and first["space"] == "C2"
    assert first["keyword"] == "union" and first["question"].endswith("?")


def test_the_reading_remembers_the_first_major_resolved_by_the_partner():
    board = {"C0": major("M2", 1), "L0": major("M1", 0)}
    state = arrange(board=board, waiting=["Ac", "2c"], phase="place")
    state = act(state, 0, "place", card="Ac", to="L0")  # own Major: not it
    assert LD.reading(state)["positions"][1]["card"] is None
    state = act(state, 0, "place", card="2c", to="C0")  # the partner's: this one
    coop = LD.reading(state)["positions"][1]
    assert coop["id"] == "cooperation" and coop["card"] == "M2" and coop["minors"] == ["2c"]
    assert coop["minor_keywords"] == ["bond"]


def test_without_such_a_resolution_the_central_major_stands_in_once_the_game_is_over():
    board = {"C0": major("M2", 0), "C1": major("M3", 0), "C2": major("M9", 0)}
    state = arrange(board=board, hands=(["Kc"], []), planes=[[["Qc"], [], []], [[], [], []]],
                    gifts=(("5s", True), ("6s", True)))
    state = act(state, 0, "play", card="Kc", column=1)
    state = act(state, 0, "raise")  # raise both courts rather than negate: neither fits
    assert LD.outcome(state)["result"] == "loss"
    spread = LD.reading(state)
    coop = spread["positions"][1]
    assert coop["card"] == "M9" and coop["space"] == "C2" and coop["stand_in"] is True
    last = spread["positions"][2]
    assert last["id"] == "obstacle" and last["card"] == "Qc"
    assert spread["cards"] == ["M9", "Qc"]
    assert spread["complete"] is True and spread["result"] == "loss"


def test_a_won_reading_ends_with_the_last_resolved_major():
    board = {s: dict(e, resolved_by=0) for s, e in full_board().items()}
    board["R3"] = major("M13", 1)
    state = arrange(board=board, waiting=["10s", "3s"], phase="place")
    state = act(state, 0, "place", card="10s", to="R3")
    state = act(state, 0, "place", card="3s", to="R3")
    last = LD.reading(state)["positions"][2]
    assert last["id"] == "strength" and last["card"] == "M13" and last["minors"] == ["10s", "3s"]


def test_the_sacred_columns_and_the_ouroboros_readings():
    board = {"L0": major("M1", 0), "C2": major("M2", 1), "C1": major("M3", 0), "L1": major("M4", 0),
             "L2": major("M5", 1), "C3": major("M6", 1), "R1": major("M7", 0), "R2": major("M8", 1)}
    reading = LD.reading(arrange(board=board))
    sections = {s["id"]: s for s in reading["sections"]}
    assert set(sections) == {"three_cards", "sacred_columns", "ouroboros"}
    cols = {p["space"]: p for p in sections["sacred_columns"]["positions"]}
    assert len(cols) == 13
    assert cols["L0"]["column_meaning"] == "emotional" and cols["L0"]["near_seat"] == 0
    assert cols["R2"]["column_meaning"] == "intellectual" and cols["R2"]["near_seat"] == 1
    assert cols["C2"]["near_seat"] is None and cols["C2"]["card"] == "M2"
    rings = sections["ouroboros"]["positions"]
    seat0_left = [p["space"] for p in rings if p.get("seat") == 0 and p.get("ring") == "left"]
    seat1_left = [p["space"] for p in rings if p.get("seat") == 1 and p.get("ring") == "left"]
    assert seat0_left == ["C1", "L1", "L2", "C3"]  # from the tip nearest seat 0
    assert seat1_left == ["C3", "L2", "L1", "C1"]  # and from seat 1's side
    assert [p["card"] for p in rings if p.get("seat") == 0 and p.get("ring") == "right"] == \
        ["M3", "M7", "M8", "M6"]
    meetings = [p for p in rings if p["id"].startswith("meeting")]
    assert [p["space"] for p in meetings] == ["C1", "C3"]
    for section in sections.values():
        for p in section["positions"]:
            assert p["question"].endswith("?")
            assert all(isinstance(k, str) for k in p["keywords"] + p["minor_keywords"])


# --- views, words and refusals ----------------------------------------------------------------

def test_a_view_shows_your_own_hand_counts_for_the_rest_and_nothing_to_a_spectator():
    state = LD.new_game(9, 2, {})
    mine, theirs = state["hands"]
    v0 = LD.view(state, 0)
    assert v0["hand"] == mine and v0["hand_counts"] == [4, 3] and v0["deck_count"] == 78 - 7
    text = json.dumps(v0)
    assert not any(f'"{c}"' in text for c in theirs + state["deck"])
    spectator = LD.view(state, None)
    assert spectator["hand"] is None and spectator["legal_moves"] == []
    assert not any(f'"{c}"' in json.dumps(spectator) for c in mine + theirs + state["deck"])
    with pytest.raises(ValueError):
        LD.view(state, 2)


def test_the_log_names_a_draw_only_to_the_one_who_drew():
    state = LD.new_game(9, 2, {})
    drawn = state["hands"][0][-1]
    own = [e for e in LD.view(state, 0)["log"] if e["event"] == "draw"]
    other = [e for e in LD.view(state, 1)["log"] if e["event"] == "draw"]
    assert own[-1]["cards"] == [drawn]
    assert "cards" not in other[-1] and other[-1]["count"] == 1


def test_moves_out_of_turn_malformed_or_unknown_are_refused_with_reasons():
    state = LD.new_game(9, 2, {}, deck=list(DECK))
    assert refused(state, 1, {"type": "play", "card": "M4", "to": "L3"}) == "It is not your turn."
    assert "type" in refused(state, 0, {"card": "M1"})
    assert "key" in refused(state, 0, {"type": "play", "card": "M1", "to": "C0", "why": 1})
    assert "no move called" in refused(state, 0, {"type": "fly"})
    assert "do not hold" in refused(state, 0, {"type": "play", "card": "M20", "to": "C0"})
    assert "not a card" in refused(state, 0, {"type": "play", "card": "Zz", "to": "C0"})
    assert "Major" in refused(state, 0, {"type": "play", "card": "M1", "column": 0})
    assert "out of your reach" in refused(state, 0, {"type": "play", "card": "M1", "to": "C4"})
    assert refused(state, 0, {"type": "play", "card": "M1", "to": ["C0"]})
    assert refused(state, 0, "play M1")
    assert refused(state, True, {"type": "play", "card": "M1", "to": "C0"})
    assert "cannot place" in refused(state, 0, {"type": "place", "card": "M1", "to": "C0"})


def test_a_column_must_be_a_whole_number():
    state = arrange(hands=(["4s"], []))
    refused(state, 0, {"type": "play", "card": "4s", "column": 1.0})
    refused(state, 0, {"type": "play", "card": "4s", "column": True})
    refused(state, 0, {"type": "play", "card": "4s", "column": 3})


def test_moves_are_described_in_words():
    state = arrange(hands=(["M4", "4s"], []), board={"C0": major("M10", 0)})
    assert LD.describe_move(state, 0, {"type": "play", "card": "M4", "to": "C1"}) == "Play IV The Emperor to C1"
    assert LD.describe_move(state, 0, {"type": "place", "card": "4s", "to": "C0"}) == \
        "Place Four of Swords on X Wheel of Fortune on C0: 4 of 10"
    assert LD.describe_move(state, 0, {"type": "play", "card": "M4", "column": "x"})
    assert "column 2" in LD.describe_move(state, 0, {"type": "play", "card": "4s", "column": 1})
    assert "the Sun" in LD.describe_move(state, 0, {"type": "give", "card": "4s", "to": "gift:1"})


def test_a_lock_refusal_names_the_major_the_card_fits_on():
    state = arrange(board={"C0": major("M10", 0)}, waiting=["9c"], phase="place")
    assert "fits on the Major on C0" in refused(state, 0, {"type": "lock", "card": "9c", "to": "gift:1"})
    assert "no move called 'forfeit'" in refused(state, 0, {"type": "forfeit"})


def test_warring_planets_moves_are_refused_as_unknown_here():
    state = arrange(board={"C0": major("M10", 0)}, waiting=["9c", "4c"], phase="place")
    assert "no move called 'guard'" in refused(state, 0, {"type": "guard", "card": "9c", "to": "L0"})
    message = refused(state, 0, {"type": "attack", "cards": ["4c", "9c"], "to": "C0"})
    assert "no move called 'attack' in Lovers' Discourse (there are no Guards" in message


GARBAGE = [
    {"type": "play"}, {"type": "play", "card": None, "to": "C0"}, {"type": "play", "card": "M1", "to": 7},
    {"type": "play", "card": "4c", "column": [0]}, {"type": "place", "card": "4c", "to": {"x": 1}},
    {"type": "match", "cards": "4c"}, {"type": "match", "cards": []}, {"type": "negate", "cards": ["Kc", "Kc"]},
    {"type": "negate", "cards": [["Kc"]]}, {"type": "take", "card": "M1"}, {"type": "lock", "card": "4c"},
    {"type": "give", "card": "M1", "to": None}, {"type": "discard"}, {"type": "refill", "to": "C0"},
    {"type": ""}, {"type": "draw", "card": "M1"}, {"type": "attack", "card": "4c", "to": "C0"},
    {"type": "attack", "cards": ["4c", "Kc"], "to": "C0"}, {"type": "guard", "card": "4c", "to": "L0"},
    {"type": "forfeit"},
]


@pytest.mark.parametrize("phase", ["draw", "play", "negate", "discard", "place"])
def test_garbage_is_refused_with_a_message_and_changes_nothing(phase):
    state = arrange(board={"C0": major("M3", 0)}, hands=(["M1", "2w"], []), gifts=(("5s", False), None),
                    waiting=["4c", "Kc", "Qc"] if phase in ("place", "negate") else [], phase=phase)
    if phase == "negate":
        state["groups"] = [{"cards": ["Kc", "Qc"], "must": False, "done": False}]
    for move in GARBAGE:
        assert refused(state, 0, move)
