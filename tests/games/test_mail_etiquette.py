"""Mail etiquette (issue 42, item 5): a one-click unsubscribe (RFC 8058, RFC 2369) on
every mail about a player's turns, per game or all; and a mail that bounces for good (a
5xx at sending, or a bounce report at the receiver) stops the mail to that address, and
the profile says so.  Real SMTP both ways: the test server (which can refuse a mailbox)
and the site's own receiver."""

from __future__ import annotations

import datetime as dt
import smtplib
import time

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.clocks.tasks import send_deadline_reminder
from games.mail import bounces, etiquette
from games.mail.tasks import send_digest, send_game_over_mail, send_turn_mail
from games.models import Game, Seat
from games.wizards import services as wizards
from games.wizards.models import Member
from games.wizards.tasks import deliver_ask_mail, send_table_digest

from .conftest import reload
from .mail_helpers import solo_game, two_player_game
from .wizards_helpers import make_table, stack


def seat(game, index=0) -> Seat:
    return game.seats.select_related("user", "game").get(index=index)


def one_click_address(message) -> str:
    header = str(message["List-Unsubscribe"]).strip()
    assert header.startswith("<http") and header.endswith(">"), header
    assert str(message["List-Unsubscribe-Post"]) == "List-Unsubscribe=One-Click"
    return header.strip("<>")


def path_of(address: str) -> str:
    return address.removeprefix("http://127.0.0.1:8000")


def one_click(address: str):
    """What a mail client's Unsubscribe button sends (RFC 8058): a POST, no cookie, no CSRF token."""
    return Client(enforce_csrf_checks=True).post(path_of(address), "List-Unsubscribe=One-Click",
                                                 content_type="application/x-www-form-urlencoded")


# --- one-click unsubscribe --------------------------------------------------------------------


@pytest.mark.django_db
def test_every_mail_about_a_turn_carries_a_one_click_unsubscribe(smtp_server, alice, bob, make_user):
    carol = make_user("carol", display_name="Carol")
    game = two_player_game(alice, bob, time_control=3)
    assert send_turn_mail(seat(game).pk, game.version) == "sent"
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + dt.timedelta(hours=5))
    game = reload(game)
    assert send_deadline_reminder(game.pk, game.deadline.isoformat()) == "reminded 1"
    services.resign(game.pk, bob)
    assert send_game_over_mail(game.pk, reload(game).version) == "sent 2"
    alice.turn_mail = "daily"
    alice.save()
    solo_game(alice)
    assert send_digest(alice.pk, timezone.now().date().isoformat()) == "sent 1"

    table = make_table(alice, bob, carol, slow=True)
    session = stack(wizards.start_session(table, alice), bob=["Ac", "9w", "M3", "7s", "Kp"])
    session = wizards.act(session.pk, alice, {"type": "ask", "target": wizards.key_of(bob)}, session.version)
    assert deliver_ask_mail(session.seats.get(user=bob).pk, session.version) == "sent"
    assert send_table_digest(bob.pk, timezone.now().date().isoformat()).startswith("sent")

    mails = smtp_server.messages_to("alice@example.com") + smtp_server.messages_to("bob@example.com")
    subjects = sorted(str(m["Subject"]).split(" ")[0] for m in mails)
    assert len(mails) == 7, subjects  # turn, reminder, two game-overs, digest, ask, table digest
    for mail in mails:
        address = one_click_address(mail)
        assert "/mail/unsubscribe/" in address
        # Said in the footer too, for a reader whose mail app shows no button.
        assert address in smtp_server.text(mail)
        # Bounce reports come back to the player's own bounce address; From stays the site's.
        assert str(mail["Return-Path"]).strip("<>").startswith("bounces+")
        assert "play@sefirot.localhost" in str(mail["From"])


