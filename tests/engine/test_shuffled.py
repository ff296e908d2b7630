"""``base.shuffled`` spells out Random.shuffle for speed; every recorded game's deal depends
on it drawing exactly as Random.shuffle does."""

import random

from games.engine.base import shuffled
from games.engine.cards import DECK, MINORS


def test_shuffled_is_random_shuffle():
    for seed in range(200):
        for cards in (DECK, MINORS, DECK[:5], DECK[:1], ()):
            state = {"seed": seed, "rng": seed % 7}
            expected = list(cards)
            random.Random(f"{seed}:{seed % 7}").shuffle(expected)
            assert shuffled(state, cards) == expected
            assert state["rng"] == seed % 7 + 1  # one use of randomness, as before


def test_shuffled_leaves_the_given_cards_alone():
    cards = list(DECK)
    shuffled({"seed": 1, "rng": 0}, cards)
    assert cards == list(DECK)
