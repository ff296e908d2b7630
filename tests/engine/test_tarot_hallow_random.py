"""Tarot Hallow by seeded random play for 2-6 seats: every card always in exactly one zone,
every game ends, records replay byte for byte, and no seat ever sees what it may not: another
seat's hand, a card played face down and not yet revealed, the face-down piles."""

from __future__ import annotations

import random

import pytest

from games.engine.cards import DECK, label, short_name
from games.engine.tarot_hallow.rules import render_tarot_hallow

from .conftest import codes_in
from .tarot_hallow_support import TH

MOVE_CAP = 3000


def random_game(seed: int, players: int, each=None):
    rnd = random.Random(seed)
    state = TH.new_game(seed, players, {})
    record = []
    for _ in range(MOVE_CAP):
        if each:
            each(state)
        seats = TH.to_act(state)
        if not seats:
            return state, record
        seat = rnd.choice(seats)
        move = rnd.choice(TH.legal_moves(state, seat))
        record.append((seat, move))
        state = TH.apply(state, seat, move)
    raise AssertionError(f"seed {seed} with {players} seats did not end in {MOVE_CAP} moves")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_keep_every_card_once_end_and_replay_exactly(players):
    def each(state):
        zones = TH.zones(state)
        cards = [c for z in zones.values() for c in z]
        assert sorted(cards) == sorted(DECK)

    for seed in range(8):
        state, record = random_game(seed, players, each)
        outcome = TH.outcome(state)
        assert outcome["result"] in ("win", "draw") and len(outcome["scores"]) == players
        assert outcome["scores"] == TH.scores(state)
        assert outcome["winners"] == [s for s in range(players) if outcome["scores"][s] == max(outcome["scores"])]
        assert TH.zones(state)["majors"] == [] and len(state["story"]) >= 21
        text = TH.dumps(state)
        assert TH.dumps(TH.loads(text)) == text
        assert TH.dumps(TH.replay(seed, players, {}, record)) == text
        assert all(p["card"] is None or p["card"].startswith("M")
                   for seat in TH.reading(state)["seats"] for p in seat["positions"])


def test_a_two_player_and_a_six_player_game_play_to_the_end():
    for players in (2, 6):
        state, record = random_game(99, players)
        assert TH.to_act(state) == [] and TH.outcome(state)["winners"]
        assert len(TH.reading(state)["seats"]) == players


def names_in(text: str, cards: set[str]) -> set[str]:
    return {c for c in cards if (label(c) if c.startswith("M") else short_name(c)) in text}


@pytest.mark.parametrize("seed", range(6))
def test_no_seat_of_six_ever_sees_another_hand_or_an_unrevealed_card(seed):
    seen_log = {s: 0 for s in [*range(6), None]}

    def each(state):
        zones = TH.zones(state)
        face_down = {s: set(zones[f"face_down:{s}"]) for s in range(6)}
        hands = {s: set(zones[f"hand:{s}"]) for s in range(6)}
        piles = set(zones["deck"]) | set(zones["majors"])
        for viewer in [*range(6), None]:
            hidden = piles | {c for s in range(6) if s != viewer for c in hands[s] | face_down[s]}
            view = TH.view(state, viewer)
            # The table itself: strictly nothing hidden, but for last round's reveal (cards
            # everyone saw, some maybe drawn again after a reshuffle).
            revealed_last = codes_in(view["last_round"] or {})
            table = {k: v for k, v in view.items() if k not in ("log", "last_round")}
            assert not codes_in(table) & hidden, (viewer, codes_in(table) & hidden)
            assert not names_in("\n".join(render_tarot_hallow(view)), hidden - revealed_last)
            # The log: each new line, when it appears, names nothing hidden from this seat
            # (a Knight's exchange is known to both its seats), and a face-down card never.
            # A card revealed once may be named by later lines (the court used, say) even
            # after a reshuffle has dealt it into a hand again: that is the past, seen by all.
            log = view["log"]
            revealed_ever = {e["card"] for e in state["log"] if e["event"] == "reveal"}
            for entry in log[seen_log[viewer]:]:
                named = codes_in(entry)
                assert not named & set().union(*(face_down[s] for s in range(6) if s != viewer))
                if entry["event"] == "knight" and viewer in (entry["seat"], entry["to"]):
                    continue
                assert not named & hidden - revealed_ever, (viewer, entry)
            seen_log[viewer] = len(log)

    state, _ = random_game(seed, 6, each)
    assert TH.outcome(state)


def test_the_terminal_plays_three_seats_to_the_end():
    import io

    from games.engine.play import main

    out = io.StringIO()
    assert main(["tarot_hallow", "--players", "3", "--seed", "4", "--auto", "100000"],
                stdin=io.StringIO(""), out=out) == 0
    text = out.getvalue()
    assert "Game over" in text and "Seat 2 (" in text and "Tarot Hallow - round" in text
