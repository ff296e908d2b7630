"""Everything a person reads names players by name or "you", never "seat 1": seeded
random games of every mode the site hosts, read on their page, its htmx regions, the
history, the turn mail and the journal entry at the end, by each player."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.engine import RULES
from games.engine.words import for_reader, log_sentence
from games.mail.outgoing import turn_mail
from games.models import Game
from journal.models import Entry

from .conftest import play_random_moves, reload, site_seat_counts

SEAT_WORDS = re.compile(r"\bseat \d", re.I)
HX = {"HTTP_HX_REQUEST": "true"}


def _text_of(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


def _read_everything(game, clients, seats):
    for seat in seats:
        client = clients[seat.user_id]
        urls = [(reverse("games:game", args=[game.pk]), {}), (reverse("games:game", args=[game.pk]), HX)]
        if game.is_over:  # the history opens when the game has ended
            urls += [(reverse("games:history", args=[game.pk]) + f"?step={step}", {}) for step in (1, 5, 10)]
        for url, extra in urls:
            page = client.get(url, **extra)
            assert page.status_code == 200
            found = SEAT_WORDS.search(_text_of(page.content.decode()))
            assert not found, f"{game.mode} {url}: ...{_text_of(page.content.decode())[max(0, found.start() - 80):found.end() + 80]}..."
        if game.status == Game.Status.ACTIVE and seat.index in game.to_act:
            mail = turn_mail(seat)
            for body in [mail.body] + [content for content, _ in mail.alternatives]:
                found = SEAT_WORDS.search(_text_of(body))
                assert not found, f"{game.mode} mail: ...{body[max(0, found.start() - 80):found.end() + 80]}..."


@pytest.mark.django_db
@pytest.mark.parametrize("mode", sorted(RULES))
def test_no_page_mail_or_journal_entry_calls_a_player_seat_n(mode, alice, bob, django_capture_on_commit_callbacks):
    rules = RULES[mode]
    players = site_seat_counts(rules)[-1]
    clients = {}
    for user in (alice, bob)[:players]:
        clients[user.pk] = Client()
        clients[user.pk].force_login(user)
    for seed in (1, 2):
        with django_capture_on_commit_callbacks(execute=True):
            if players == 1:
                game = services.start_game(alice, mode, {}, seed=seed)
            else:
                game = services.start_game(alice, mode, {}, open_challenge=True, seed=seed)
                services.accept_challenge(game.pk, bob)
        for _ in range(8):
            game = reload(game)
            seats = list(game.seats.select_related("user"))
            _read_everything(game, clients, seats)
            if game.status != Game.Status.ACTIVE:
                break
            with django_capture_on_commit_callbacks(execute=True):
                play_random_moves(game, 12, seed=seed)
        for entry in Entry.objects.filter(source_game=game):
            page = clients[entry.owner_id].get(reverse("journal:detail", args=[entry.pk]))
            assert not SEAT_WORDS.search(_text_of(page.content.decode())), entry.title


def test_engine_words_name_the_reader_you_and_the_others_by_name():
    names = {0: "Alice", 1: "Bob"}
    assert for_reader("Waiting for seat 1 to play a card.", 1, names) == "Waiting for you to play a card."
    assert for_reader("Seat 0 forfeited the game. Seat 1 wins.", 1, names) == "Alice forfeited the game. You win."
    assert for_reader("Seat 1 has no card left.", 1, names) == "You have no card left."
    assert for_reader(log_sentence({"seat": 0, "event": "draw", "cards": ["M0"], "count": 1}, 0), 0, names) == \
        "You drew 1 card: The Fool."
    assert for_reader(log_sentence({"seat": 1, "event": "draw", "count": 3}, 0), 0, names) == "Bob drew 3 cards."
