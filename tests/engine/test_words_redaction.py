"""What a seat may read of the move log (games.engine.words): the cards a view shows, and a
log text with the others said as "a card".  Both find names with one pattern; these specs
hold them to a plain search for every card, over seeded random games of every game, and
the log's window, asked only about the cards it names, to what the whole view tells."""

from __future__ import annotations

import random
import re

import pytest

from games.engine import RULES
from games.engine.cards import CARDS, label
from games.engine import words
from games.engine.words import cards_in, hidden_among, redact, visible_cards


def cards_shown_by_a_search_for_each_card(data) -> set[str]:
    """The reference: every string of ``data``, at any depth, checked against every card's
    code and name (a name in a text longer than a code's few letters)."""
    if isinstance(data, str):
        if data in CARDS:
            return {data}
        return {code for code, card in CARDS.items() if card.name in data} if len(data) > 8 else set()
    if isinstance(data, dict):
        return set().union(*map(cards_shown_by_a_search_for_each_card, [*data.keys(), *data.values()]))
    if isinstance(data, (list, tuple)):
        return set().union(*map(cards_shown_by_a_search_for_each_card, data))
    return set()


def redacted_card_by_card(text: str, hidden: set[str]) -> str:
    """The reference: every hidden card looked for in the text, one after another."""
    for code in hidden:
        card = CARDS[code]
        for said_as, said in ((f"the {label(code)}", "a card"), (f"The {label(code)}", "A card"),
                              (label(code), "a card"), (f"the {card.name}", "a card"),
                              (f"The {card.name}", "A card"), (card.name, "a card")):
            text = text.replace(said_as, said)
        text = re.sub(rf"(?<![\w-]){re.escape(code)}(?![\w-])", "a card", text)
    return text


def seeded_random_game(rules, seed: int):
    """(state, seat to act, the move it plays) at every step of one seeded random game."""
    choose = random.Random(seed)
    state = rules.new_game(seed, rules.min_players, {})
    while rules.to_act(state):
        seat = rules.to_act(state)[0]
        move = choose.choice([m for m in rules.legal_moves(state, seat) if m.get("type") != "forfeit"])
        yield state, seat, move
        state = rules.apply(state, seat, move)


@pytest.mark.parametrize("slug", sorted(RULES))
def test_it_finds_every_card_a_view_shows_and_redacts_as_a_search_card_by_card_would(slug):
    rules = RULES[slug]
    texts = 0
    for seed in range(2):
        for state, seat, move in seeded_random_game(rules, seed):
            text = rules.describe_move(state, seat, move)
            for reader in range(state["players"]):
                view = rules.view(state, reader)
                shown = visible_cards(view)
                assert shown == cards_shown_by_a_search_for_each_card(view)
                hidden = set(CARDS) - shown
                assert redact(text, hidden) == redacted_card_by_card(text, hidden), text
                texts += 1
    assert texts > 40


def test_it_says_a_hidden_card_with_its_article_once():
    hidden = {"5s", "6c", "M16"}
    assert redact("Put the Five of Swords beneath the deck", hidden) == "Put a card beneath the deck"
    assert redact("The Six of Cups goes to Seat 2", hidden) == "A card goes to Seat 2"
    assert redact("Seat 1 took XVI The Tower and 5s", hidden) == "Seat 1 took a card and a card"


def test_it_leaves_a_card_the_reader_sees_and_a_longer_code_alone():
    text = "Seat 1 played the Five of Swords; M160 and x-5s are not cards"
    assert redact(text, {"6c", "M16"}) == text
    assert redact(text, {"5s"}) == "Seat 1 played a card; M160 and x-5s are not cards"


def test_it_finds_a_card_by_its_name_in_a_sentence_and_by_its_code_anywhere():
    view = {"log": ["You drew the Queen of Swords and the Ace of Cups."], "hand": ["M3"], "M7": 1}
    assert visible_cards(view) == {"Qs", "Ac", "M3", "M7"}


@pytest.mark.parametrize("slug", sorted(RULES))
def test_it_tells_which_of_some_cards_a_view_hides_as_the_whole_view_does(slug):
    """hidden_among reads the log last, newest lines first, and stops early: it must still
    answer what the whole view tells, for the cards a log's window names, for every card
    and for a few at random."""
    rules = RULES[slug]
    choose = random.Random(7)
    said: list[str] = []
    views = 0
    for state, seat, move in seeded_random_game(rules, 3):
        said.append(rules.describe_move(state, seat, move))
        window = set().union(*(cards_in(text) for text in said[-10:]))
        for reader in range(state["players"]):
            view = rules.view(state, reader)
            shown = visible_cards(view)
            for cards in (window, set(CARDS), set(choose.sample(sorted(CARDS), 5)), set()):
                assert hidden_among(view, cards) == cards - shown
            views += 1
    assert views > 10


@pytest.mark.parametrize("slug", sorted(RULES))
def test_the_log_a_seat_reads_is_redacted_as_by_every_card_the_whole_view_hides(slug, monkeypatch):
    """log_for asks the view only about the cards its entries name; what each seat reads
    is what it read when every card the view does not show was hidden."""
    rules = RULES[slug]
    entries: list[tuple[int, str]] = []
    read = []
    for state, seat, move in seeded_random_game(rules, 4):
        entries.append((seat, rules.describe_move(state, seat, move)))
        after = rules.apply(state, seat, move)
        for reader in range(state["players"]):
            view = rules.view(after, reader)
            read.append((view, reader, entries[-10:], rules.log_for(view, reader, entries[-10:])))
    monkeypatch.setattr(words, "hidden_among", lambda view, cards: set(CARDS) - visible_cards(view))
    assert read and all(rules.log_for(view, reader, window) == said for view, reader, window, said in read)


class _NotToBeRead(dict):
    """A log line the walk must not reach: reading it fails the spec."""

    def keys(self):
        raise AssertionError("the log was read further back than its newest lines")


def test_a_long_log_is_read_from_its_newest_lines_only_as_far_as_needed():
    newest = [f"Seat 1 drew the {CARDS[code].name}." for code in ("5s", "6c", "Qs")]
    view = {"hand": ["M3"], "log": [_NotToBeRead()] + ["Turn 2."] * 100 + newest}
    assert hidden_among(view, {"M3", "Qs", "5s"}) == set()
    assert hidden_among(view, {"M3"}) == set()  # in hand: the log is not read at all
    # A card shown nowhere is looked for in the whole log.
    view["log"][0] = "Turn 1."
    assert hidden_among(view, {"6c", "M7"}) == {"M7"}
    assert hidden_among({"log": "You drew the Ace of Cups."}, {"Ac", "2c"}) == {"2c"}
