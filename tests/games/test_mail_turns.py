"""Turn mail: who gets it and when, the daily digest, the pipe command and the dev mailbox."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import time
from datetime import UTC, date, datetime
from types import SimpleNamespace
from pathlib import Path

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from games import services
from games.mail.tasks import local_digest_day
from games.engine import RULES
from games.engine.cards import CARDS, RANK_NAMES, SUIT_NAMES
from games.mail.outgoing import digest_mail, turn_mail
from games.mail.models import DigestSent
from games.mail.tasks import deliver_turn_mail, send_daily_digests, send_game_over_mail, send_turn_mail
from games.mail.views import sent_mail
from games.models import Game, Seat
from games.presenters import visible_cards
from sefirot_site.outbox.models import PendingTask
from tests.conftest import database_url

from .conftest import play_random_moves, reload, site_seat_counts
from .mail_helpers import reply, reply_address_of, solo_game, two_player_game

BASE_DIR = Path(__file__).resolve().parents[2]


def seat(game, index=0):
    return game.seats.select_related("user", "game").get(index=index)


# --- each turn ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_turn_mail_task_run_twice_sends_one_mail(smtp_server, alice):
    game = solo_game(alice)
    assert send_turn_mail(seat(game).pk, game.version) == "sent"
    assert send_turn_mail(seat(game).pk, game.version) == "already sent"
    assert len(smtp_server.messages_to("alice@example.com")) == 1


@pytest.mark.django_db
def test_a_turn_mail_reads_its_seat_the_game_and_every_player_in_one_query(smtp_server, alice, bob):
    from django.test.utils import CaptureQueriesContext

    game = two_player_game(alice, bob)
    alices = seat(game).pk
    with CaptureQueriesContext(connection) as queries:
        assert send_turn_mail(alices, game.version) == "sent"
    reads = [q["sql"] for q in queries if q["sql"].startswith("SELECT") and '"games_seat"' in q["sql"]]
    assert len(reads) == 1, reads
    # The mail still names the other player, read in that same query.
    assert "Bob" in smtp_server.messages_to("alice@example.com")[0]["Subject"]
    assert send_turn_mail(seat(game, 1).pk, game.version) == "turn already played"
    assert send_turn_mail(10**9, game.version) == "no player to mail"


@pytest.mark.django_db
def test_no_mail_goes_out_for_a_turn_already_played(smtp_server, alice):
    """A worker catching up on a backlog sends only the turn that is still open."""
    game = solo_game(alice)
    old_versions = []
    for _ in range(3):
        old_versions.append(game.version)
        move = game.rules.legal_moves(game.load_state(), 0)[0]
        services.submit_move(game.pk, seat(game), move, game.version)
        game = reload(game)
    for version in old_versions:
        assert send_turn_mail(seat(game).pk, version) == "turn already played"
    assert smtp_server.messages == []
    assert send_turn_mail(seat(game).pk, game.version) == "sent"
    assert len(smtp_server.messages) == 1


def turn_mails_queued() -> list[list]:
    return [task.args for task in PendingTask.objects.filter(task="games.send_turn_mail").order_by("pk")]


def pass_the_turn(game, seat_index: int) -> Game:
    """Play ``seat_index``'s moves (the first legal one each time) until another seat is asked."""
    while reload(game).to_act == [seat_index]:
        game = reload(game)
        move = game.rules.legal_moves(game.load_state(), seat_index)[0]
        services.submit_move(game.pk, game.seats.get(index=seat_index).user, move, game.version)
    return reload(game)


@pytest.mark.django_db
def test_a_move_that_passes_the_turn_queues_one_mail_for_the_seat_now_asked(alice, bob):
    game = two_player_game(alice, bob)
    PendingTask.objects.all().delete()
    before = timezone.now()
    game = pass_the_turn(game, 0)
    assert game.to_act == [1]
    assert turn_mails_queued() == [[seat(game, 1).pk, game.version]]  # bob's, not alice's
    row = PendingTask.objects.get(task="games.send_turn_mail")
    assert before <= row.created_at <= row.due_at  # written as the ORM wrote it, dates included
    assert row.done_at is None and row.attempts == 0


