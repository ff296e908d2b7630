"""Tarot Hallow on the site (issue 16): tables of two to six seats filled by invitations
and the lobby, started when full or early by their maker; several seats playing a round
at once in any order; the table page; seats that leave played on by the house; and an
outsider who gets nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.clocks.deadlines import end_overdue_game
from games.models import Game, Move, Seat
from sefirot_site.accounts.services import delete_account

from .conftest import move_forms, reload
from .hallow_helpers import cast, full_table, page, post_move

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def legal(game, seat):
    return game.rules.legal_moves(game.load_state(), seat)


# --- filling the seats ----------------------------------------------------------------------


def test_a_table_fills_by_invitations_by_name_and_address_and_open_lobby_seats(make_user, alice, bob,
                                                                               outsider, outsider_client):
    carol = make_user("carol", display_name="Carol")
    game = services.start_game(alice, "tarot_hallow", {}, seats=4, invitees=[bob, "dora@example.com"], seed=3)
    seats = {s.index: s for s in game.seats.all()}
    assert game.players == 4 and game.status == Game.Status.INVITED
    assert [seats[i].status for i in range(4)] == ["joined", "invited", "invited", "open"]
    assert seats[2].invited_email == "dora@example.com" and seats[2].invite_token
    # The open seat is in the lobby while the invitations are out.
    assert "Take a seat" in outsider_client.get(reverse("games:lobby")).content.decode()
    services.accept_challenge(game.pk, carol)
    services.accept_invitation(game.pk, bob)
    assert reload(game).status == Game.Status.INVITED
    assert "3 of 4 seats taken" in page(client_of(alice), game)
    # Whoever follows the address's link takes the invited seat; then the table is full.
    services.accept_invitation(game.pk, outsider, token=seats[2].invite_token)
    game = reload(game)
    assert game.status == Game.Status.ACTIVE and game.to_act == [0, 1, 2, 3]
    assert [s.user for s in game.seats.order_by("index")] == [alice, bob, outsider, carol]


def test_a_declined_seat_of_a_table_goes_to_the_lobby_and_the_table_waits(make_user, alice, bob):
    carol = make_user("carol", display_name="Carol")
    game = services.start_game(alice, "tarot_hallow", {}, seats=3, invitees=[bob, carol], seed=3)
    services.decline_invitation(game.pk, bob)
    game = reload(game)
    assert game.status == Game.Status.INVITED
    assert game.seats.get(index=1).status == Seat.Status.OPEN and game.seats.get(index=1).user is None
    services.accept_invitation(game.pk, carol)
    assert reload(game).status == Game.Status.OPEN


def test_its_maker_starts_a_table_early_with_the_players_seated(make_user, alice, bob):
    carol = make_user("carol", display_name="Carol")
    game = services.start_game(alice, "tarot_hallow", {}, seats=5, invitees=[bob], seed=8)
    services.accept_challenge(game.pk, carol)  # seat 2: the first open one
    carol_client = client_of(carol)
    assert "Start now" not in page(carol_client, game)
    refused = carol_client.post(reverse("games:start_now", args=[game.pk]), follow=True)
    assert "Only the player who made this game" in refused.content.decode()
    assert reload(game).status == Game.Status.INVITED
    services.accept_invitation(game.pk, bob)
    alice_client = client_of(alice)
    assert "Start now with the players seated" in page(alice_client, game)
    alice_client.post(reverse("games:start_now", args=[game.pk]))
    game = reload(game)
    assert game.status == Game.Status.ACTIVE and game.players == 3
    assert [(s.index, s.user) for s in game.seats.order_by("index")] == [(0, alice), (1, bob), (2, carol)]
    state = game.load_state()
    assert state["players"] == 3 and game.to_act == [0, 1, 2]
    assert state == game.rules.new_game(game.seed, 3, game.options)


def test_it_refuses_to_let_a_player_who_took_a_seat_cancel_the_table_of_its_maker(make_user, alice, bob,
                                                                                  outsider_client):
    """Issue 38: Mallory took an open seat of Alice's table of four, then cancelled it."""
    mallory = make_user("mallory", display_name="Mallory")
    game = services.start_game(alice, "tarot_hallow", {}, seats=4, invitees=[bob], seed=4)
    services.accept_challenge(game.pk, mallory)
    before = [(s.index, s.user_id, s.status, s.invite_token) for s in game.seats.order_by("index")]

    def unchanged():
        again = reload(game)
        return (again.status == Game.Status.INVITED and again.finished_at is None
                and [(s.index, s.user_id, s.status, s.invite_token) for s in again.seats.order_by("index")] == before)

    with pytest.raises(services.NotYourSeat, match="Only Alice, who made this game, can cancel it") as refused:
        services.cancel_game(game.pk, mallory)
    assert refused.value.status == 403 and unchanged()
    mallory_client = client_of(mallory)
    assert "Cancel this game" not in page(mallory_client, game)
    answer = mallory_client.post(reverse("games:cancel", args=[game.pk]), follow=True)
    assert answer.status_code == 200 and "Only Alice, who made this game, can cancel it." in answer.content.decode()
    assert unchanged()
    # Bob, invited and not seated yet, declines rather than cancels; an outsider gets nothing.
    for client in (client_of(bob), outsider_client):
        assert client.post(reverse("games:cancel", args=[game.pk])).status_code == 404
        assert unchanged()
    alice_client = client_of(alice)
    assert "Cancel this game" in page(alice_client, game)
    alice_client.post(reverse("games:cancel", args=[game.pk]))
    assert reload(game).status == Game.Status.CANCELLED


