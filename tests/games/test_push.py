"""Web Push (issue 42): a browser's subscription, made as a browser makes one, gets the
site's pushes through pywebpush at a push service standing in on loopback, which decrypts
them (RFC 8291) and finds the game's address; a push service answering 404 or 410 ends the
subscription; muted games, twin runs and bad subscriptions push nothing.

The pushes of a move go through the outbox to the real Celery worker, as turn mails do.
"""

from __future__ import annotations

import base64
import json
import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from py_vapid import Vapid02

from games import services
from games.engine.cards import CARDS
from games.models import Game, Seat
from games.push.models import GameMute, PushSent, PushSubscription
from games.push.tasks import push_deadline, push_turn
from games.push.vapid import public_key
from sefirot_site.outbox.models import PendingTask
from tests.support.push_service import BrowserKeys, LocalPushService

from .conftest import reload, two_player_mode

SUBSCRIBE = reverse("push:subscribe")
PHONE_UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36"


@pytest.fixture
def push_service(settings):
    # The stand-in push service listens on loopback: the site takes it as a push service here.
    settings.PUSH_SERVICE_HOSTS = ["127.0.0.1"]
    service = LocalPushService().start()
    yield service
    service.stop()


def subscribe(client, service, name: str) -> BrowserKeys:
    """What the profile's script does: the browser's subscription, posted with the page's CSRF token."""
    keys = BrowserKeys()
    answer = client.post(SUBSCRIBE, json.dumps(keys.subscription(service.endpoint(name))),
                         content_type="application/json", HTTP_USER_AGENT=PHONE_UA)
    assert answer.status_code == 200, answer.content
    return keys


def opened(keys: BrowserKeys, request) -> dict:
    """The push as the browser reads it, after checking the site signed it with the key the
    page subscribed with (VAPID, RFC 8292)."""
    assert request.headers["content-encoding"] == "aes128gcm"
    assert Vapid02.verify(request.headers["authorization"])
    assert request.headers["authorization"].endswith(f"k={public_key()}")
    return json.loads(keys.decrypt(request.body))


def tells_no_card(payload: dict) -> bool:
    text = json.dumps(payload)
    return not any(card.name in text for card in CARDS.values())