@pytest.mark.django_db
@pytest.mark.parametrize("change", ["daily", "never", "inactive"])
def test_a_seat_that_wants_no_mail_for_each_turn_gets_none_queued(change, alice, bob):
    if change == "inactive":
        bob.is_active = False
    else:
        bob.turn_mail = change
    bob.save()
    game = two_player_game(alice, bob)
    PendingTask.objects.all().delete()
    assert pass_the_turn(game, 0).to_act == [1]
    assert turn_mails_queued() == []


@pytest.mark.django_db
def test_a_finished_game_and_the_seat_not_to_act_get_no_turn_mail(smtp_server, alice, bob):
    game = two_player_game(alice, bob)
    assert game.to_act == [0]
    assert send_turn_mail(seat(game, 1).pk, game.version) == "turn already played"
    services.abandon_game(game.pk, "test")
    assert send_turn_mail(seat(game, 0).pk, game.version) == "turn already played"
    assert smtp_server.messages == []


@pytest.mark.django_db
def test_the_preference_never_sends_nothing(smtp_server, alice, bob):
    for user in (alice, bob):
        user.turn_mail = "never"
        user.save()
    game = two_player_game(alice, bob)
    assert send_turn_mail(seat(game).pk, game.version) == "preference is never"
    services.abandon_game(game.pk, "test")
    assert send_game_over_mail(game.pk, reload(game).version) == "sent 0"
    assert smtp_server.messages == []


@pytest.mark.django_db
def test_the_daily_digest_preference_gets_no_mail_for_each_turn(smtp_server, alice):
    alice.turn_mail = "daily"
    alice.save()
    game = solo_game(alice)
    assert send_turn_mail(seat(game).pk, game.version) == "preference is daily"
    assert smtp_server.messages == []


@pytest.mark.django_db
def test_the_turn_mail_numbers_the_legal_moves_in_the_engines_order_and_links_the_game(alice):
    game = solo_game(alice, time_control=3)
    mail = turn_mail(seat(game))
    state = game.load_state()
    moves = game.rules.legal_moves(state, 0)
    for number, move in enumerate(moves, 1):
        assert f"{number}. {game.rules.describe_move(state, 0, move)}\n" in mail.body
    assert f"http://127.0.0.1:8000/games/{game.pk}/" in mail.body
    assert mail.reply_to == [f"play+{seat(game).reply_token}.{game.version}@sefirot.localhost"]
    assert "(Europe/Paris)" in mail.body, "the deadline is given in the player's own time zone"
    html = mail.alternatives[0][0]
    assert "<ol" in html and f'href="http://127.0.0.1:8000/games/{game.pk}/"' in html


@pytest.mark.django_db
def test_the_turn_mail_draws_the_board_as_the_seat_sees_it_with_the_players_named(alice, bob):
    game = play_random_moves(two_player_game(alice, bob), 4, seed=1)
    mover = seat(game, game.to_act[0])
    other = "Bob" if mover.index == 0 else "Alice"
    mail = turn_mail(mover)
    body, html = mail.body, mail.alternatives[0][0]
    assert f"The Starfield: {other}'s edge at the top, yours at the bottom" in body
    assert f"Material Plane of {other}" in body and "Your Material Plane" in body
    assert f"you are {mover.player_name}" in body and "seat 0" not in body and "seat 1" not in body
    assert "<pre" in html and "The Starfield" in html
    prompt = game.rules.view(game.load_state(), mover.index)["prompt"]
    assert body.count(prompt) == 1  # said once, above the board
    assert "Lately" in body and "column 0" not in body  # columns are counted from 1, as in the moves


@pytest.mark.django_db
def test_a_game_without_a_drawing_is_told_field_by_field(alice, bob):
    from . import sealed_bids

    sealed_bids.install()
    try:
        game = two_player_game(alice, bob, mode=sealed_bids.SealedBids.slug)
        body = turn_mail(seat(game, 0)).body
        hand = game.rules.view(game.load_state(), 0)["hand"]
    finally:
        sealed_bids.uninstall()
    assert "Hand: " + ", ".join(CARDS[c].name for c in hand) in body


# --- the game-over mail ---------------------------------------------------------------------


@pytest.mark.django_db
def test_both_players_hear_once_that_a_game_ended(smtp_server, alice, bob):
    game = two_player_game(alice, bob)
    services.resign(game.pk, alice)  # Warring Planets: a forfeit
    game = reload(game)
    assert send_game_over_mail(game.pk, game.version) == "sent 2"
    assert send_game_over_mail(game.pk, game.version) == "sent 0"
    bobs = smtp_server.wait_for("bob@example.com")
    assert "you won" in smtp_server.text(bobs)
    assert len(smtp_server.messages_to("alice@example.com")) == 1