def test_the_maker_of_a_game_for_two_may_withdraw_it_and_the_player_invited_declines_it(alice, bob, bob_client):
    game = services.start_game(alice, "tarot_hallow", {}, opponent=bob, seed=4)
    assert bob_client.post(reverse("games:cancel", args=[game.pk])).status_code == 404
    assert reload(game).status == Game.Status.INVITED
    services.decline_invitation(game.pk, bob)
    assert reload(game).status == Game.Status.DECLINED
    withdrawn = services.start_game(alice, "tarot_hallow", {}, open_challenge=True, seed=4)
    assert services.cancel_game(withdrawn.pk, alice).status == Game.Status.CANCELLED


def test_a_table_cannot_start_early_with_its_maker_alone(alice):
    game = services.start_game(alice, "tarot_hallow", {}, seats=3, seed=8)
    with pytest.raises(services.CannotStart):
        services.start_with_seated(game.pk, alice)


def test_the_new_game_page_sets_the_seats_and_invites_by_name_or_address(make_user, alice, alice_client, bob):
    form = alice_client.get(reverse("games:new")).content.decode()
    assert 'name="seats"' in form and "Tarot Hallow (2-6)" in form
    response = alice_client.post(reverse("games:new"), {
        "mode": "tarot_hallow", "opponent": "user", "username": "bob", "seats": "4",
        "invites": "zed@example.com", "computer_level": "greedy"})
    assert response.status_code == 302, response.content.decode()[:3000]
    game = Game.objects.get(created_by=alice)
    assert game.players == 4
    assert [s.status for s in game.seats.order_by("index")] == ["joined", "invited", "invited", "open"]
    too_many = alice_client.post(reverse("games:new"), {
        "mode": "tarot_hallow", "opponent": "open", "seats": "2", "invites": "bob, zed@example.com"})
    assert too_many.status_code == 400 and "room for 1 more" in too_many.content.decode()
    not_here = alice_client.post(reverse("games:new"), {
        "mode": "warring_planets", "opponent": "open", "seats": "3"})
    assert not_here.status_code == 400 and "is for 2 players" in not_here.content.decode()


# --- a round played at once ----------------------------------------------------------------------


def test_three_seats_play_a_round_in_any_order_each_from_the_board_it_was_shown(make_user, alice, bob):
    users = cast(make_user, alice, bob, 3)
    game = full_table(users)
    clients = [client_of(u) for u in users]
    shown = game.version
    for index, client in enumerate(clients):
        html = page(client, game)
        assert "Your turn (the other players asked are playing too" in html
        assert 'class="hallow' in html
    # Carol first, then alice, then bob, each from the page shown before anyone moved.
    for index in (2, 0, 1):
        move = legal(reload(game), index)[0]
        response = post_move(clients[index], game, move, shown)
        assert response.status_code == 302, response.content.decode()[:2000]
    game = reload(game)
    assert list(Move.objects.filter(game=game).values_list("seat", flat=True)) == [2, 0, 1]
    state = game.load_state()
    assert state["round"]["steps"] or state["last_round"]  # revealed: a tie, a power, or the next round
    html = page(clients[0], game)
    assert "Round 1:" in html and 'class="hallow-reveal"' in html


def test_a_played_card_is_a_card_back_to_the_others_until_the_reveal(make_user, alice, bob):
    users = cast(make_user, alice, bob, 3)
    game = full_table(users, seed=12)
    card = legal(game, 0)[0]["card"]
    services.submit_move(game.pk, alice, {"type": "play", "card": card}, game.version)
    game = reload(game)
    from games.engine.cards import CARDS
    name = CARDS[card].name
    mine = page(client_of(alice), game)
    assert f'data-card="{card}"' in mine  # your own card, face down on your seat
    for user in users[1:]:
        for html in (page(client_of(user), game),
                     client_of(user).get(reverse("games:game", args=[game.pk]), HTTP_HX_REQUEST="true")
                     .content.decode()):
            assert f'data-card="{card}"' not in html and name not in html
            assert 'data-card="back"' in html and "played face down" in html


