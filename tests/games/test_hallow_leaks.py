"""No seat of a Tarot Hallow table is ever sent another seat's hand or a card played face
down and not yet revealed: over random six-seat games, for every seat, its view, its page,
every htmx partial, the pages of its picked cards and its turn mail (text and HTML)."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from games import services
from games.mail.outgoing import turn_mail
from games.models import Seat
from games.presenters import visible_cards

from .conftest import move_forms, reload
from .hallow_helpers import cast, full_table
from .test_leaks import forbidden_cards, leaks, seat_pages

pytestmark = pytest.mark.django_db

GAMES = 2
STATES_PER_GAME = 3


def secrets_of_others(state: dict, seat: int) -> set[str]:
    """Another seat's hand, and any card lying face down on the table but this seat's own."""
    hidden = set()
    for other in range(state["players"]):
        if other == seat:
            continue
        hidden |= set(state["hands"][other])
        if state["round"] and state["round"]["face_down"][other]:
            hidden.add(state["round"]["face_down"][other])
    return hidden


def random_moves(game, count: int, choose: random.Random):
    """``count`` moves, each by a seat drawn among those asked (so rounds are answered in
    every order), through the services as the pages and the mail do."""
    for _ in range(count):
        game = reload(game)
        if game.status != game.Status.ACTIVE:
            break
        index = choose.choice(game.to_act)
        moves = game.rules.legal_moves(game.load_state(), index)
        services.submit_move(game.pk, game.seats.get(index=index), choose.choice(moves), game.version)
    return reload(game)


def test_no_seat_of_a_six_seat_table_is_sent_another_seats_hand_or_face_down_card(make_user, alice, bob):
    users = cast(make_user, alice, bob, 6)
    clients = {}
    for user in users:
        clients[user.pk] = Client()
        clients[user.pk].force_login(user)
    choose = random.Random(16)
    checked = face_down_seen = 0
    for g in range(GAMES):
        game = full_table(users, seed=choose.randrange(10**6))
        for _ in range(STATES_PER_GAME):
            game = random_moves(game, choose.randrange(3, 40), choose)
            state = game.load_state()
            rules = game.rules
            face_down_seen += bool(state["round"]) and any(state["round"]["face_down"])
            for seat in Seat.objects.filter(game=game).select_related("user", "game"):
                view = rules.view(state, seat.index)
                secret = secrets_of_others(state, seat.index)
                # The log and the story may name a card revealed in an earlier round that was
                # reshuffled and drawn again since: history, not where it is now.
                now = {k: v for k, v in view.items() if k not in ("log", "story")}
                assert not secret & visible_cards(now), f"seat {seat.index}'s view holds {secret & visible_cards(now)}"
                forbidden = forbidden_cards(rules, state, seat.index)
                assert secret - visible_cards(view) <= forbidden
                lying = {state["round"]["face_down"][o] for o in range(6)
                         if o != seat.index and state["round"] and state["round"]["face_down"][o]}
                sent = seat_pages(clients[seat.user_id], game)
                if game.status == game.Status.ACTIVE and seat.index in game.to_act:
                    mail = turn_mail(seat)
                    sent["mail"] = "\n".join([mail.subject, mail.body] + [c for c, _ in mail.alternatives])
                for name, text in sent.items():
                    assert leaks(text, forbidden) == [], f"game {g} seat {seat.index} {name} at {game.version}"
                    # Nor is a card lying face down named by the move log, however public its past.
                    for log in re.findall(r'<ol class="log-list"[^>]*>.*?</ol>', text, re.S):
                        assert leaks(log, lying) == [], f"game {g} seat {seat.index} {name} log"
                    assert all(m.get("card") not in forbidden for m in move_forms(text))
                checked += 1
    assert checked == GAMES * STATES_PER_GAME * 6
    assert face_down_seen  # the check met cards lying face down, not only fresh rounds
