"""Tarot Hallow rounds with stacked decks: who wins a Major, ties, court powers, stacking in
the Reading and the Fool round (tarot-hallow.txt, RULINGS 7)."""

from __future__ import annotations

from .conftest import codes_in, refused_by
from .tarot_hallow_support import TH, give_reading, new, play, round_of, top

FILL = {0: ["2s", "3s", "4s"], 1: ["5s", "6s", "8s"], 2: ["2w", "3w", "4w"], 3: ["5w", "6w", "8w"]}


def test_every_seat_plays_face_down_and_the_highest_number_wins_the_major():
    state = new(3, [["7c", "2s", "3s", "4s"], ["9c", "5s", "6s", "8s"], ["3c", "2w", "3w", "4w"]],
                majors=["M13", "M1"])
    assert TH.to_act(state) == [0, 1, 2]
    assert TH.view(state, 0)["major"] == "M13"
    state = play(state, (0, "7c"))
    assert TH.to_act(state) == [1, 2]
    others = TH.view(state, 1)
    assert others["has_played"] == [True, False, False]
    assert "7c" not in codes_in(others) and "7c" not in codes_in(TH.view(state, None))
    assert TH.view(state, 0)["your_card"] == "7c"
    state = play(state, (2, "3c"), (1, "9c"))
    assert top(state, 1, "monster") == ("M13", True)
    assert TH.scores(state) == [0, 5, 0]  # XIII upright: 1 + 13 // 3
    view = TH.view(state, 2)
    assert view["major"] == "M1" and view["to_act"] == [0, 1, 2]
    assert view["last_round"]["winner"] == 1
    # Hands refill from the winner clockwise: the next undrawn Minors are Ac, 2c, 4c.
    assert "Ac" in state["hands"][1] and "2c" in state["hands"][2] and "4c" in state["hands"][0]


def test_the_ace_beats_the_ten():
    state = new(2, [["Ac", "2s", "3s", "4s"], ["10c", "5s", "6s", "8s"]], majors=["M4"])
    state = play(state, (1, "10c"), (0, "Ac"))
    assert top(state, 0, "monster") == ("M4", True)


def test_a_two_way_tie_is_replayed_by_the_tied_seats_alone():
    state = new(3, [["7c", "5c", "3s", "4s"], ["7s", "9s", "6s", "8s"], ["2c", "2w", "3w", "4w"]],
                majors=["M13"])
    state = play(state, (0, "7c"), (1, "7s"), (2, "2c"))
    assert TH.to_act(state) == [0, 1]
    assert TH.view(state, 2)["contest"] == [0, 1]
    assert "not your turn" in refused_by(TH, state, 2, {"type": "play", "card": "2w"})
    assert TH.legal_moves(state, 2) == []
    state = play(state, (1, "9s"))
    assert "9s" not in codes_in(TH.view(state, 0))
    state = play(state, (0, "5c"))
    assert top(state, 1, "monster") == ("M13", True)
    assert sorted(state["discard"]) == sorted(["7c", "7s", "2c", "5c", "9s"])


def test_a_three_way_tie_is_replayed_until_one_seat_wins():
    state = new(3, [["7c", "5c", "3c", "4c"], ["7s", "5s", "6s", "8s"], ["7w", "5w", "9w", "4w"]],
                majors=["M9"])
    state = round_of(state, {0: "7c", 1: "7s", 2: "7w"})
    assert TH.to_act(state) == [0, 1, 2]
    state = round_of(state, {0: "5c", 1: "5s", 2: "5w"})
    assert TH.to_act(state) == [0, 1, 2] and TH.view(state, 0)["revealed"][1][0]["card"] == "5c"
    state = round_of(state, {0: "3c", 1: "6s", 2: "9w"})
    assert top(state, 2, "shadows") == ("M9", True)