# --- seats that leave -------------------------------------------------------------------------


def test_a_seat_that_resigns_a_table_of_three_is_played_on_by_the_house(make_user, alice, bob):
    users = cast(make_user, alice, bob, 3)
    game = full_table(users)
    services.resign(game.pk, bob)
    game = reload(game)
    assert game.status == Game.Status.ACTIVE
    taken = game.seats.get(index=1)
    assert taken.user.is_computer and "house" in str(taken.user)
    assert "house" in page(client_of(alice), game)
    # The house's move is queued with the take-over and played from its seat's view.
    from games.computer.tasks import play_computer_move
    from sefirot_site.outbox.models import PendingTask
    assert PendingTask.objects.filter(task__contains="play_computer_move").exists()
    assert play_computer_move(game.pk, game.version).startswith("played")
    assert list(Move.objects.filter(game=game).values_list("seat", flat=True)) == [1]
    # Bob has left: the game is no longer his to play, only to watch (test_hallow_left.py).
    bobs = client_of(bob).get(reverse("games:game", args=[game.pk]))
    assert bobs.status_code == 200 and not move_forms(bobs.content.decode())


def test_the_late_seats_of_a_table_are_taken_over_when_the_clock_runs_out(make_user, alice, bob):
    users = cast(make_user, alice, bob, 3)
    game = full_table(users, time_control=1)
    services.submit_move(game.pk, alice, legal(game, 0)[0], game.version)
    game = reload(game)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    assert end_overdue_game(game.pk, game.version) == "taken over"
    game = reload(game)
    assert game.status == Game.Status.ACTIVE
    assert [s.user.is_computer for s in game.seats.order_by("index")] == [False, True, True]
    assert game.deadline is None  # only computers to act: no clock runs for them


def test_a_deleted_account_leaves_its_seat_to_the_house_and_the_last_person_leaving_ends_it(
        make_user, alice, bob):
    users = cast(make_user, alice, bob, 3)
    game = full_table(users)
    delete_account(users[2])
    game = reload(game)
    assert game.status == Game.Status.ACTIVE and game.seats.get(index=2).user.is_computer
    services.resign(game.pk, bob)
    assert reload(game).status == Game.Status.ACTIVE
    services.resign(game.pk, alice)
    game = reload(game)
    assert game.status == Game.Status.ABANDONED


# --- an outsider ----------------------------------------------------------------------------------


def test_an_outsider_gets_nothing_of_a_table(make_user, alice, bob, outsider, outsider_client):
    users = cast(make_user, alice, bob, 3)
    game = full_table(users, public=False)  # a public one they could watch
    urls = [reverse(name, args=[game.pk]) for name in ("games:game", "games:version", "games:history")]
    for url in urls:
        assert outsider_client.get(url).status_code == 404
    move = legal(game, 0)[0]
    for name in ("games:move", "games:start_now", "games:resign"):
        response = outsider_client.post(reverse(name, args=[game.pk]),
                                        {"version": game.version, "move": __import__("json").dumps(move)})
        assert response.status_code == 404
    assert reload(game).version == 0


def test_a_rematch_of_a_table_keeps_the_order_and_passes_the_deal_to_the_next_seat(make_user, alice, bob):
    from .test_hallow_journal import play_to_the_end
    users = cast(make_user, alice, bob, 3)
    game = play_to_the_end(full_table(users, seed=21))
    assert game.load_state()["dealer"] == 0  # alice dealt
    carol = users[2]
    again = services.rematch(game.pk, carol)
    assert services.rematch(game.pk, carol).pk == again.pk
    seats = list(again.seats.order_by("index"))
    assert [s.user for s in seats] == [carol, alice, bob] and again.players == 3
    assert [s.status for s in seats] == ["joined", "invited", "invited"]
    # Alice dealt; bob, at her left, deals now: seat 2 of the new table.
    assert again.options["dealer"] == 2 and again.load_state()["dealer"] == 2


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_the_deal_passes_to_the_next_player_at_every_rematch_whoever_asks(make_user, alice, bob, seats):
    """RULINGS 7: the first game's first seat deals, then the deal passes to the next seat
    each game; a rematch seats its asker first, so the dealer is named by who sat next."""
    from .test_hallow_journal import play_to_the_end
    users = cast(make_user, alice, bob, seats)
    game = play_to_the_end(full_table(users, seed=21))
    dealers = [game.seats.get(index=game.load_state()["dealer"]).user]
    for asker in (users[1], users[0], users[-1]):
        old = {s.index: s.user for s in game.seats.all()}
        again = services.rematch(game.pk, asker)
        for seat in again.seats.filter(status=Seat.Status.INVITED):
            services.accept_invitation(again.pk, seat.user)
        again = reload(again)
        assert again.status == Game.Status.ACTIVE
        dealer = again.seats.get(index=again.load_state()["dealer"]).user
        assert dealer == old[(game.load_state()["dealer"] + 1) % seats], f"{asker} asked"
        dealers.append(dealer)
        game = play_to_the_end(again)
    assert dealers == [users[k % seats] for k in range(4)]


