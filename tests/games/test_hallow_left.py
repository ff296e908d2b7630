"""A seat that leaves a Tarot Hallow table, and what the others are told when cards are
revealed while they are not asked.

- The log of the page, the history and the turn mail say, for people, that a player left
  and the house plays their seat on ("Carol left the table; ...", "You left ..." to her).
- The player who left can still open the game, read-only (what a spectator sees: no
  hand, no moves), and finds it among their finished games; an outsider still gets 404.
- The page's hint fits a game where one card is played face down.
- When a tie is replayed by others, or a court's power is being used, each seat not asked
  gets one mail with the reveal and nothing to answer (real SMTP server).
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.engine import get_rules
from games.engine.cards import CARDS
from games.mail.outgoing import turn_context
from games.mail.tasks import deliver_turn_mail, send_reveal_mail
from games.models import Game, GameEvent, Move
from games.page_regions import poll_stamp
from sefirot_site.accounts.services import delete_account
from sefirot_site.outbox.models import PendingTask

from .conftest import move_forms, reload
from .hallow_helpers import cast, full_table, page
from .test_hallow_journal import play_to_the_end
from .test_hallow_leaks import secrets_of_others
from .test_leaks import leaks

pytestmark = pytest.mark.django_db

TH = get_rules("tarot_hallow")
LEFT_WORDS = "left the table; the house plays"


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def a_table_carol_left(make_user, alice, bob, seed: int = 5):
    users = cast(make_user, alice, bob, 3)
    game = full_table(users, seed=seed)
    services.submit_move(game.pk, alice, TH.legal_moves(reload(game).load_state(), 0)[0], 0)
    services.resign(game.pk, users[2])
    return reload(game), users


# --- the line in the log ----------------------------------------------------------------------


def test_a_seat_taken_over_is_told_in_the_log_by_name_and_as_you_to_who_left(make_user, alice, bob):
    users = cast(make_user, alice, bob, 3)
    game = full_table(users, seed=5)
    services.submit_move(game.pk, alice, TH.legal_moves(reload(game).load_state(), 0)[0], 0)
    stamp = poll_stamp(reload(game))
    services.resign(game.pk, users[2])
    game, carol = reload(game), users[2]
    # The others' pages hear of it by their polling, though no move was made.
    assert poll_stamp(game) != stamp and game.version == 1
    event = GameEvent.objects.get(game=game, kind=GameEvent.Kind.TAKEN_OVER)
    assert (event.seat, event.version, event.user) == (2, 1, carol)
    assert game.seats.get(index=2).user.is_computer

    alices = page(client_of(alice), game)
    assert f"<strong>Carol</strong>: {LEFT_WORDS} Carol&#x27;s seat from now on." in alices
    assert "seat 2" not in alices.lower() and "seat 3" not in alices.lower()
    carols = page(client_of(carol), game)
    assert f"<strong>You</strong>: {LEFT_WORDS} your seat from now on." in carols


def test_a_deleted_account_is_a_departed_player_in_the_log(make_user, alice, bob):
    users = cast(make_user, alice, bob, 3)
    game = full_table(users)
    delete_account(users[2])
    html = page(client_of(alice), reload(game))
    assert f"<strong>A departed player</strong>: {LEFT_WORDS} that seat from now on." in html


def test_the_turn_mail_tells_the_take_over_among_recent_events_after_the_move_it_followed(
        make_user, alice, bob):
    game, (alice, bob, carol) = a_table_carol_left(make_user, alice, bob)
    services.submit_move(game.pk, bob, TH.legal_moves(game.load_state(), 1)[0], game.version)
    game = reload(game)
    text = turn_context(game.seats.select_related("user").get(index=1))["board_text"]
    left = text.index(f"Carol {LEFT_WORDS} Carol's seat from now on.")
    # Alice played before Carol left, Bob after.
    assert text.index("Alice played a card face down") < left < text.index("You played a card face down")


def test_the_history_of_a_finished_game_tells_the_take_over_after_the_move_it_followed(make_user, alice, bob):
    game, (alice, bob, carol) = a_table_carol_left(make_user, alice, bob, seed=21)
    game = play_to_the_end(game)
    assert game.is_over
    url = reverse("games:history", args=[game.pk])
    for user, words in ((alice, f"Carol: {LEFT_WORDS} Carol&#x27;s seat"), (carol, f"You: {LEFT_WORDS} your seat")):
        html = client_of(user).get(url, {"step": 1}).content.decode()
        assert words in html
        # It comes right after move 1, the move it followed.
        assert html.index(words) > html.index('<li value="1"') and html.index(words) < html.index('<li value="2"')
    # Her page of the finished game leads there, and offers no rematch of a game she left.
    html = page(client_of(carol), game)
    assert f'href="{url}"' in html and "Rematch" not in html
    # And the record, now that nothing in it is secret.
    assert client_of(carol).get(reverse("games:record", args=[game.pk])).status_code == 200


# --- the player who left can still look -------------------------------------------------------


def test_who_left_opens_the_game_read_only_and_an_outsider_still_gets_nothing(
        make_user, alice, bob, outsider_client):
    game, (alice, bob, carol) = a_table_carol_left(make_user, alice, bob)
    state = reload(game).load_state()
    url = reverse("games:game", args=[game.pk])
    carols = client_of(carol)
    response = carols.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert not move_forms(html) and "Give up" not in html and "You left this game" in html
    # What a spectator may see: nobody's hand, no card face down, not even the seat carol had.
    hidden = set().union(*(state["hands"][s] for s in range(3))) | secrets_of_others(state, None)
    assert hidden and not leaks(html, hidden)
    assert not leaks(carols.get(url, HTTP_HX_REQUEST="true").content.decode(), hidden)
    assert carols.get(reverse("games:version", args=[game.pk]), {"v": "x"}).status_code == 200
    # Nothing she sends plays: the seat is the house's.
    move = TH.legal_moves(state, 2)[0]
    import json
    assert carols.post(reverse("games:move", args=[game.pk]),
                       {"version": game.version, "move": json.dumps(move)}).status_code == 404
    assert carols.post(reverse("games:resign", args=[game.pk])).status_code == 404
    assert reload(game).version == game.version
    # Her list has it among the finished/left games.
    listing = carols.get(reverse("games:list")).content.decode()
    finished = listing[listing.index("<h2>Finished</h2>"):]
    assert f'href="{url}"' in finished and "you left" in finished
    # Someone who never sat at a private table still gets 404 from every page of it (a
    # public one they may watch: tests/games/test_watching.py); who left it still looks on.
    Game.objects.filter(pk=game.pk).update(public=False)
    assert carols.get(url).status_code == 200
    for name in ("games:game", "games:version", "games:history"):
        assert outsider_client.get(reverse(name, args=[game.pk])).status_code == 404


# --- the hint of the page -------------------------------------------------------------------------


def test_the_page_hint_says_the_card_is_played_face_down_not_placed(make_user, alice, bob):
    users = cast(make_user, alice, bob, 3)
    game = full_table(users)
    html = page(client_of(alice), game)
    assert "Pick a highlighted card, then where it goes." not in html
    assert "it goes face down on the table, and nobody sees it until every seat has played" in html


# --- the reveal by mail to those not asked ---------------------------------------------------------


def seed_where(kind: str) -> int:
    """A seed whose first round, each seat playing its first card, ends in ``kind``: "play"
    (a tie replayed by two of the three) or "power" (a court's power to use)."""
    for seed in range(1, 500):
        state = TH.new_game(seed, 3, {})
        for seat in (0, 1, 2):
            state = TH.apply(state, seat, TH.legal_moves(state, seat)[0])
        if 0 < len(TH.to_act(state)) < 3 and state["phase"] == kind:
            return seed
    raise AssertionError(f"no seed ends its first round in {kind}")


def run_outbox(task: str, done: set[int]) -> list[str]:
    results = []
    for pending in PendingTask.objects.filter(task=task).order_by("pk"):
        if pending.pk not in done:
            done.add(pending.pk)
            results.append((send_reveal_mail if task == "games.send_reveal_mail" else deliver_turn_mail)(
                *pending.args))
    return results


@pytest.mark.parametrize("kind", ["play", "power"])
def test_a_seat_not_asked_after_a_reveal_gets_one_mail_with_it_and_nothing_to_answer(
        kind, smtp_server, make_user, alice, bob):
    users = cast(make_user, alice, bob, 3)
    game = full_table(users, seed=seed_where(kind))
    turns: set[int] = set()
    reveals: set[int] = set()
    assert run_outbox("games.send_turn_mail", turns) == ["sent"] * 3
    for index in (0, 1):
        services.submit_move(game.pk, users[index], TH.legal_moves(reload(game).load_state(), index)[0],
                             reload(game).version)
    # A card played by another seat is no news: no mail for it.
    assert run_outbox("games.send_reveal_mail", reveals) == []
    services.submit_move(game.pk, users[2], TH.legal_moves(reload(game).load_state(), 2)[0], reload(game).version)
    game = reload(game)
    asked = set(game.to_act)
    assert asked and len(asked) < 3
    assert run_outbox("games.send_reveal_mail", reveals) == [f"sent {3 - len(asked)}"]
    run_outbox("games.send_turn_mail", turns)
    revealed = [CARDS[m.move["card"]].name for m in Move.objects.filter(game=game)]
    for index, user in enumerate(users):
        mails = smtp_server.messages_to(user.email)
        assert len(mails) == 2  # the first turn mail, then one more: the reveal or the next prompt
        latest, text = mails[-1], smtp_server.text(mails[-1])
        assert all(name in text for name in revealed)
        if index in asked:
            assert "play+" in str(latest["Reply-To"]) and "YOUR MOVES" in text
        else:
            assert latest["Subject"].startswith("Cards revealed in Tarot Hallow") and "Nothing to do for you now" in text
            assert not latest["Reply-To"] and "YOUR MOVES" not in text and "TO PLAY BY MAIL" not in text
    # The task run twice mails nobody twice.
    assert send_reveal_mail(game.pk, game.version) == "sent 0"
    assert all(len(smtp_server.messages_to(u.email)) == 2 for u in users)


# --- the table follows by the page's regions ---------------------------------------------------


def test_a_card_played_face_down_by_another_seat_redraws_the_table_of_a_page_that_has_it(
        make_user, alice, bob):
    """The page sends back the digest of each region it shows; the table (show.table) is
    part of the board region's digest, so another seat's play is drawn anew."""
    import re

    users = cast(make_user, alice, bob, 3)
    game = full_table(users)
    alices = client_of(alice)
    html = page(alices, game)
    seen = dict(re.findall(r'name="(seen_\w+)" value="([\w.]+)"', html))
    assert "seen_board" in seen
    services.submit_move(game.pk, bob, TH.legal_moves(reload(game).load_state(), 1)[0], 0)
    swap = alices.get(reverse("games:game", args=[game.pk]), seen, HTTP_HX_REQUEST="true").content.decode()
    assert 'id="board"' in swap
    assert re.search(r'id="hallow-seat-1".*?data-card="back"', swap, re.S)
