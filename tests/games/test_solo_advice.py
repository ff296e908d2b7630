"""Hints and reviews in the games played alone (Know Thyself, Dream Odyssey and any solo
game registered later): a real Hint form on the page that names the computer's move for
"you", a review after the game made once by a worker and kept; only the player sees
either, an outsider gets 404."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.computer.models import Review
from games.computer.tasks import review_solo_game
from games.engine import RULES
from games.models import Game
from sefirot_site.outbox.models import PendingTask

from .conftest import play_random_moves, reload

pytestmark = pytest.mark.django_db

SOLO = sorted(slug for slug, rules in RULES.items() if rules.min_players == 1)
HX = {"HTTP_HX_REQUEST": "true"}


def _finished(alice, slug="know_thyself", seed=11):
    game = services.start_game(alice, slug, seed=seed)
    for n in range(40):
        game = play_random_moves(game, 50, seed=n)
        if game.status != Game.Status.ACTIVE:
            break
    assert game.status == Game.Status.FINISHED
    return game


@pytest.mark.parametrize("slug", SOLO)
def test_every_solo_game_page_has_a_hint_form_that_names_the_computers_move(slug, alice, alice_client):
    game = services.start_game(alice, slug, seed=4)
    url = reverse("games:game", args=[game.pk])
    page = alice_client.get(url).content.decode()
    hint_url = reverse("games:hint", args=[game.pk])
    assert f'method="post" action="{hint_url}" hx-post="{hint_url}"' in page

    answer = alice_client.post(hint_url)  # without JavaScript: the page again, with the hint
    assert answer.status_code == 200
    text = answer.content.decode()
    assert "The computer would:" in text and "Why:" in text
    assert "seat" not in text.split("The computer would:")[1].split("</p>")[0].lower()
    assert reload(game).version == game.version  # a hint plays nothing

    swapped = alice_client.post(hint_url, **HX)
    assert swapped.status_code == 200 and "The computer would:" in swapped.content.decode()


def test_the_same_position_gets_the_same_hint(alice, alice_client):
    game = services.start_game(alice, "dream_odyssey", seed=8)
    url = reverse("games:hint", args=[game.pk])
    first = alice_client.post(url, **HX).content.decode().split("The computer would:")[1].split("<")[0]
    again = alice_client.post(url, **HX).content.decode().split("The computer would:")[1].split("<")[0]
    assert first == again


def test_no_hint_in_a_game_for_two_or_once_the_game_is_over(alice, bob, alice_client):
    duel = services.start_game(alice, "warring_planets", opponent=bob, seed=5)
    services.accept_invitation(duel.pk, bob)
    assert "games/%d/hint/" % duel.pk not in alice_client.get(reverse("games:game", args=[duel.pk])).content.decode()
    refused = alice_client.post(reverse("games:hint", args=[duel.pk]))
    assert refused.status_code == 400 and "played alone" in refused.content.decode()

    over = _finished(alice)
    refused = alice_client.post(reverse("games:hint", args=[over.pk]))
    assert refused.status_code == 400 and "on your turn" in refused.content.decode()


def test_an_outsider_gets_neither_hint_nor_review(alice, outsider_client):
    game = _finished(alice)
    live = services.start_game(alice, "know_thyself", seed=3)
    assert outsider_client.post(reverse("games:hint", args=[live.pk])).status_code == 404
    assert outsider_client.get(reverse("games:review", args=[game.pk])).status_code == 404
    assert outsider_client.post(reverse("games:review", args=[game.pk])).status_code == 404
    assert not Review.objects.exists()


def test_a_review_is_asked_once_made_by_the_worker_and_kept(alice, alice_client, settings):
    settings.ADVICE_ITERATIONS = 20  # a small advisor keeps the test quick (the same for hint and review)
    game = _finished(alice)
    page = alice_client.get(reverse("games:game", args=[game.pk])).content.decode()
    url = reverse("games:review", args=[game.pk])
    assert f'href="{url}"' in page
    assert "Review my game" in alice_client.get(url).content.decode()

    assert alice_client.post(url).status_code == 302
    assert alice_client.post(url).status_code == 302  # asking again queues nothing more
    pending = PendingTask.objects.filter(task="games.review_solo_game")
    assert pending.count() == 1 and pending.get().args == [game.pk]
    assert "going through your game" in alice_client.get(url).content.decode()

    assert review_solo_game(game.pk) == "reviewed"
    assert review_solo_game(game.pk) == "nothing to do"  # stored, never recomputed
    review = Review.objects.get(game=game)
    moves = game.moves.count()
    assert len(review.rows) == moves
    for row in review.rows:
        assert row["win_before"] is None or 0 <= row["win_before"] <= 1
        assert "seat" not in row["words"].lower() + (row["bot_words"] or "").lower()
    shown = alice_client.get(url).content.decode()
    assert "Chance of winning" in shown
    # Know Thyself has a calibration map: every chance is printed with its margin.
    estimated = [r for r in review.rows if r["win_before"] is not None]
    assert estimated and all(r["margin_before"] > 0 for r in estimated)
    assert shown.count(" % ± ") >= len(estimated)
    differs = sum(r["differs"] for r in review.rows)
    assert shown.count('class="differs"') == differs


def test_a_review_waits_for_the_end_of_the_game(alice, alice_client):
    game = services.start_game(alice, "know_thyself", seed=3)
    answer = alice_client.post(reverse("games:review", args=[game.pk]))
    assert answer.status_code == 400 and "once the game is over" in answer.content.decode()
    assert not Review.objects.exists()


def test_a_game_played_by_following_every_hint_reviews_as_agreeing_with_all_your_moves(
        alice, alice_client, settings):
    from games.bots.advice import same_move
    from games.computer.advice import advised

    settings.ADVICE_ITERATIONS = 10  # small and the same for hint and review: the same advisor
    game = services.start_game(alice, "know_thyself", seed=7)
    seat = game.seats.get(index=0)
    hint_url = reverse("games:hint", args=[game.pk])
    while game.status == Game.Status.ACTIVE:
        shown = alice_client.post(hint_url, **HX).content.decode()
        got = advised(game, seat)  # the move the sentence on the page names
        assert "The computer would:" in shown
        services.submit_move(game.pk, seat, got["move"], game.version)
        game = reload(game)
    url = reverse("games:review", args=[game.pk])
    alice_client.post(url)
    assert review_solo_game(game.pk) == "reviewed"
    rows = Review.objects.get(game=game).rows
    played = [m.move for m in game.moves.order_by("number")]
    assert len(rows) == len(played)
    assert all(same_move(game.rules, r["bot_move"], m) and not r["differs"] for r, m in zip(rows, played))
    page = alice_client.get(url).content.decode()
    assert "The computer agrees with all your moves" in page
    assert "would rather" not in page and "Blunder" not in page