def test_a_tie_that_empties_the_hands_removes_the_major():
    state = new(2, [["2c", "3c", "4c", "5c"], ["2s", "3s", "4s", "5s"]], majors=["M13", "M1"])
    for c, s in (("2c", "2s"), ("3c", "3s"), ("4c", "4s"), ("5c", "5s")):
        state = round_of(state, {0: c, 1: s})
    zones = TH.zones(state)
    assert zones["out"] == ["M13"] and zones["table"] == ["M1"]
    assert state["story"][0] == {"round": 1, "major": "M13", "winner": None}
    assert [len(h) for h in state["hands"]] == [4, 4] and TH.to_act(state) == [0, 1]


def test_a_round_of_court_cards_only_removes_the_major():
    state = new(3, [["Pc", *FILL[0]], ["Qs", *FILL[1]], ["Kw", *FILL[2]]], majors=["M13", "M1"])
    state = round_of(state, {0: "Pc", 1: "Qs", 2: "Kw"})
    assert TH.zones(state)["out"] == ["M13"]
    assert [e["event"] for e in state["log"]].count("no_target") == 3  # no Reading to act on
    assert TH.view(state, 0)["major"] == "M1"


def test_court_powers_act_after_the_winner_scores_clockwise_from_the_winner():
    state = new(4, [["Qc", *FILL[0]], ["5c", *FILL[1]], ["Kc", *FILL[2]], ["Pc", *FILL[3]]],
                majors=["M13"])
    state = give_reading(state, 0, "M3")
    state = give_reading(state, 2, "M6")
    state = round_of(state, {0: "Qc", 1: "5c", 2: "Kc", 3: "Pc"})
    assert top(state, 1, "monster") == ("M13", True)  # scored before any power
    # King (seat 2, just after the winner), then Page (seat 3), then Queen (seat 0).
    assert TH.to_act(state) == [2]
    assert TH.legal_moves(state, 2) == [{"type": "king", "card": "M6"}, {"type": "decline"}]
    state = TH.apply(state, 2, {"type": "king", "card": "M6"})
    assert top(state, 2, "shadows") == ("M6", False)
    assert TH.to_act(state) == [3]
    pages = TH.legal_moves(state, 3)
    assert {"type": "page", "card": "M3", "to": "reading:2"} in pages
    assert all(m.get("to") != "reading:3" for m in pages)
    state = TH.apply(state, 3, {"type": "page", "card": "M3", "to": "reading:2"})
    assert top(state, 2, "shadows") == ("M3", True) and top(state, 0, "shadows") is None
    assert TH.to_act(state) == [0]
    assert {"type": "queen", "card": "M13"} in TH.legal_moves(state, 0)
    assert "Queen" in refused_by(TH, state, 0, {"type": "king", "card": "M13"})
    state = TH.apply(state, 0, {"type": "queen", "card": "M13"})
    assert top(state, 1, "monster") == ("M13", False)
    assert TH.to_act(state) == [0, 1, 2, 3] and TH.view(state, 0)["round"] == 2


def test_a_page_needs_three_players():
    state = new(2, [["Pc", *FILL[0]], ["5c", *FILL[1]]], majors=["M13"])
    state = give_reading(state, 1, "M3")
    state = round_of(state, {0: "Pc", 1: "5c"})
    assert state["log"][-2]["event"] == "no_target" or any(
        e["event"] == "no_target" and e["card"] == "Pc" for e in state["log"])
    assert TH.to_act(state) == [0, 1]


def test_a_knight_gives_two_chosen_cards_and_takes_two_at_random():
    state = new(3, [["Nc", "2s", "3s", "4s"], ["9c", "5s", "6s", "8s"], ["2c", "2w", "3w", "4w"]],
                majors=["M13"])
    state = round_of(state, {0: "Nc", 1: "9c", 2: "2c"})
    assert TH.to_act(state) == [0]
    moves = TH.legal_moves(state, 0)
    assert len(moves) == 7  # three pairs to each of two seats, or decline
    before = list(state["hands"][2])
    state = TH.apply(state, 0, {"type": "knight", "cards": ["3s", "2s"], "to": "hand:2"})
    hand0, hand2 = state["hands"][0], state["hands"][2]
    assert {"2s", "3s"} <= set(hand2) and len(hand2) == 4  # refilled after the power
    taken = [c for c in hand0 if c in before]
    assert len(taken) == 2 and "4s" in hand0
    entry = next(e for e in state["log"] if e["event"] == "knight")
    seen = [e for e in TH.view(state, 2)["log"] if e["event"] == "knight"][0]
    unseen = [e for e in TH.view(state, 1)["log"] if e["event"] == "knight"][0]
    assert seen["taken"] == entry["taken"] and "cards" not in unseen and "taken" not in unseen


