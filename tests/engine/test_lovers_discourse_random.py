"""Lovers' Discourse played by random partners over many seeds: every game ends (even
between partners who pass cards through the Gift Fields whenever they can), the 78 cards are
conserved after every move, a replay of the record is byte-identical, no view ever shows
what its seat may not know, and moves off the legal list are refused."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import IllegalMove, get_rules
from games.engine.base import check_zones
from games.engine.cards import DECK, is_card, label

LD = get_rules("lovers_discourse")
VARIANTS = ["standard", "meditative", "fated", "numerology", ["meditative", "fated", "numerology"]]
MOVE_CAP = 5000
# Rather build than wander: a bot that mostly prefers placing and playing to the board.
PREFERENCE = {"place": 0, "play": 1, "take": 2, "draw": 2, "negate": 3, "match": 3, "lock": 4,
              "raise": 4, "refill": 4, "discard": 5, "give": 5}


def choose(rnd: random.Random, legal: list[dict]) -> dict:
    if rnd.random() < 0.5:
        return rnd.choice(legal)
    best = min(PREFERENCE[m["type"]] for m in legal)
    return rnd.choice([m for m in legal if PREFERENCE[m["type"]] == best])


def public_cards(state: dict) -> set[str]:
    """Cards lying face up where both partners see them."""
    seen = set(state["out"]) | set(state["raised"])
    for p in state["planes"]:
        for col in p:
            seen |= set(col)
    for e in state["board"].values():
        seen |= set(e["majors"]) | set(e["minors"])
    seen |= {g["card"] for g in state["gifts"] if g and not g["locked"]}
    return seen


def strings(data) -> list[str]:
    """Every string in a JSON-like value, keys included."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in [k, *strings(v)]]
    if isinstance(data, list):
        return [s for v in data for s in strings(v)]
    return []


def cards_named(view: dict) -> set[str]:
    """Every card a view names: by code in any field, by name in any sentence."""
    texts = strings(view)
    words = "\n".join(texts)
    return {t for t in texts if is_card(t)} | {c for c in DECK if label(c) in words}


def check_views(state: dict, seen: set[str], held: list[set[str]]) -> None:
    hidden = set(state["deck"]) | set(state["discard"]) | set(state["hands"][0]) | set(state["hands"][1])
    if state["end"] and state["sacred"]:
        # Numerology's sacred card was turned face up before the deal; the view names it
        # once the game is over.
        hidden.discard(state["sacred"]["card"])
    for seat in (0, 1, None):
        knows = seen | (held[seat] if seat is not None else set())
        secret = (hidden - knows) - (set(state["hands"][seat]) if seat is not None else set())
        leaked = cards_named(LD.view(state, seat)) & secret
        assert not leaked, f"seat {seat} sees {sorted(leaked)}"


def swap_hidden(state: dict, seat: int, rnd: random.Random) -> dict | None:
    """The same game as ``seat`` knows it, with a hidden card of the partner's hand swapped
    for a deck card and the deck reshuffled: the seat's view must not change."""
    other = 1 - seat
    seen = public_cards(state)
    mine = [c for c in state["hands"][other] if c not in seen]
    if not mine or not state["deck"]:
        return None
    twin = json.loads(json.dumps(state))
    a = rnd.choice(mine)
    b = rnd.choice(twin["deck"])
    twin["hands"][other][twin["hands"][other].index(a)] = b
    twin["deck"][twin["deck"].index(b)] = a
    rnd.shuffle(twin["deck"])
    return twin


def bad_moves(state: dict, seat: int, legal: list[dict], rnd: random.Random) -> list[dict]:
    """Moves close to legal ones that are not legal now."""
    out: list[dict] = []
    for move in rnd.sample(legal, min(3, len(legal))):
        if "card" in move:
            for c in rnd.sample(DECK, 4):
                out.append({**move, "card": c})
        if "to" in move:
            out.append({**move, "to": rnd.choice(["C2", "L3", "gift:0", "gift:1", "X9"])})
        if "column" in move:
            out.append({**move, "column": rnd.choice([-1, 3, 1.0, "1"])})
        out.append({**move, "extra": 1})
    return [m for m in out if m not in legal]


