"""Several seats asked to act at once (``to_act`` lists them): each is told so, sees its
own prompt and moves, and may act in any order, on the web or by mail, without being
refused because the other seat acted first.  Played with Sealed Bids (tests/games/
sealed_bids.py), a test game whose rounds ask both seats for a bid at the same time."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils.html import escape

from games import services
from games.mail.inbound import handle_message
from games.mail.tasks import deliver_turn_mail
from games.models import Game, Move

from . import sealed_bids
from .conftest import move_forms, pick_links, reload
from .mail_helpers import reply, reply_address_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def bids_game(alice, bob):
    sealed_bids.install()
    try:
        game = services.start_game(alice, sealed_bids.SealedBids.slug, {}, opponent=bob, seed=4)
        services.accept_invitation(game.pk, bob)
        yield reload(game)
    finally:
        sealed_bids.uninstall()


def page_url(game, **query):
    return reverse("games:game", args=[game.pk]) + ("?" + "&".join(f"{k}={v}" for k, v in query.items())
                                                     if query else "")


def legal(game, seat):
    return game.rules.legal_moves(game.load_state(), seat)


def offered_moves(client, game) -> list[dict]:
    page = client.get(page_url(game)).content.decode()
    offered = move_forms(page)
    for card in pick_links(page):
        offered += [m for m in move_forms(client.get(page_url(game, pick=card)).content.decode())
                    if m not in offered]
    return offered


def post_move(client, game, move, version):
    return client.post(reverse("games:move", args=[game.pk]), {"version": version, "move": json.dumps(move)})


def test_both_seats_asked_at_once_each_see_their_turn_their_own_prompt_and_their_own_moves(
        bids_game, alice_client, bob_client):
    assert bids_game.to_act == [0, 1]
    prompts = []
    for index, client in ((0, alice_client), (1, bob_client)):
        page = client.get(page_url(bids_game)).content.decode()
        assert "Your turn (the other player is asked to act too)." in page
        prompt = bids_game.rules.view(bids_game.load_state(), index)["prompt"]
        assert escape(prompt) in page
        prompts.append(prompt)
        as_text = lambda moves: sorted(json.dumps(m, sort_keys=True) for m in moves)  # noqa: E731
        assert as_text(offered_moves(client, bids_game)) == as_text(legal(bids_game, index))
    assert prompts[0] != prompts[1]  # each names its own hand


def test_a_seat_still_asked_plays_from_a_board_shown_before_the_other_seat_moved(
        bids_game, alice_client, bob_client):
    shown_to_bob = bids_game.version
    bobs_move = legal(bids_game, 1)[0]
    assert post_move(alice_client, bids_game, legal(bids_game, 0)[0], bids_game.version).status_code == 302
    game = reload(bids_game)
    assert game.to_act == [1] and game.version == shown_to_bob + 1
    assert "Waiting for Bob" in alice_client.get(page_url(game)).content.decode()

    # Alice's move changed nothing bob could choose, so his board is still good.
    assert post_move(bob_client, game, bobs_move, shown_to_bob).status_code == 302
    game = reload(game)
    assert game.version == 2 and game.to_act == [0, 1]  # round two asks both again
    assert list(Move.objects.filter(game=game).values_list("seat", flat=True)) == [0, 1]


def test_a_doubled_submission_is_still_refused_while_the_other_seat_is_asked_too(bids_game, alice_client):
    move = legal(bids_game, 0)[0]
    assert post_move(alice_client, bids_game, move, 0).status_code == 302
    again = post_move(alice_client, bids_game, legal(bids_game, 0)[1], 0)
    assert again.status_code == 409 and "moved on" in again.content.decode()
    assert reload(bids_game).version == 1


def test_a_board_shown_before_the_seats_choices_changed_is_stale(bids_game, bob_client, alice, bob):
    """Once the round is over, a bid chosen from round one's hand is refused as stale."""
    services.submit_move(bids_game.pk, alice, legal(bids_game, 0)[0], 0)
    services.submit_move(bids_game.pk, bob, legal(bids_game, 1)[0], 1)
    game = reload(bids_game)
    leftover = legal(game, 1)[0]  # a card still in bob's hand, so legal both then and now
    response = post_move(bob_client, game, leftover, 0)
    assert response.status_code == 409
    assert reload(game).version == 2


def test_each_seat_gets_one_turn_mail_and_a_reply_to_it_plays_after_the_other_seat_moved(
        smtp_server, bids_game, alice):
    seats = {s.index: s for s in bids_game.seats.select_related("user", "game")}
    assert deliver_turn_mail(seats[0].pk, 0) == "sent"
    assert deliver_turn_mail(seats[1].pk, 0) == "sent"
    bobs_mail = smtp_server.messages_to("bob@example.com")[-1]
    assert "also has a move to make now" in smtp_server.text(bobs_mail)

    services.submit_move(bids_game.pk, alice, legal(bids_game, 0)[0], 0)
    # The set of seats to act changed, so the worker is asked again for bob at version 1;
    # the mail he has still fits (only alice moved, his moves are the same): no second one.
    assert deliver_turn_mail(seats[1].pk, 1) == "the earlier turn mail still fits"
    assert len(smtp_server.messages_to("bob@example.com")) == 1

    second = legal(reload(bids_game), 1)[1]
    outcome = handle_message(reply(reply_address_of(bobs_mail), "2", sender="bob@example.com",
                                   quoting=bobs_mail).as_bytes())
    assert outcome.status == "played", outcome
    game = reload(bids_game)
    assert game.version == 2 and Move.objects.get(game=game, number=2).move == second


def test_a_reply_to_a_mail_whose_choices_are_gone_is_refused_and_changes_nothing(
        smtp_server, bids_game, alice, bob):
    bob_seat = bids_game.seats.get(index=1)
    assert deliver_turn_mail(bob_seat.pk, 0) == "sent"
    old_mail = smtp_server.messages_to("bob@example.com")[-1]
    services.submit_move(bids_game.pk, alice, legal(bids_game, 0)[0], 0)
    services.submit_move(bids_game.pk, bob, legal(bids_game, 1)[0], 1)
    before = reload(bids_game)
    outcome = handle_message(reply(reply_address_of(old_mail), "1", sender="bob@example.com",
                                   quoting=old_mail).as_bytes())
    assert outcome.status == "refused" and outcome.reason == "stale"
    after = Game.objects.get(pk=before.pk)
    assert (after.version, after.state) == (before.version, before.state)