def test_stacking_reverses_over_upright_and_rights_over_reversed():
    state = new(2, [["Ac", "Ap", "As", "2c"], ["2s", "3s", "4s", "5s"]], majors=["M3", "M6", "M9"])
    state = round_of(state, {0: "Ac", 1: "2s"})
    assert top(state, 0, "shadows") == ("M3", True) and TH.scores(state)[0] == 2
    state = round_of(state, {0: "Ap", 1: "3s"})
    assert top(state, 0, "shadows") == ("M6", False) and TH.scores(state)[0] == -2
    state = round_of(state, {0: "As", 1: "4s"})
    assert top(state, 0, "shadows") == ("M9", True) and TH.scores(state)[0] == 4
    assert len(state["readings"][0]["shadows"]) == 3


def test_a_final_tie_is_played_off_for_the_fool_by_the_tied_seats():
    state = new(3, [["2c", *FILL[0]], ["9c", *FILL[1]], ["3c", *FILL[2]]], majors=["M4"])
    state = give_reading(state, 0, "M3")
    state = TH.loads(TH.dumps(state))
    state["out"] += state["majors"]  # as if every other Major had gone already
    state["majors"] = []
    state = round_of(state, {0: "2c", 1: "9c", 2: "3c"})
    assert TH.scores(state) == [2, 2, 0]
    view = TH.view(state, 2)
    assert view["fool_round"] and view["major"] == "M0" and view["to_act"] == [0, 1]
    assert TH.outcome(state) is None
    # Refilled from the winner (seat 1) clockwise: seat 1 drew Ac, seat 2 4c, seat 0 5c.
    assert "Ac" in state["hands"][1] and "5c" in state["hands"][0]
    state = round_of(state, {1: "Ac", 0: "5c"})
    assert state["phase"] == "place" and TH.to_act(state) == [1]
    assert TH.legal_moves(state, 1) == [
        {"type": "place", "to": s} for s in ("shadows", "magick", "monster")]
    state = TH.apply(state, 1, {"type": "place", "to": "magick"})
    outcome = TH.outcome(state)
    assert outcome["result"] == "win" and outcome["winners"] == [1]
    assert outcome["scores"] == [2, 3, 0] and "Seat 1" in outcome["reason"]


def test_the_fool_round_is_won_like_any_round_and_the_fool_goes_where_its_winner_says():
    state = new(2, [["Ac", "3c", "4c", "5c"], ["9s", "2s", "3s", "4s"]], majors=["M4"])
    state = give_reading(state, 1, "M3")
    state = TH.loads(TH.dumps(state))
    state["out"] += state["majors"]
    state["majors"] = []
    state = round_of(state, {0: "Ac", 1: "2s"})  # seat 0 takes IV: 2 all
    assert TH.view(state, 0)["fool_round"] and TH.to_act(state) == [0, 1]
    state = round_of(state, {0: "5c", 1: "9s"})
    assert TH.to_act(state) == [1] and state["phase"] == "place"
    assert "Fool" in TH.describe_move(state, 1, {"type": "place", "to": "monster"})
    state = TH.apply(state, 1, {"type": "place", "to": "monster"})
    outcome = TH.outcome(state)
    assert outcome["result"] == "win" and outcome["winners"] == [1] and outcome["scores"] == [2, 3]
    assert TH.zones(state)["reading:1:monster"] == ["M0"]
    reading = TH.reading(state)
    assert [p["card"] for p in reading["seats"][1]["positions"]] == ["M3", None, "M0"]
    assert TH.to_act(state) == []
    refused_by(TH, state, 0, {"type": "play", "card": "3c"})


