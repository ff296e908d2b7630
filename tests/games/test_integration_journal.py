"""A finished game's page leads to the divination it left in the viewer's journal (issue 6
with the journal): each player to their own entry, never to anyone else's."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from games import services
from games.models import Game
from journal.models import Entry

from .conftest import registered, reload
from .integration_helpers import HX, game_url, oob_regions, page_of, post_move, seen_hashes


def entry_url(entry: Entry) -> str:
    return reverse("journal:detail", args=[entry.pk])


@pytest.fixture
def finished_war(alice, bob, django_capture_on_commit_callbacks):
    """A Warring Planets game bob gave up, with the after-commit signals delivered (so the
    journal made both players' entries, as it does after a real commit)."""
    if not registered("warring_planets"):
        pytest.fail("warring_planets is not registered")
    with django_capture_on_commit_callbacks(execute=True):
        game = services.start_game(alice, "warring_planets", opponent=bob, seed=4)
        services.accept_invitation(game.pk, bob)
        services.resign(game.pk, bob)
    game = reload(game)
    assert game.status == Game.Status.FINISHED
    return game


@pytest.mark.django_db
def test_each_player_of_a_finished_game_is_led_to_their_own_journal_entry(
        alice, bob, alice_client, bob_client, outsider_client, finished_war):
    alices = Entry.objects.get(owner=alice, source_game=finished_war)
    bobs = Entry.objects.get(owner=bob, source_game=finished_war)
    alice_page, bob_page = page_of(alice_client, finished_war), page_of(bob_client, finished_war)
    assert f'href="{entry_url(alices)}"' in alice_page and entry_url(bobs) not in alice_page
    assert f'href="{entry_url(bobs)}"' in bob_page and entry_url(alices) not in bob_page
    # The link leads somewhere only for its owner.
    assert alice_client.get(entry_url(alices)).status_code == 200
    assert bob_client.get(entry_url(alices)).status_code == 404
    assert outsider_client.get(entry_url(alices)).status_code == 404
    # The outsider may watch the game (a public one), and finds no one's journal entry there.
    spectators_page = page_of(outsider_client, finished_war)
    assert entry_url(alices) not in spectators_page and entry_url(bobs) not in spectators_page


@pytest.mark.django_db
def test_a_player_who_deleted_their_entry_is_shown_no_link(alice, bob, alice_client, bob_client, finished_war):
    alices = Entry.objects.get(owner=alice, source_game=finished_war)
    assert alice_client.post(reverse("journal:delete", args=[alices.pk])).status_code == 302
    assert "your journal" not in page_of(alice_client, finished_war)
    bobs = Entry.objects.get(owner=bob, source_game=finished_war)
    assert entry_url(bobs) in page_of(bob_client, finished_war)


@pytest.mark.django_db
def test_running_and_abandoned_games_have_no_journal_link(alice, bob, alice_client, duel,
                                                          django_capture_on_commit_callbacks):
    assert "your journal" not in page_of(alice_client, duel)
    with django_capture_on_commit_callbacks(execute=True):
        game = services.start_game(alice, "know_thyself", seed=3)
        services.abandon_game(game.pk, "Alice walked away.")
    assert "your journal" not in page_of(alice_client, game)
    assert not Entry.objects.filter(source_game=game).exists()


@pytest.mark.django_db(transaction=True)
def test_the_move_that_ends_a_game_answers_with_the_journal_link_and_the_after_game_actions(alice, alice_client):
    """With real commits: the journal writes its entry when the move's transaction commits,
    before the page is drawn, so the htmx answer to the last move already leads there."""
    game = services.start_game(alice, "know_thyself", seed=7)
    choose = random.Random(7)
    while True:
        rules, state = game.rules, game.load_state()
        moves = rules.legal_moves(state, 0)
        last = [m for m in moves if rules.outcome(rules.apply(state, 0, m)) is not None]
        if last:
            break
        services.submit_move(game.pk, alice, choose.choice(moves), game.version)
        game = reload(game)
    seen = seen_hashes(alice_client, game)
    answer = post_move(alice_client, game, last[0], **seen, **HX)
    assert answer.status_code == 200 and reload(game).status == Game.Status.FINISHED
    text = answer.content.decode()
    entry = Entry.objects.get(owner=alice, source_game=game)
    assert {"status", "actions"} <= oob_regions(text)
    assert f'href="{entry_url(entry)}"' in text
    assert game_url("history", game) in text and game_url("rematch", game) in text
    assert "Give up" not in text