# --- the daily digest ---------------------------------------------------------------------


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_daily_digest_groups_every_game_waiting_on_the_player_once_a_day(
        celery_worker_process, smtp_server, settings, alice, bob, make_user):
    settings.TURN_MAIL_DIGEST_HOUR = 0  # the digest hour has come in every time zone
    alice.turn_mail = "daily"
    alice.save()
    carol = make_user("carol", display_name="Carol", turn_mail="daily")
    solo = solo_game(alice)
    duel = two_player_game(alice, bob)
    waiting_on_bob = two_player_game(bob, alice, seed=3)  # bob is seat 0: not alice's turn
    assert waiting_on_bob.to_act == [0]
    solo_game(carol)

    assert send_daily_digests() == 2
    digest = smtp_server.wait_for("alice@example.com")
    smtp_server.wait_for("carol@example.com")
    body = smtp_server.text(digest)
    assert digest["Subject"] == "2 games waiting for your move"
    assert f"(game {solo.pk})" in body and f"(game {duel.pk})" in body
    assert f"(game {waiting_on_bob.pk})" not in body
    # Each game keeps its own reply address, so a digest can be answered game by game.
    for game in (solo, duel):
        assert f"play+{seat(game).reply_token}.{game.version}@" in body

    # The worker commits its "sent" mark just after the mail leaves.
    give_up = time.monotonic() + 30
    while DigestSent.objects.count() < 2 and time.monotonic() < give_up:
        time.sleep(0.1)
    assert send_daily_digests() == 0, "one digest a day"
    assert DigestSent.objects.filter(user=alice).count() == 1
    assert len(smtp_server.messages_to("alice@example.com")) == 1


def test_the_digest_hour_is_the_players_own(settings):
    settings.TURN_MAIL_DIGEST_HOUR = 7
    paris = SimpleNamespace(time_zone="Europe/Paris")  # UTC+1 in March
    kiritimati = SimpleNamespace(time_zone="Pacific/Kiritimati")  # UTC+14
    assert local_digest_day(paris, datetime(2026, 3, 10, 5, 30, tzinfo=UTC)) is None
    assert local_digest_day(paris, datetime(2026, 3, 10, 6, 30, tzinfo=UTC)) == date(2026, 3, 10)
    assert local_digest_day(kiritimati, datetime(2026, 3, 10, 10, 30, tzinfo=UTC)) is None  # 00:30 there
    assert local_digest_day(kiritimati, datetime(2026, 3, 10, 17, 30, tzinfo=UTC)) == date(2026, 3, 11)
    unknown = SimpleNamespace(time_zone="Atlantis/Capital")  # read as UTC
    assert local_digest_day(unknown, datetime(2026, 3, 10, 7, 0, tzinfo=UTC)) == date(2026, 3, 10)


# --- no card the seat may not see -------------------------------------------------------------


def card_words(code: str) -> list[str]:
    """The ways a mail may name a card: its name, and pips with digits ("3 of Wands")."""
    card = CARDS[code]
    words = [card.name]
    if card.rank and card.rank.isdigit():
        words.append(f"{card.rank} of {SUIT_NAMES[card.suit]}")
    if card.rank == "A":
        words.append(f"{RANK_NAMES['A']} of {SUIT_NAMES[card.suit]}")
    return words


def named_cards(text: str, cards: set[str]) -> list[str]:
    # Whole words only: "The Starfield" does not name The Star.
    return sorted(code for code in cards
                  if any(re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) for word in card_words(code)))