def wait_until(check, timeout: float = 30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError("not within the time allowed")


def turn_of(game, user) -> Game:
    """Play random legal moves of the other seat until ``user`` is asked to act."""
    game = reload(game)
    while game.status == Game.Status.ACTIVE:
        seat = game.seats.get(user=user)
        if seat.index in game.to_act:
            return game
        other = game.seats.get(index=game.to_act[0])
        rules = game.rules
        services.submit_move(game.pk, other, rules.legal_moves(rules.loads(game.state), other.index)[0], game.version)
        game = reload(game)
    pytest.fail("the game ended before it was the player's turn")


# --- through the outbox and the real worker -------------------------------------------------

@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_it_pushes_an_invitation_and_a_turn_that_the_browser_decrypts_to_the_games_address(
        celery_worker_process, push_service, alice, bob, bob_client):
    phone = subscribe(bob_client, push_service, "bob-phone")
    device = PushSubscription.objects.get(user=bob)
    assert device.label == "Chrome on Android"

    game = services.start_game(alice, two_player_mode(), {"variant": "standard"}, opponent=bob, seed=5)
    address = settings.SITE_URL + reverse("games:game", args=[game.pk])
    invitation = opened(phone, push_service.wait_for("bob-phone")[0])
    assert invitation["url"] == address
    assert invitation["title"] == f"Alice invites you to play {game.title}"
    assert set(invitation) == {"title", "body", "url", "tag", "game"}

    services.accept_invitation(game.pk, bob)
    game = turn_of(game, bob)
    pushes = push_service.wait_for("bob-phone", count=2)
    turn = opened(phone, pushes[1])
    assert turn["url"] == address and turn["tag"] == f"game-{game.pk}"
    assert turn["title"] == f"Your move in {game.title}" and "with Alice" in turn["body"]
    assert tells_no_card(invitation) and tells_no_card(turn)
    # A newer push about the game replaces one the phone has not fetched yet.
    assert pushes[1].headers["topic"] == f"game-{game.pk}"
    wait_until(lambda: PushSent.objects.filter(subscription=device, key=f"turn:{game.pk}:{game.version}").exists())


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("gone", [410, 404])
def test_a_push_service_that_answers_gone_ends_the_subscription(
        celery_worker_process, push_service, alice, bob, bob_client, gone):
    subscribe(bob_client, push_service, "old-phone")
    push_service.answer("old-phone", gone)
    services.start_game(alice, two_player_mode(), {}, opponent=bob, seed=5)
    push_service.wait_for("old-phone")
    wait_until(lambda: not PushSubscription.objects.filter(user=bob).exists())
    # The outbox counts the push as done: nothing is tried again.
    wait_until(lambda: PendingTask.objects.filter(task="games.push.push_invitation", done_at__isnull=False).exists())


# --- the tasks run in the test's own process -------------------------------------------------

@pytest.fixture
def bob_to_act(alice, bob):
    game = services.start_game(alice, two_player_mode(), {"variant": "standard"}, opponent=bob, seed=5)
    services.accept_invitation(game.pk, bob)
    return turn_of(game, bob)


@pytest.mark.django_db
def test_a_turn_pushed_twice_reaches_each_device_once(push_service, bob, bob_client, bob_to_act):
    subscribe(bob_client, push_service, "phone")
    subscribe(bob_client, push_service, "laptop")
    seat = bob_to_act.seats.get(user=bob)
    assert push_turn.run(seat.pk, bob_to_act.version) == "sent 2"
    assert push_turn.run(seat.pk, bob_to_act.version) == "sent 0"
    assert len(push_service.received("phone")) == len(push_service.received("laptop")) == 1


@pytest.mark.django_db
def test_a_muted_game_pushes_nothing_and_the_turn_is_not_even_queued(push_service, alice, bob, bob_client, bob_to_act):
    subscribe(bob_client, push_service, "phone")
    page = bob_client.get(reverse("games:game", args=[bob_to_act.pk])).content.decode()
    switch = reverse("push:mute", args=[bob_to_act.pk])
    assert f'data-push-mute="{switch}"' in page  # fetched by a device that takes pushes
    assert "Mute this game" in bob_client.get(switch).content.decode()
    answer = bob_client.post(reverse("push:mute", args=[bob_to_act.pk]), {"muted": "on"})
    assert answer.status_code == 302 and GameMute.objects.filter(user=bob, game=bob_to_act).exists()
    seat = bob_to_act.seats.get(user=bob)
    assert push_turn.run(seat.pk, bob_to_act.version) == "muted"
    assert push_service.received("phone") == []
    # Bob moves, Alice moves back: no push is recorded for bob's muted game.
    before = PendingTask.objects.filter(task="games.push.push_turn").count()
    turn_of(play_once(bob_to_act, bob), bob)
    assert PendingTask.objects.filter(task="games.push.push_turn").count() == before
    # Unmuted again, from the same switch.
    bob_client.post(reverse("push:mute", args=[bob_to_act.pk]), {})
    assert not GameMute.objects.filter(user=bob, game=bob_to_act).exists()


def play_once(game, user) -> Game:
    game = reload(game)
    seat = game.seats.get(user=user)
    rules = game.rules
    services.submit_move(game.pk, seat, rules.legal_moves(rules.loads(game.state), seat.index)[0], game.version)
    return reload(game)


@pytest.mark.django_db
def test_a_turn_the_player_is_looking_at_waits_until_they_look_away(push_service, bob, bob_client, bob_to_act):
    subscribe(bob_client, push_service, "phone")
    seat = bob_to_act.seats.get(user=bob)
    Seat.objects.filter(pk=seat.pk).update(seen_at=timezone.now())
    assert push_turn.run(seat.pk, bob_to_act.version) == "the player is looking at the game"
    assert push_service.received("phone") == []
    # Asked again once the hold is over (its own delayed task, as the turn mail's).
    assert PendingTask.objects.filter(task="games.push.push_turn", args=[seat.pk, bob_to_act.version]).exists()


@pytest.mark.django_db
def test_a_deadline_close_to_running_out_is_pushed_through_the_outbox(push_service, bob, bob_client, bob_to_act):
    from games.clocks.tasks import check_clocks

    phone = subscribe(bob_client, push_service, "phone")
    deadline = timezone.now() + timedelta(hours=4)  # a one-day clock reminds with 4.8 hours left
    Game.objects.filter(pk=bob_to_act.pk).update(time_control=Game.TimeControl.values[0], deadline=deadline)
    check_clocks.run()
    row = PendingTask.objects.get(task="games.push.push_deadline")
    assert push_deadline.run(*row.args) == "sent 1"
    said = opened(phone, push_service.received("phone")[0])
    assert said["title"].startswith("Time is running out") and "with Alice" in said["body"]
    # Kept by the push service no longer than the time there is to move.
    assert 0 < int(push_service.received("phone")[0].headers["ttl"]) <= 4 * 3600
    assert push_deadline.run(*row.args) == "sent 0"


def off_the_curve(p256dh: str) -> str:
    """The same point with one bit of its y changed: no longer on the curve."""
    raw = bytearray(base64.urlsafe_b64decode(p256dh + "=" * (-len(p256dh) % 4)))
    raw[-1] ^= 1
    return base64.urlsafe_b64encode(bytes(raw)).rstrip(b"=").decode()


@pytest.mark.django_db
def test_a_games_end_is_pushed_to_each_player_in_their_own_words(push_service, alice, bob, alice_client, bob_client,
                                                                  bob_to_act):
    from games.push.tasks import push_game_over

    alices, bobs = subscribe(alice_client, push_service, "alice-phone"), subscribe(bob_client, push_service, "bob-phone")
    services.resign(bob_to_act.pk, bob)
    row = PendingTask.objects.get(task="games.push.push_game_over")
    assert push_game_over.run(*row.args) == "sent 2"
    to_alice = opened(alices, push_service.received("alice-phone")[0])
    to_bob = opened(bobs, push_service.received("bob-phone")[0])
    assert to_alice["title"] == to_bob["title"] == f"{bob_to_act.title} (game {bob_to_act.pk}) has ended"
    assert to_alice["body"].startswith("Your game with Bob: ") and to_bob["body"].startswith("Your game with Alice: ")
    assert ".." not in to_alice["body"]
    assert tells_no_card(to_alice) and tells_no_card(to_bob)
    assert push_game_over.run(*row.args) == "sent 0"


# --- subscribing --------------------------------------------------------------------------------

@pytest.mark.django_db
@pytest.mark.parametrize("change, says", [
    (lambda s: {**s, "endpoint": "https://attacker.example/collect"}, "not a push service"),
    (lambda s: {**s, "endpoint": "http://fcm.googleapis.com/fcm/send/x"}, "https"),
    (lambda s: {**s, "keys": {**s["keys"], "p256dh": "AAAA"}}, "65 bytes"),
    (lambda s: {**s, "keys": {**s["keys"], "p256dh": off_the_curve(s["keys"]["p256dh"])}}, "not a point of P-256"),
    (lambda s: {**s, "keys": {**s["keys"], "auth": "not base64 at all!"}}, "auth secret"),
    (lambda s: {"endpoint": s["endpoint"]}, "no keys"),
])
def test_a_subscription_the_site_would_not_push_to_is_refused_in_words(bob_client, bob, change, says):
    good = BrowserKeys().subscription("https://fcm.googleapis.com/fcm/send/abc")
    answer = bob_client.post(SUBSCRIBE, json.dumps(change(good)), content_type="application/json")
    assert answer.status_code == 400 and says in answer.json()["error"]
    assert not PushSubscription.objects.exists()
    assert bob_client.post(SUBSCRIBE, "{not json", content_type="application/json").status_code == 400


@pytest.mark.django_db
def test_subscribing_needs_a_login_and_the_pages_csrf_token(bob):
    subscription = json.dumps(BrowserKeys().subscription("https://fcm.googleapis.com/fcm/send/abc"))
    assert Client().post(SUBSCRIBE, subscription, content_type="application/json").status_code == 302
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(bob)
    assert strict.post(SUBSCRIBE, subscription, content_type="application/json").status_code == 403
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
def test_the_profile_lists_the_devices_and_forgets_one_but_never_anothers(bob_client, outsider_client, bob):
    keys = BrowserKeys().subscription("https://fcm.googleapis.com/fcm/send/abc")
    bob_client.post(SUBSCRIBE, json.dumps(keys), content_type="application/json", HTTP_USER_AGENT=PHONE_UA)
    device = PushSubscription.objects.get(user=bob)
    profile = bob_client.get(reverse("profile")).content.decode()
    assert "Notifications on your devices" in profile and "Chrome on Android" in profile
    assert f'data-key="{public_key()}"' in profile
    assert outsider_client.post(reverse("push:forget", args=[device.pk])).status_code == 404
    assert outsider_client.post(reverse("push:mute", args=[1])).status_code == 404
    assert outsider_client.get(reverse("push:mute", args=[1])).status_code == 404
    assert bob_client.post(reverse("push:forget", args=[device.pk])).status_code == 302
    assert not PushSubscription.objects.exists()
    # The page's own "off" switch forgets the device by its endpoint.
    bob_client.post(SUBSCRIBE, json.dumps(keys), content_type="application/json")
    assert bob_client.post(reverse("push:unsubscribe"), json.dumps({"endpoint": keys["endpoint"]}),
                           content_type="application/json").json()["removed"]


# --- the site's VAPID key ------------------------------------------------------------------------

def test_the_vapid_key_is_made_once_in_the_data_folder_or_taken_from_the_environment(settings, tmp_path):
    from py_vapid import Vapid

    from games.push import vapid

    settings.DATA_DIR = tmp_path
    settings.VAPID_PRIVATE_KEY = ""
    vapid.site_key.cache_clear()
    try:
        made = vapid.public_key()
        assert (tmp_path / vapid.KEY_FILE).exists() and (tmp_path / vapid.KEY_FILE).stat().st_mode & 0o077 == 0
        vapid.site_key.cache_clear()
        assert vapid.public_key() == made  # read back, never made again
        given = Vapid()
        given.generate_keys()
        settings.VAPID_PRIVATE_KEY = given.private_pem().decode()
        vapid.site_key.cache_clear()
        assert vapid.public_key() != made
        assert vapid.site_key().public_pem() == given.public_pem()
    finally:
        vapid.site_key.cache_clear()