def test_illegal_moves_are_refused_with_words_and_change_nothing():
    state = new(2, [["Ac", "3c", "4c", "5c"], ["9s", "2s", "3s", "4s"]], majors=["M4"])
    assert "not in your hand" in refused_by(TH, state, 0, {"type": "play", "card": "9s"})
    assert refused_by(TH, state, 0, {"type": "king", "card": "M4"})
    state = play(state, (0, "Ac"))
    assert "not your turn" in refused_by(TH, state, 0, {"type": "play", "card": "3c"})


def test_describe_move_says_it_in_words():
    state = new(2, [["Ac", "3c", "4c", "5c"], ["9s", "2s", "3s", "4s"]], majors=["M4"])
    assert TH.describe_move(state, 0, {"type": "play", "card": "Ac"}) == "Play the Ace of Cups face down"


def test_a_replay_of_courts_only_removes_the_major_and_a_court_in_a_replay_drops_out():
    state = new(3, [["7c", "Pc", "3c", "4c"], ["7s", "Ps", "6s", "8s"], ["2w", "5w", "9w", "4w"]],
                majors=["M13", "M1"])
    state = round_of(state, {0: "7c", 1: "7s", 2: "2w"})
    state = round_of(state, {0: "Pc", 1: "Ps"})
    assert TH.zones(state)["out"] == ["M13"]
    state2 = new(3, [["7c", "Pc", "3c", "4c"], ["7s", "5s", "6s", "8s"], ["2w", "5w", "9w", "4w"]],
                 majors=["M13", "M1"])
    state2 = round_of(state2, {0: "7c", 1: "7s", 2: "2w"})
    state2 = round_of(state2, {0: "Pc", 1: "5s"})
    assert top(state2, 1, "monster") == ("M13", True)


def test_with_no_winner_powers_start_left_of_the_dealer_and_may_be_declined():
    state = new(3, [["Kc", *FILL[0]], ["Ks", *FILL[1]], ["Qw", *FILL[2]]], majors=["M13"])
    for seat, card in ((0, "M3"), (1, "M4"), (2, "M6")):
        state = give_reading(state, seat, card)
    state = round_of(state, {0: "Kc", 1: "Ks", 2: "Qw"})
    assert TH.to_act(state) == [1]  # left of the dealer (seat 0)
    state = TH.apply(state, 1, {"type": "decline"})
    assert TH.to_act(state) == [2]
    state = TH.apply(state, 2, {"type": "queen", "card": "M3"})
    assert TH.to_act(state) == [0] and top(state, 0, "shadows") == ("M3", False)
    state = TH.apply(state, 0, {"type": "king", "card": "M3"})
    assert top(state, 0, "shadows") == ("M3", True) and TH.to_act(state) == [0, 1, 2]


def test_every_legal_move_has_words():
    import random
    rnd = random.Random(5)
    state = TH.new_game(5, 4, {})
    while TH.to_act(state):
        seat = rnd.choice(TH.to_act(state))
        moves = TH.legal_moves(state, seat)
        for move in moves:
            words = TH.describe_move(state, seat, move)
            assert words and "=" not in words, move
        state = TH.apply(state, seat, rnd.choice(moves))


def test_a_fool_round_nobody_wins_leaves_a_draw_among_the_tied():
    state = new(2, [["Pc", "2s", "3s", "4s"], ["9c", "Ps", "6s", "8s"]], majors=["M4"])
    state = give_reading(state, 0, "M3")
    state = TH.loads(TH.dumps(state))
    state["out"] += state["majors"]
    state["majors"] = []
    state = round_of(state, {0: "2s", 1: "9c"})
    assert TH.view(state, 0)["fool_round"]
    state = round_of(state, {0: "Pc", 1: "Ps"})
    outcome = TH.outcome(state)
    assert outcome["result"] == "draw" and outcome["winners"] == [0, 1] and outcome["scores"] == [2, 2]
    assert "M0" in TH.zones(state)["out"]


# --- the deal passes; whole games with stacked piles; the Knight's take is the seed's ----------