@pytest.mark.django_db
@pytest.mark.parametrize("slug", sorted(RULES))
def test_a_turn_mail_names_no_card_the_seat_may_not_see(slug, alice, bob):
    rules = RULES[slug]
    choose = random.Random(f"mail-{slug}")
    checked = 0
    for n in range(30):
        if checked >= 6:
            break
        players = choose.choice(site_seat_counts(rules))
        seed = choose.randrange(10**6)
        game = (two_player_game(alice, bob, mode=slug, seed=seed) if players == 2
                else services.start_game(alice, slug, {}, seed=seed))
        # Random play may forfeit or end early; such games are skipped.
        game = play_random_moves(game, choose.randrange(0, 40), seed=n)
        if game.status != Game.Status.ACTIVE:
            continue
        state = game.load_state()
        every = {c for cards in rules.zones(state).values() for c in cards}
        for index in game.to_act:
            forbidden = every - visible_cards(rules.view(state, index))
            mail = turn_mail(seat(game, index))
            for part in (mail.subject, mail.body, mail.alternatives[0][0]):
                assert named_cards(part, forbidden) == [], f"{slug} seat {index} after {game.version} moves"
            digest = digest_mail(seat(game, index).user, [seat(game, index)])
            assert named_cards(digest.body + digest.alternatives[0][0], forbidden) == []
            checked += 1
    assert checked >= 6


def test_the_card_check_itself_finds_a_card_by_either_name():
    assert named_cards("You drew the 3 of Wands.", {"3w"}) == ["3w"]
    assert named_cards("Hand: Queen of Cups", {"Qc", "3w"}) == ["Qc"]
    assert named_cards("The Starfield: Bob's edge at the top", {"M17"}) == []
    assert named_cards("Lately: The Star.", {"M17"}) == ["M17"]


# --- ingest_mail: a production mail server's pipe ---------------------------------------------


def manage(args: list[str], stdin: bytes, smtp_server) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.update(DATABASE_URL=database_url(connection.settings_dict), EMAIL_BACKEND="smtp",
               EMAIL_HOST=smtp_server.host, EMAIL_PORT=str(smtp_server.port))
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return subprocess.run([sys.executable, "manage.py", *args], input=stdin, capture_output=True,
                          cwd=BASE_DIR, env=env, timeout=120)


@pytest.mark.django_db(transaction=True)
def test_ingest_mail_plays_a_reply_piped_to_it(smtp_server, alice):
    game = solo_game(alice)
    # A worker of the session may have sent it from the outbox already: either way, once.
    assert deliver_turn_mail(seat(game).pk, game.version) in ("sent", "already sent")
    turn = smtp_server.wait_for("alice@example.com")
    move = game.rules.legal_moves(game.load_state(), 0)[2]
    raw = reply(reply_address_of(turn), "3", sender="Alice <alice@example.com>", quoting=turn).as_bytes()

    done = manage(["ingest_mail"], raw, smtp_server)

    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().startswith("played:")
    game = reload(game)
    assert game.version == 1 and game.moves.get().move == move
    # Still alice's turn (solo): the answer is the next turn mail, with the new address.
    answer = smtp_server.wait_for("alice@example.com", count=2)
    assert smtp_server.text(answer).startswith("Played: ")
    assert reply_address_of(answer).endswith(f".{game.version}@sefirot.localhost")

    # The same message again is stale: refused, answered, and nothing changes.
    again = manage(["ingest_mail"], raw, smtp_server)
    assert again.returncode == 0 and again.stdout.decode().startswith("refused: stale")
    assert reload(game).version == 1


@pytest.mark.django_db(transaction=True)
def test_ingest_mail_refuses_empty_input_with_a_data_error(smtp_server):
    done = manage(["ingest_mail"], b"", smtp_server)
    assert done.returncode == 65
    assert b"no message" in done.stderr


# --- the development mailbox ------------------------------------------------------------------


@pytest.fixture
def file_mail(settings, tmp_path):
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path / "sent-mail")
    return tmp_path / "sent-mail"


@pytest.mark.django_db
def test_the_mailbox_lists_sent_mail_and_an_answer_there_plays_the_move(file_mail, settings, alice_client, alice):
    settings.DEBUG = True
    client = alice_client
    game = solo_game(alice)
    deliver_turn_mail(seat(game).pk, game.version)

    page = client.get(reverse("mail:mailbox"))
    assert page.status_code == 200
    assert "Your move in Know Thyself" in page.content.decode()
    key = page.context["mails"][0].key
    form = client.get(reverse("mail:mailbox_reply", args=[key]))
    assert form.context["sender"] == "alice@example.com"
    assert form.context["recipient"].startswith("play+")

    answered = client.post(reverse("mail:mailbox_reply", args=[key]), {
        "sender": form.context["sender"], "recipient": form.context["recipient"], "body": "1"})

    assert answered.status_code == 302
    assert reload(game).version == 1
    subjects = [m.subject for m in client.get(reverse("mail:mailbox")).context["mails"]]
    assert subjects[0].startswith("Re: "), "the site's answer is in the mailbox too"