def play_one(seed: int, variant) -> tuple[dict, list]:
    rnd = random.Random(seed)
    options = {"variant": variant}
    state = LD.new_game(seed, 2, options)
    record = []
    seen = public_cards(state)
    held = [set(state["hands"][0]), set(state["hands"][1])]
    for step in range(MOVE_CAP):
        check_zones(LD.zones(state), DECK)
        seen |= public_cards(state)
        held[0] |= set(state["hands"][0])
        held[1] |= set(state["hands"][1])
        check_views(state, seen, held)
        seats = LD.to_act(state)
        if not seats:
            break
        assert len(seats) == 1 and LD.legal_moves(state, 1 - seats[0]) == []
        seat = seats[0]
        legal = LD.legal_moves(state, seat)
        assert legal, "a running game always offers the seat to act a move"
        if step % 7 == 0:
            assert all(LD.describe_move(state, seat, m) for m in legal)
            before = LD.dumps(state)
            for bad in bad_moves(state, seat, legal, rnd):
                with pytest.raises(IllegalMove):
                    LD.apply(state, seat, bad)
            with pytest.raises(IllegalMove):
                LD.apply(state, 1 - seat, legal[0])
            assert LD.dumps(state) == before
            for watcher in (0, 1):
                twin = swap_hidden(state, watcher, rnd)
                if twin is not None:
                    assert LD.view(twin, watcher) == LD.view(state, watcher)
        move = choose(rnd, legal)
        record.append((seat, move))
        state = LD.apply(state, seat, move)
    else:
        raise AssertionError(f"seed {seed} did not end within {MOVE_CAP} moves")
    return state, record


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: "+".join(v) if isinstance(v, list) else v)
def test_random_partners_finish_conserve_cards_replay_exactly_and_never_peek(variant):
    results = {}
    for seed in range(25):
        state, record = play_one(seed, variant)
        outcome = LD.outcome(state)
        assert outcome["result"] in ("win", "loss")
        assert outcome["scores"][0] == outcome["scores"][1]
        results[outcome["result"]] = results.get(outcome["result"], 0) + 1
        again = LD.replay(seed, 2, {"variant": variant}, record)
        assert LD.dumps(again) == LD.dumps(state)
        assert LD.loads(LD.dumps(state)) == state
        reading = LD.reading(state)
        assert reading["complete"] and json.loads(json.dumps(reading)) == reading
        assert len(reading["positions"]) == 3
    assert results.get("loss")


def pass_whenever_possible(rnd: random.Random, legal: list[dict]) -> dict:
    """A pair of partners set on stalling: take the gift rather than draw, give rather than
    play, and otherwise anything."""
    for kind in ("take", "give"):
        options = [m for m in legal if m["type"] == kind]
        if options:
            return rnd.choice(options)
    return rnd.choice(legal)


@pytest.mark.parametrize("seed", range(20))
def test_partners_passing_gifts_whenever_they_can_still_reach_an_end(seed):
    # Each card is given at most once and played at most once (a played card never comes
    # back to a hand), so a game has at most 78 gives and 78 plays: 156 turns.
    rnd = random.Random(seed)
    state = LD.new_game(seed, 2, {"variant": VARIANTS[seed % len(VARIANTS)]})
    turns = 0
    while LD.to_act(state):
        seat = LD.to_act(state)[0]
        move = pass_whenever_possible(rnd, LD.legal_moves(state, seat))
        turns += move["type"] in ("play", "give")
        assert turns <= 2 * len(DECK), "a turn beyond the bound: cards go round in circles"
        state = LD.apply(state, seat, move)
    check_zones(LD.zones(state), DECK)
    gives = [e for e in LD.view(state, 0)["log"] if e["event"] == "give"]
    assert gives and len({e["card"] for e in gives}) == len(gives)


def test_the_peek_check_finds_a_card_in_any_field_or_sentence():
    # A code right after a key ("card": "9c") or a name inside any sentence counts as shown.
    view = {"log": [{"event": "lock", "card": "9c"}], "x": {"y": "you drew the Ace of Cups"}}
    assert cards_named(view) == {"9c", "Ac"}
