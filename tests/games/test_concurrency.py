"""Requests at the same moment: twenty players sending the same move (it is played exactly
once), six seats playing at once (all played), games to watch asked for at once (the limit
holds)."""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, Move

PARALLEL = 20


def at_one_moment(calls) -> list:
    """Each call in a thread of its own, all let go at one moment; their results, in the
    calls' order.  An error in a thread fails the test here rather than being lost with
    the thread, and each thread's database connection is closed."""
    start = threading.Barrier(len(calls))
    results: list = [None] * len(calls)
    errors: list[BaseException] = []

    def run(index, call):
        try:
            start.wait()
            results[index] = call()
        except BaseException as error:
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(index, call)) for index, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    return results


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs this there)")
@pytest.mark.django_db(transaction=True)
def test_twenty_parallel_submissions_of_one_move_apply_exactly_once(alice):
    game = services.start_game(alice, "know_thyself", seed=11)
    move = game.rules.legal_moves(game.load_state(), 0)[0]
    clients = []
    for _ in range(PARALLEL):
        client = Client()
        client.force_login(alice)
        clients.append(client)
    post = {"version": 0, "move": json.dumps(move)}
    answers = at_one_moment([lambda c=c: c.post(reverse("games:move", args=[game.pk]), post) for c in clients])
    statuses = [answer.status_code for answer in answers]
    assert sorted(statuses) == [302] + [409] * (PARALLEL - 1)
    game = Game.objects.get(pk=game.pk)
    assert game.version == 1 and Move.objects.filter(game=game).count() == 1
    assert game.state == game.rules.dumps(game.rules.apply(game.rules.new_game(11, 1, game.options), 0, move))


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs this there)")
@pytest.mark.django_db(transaction=True)
def test_six_seats_of_a_table_posting_their_cards_at_one_moment_are_all_played(make_user, alice, bob):
    """Each from the page of the round's start: they queue on the row lock and each finds its
    board still good (only the others moved), so none is refused and the round is revealed."""
    from .hallow_helpers import cast, full_table

    users = cast(make_user, alice, bob, 6)
    game = full_table(users, seed=13)
    state = game.load_state()
    moves = {index: game.rules.legal_moves(state, index)[0] for index in range(6)}
    clients = []
    for user in users:
        client = Client()
        client.force_login(user)
        clients.append(client)
    answers = at_one_moment([
        lambda i=i: clients[i].post(reverse("games:move", args=[game.pk]),
                                    {"version": 0, "move": json.dumps(moves[i])})
        for i in range(6)])
    statuses = [answer.status_code for answer in answers]
    assert statuses == [302] * 6
    game = Game.objects.get(pk=game.pk)
    assert game.version == 6 and sorted(Move.objects.filter(game=game).values_list("seat", flat=True)) == list(range(6))
    assert game.load_state()["round"]["steps"] or game.load_state()["last_round"]  # revealed


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs this there)")
@pytest.mark.django_db(transaction=True)
def test_games_to_watch_asked_for_at_one_moment_stop_at_the_limit(alice, outsider):
    """Alice watches one game of computer players and asks for five more at the same
    moment: the limit (three at once) holds, the others are refused in words she can read;
    the outsider asking for his own at that moment is not held back by her limit."""
    watch = {"mode": "warring_planets", "opponent": "computer", "computer_level": "greedy",
             "computers_greedy": "1", "watch": "on"}
    clients = {}
    for name, user in (("alice", alice), ("outsider", outsider)):
        clients[name] = Client()
        clients[name].force_login(user)
    assert clients["alice"].post(reverse("games:new"), watch).status_code == 302
    asking = ["alice"] * 5 + ["outsider"]
    asking_clients = []
    for who in asking:
        client = Client()
        client.force_login(alice if who == "alice" else outsider)
        asking_clients.append(client)
    responses = at_one_moment([lambda c=c: c.post(reverse("games:new"), watch) for c in asking_clients])
    answers = [(who, r.status_code, r.content.decode()) for who, r in zip(asking, responses)]
    alices = sorted(status for who, status, _ in answers if who == "alice")
    assert alices == [302] * 2 + [400] * 3
    for who, status, page in answers:
        if status == 400:
            assert "You are already watching 3 games of computer players; let one of them finish first." \
                in page, page[:3000]
    assert [status for who, status, _ in answers if who == "outsider"] == [302]
    watched = Game.objects.filter(created_by=alice, status=Game.Status.ACTIVE).exclude(seats__user=alice)
    assert watched.count() == services.WATCHED_AT_ONCE
    assert Game.objects.filter(created_by=outsider).count() == 1
