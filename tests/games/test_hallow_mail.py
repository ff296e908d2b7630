"""A Tarot Hallow round by mail (issue 16 item 4): every seat asked gets its own turn mail;
two answer by reply and the third on the web, in any order; nobody is mailed about another
seat's card played; when the last one answers the round is revealed, and everyone gets one
mail with the reveal and their next prompt."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import get_rules
from games.mail.inbound import handle_message
from games.mail.tasks import deliver_turn_mail
from games.models import Game, Move
from sefirot_site.outbox.models import PendingTask

from .conftest import reload
from .hallow_helpers import cast, full_table
from .mail_helpers import reply, reply_address_of

pytestmark = pytest.mark.django_db

TH = get_rules("tarot_hallow")


def a_clean_seed() -> int:
    """A seed whose first round, each seat playing its first card, has one winner and no
    court power: the next round asks all three again."""
    for seed in range(1, 500):
        state = TH.new_game(seed, 3, {})
        for seat in (0, 1, 2):
            state = TH.apply(state, seat, TH.legal_moves(state, seat)[0])
        if TH.to_act(state) == [0, 1, 2] and state["last_round"]["winner"] is not None:
            return seed
    raise AssertionError("no clean seed")


def run_turn_mails(done: set[int]) -> list[str]:
    """What a worker would do with the turn mails the outbox holds: run each once."""
    results = []
    for task in PendingTask.objects.filter(task="games.send_turn_mail").order_by("pk"):
        if task.pk not in done:
            done.add(task.pk)
            results.append(deliver_turn_mail(*task.args))
    return results


def test_two_seats_play_by_reply_and_one_on_the_web_and_the_reveal_is_one_mail_each(
        smtp_server, make_user, alice, bob):
    users = cast(make_user, alice, bob, 3)
    game = full_table(users, seed=a_clean_seed())
    addresses = [u.email for u in users]
    done: set[int] = set()
    assert run_turn_mails(done) == ["sent", "sent", "sent"]
    first = {a: smtp_server.messages_to(a)[-1] for a in addresses}
    for index, address in enumerate(addresses):
        text = smtp_server.text(first[address])
        others = [u.display_name for u in users if u.email != address]
        assert f"{others[0]} and {others[1]} also have a move to make now" in text
        assert "1." in text and "face down" in text

    # Bob answers first by reply, then carol on the web, from the page of version 0.
    outcome = handle_message(reply(reply_address_of(first[addresses[1]]), "1", sender=addresses[1],
                                   quoting=first[addresses[1]]).as_bytes())
    assert outcome.status == "played", outcome
    assert run_turn_mails(done) == ["the earlier turn mail still fits"] * 2  # alice's and carol's
    carol = Client()
    carol.force_login(users[2])
    move = TH.legal_moves(reload(game).load_state(), 2)[0]
    response = carol.post(reverse("games:move", args=[game.pk]), {"version": 0, "move": json.dumps(move)})
    assert response.status_code == 302
    assert run_turn_mails(done) == ["the earlier turn mail still fits"]  # alice's, once more
    assert [len(smtp_server.messages_to(a)) for a in addresses] == [1, 2, 1]  # bob: "played"
    bobs_card = Move.objects.get(game=game, seat=1).move["card"]

    # Alice answers last, by reply: the round is revealed; she gets her next turn as the answer.
    outcome = handle_message(reply(reply_address_of(first[addresses[0]]), "1", sender=addresses[0],
                                   quoting=first[addresses[0]]).as_bytes())
    assert outcome.status == "played", outcome
    game = reload(game)
    assert game.to_act == [0, 1, 2] and game.version == 3
    run_turn_mails(done)
    assert [len(smtp_server.messages_to(a)) for a in addresses] == [2, 3, 2]  # one mail each
    from games.engine.cards import CARDS
    for address in addresses:
        latest = smtp_server.messages_to(address)[-1]
        text = smtp_server.text(latest)
        assert "revealed" in text and CARDS[bobs_card].name in text
        assert "play+" in str(latest["Reply-To"]) and f".{game.version}@" in str(latest["Reply-To"])
        assert "1." in text  # the next prompt's numbered moves
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