@pytest.mark.django_db
def test_the_mailbox_exists_only_in_development_or_for_staff(file_mail, settings, client, outsider_client,
                                                             make_user):
    settings.DEBUG = False
    assert client.get(reverse("mail:mailbox")).status_code == 404
    assert outsider_client.get(reverse("mail:mailbox")).status_code == 404
    staff = make_user("staff", is_staff=True)
    client.force_login(staff)
    assert client.get(reverse("mail:mailbox")).status_code == 200


@pytest.mark.django_db
def test_the_mailbox_opens_no_file_outside_its_folder(file_mail, settings, alice_client):
    settings.DEBUG = True
    client = alice_client
    for key in ("..%2Fsecrets.log:0", "nothing.log:0", "x.txt:0"):
        assert client.get(f"/mailbox/{key}/reply/").status_code == 404


@pytest.mark.django_db
def test_the_mailbox_shows_a_visitor_nothing_and_a_player_only_their_own_mail(
        file_mail, settings, client, alice, bob, alice_client, outsider_client, make_user):
    settings.DEBUG = True
    game = solo_game(alice)
    deliver_turn_mail(seat(game).pk, game.version)
    key = sent_mail()[0].key

    assert client.get(reverse("mail:mailbox")).status_code == 404
    assert client.get(reverse("mail:mailbox_reply", args=[key])).status_code == 404
    assert outsider_client.get(reverse("mail:mailbox")).context["mails"] == []
    assert outsider_client.get(reverse("mail:mailbox_reply", args=[key])).status_code == 404
    # Nor can another player answer alice's turn mail to play her move.
    played = outsider_client.post(reverse("mail:mailbox_reply", args=[key]),
                                  {"sender": alice.email, "recipient": sent_mail()[0].reply_to, "body": "1"})
    assert played.status_code == 404
    assert reload(game).version == 0
    assert [m.key for m in alice_client.get(reverse("mail:mailbox")).context["mails"]] == [key]
    staff = make_user("steward", is_staff=True)
    client.force_login(staff)
    assert [m.key for m in client.get(reverse("mail:mailbox")).context["mails"]] == [key]


@pytest.mark.django_db
def test_a_password_reset_link_cannot_be_read_from_the_mailbox_by_anyone_else(
        file_mail, settings, client, alice, outsider_client):
    """The takeover path: ask a reset for someone else, read their link in the mailbox."""
    settings.DEBUG = True
    assert client.post(reverse("account_reset_password"), {"email": alice.email}).status_code == 302
    assert any(alice.email in mail.to for mail in sent_mail()), "the reset mail was written"
    for visitor in (client, outsider_client):
        page = visitor.get(reverse("mail:mailbox"))
        assert page.status_code == 404 or page.context["mails"] == []
        assert "password/reset/key" not in page.content.decode()
    for mail in sent_mail():
        assert client.get(reverse("mail:mailbox_reply", args=[mail.key])).status_code == 404
        assert outsider_client.get(reverse("mail:mailbox_reply", args=[mail.key])).status_code == 404


@pytest.mark.django_db
def test_a_turn_mail_waits_while_the_player_looks_at_the_game_and_goes_once_they_left(
        smtp_server, alice, alice_client):
    from datetime import timedelta

    from django.utils import timezone

    from sefirot_site.outbox.models import PendingTask
    from sefirot_site.outbox.tasks import run_pending

    game = solo_game(alice)
    PendingTask.objects.all().delete()
    assert alice_client.get(reverse("games:version", args=[game.pk]), {"v": "x"}).status_code in (200, 204)

    assert deliver_turn_mail(seat(game).pk, game.version) == "the player is looking at the game"
    assert smtp_server.messages_to("alice@example.com") == []
    later = PendingTask.objects.get(task="games.send_turn_mail")
    assert later.due_at > timezone.now() + timedelta(seconds=30)  # asked again later, by the sweep

    # She closed the page without playing: the next look finds her gone, and mails.
    Seat.objects.filter(pk=seat(game).pk).update(seen_at=timezone.now() - timedelta(minutes=5))
    assert run_pending(later.pk) == "sent"
    assert len(smtp_server.messages_to("alice@example.com")) == 1