def test_seat_zero_deals_first_and_a_later_game_names_its_dealer():
    state = TH.new_game(3, 3, {})
    assert state["dealer"] == 0 and "dealer" not in state["options"]
    # Dealer seat 2: with nobody winning, powers and refills start at its left, seat 0.
    minors = ["Kc", *FILL[0], "Ks", *FILL[1], "Qw", *FILL[2]]
    state = TH.new_game(0, 3, {"majors_deck": ["M13"], "dealer": 2}, deck=minors)
    assert TH.view(state, 1)["dealer"] == 2 and state["options"]["dealer"] == 2
    for seat, card in ((0, "M3"), (1, "M4"), (2, "M6")):
        state = give_reading(state, seat, card)
    state = round_of(state, {0: "Kc", 1: "Ks", 2: "Qw"})
    assert TH.to_act(state) == [0]
    for bad in (3, -1, "1", True):
        try:
            TH.new_game(0, 3, {"dealer": bad})
        except ValueError as error:
            assert "dealer" in str(error)
        else:
            raise AssertionError(f"dealer {bad!r} was accepted")


def first_choice_game(players: int, seed: int = 0) -> dict:
    """Stacked piles in card order, every seat in turn playing its first legal move."""
    from games.engine.cards import MINORS
    from games.engine.tarot_hallow.rules import NON_FOOL_MAJORS
    state = TH.new_game(seed, players, {"majors_deck": list(NON_FOOL_MAJORS)}, deck=list(MINORS))
    for _ in range(2000):
        seats = TH.to_act(state)
        if not seats:
            return state
        seat = seats[-1]  # the last of those asked answers first: any order is allowed
        state = TH.apply(state, seat, TH.legal_moves(state, seat)[0])
    raise AssertionError("the game did not end")


def test_a_two_seat_and_a_six_seat_game_with_stacked_piles_are_played_to_the_end():
    for players in (2, 6):
        state = first_choice_game(players)
        outcome = TH.outcome(state)
        assert outcome is not None and outcome["scores"] == TH.scores(state)
        zones = TH.zones(state)
        placed = [c for z, cards in zones.items() if z.startswith("reading:") for c in cards]
        majors = sorted(placed + zones["out"] + zones["fool"])
        assert sorted(majors) == sorted(f"M{n}" for n in range(22)), players
        assert len(state["story"]) >= 21 and all(len(h) == 4 for h in state["hands"])
        assert TH.to_act(state) == [] and all(TH.legal_moves(state, s) == [] for s in range(players))


def test_the_knights_take_is_drawn_by_the_seed_and_replays_alike():
    hands = [["Nc", "2s", "3s", "4s"], ["9c", "5s", "6s", "8s"], ["2c", "2w", "3w", "4w"]]
    takes = set()
    for seed in range(8):
        state = new(3, hands, majors=["M13"], seed=seed)
        state = round_of(state, {0: "Nc", 1: "9c", 2: "2c"})
        once = TH.apply(state, 0, {"type": "knight", "cards": ["2s", "3s"], "to": "hand:2"})
        again = TH.apply(state, 0, {"type": "knight", "cards": ["3s", "2s"], "to": "hand:2"})
        assert TH.dumps(once) == TH.dumps(again)
        takes.add(tuple(next(e for e in once["log"] if e["event"] == "knight")["taken"]))
    assert len(takes) > 1  # not always the same two cards


def test_the_move_log_never_names_another_seats_face_down_card_even_one_seen_before():
    state = new(3, [["7c", "5c", "3s", "4s"], ["9c", "5s", "6s", "8s"], ["2c", "2w", "3w", "4w"]],
                majors=["M13"])
    view = TH.view(state, 1)
    view["discard"] = ["7c"]  # as if the Seven of Cups had been revealed in an earlier round
    words = TH.describe_move(state, 0, {"type": "play", "card": "7c"})
    knight = "Knight: give Two of Swords and Three of Swords to Seat 2 and take 2 at random"
    assert TH.log_for(view, 1, [(0, words), (0, knight)]) == [
        "Play a card face down", "Knight: give cards to Seat 2 and take 2 at random"]
    assert TH.log_for(TH.view(state, 0), 0, [(0, words)]) == [words]
