"""Sealed Bids: a tiny two-player game where both seats act at once, for the site's tests.

No registered engine asks two seats to act at the same moment yet, but the site promises
it (issue 6: "several seats may be asked to act at once, to_act lists them, each with their
own prompt").  This game keeps to the engine contract (ENGINE.md) so the pages, the mail
and the services can be tested with it: each round both seats bid one card of their hand
face down, in any order; when both have bid, the bids are shown and the higher wins the
round.  Registered only for the tests that ask for it (the ``sealed_bids`` fixture).
"""

from __future__ import annotations

from games.engine import RULES, register
from games.engine.base import Rules, shuffled
from games.engine.cards import MINORS, label, value

ROUNDS = 3
HAND = 3


class SealedBids(Rules):
    slug = "sealed_bids_test"
    title = "Sealed Bids"
    summary = "Both players bid a card face down at the same time; the higher bid takes the round."
    min_players = max_players = 2

    def setup(self, state, options, deck):
        cards = list(deck) if deck else shuffled(state, MINORS)
        state["hands"] = [cards[:HAND], cards[HAND:2 * HAND]]
        state["deck"] = cards[2 * HAND:]
        state["bids"] = [None, None]
        state["shown"] = []
        state["won"] = [0, 0]
        state["round"] = 1

    def to_act(self, state):
        if state["round"] > ROUNDS:
            return []
        return [seat for seat in (0, 1) if state["bids"][seat] is None]

    def legal_moves(self, state, seat):
        if seat not in self.to_act(state):
            return []
        return [{"type": "bid", "card": card} for card in state["hands"][seat]]

    def play(self, state, seat, move):
        state["hands"][seat].remove(move["card"])
        state["bids"][seat] = move["card"]
        if None not in state["bids"]:
            bids = state["bids"]
            if value(bids[0]) != value(bids[1]):
                state["won"][0 if value(bids[0]) > value(bids[1]) else 1] += 1
            state["shown"].append(bids)
            state["bids"] = [None, None]
            state["round"] += 1

    def view(self, state, seat):
        view = {
            "round": min(state["round"], ROUNDS),
            "shown": [list(pair) for pair in state["shown"]],
            "won": list(state["won"]),
            "deck_count": len(state["deck"]),
            "bid_made": [bid is not None for bid in state["bids"]],
        }
        if seat is not None:
            hand = state["hands"][seat]
            view["hand"] = list(hand)
            view["my_bid"] = state["bids"][seat]
            if seat in self.to_act(state):
                # Each seat's own words: the cards it may bid are its own.
                view["prompt"] = (f"Round {state['round']}: bid one of your {len(hand)} cards "
                                  f"({', '.join(label(c) for c in hand)}) face down.")
        return view

    def zones(self, state):
        zones = {"deck": list(state["deck"]), "shown": [c for pair in state["shown"] for c in pair]}
        for seat in (0, 1):
            zones[f"hand:{seat}"] = list(state["hands"][seat])
            zones[f"bid:{seat}"] = [state["bids"][seat]] if state["bids"][seat] else []
        return zones

    def outcome(self, state):
        if state["round"] <= ROUNDS:
            return None
        won = state["won"]
        if won[0] == won[1]:
            return {"result": "draw", "winners": [], "scores": won, "reason": "Both took as many rounds."}
        winner = 0 if won[0] > won[1] else 1
        return {"result": "win", "winners": [winner], "scores": won, "reason": "The higher bids took more rounds."}

    def reading(self, state):
        return {}

    def describe_move(self, state, seat, move):
        return f"Bid {label(move['card'])} face down"


def install() -> SealedBids:
    return register(SealedBids())


def uninstall() -> None:
    RULES.pop(SealedBids.slug, None)
