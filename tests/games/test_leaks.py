"""Hidden cards never leave the server: for random states of every registered game, what a
seat is sent (the page, every htmx partial, the move log shown) names no card that seat
may not see: another seat's hand, a face-down pile, the deck."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.engine import RULES
from games.engine.cards import CARDS
from games.presenters import visible_cards
from games.page_regions import REGIONS

from .conftest import move_forms, pick_links, play_random_moves, reload, site_seat_counts

pytestmark = pytest.mark.django_db

STATES_PER_GAME = 10


def forbidden_cards(rules, state, seat) -> set[str]:
    """Every card of the game that the seat's view does not show."""
    every = {c for cards in rules.zones(state).values() for c in cards}
    return every - visible_cards(rules.view(state, seat))


def leaks(text: str, forbidden: set[str]) -> list[str]:
    found = []
    for code in forbidden:
        card = CARDS[code]
        # A code as the page writes it (data-card, pick links, move JSON) or the card's name.
        if re.search(rf'(data-card="|pick=|&quot;|"){re.escape(code)}(["&]|&quot;)', text) or card.name in text:
            found.append(f"{code} ({card.name})")
    return sorted(found)


def seat_pages(client, game) -> dict[str, str]:
    """Everything the site sends one seat about this game."""
    page_url = reverse("games:game", args=[game.pk])
    pages = {"page": client.get(page_url).content.decode()}
    # An htmx request that has seen nothing gets every region's partial.
    pages["partials"] = client.get(page_url, HTTP_HX_REQUEST="true").content.decode()
    assert all(f'id="seen-{region}"' in pages["partials"] for region in REGIONS)
    for card in pick_links(pages["page"])[:3]:
        pages[f"pick {card}"] = client.get(page_url, {"pick": card}).content.decode()
    return pages


@pytest.mark.parametrize("slug", sorted(RULES))
def test_no_page_partial_or_log_names_a_card_the_seat_may_not_see(slug, alice, bob):
    rules = RULES[slug]
    players = site_seat_counts(rules)
    clients = {}
    for user in (alice, bob):
        client = Client()
        client.force_login(user)
        clients[user.pk] = client
    choose = random.Random(slug)
    checked = 0
    for n in range(STATES_PER_GAME):
        count = choose.choice(players)
        opponent = {"opponent": bob} if count == 2 else {}
        game = services.start_game(alice, slug, {"variant": "standard"}, seed=choose.randrange(10**6), **opponent)
        if count == 2:
            services.accept_invitation(game.pk, bob)
        game = play_random_moves(game, choose.randrange(0, 60), seed=n)
        state = game.load_state()
        for seat in game.seats.select_related("user"):
            forbidden = forbidden_cards(rules, state, seat.index)
            for name, text in seat_pages(clients[seat.user_id], reload(game)).items():
                assert leaks(text, forbidden) == [], f"{slug} seat {seat.index} {name} after {game.version} moves"
            checked += 1
            assert all(m.get("card") not in forbidden for m in move_forms(text))
    assert checked >= STATES_PER_GAME


def test_the_leak_check_itself_spots_a_named_card():
    assert leaks('<span data-card="Qc">Queen of Cups</span>', {"Qc"}) == ["Qc (Queen of Cups)"]
    assert leaks('value="{&quot;card&quot;:&quot;5s&quot;}"', {"5s"}) == ["5s (Five of Swords)"]
    assert leaks("csrf 5s9Qc1", {"5s", "Qc"}) == []