def test_a_rematch_started_early_keeps_the_deal_with_the_player_it_passed_to(make_user, alice, bob):
    carol, dave = make_user("carol", display_name="Carol"), make_user("dave", display_name="Dave")
    # As a rematch makes it: Carol, at seat 2, is to deal; Bob, before her, says no.
    game = services.start_game(alice, "tarot_hallow", {"dealer": 2}, seats=4, invitees=[bob, carol, dave], seed=6)
    services.decline_invitation(game.pk, bob)
    services.accept_invitation(game.pk, carol)
    services.accept_invitation(game.pk, dave)
    services.start_with_seated(game.pk, alice)
    game = reload(game)
    assert [s.user for s in game.seats.order_by("index")] == [alice, carol, dave]
    assert game.seats.get(index=game.load_state()["dealer"]).user == carol


def test_a_tables_clock_reminds_every_seat_asked_and_pauses_for_one_on_vacation(smtp_server, make_user,
                                                                                 alice, bob):
    from games.clocks.deadlines import end_vacation, start_vacation
    from games.clocks.tasks import send_deadline_reminder
    users = cast(make_user, alice, bob, 3)
    game = full_table(users, time_control=1)
    services.submit_move(game.pk, alice, legal(game, 0)[0], game.version)
    game = reload(game)
    assert send_deadline_reminder(game.pk, game.deadline.isoformat()) == "reminded 2"  # bob and carol
    assert len(smtp_server.messages_to("bob@example.com")) == 1
    assert len(smtp_server.messages_to("carol@example.com")) == 1
    assert not smtp_server.messages_to("alice@example.com")  # she has played
    start_vacation(users[2])
    game = reload(game)
    assert game.deadline is None and game.paused_clock.user == users[2]
    end_vacation(users[2])
    assert reload(game).deadline is not None


def test_a_deleted_account_frees_its_seat_at_a_table_still_filling(make_user, alice, bob):
    carol = make_user("carol", display_name="Carol")
    game = services.start_game(alice, "tarot_hallow", {}, seats=4, invitees=[bob, carol], seed=2)
    services.accept_invitation(game.pk, carol)
    delete_account(carol)
    game = reload(game)
    assert game.status == Game.Status.INVITED  # bob's invitation is still out
    assert game.seats.get(index=2).status == Seat.Status.OPEN
    delete_account(alice)  # its maker: the table is cancelled
    assert reload(game).status == Game.Status.CANCELLED


def test_giving_up_a_table_on_the_page_leaves_it_to_the_house_and_goes_back_to_the_list(make_user, alice, bob):
    users = cast(make_user, alice, bob, 3)
    game = full_table(users)
    response = client_of(bob).post(reverse("games:resign", args=[game.pk]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("games:list")
    assert "a computer player of the house plays your seat on" in response.content.decode()
    assert reload(game).status == Game.Status.ACTIVE


def test_each_invited_seat_of_a_table_gets_its_own_invitation_mail(smtp_server, make_user, alice, bob):
    from games.mail.tasks import send_invitation_mail
    from sefirot_site.outbox.models import PendingTask
    game = services.start_game(alice, "tarot_hallow", {}, seats=4, invitees=[bob, "dora@example.com"], seed=3)
    tasks = PendingTask.objects.filter(task="games.tasks.send_invitation_mail")
    assert tasks.count() == 2
    for task in tasks:
        assert send_invitation_mail(*task.args) == "sent"
    to_bob = smtp_server.messages_to("bob@example.com")
    to_dora = smtp_server.messages_to("dora@example.com")
    assert len(to_bob) == 1 and len(to_dora) == 1
    assert "/invitation/" in smtp_server.text(to_dora[0]) and f"/games/{game.pk}/" in smtp_server.text(to_bob[0])


def test_a_table_started_early_with_fewer_seats_keeps_a_rematch_dealer_in_range(make_user, alice, bob):
    game = services.start_game(alice, "tarot_hallow", {"dealer": 4}, seats=5, invitees=[bob], seed=6)
    services.accept_invitation(game.pk, bob)
    with pytest.raises(services.CannotJoin, match="already have a seat"):
        services.accept_challenge(game.pk, bob)
    services.start_with_seated(game.pk, alice)
    game = reload(game)
    assert game.players == 2 and game.load_state()["dealer"] == 0 and game.status == Game.Status.ACTIVE