@pytest.mark.django_db
def test_one_click_stops_that_games_mail_and_no_other_without_login_or_csrf(smtp_server, alice, bob):
    muted = two_player_game(alice, bob)
    other = two_player_game(alice, bob, seed=3)
    assert send_turn_mail(seat(muted).pk, muted.version) == "sent"
    mail = smtp_server.wait_for("alice@example.com")
    address = one_click_address(mail)

    # A link scanner's GET only asks, and changes nothing.
    page = Client().get(path_of(address))
    assert page.status_code == 200
    text = page.content.decode()
    assert f"Stop mail about Warring Planets with Bob (game {muted.pk})?" in text
    assert "<button" in text and 'method="post"' in text
    assert not Seat.objects.get(pk=seat(muted).pk).mail_muted

    done = one_click(address)
    assert done.status_code == 200
    assert f"No more mail about Warring Planets with Bob (game {muted.pk})" in done.content.decode()
    assert Seat.objects.get(pk=seat(muted).pk).mail_muted
    assert not Seat.objects.get(pk=seat(other).pk).mail_muted
    alice.refresh_from_db()
    assert alice.turn_mail == "each", "only that game's mail stops"

    # The muted game mails alice nothing more; her other game still does.
    services.submit_move(muted.pk, seat(muted), muted.rules.legal_moves(muted.load_state(), 0)[0], muted.version)
    services.submit_move(other.pk, seat(other), other.rules.legal_moves(other.load_state(), 0)[0], other.version)
    for game in (reload(muted), reload(other)):
        services.submit_move(game.pk, seat(game, 1), game.rules.legal_moves(game.load_state(), 1)[0], game.version)
    muted, other = reload(muted), reload(other)
    assert 0 in muted.to_act and 0 in other.to_act
    assert send_turn_mail(seat(muted).pk, muted.version) == "the player stopped this game's mail"
    assert send_turn_mail(seat(other).pk, other.version) == "sent"

    # A click on "mail me again" on the page undoes it.
    again = Client(enforce_csrf_checks=True).post(path_of(address), {"again": "yes"})
    assert again.status_code == 200 and "again" in again.content.decode()
    assert not Seat.objects.get(pk=seat(muted).pk).mail_muted


@pytest.mark.django_db
def test_a_digests_one_click_stops_all_turn_mail_and_mail_me_again_restores_the_digest(smtp_server, alice):
    alice.turn_mail = "daily"
    alice.save()
    solo_game(alice)
    assert send_digest(alice.pk, timezone.now().date().isoformat()) == "sent 1"
    address = one_click_address(smtp_server.wait_for("alice@example.com"))

    assert "Stop mail about your turns?" in Client().get(path_of(address)).content.decode()
    assert one_click(address).status_code == 200
    alice.refresh_from_db()
    assert alice.turn_mail == "never"
    assert send_digest(alice.pk, (timezone.now().date() + dt.timedelta(days=1)).isoformat()) == "not a digest reader"

    Client().post(path_of(address), {"again": "yes"})
    alice.refresh_from_db()
    assert alice.turn_mail == "daily", "back to the preference the digest was sent under"


@pytest.mark.django_db
def test_a_wizards_ask_mail_stops_that_tables_mail(smtp_server, alice, bob, make_user):
    carol = make_user("carol", display_name="Carol")
    table = make_table(alice, bob, carol, slow=True)
    session = stack(wizards.start_session(table, alice), bob=["Ac", "9w", "M3", "7s", "Kp"])
    session = wizards.act(session.pk, alice, {"type": "ask", "target": wizards.key_of(bob)}, session.version)
    bobs_seat = session.seats.get(user=bob)
    assert deliver_ask_mail(bobs_seat.pk, session.version) == "sent"
    address = one_click_address(smtp_server.wait_for("bob@example.com"))
    assert "Stop mail about the tarot wizards table The Salt Road?" in Client().get(path_of(address)).content.decode()

    assert one_click(address).status_code == 200
    assert Member.objects.get(table=table, user=bob).mail_muted
    session = wizards.act(session.pk, alice, {"type": "ask", "target": wizards.key_of(bob)}, session.version)
    assert deliver_ask_mail(bobs_seat.pk, session.version) == "the player stopped this table's mail"
    assert send_table_digest(bob.pk, timezone.now().date().isoformat()) == "nothing new"


@pytest.mark.django_db
def test_an_unsubscribe_address_made_up_or_altered_finds_nothing(client, alice, bob, outsider):
    game = two_player_game(alice, bob)
    good = etiquette.about_seat(seat(game)).header
    token = path_of(good).split("/")[-2]
    forged = [
        token[:-2] + ("AA" if not token.endswith("AA") else "BB"),  # the signature altered
        signing.dumps([alice.pk, "game", seat(game).pk], salt="another salt", compress=True),
        # Signed with the site's key, but alice's seat named for the outsider: not theirs.
        signing.dumps([outsider.pk, "game", seat(game).pk], salt=etiquette.SALT, compress=True),
        signing.dumps([alice.pk, "no such kind", 1], salt=etiquette.SALT, compress=True),
        "nonsense",
    ]
    for bad in forged:
        for method in (client.get, client.post):
            response = method(reverse("mail:unsubscribe", args=[bad]))
            assert response.status_code == 404, bad
    assert not Seat.objects.filter(mail_muted=True).exists()


# --- mail that bounces for good ------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("refused_at, answer", [("RCPT", "550 5.1.1"), ("DATA", "554 5.2.2")])
def test_a_permanent_refusal_at_sending_stops_all_mail_to_that_address(smtp_server, alice, bob, alice_client,
                                                                       refused_at, answer):
    game = two_player_game(alice, bob, time_control=3)
    with smtp_server.refusing("alice@example.com", at=refused_at):
        assert send_turn_mail(seat(game).pk, game.version) == "the address bounced"
    alice.refresh_from_db()
    assert alice.mail_undeliverable and alice.undeliverable_email == "alice@example.com"
    assert answer in alice.undeliverable_reason

    # The mailbox is back, but the site no longer tries: no reminder, no game-over mail.
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + dt.timedelta(hours=5))
    game = reload(game)
    assert send_deadline_reminder(game.pk, game.deadline.isoformat()) == "reminded 0"
    services.resign(game.pk, bob)
    assert send_game_over_mail(game.pk, reload(game).version) == "sent 1"
    assert smtp_server.messages_to("alice@example.com") == []
    assert len(smtp_server.messages_to("bob@example.com")) == 1

    # The profile says so, and a click mails her again.
    profile = alice_client.get(reverse("profile")).content.decode()
    assert "We no longer mail alice@example.com" in profile and answer in profile
    alice_client.post(reverse("mail_try_again"))
    alice.refresh_from_db()
    assert not alice.mail_undeliverable
    assert "We no longer mail" not in alice_client.get(reverse("profile")).content.decode()
    again = solo_game(alice)
    assert send_turn_mail(seat(again).pk, again.version) == "sent"


@pytest.mark.django_db
def test_a_new_address_is_mailed_although_the_old_one_bounced(smtp_server, alice):
    game = solo_game(alice)
    with smtp_server.refusing("alice@example.com"):
        assert send_turn_mail(seat(game).pk, game.version) == "the address bounced"
    alice.refresh_from_db()
    alice.email = "alice@new.example.com"
    alice.save()
    assert not alice.mail_undeliverable, "the mark is the old address's"
    other = solo_game(alice, seed=9)
    assert send_turn_mail(seat(other).pk, other.version) == "sent"
    smtp_server.wait_for("alice@new.example.com")


def report(to: str, recipient: str, *, action="failed", status="5.1.1") -> bytes:
    """A bounce report as Postfix writes one (RFC 3464)."""
    return f"""From: Mail Delivery System <MAILER-DAEMON@mx.example.com>
To: {to}
Subject: Undelivered Mail Returned to Sender
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="REPORT"

--REPORT
Content-Type: text/plain; charset=us-ascii

This is the mail system at host mx.example.com. I'm sorry to have to inform you
that your message could not be delivered to one or more recipients.

--REPORT
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.com
Arrival-Date: Sat, 28 Nov 2026 09:00:00 +0000

Final-Recipient: rfc822; {recipient}
Original-Recipient: rfc822;{recipient}
Action: {action}
Status: {status}
Diagnostic-Code: smtp; {status[0]}50 {status} <{recipient}>: Recipient address rejected: User unknown

--REPORT
Content-Type: text/rfc822-headers

From: Sefirot Online <play@sefirot.localhost>
To: {recipient}
Subject: Your move

--REPORT--
""".replace("\n", "\r\n").encode()


def send_report(receiver, to: str, raw: bytes) -> None:
    with smtplib.SMTP(receiver.hostname, receiver.port, timeout=30) as server:
        server.sendmail("", [to], raw)  # the null sender of a bounce


def settled_user(user, predicate, timeout=15):
    give_up = time.monotonic() + timeout
    while True:
        user.refresh_from_db()
        if predicate(user) or time.monotonic() > give_up:
            return user
        time.sleep(0.05)


@pytest.mark.django_db(transaction=True)
def test_a_bounce_report_at_the_receiver_stops_the_mail_to_that_address(smtp_server, receiver, alice, bob):
    game = two_player_game(alice, bob)
    # A worker an earlier test started may have sent it from the outbox first (to the same
    # server): either way one turn mail reaches alice.
    assert send_turn_mail(seat(game).pk, game.version) in ("sent", "already sent")
    bounce_to = str(smtp_server.wait_for("alice@example.com")["Return-Path"]).strip("<>")
    assert bounces.parse_bounce_address(bounce_to)

    # A delay is no failure, and a report of another address's failure is not alice's.
    send_report(receiver, bounce_to, report(bounce_to, "alice@example.com", action="delayed", status="4.4.7"))
    send_report(receiver, bounce_to, report(bounce_to, "bob@example.com"))
    # Nobody can make up a bounce address for someone else (its tag is an HMAC).
    forged = f"bounces+{bob.pk}-{'0' * 20}@sefirot.localhost"
    send_report(receiver, forged, report(forged, "bob@example.com"))
    # And the receiver takes no other address of ours for a bounce address.
    with pytest.raises(smtplib.SMTPRecipientsRefused):
        send_report(receiver, "bounces@sefirot.localhost", report("bounces@sefirot.localhost", "bob@example.com"))
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert not alice.mail_undeliverable and not bob.mail_undeliverable

    send_report(receiver, bounce_to, report(bounce_to, "alice@example.com"))
    alice = settled_user(alice, lambda u: u.mail_undeliverable)
    assert alice.mail_undeliverable and "5.1.1" in alice.undeliverable_reason
    services.submit_move(game.pk, seat(game), game.rules.legal_moves(game.load_state(), 0)[0], game.version)
    game = reload(game)
    services.submit_move(game.pk, seat(game, 1), game.rules.legal_moves(game.load_state(), 1)[0], game.version)
    game = reload(game)
    assert send_turn_mail(seat(game).pk, game.version) == "the address bounced"


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_worker_stops_mailing_an_address_refused_for_good_instead_of_retrying(
        celery_worker_process, smtp_server, alice, bob):
    from sefirot_site.outbox.models import PendingTask

    with smtp_server.refusing("alice@example.com"):
        two_player_game(alice, bob)  # the worker mails alice her turn
        alice = settled_user(alice, lambda u: u.mail_undeliverable, timeout=30)
    assert alice.mail_undeliverable and "550 5.1.1" in alice.undeliverable_reason
    give_up = time.monotonic() + 30
    while PendingTask.objects.filter(done_at__isnull=True).exists() and time.monotonic() < give_up:
        time.sleep(0.05)
    assert not PendingTask.objects.filter(done_at__isnull=True).exists(), "done, not left to retry"
    assert smtp_server.messages_to("alice@example.com") == []


@pytest.mark.django_db
def test_a_bounce_report_piped_in_by_the_mail_server_counts_too(alice):
    """``manage.py ingest_mail`` behind a ``bounces:`` alias: no envelope recipient is
    passed, the mail server's X-Original-To names the bounce address."""
    from games.mail.inbound import handle_message

    bounce_to = bounces.bounce_address(alice)
    raw = b"X-Original-To: " + bounce_to.encode() + b"\r\n" + report("bounces@sefirot.localhost", "alice@example.com")
    outcome = handle_message(raw, envelope_from="")
    assert outcome.status == "bounced", outcome
    alice.refresh_from_db()
    assert alice.mail_undeliverable
