"""Accounts through allauth: sign-up with a verified address, log in, throttling, password
and email changes; the profile page; deleting an account."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.urls import reverse

from sefirot_site.accounts.services import delete_account
from sefirot_site.accounts.signals import account_deleting
from tests.support.users import PASSWORD

User = get_user_model()
NEW_PASSWORD = "seven stars over the abyss"


def log_in(client, login, password=PASSWORD):
    return client.post(reverse("account_login"), {"login": login, "password": password})


def confirmation_link(smtp_server, address):
    message = smtp_server.wait_for(address)
    return next(link for link in smtp_server.links(message) if "/accounts/confirm-email/" in link)


def path_of(link):
    return re.sub(r"^https?://[^/]+", "", link)


# --- sign-up and verification ---------------------------------------------------------------

def test_signing_up_mails_a_link_that_verifies_the_address(client, db, smtp_server):
    response = client.post(reverse("account_signup"), {
        "email": "carol@example.com", "username": "carol", "password1": PASSWORD, "password2": PASSWORD,
    })
    assert response.status_code == 302

    message = smtp_server.wait_for("carol@example.com")
    assert message["Subject"] == "Sefirot Online: Confirm your email address"
    link = confirmation_link(smtp_server, "carol@example.com")
    assert not EmailAddress.objects.get(email="carol@example.com").verified

    # The link shows a confirmation button (a GET changes nothing); the POST confirms.
    assert client.get(path_of(link)).status_code == 200
    assert not EmailAddress.objects.get(email="carol@example.com").verified
    client.post(path_of(link))
    assert EmailAddress.objects.get(email="carol@example.com").verified


def test_an_unverified_address_cannot_log_in(client, make_user, smtp_server):
    make_user("dora", verified=False)

    response = log_in(client, "dora")

    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert "_auth_user_id" not in client.session
    # A fresh link is mailed instead.
    assert "/accounts/confirm-email/" in smtp_server.text(smtp_server.wait_for("dora@example.com"))


# --- logging in and out -----------------------------------------------------------------------

@pytest.mark.parametrize("login", ["alice", "alice@example.com", "ALICE@example.com"])
def test_one_logs_in_with_username_or_email(client, alice, login):
    response = log_in(client, login)

    assert response.status_code == 302
    assert int(client.session["_auth_user_id"]) == alice.pk


def test_passwords_are_hashed_with_argon2(alice):
    alice.set_password(NEW_PASSWORD)

    assert alice.password.startswith("argon2$")


def test_logging_out_takes_a_post(alice_client):
    assert alice_client.post(reverse("account_logout")).status_code == 302

    assert "_auth_user_id" not in alice_client.session
    assert "Logged in as" not in alice_client.get("/").content.decode()


def test_repeated_failed_logins_are_throttled(client, alice):
    for _ in range(5):
        response = log_in(client, "alice", "not her password")
        assert response.status_code == 200
        assert "_auth_user_id" not in client.session

    # Even the right password is refused now, with a message saying why.
    response = log_in(client, "alice")

    assert "_auth_user_id" not in client.session
    assert "Too many failed login attempts" in response.content.decode()


def test_username_and_email_count_as_one_account_for_the_throttle(client, alice):
    for login in ("alice", "alice@example.com", "ALICE", "Alice@Example.com", "alice"):
        log_in(client, login, "not her password")

    response = log_in(client, "alice@example.com")

    assert "_auth_user_id" not in client.session
    assert "Too many failed login attempts" in response.content.decode()


def test_a_strangers_wrong_passwords_do_not_lock_the_owner_out(alice):
    from django.test import Client

    stranger = Client(REMOTE_ADDR="203.0.113.5")
    for _ in range(6):
        log_in(stranger, "alice", "guess")
    assert "Too many failed login attempts" in log_in(stranger, "alice").content.decode()

    owner = Client(REMOTE_ADDR="198.51.100.7")
    log_in(owner, "alice")
    assert int(owner.session["_auth_user_id"]) == alice.pk


def test_the_throttle_is_per_account_not_for_everyone(client, alice, bob):
    for _ in range(5):
        log_in(client, "alice", "not her password")

    log_in(client, "bob")

    assert int(client.session["_auth_user_id"]) == bob.pk


def test_behind_a_proxy_one_strangers_failed_logins_do_not_lock_out_everyone(settings, alice):
    # What BEHIND_PROXY=on sets (test_settings checks that): believe the proxy's last hop.
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    from django.test import Client

    def through_the_proxy(client_address):
        return Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=client_address)

    stranger = through_the_proxy("203.0.113.5")
    for number in range(10):  # a different login each time: only the per-address limit counts
        log_in(stranger, f"guess{number}", "wrong")
    assert "Too many failed login attempts" in log_in(stranger, "alice").content.decode()

    player = through_the_proxy("198.51.100.7")
    log_in(player, "alice")
    assert int(player.session["_auth_user_id"]) == alice.pk


# --- password and email ------------------------------------------------------------------------

def test_a_forgotten_password_is_reset_through_a_mailed_link(client, alice, smtp_server):
    client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    message = smtp_server.wait_for("alice@example.com")
    link = next(link for link in smtp_server.links(message) if "/accounts/password/reset/key/" in link)

    form_page = client.get(path_of(link), follow=True)  # allauth moves the key into the session
    client.post(form_page.redirect_chain[-1][0] if form_page.redirect_chain else path_of(link),
                {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})

    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)


def test_one_changes_the_password_knowing_the_old_one(alice_client, alice):
    alice_client.post(reverse("account_change_password"), {
        "oldpassword": "wrong", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD,
    })
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)

    alice_client.post(reverse("account_change_password"), {
        "oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD,
    })
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)


def test_a_new_email_address_counts_once_verified(alice_client, alice, smtp_server):
    alice_client.post(reverse("account_email"), {"action_add": "", "email": "alice@newmail.example"})

    link = confirmation_link(smtp_server, "alice@newmail.example")
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"  # until it is confirmed

    alice_client.post(path_of(link))

    alice.refresh_from_db()
    assert alice.email == "alice@newmail.example"
    assert EmailAddress.objects.get(user=alice, email="alice@newmail.example").verified


# --- profile ---------------------------------------------------------------------------------

def test_the_profile_page_saves_display_name_time_zone_and_turn_mail(alice_client, alice):
    response = alice_client.post(reverse("profile"), {
        "display_name": "  Alice   of the Tree ", "time_zone": "America/Argentina/Buenos_Aires", "turn_mail": "daily",
    }, follow=True)

    assert "Your profile is saved." in response.content.decode()
    alice.refresh_from_db()
    assert (alice.display_name, alice.time_zone, alice.turn_mail) == ("Alice of the Tree", "America/Argentina/Buenos_Aires", "daily")


def test_an_unknown_time_zone_is_refused_and_nothing_changes(alice_client, alice):
    response = alice_client.post(reverse("profile"), {
        "display_name": "Changed", "time_zone": "Mars/Olympus_Mons", "turn_mail": "never",
    })

    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    alice.refresh_from_db()
    assert (alice.display_name, alice.time_zone, alice.turn_mail) == ("Alice", "Europe/Paris", "each")


def test_times_are_shown_in_the_users_own_time_zone(rf, alice):
    from django.contrib.auth.models import AnonymousUser
    from django.utils import timezone

    from sefirot_site.accounts.middleware import TimezoneMiddleware

    seen = []
    middleware = TimezoneMiddleware(lambda request: seen.append(timezone.get_current_timezone_name()))
    for user in (alice, AnonymousUser()):
        request = rf.get("/")
        request.user = user
        middleware(request)

    assert seen == ["Europe/Paris", "UTC"]


def test_each_user_sees_and_edits_only_their_own_profile(outsider_client, alice, outsider):
    html = outsider_client.get(reverse("profile")).content.decode()

    assert "outsider" in html and "alice@example.com" not in html
    outsider_client.post(reverse("profile"), {"display_name": "Mallory", "time_zone": "UTC", "turn_mail": "never"})
    alice.refresh_from_db()
    outsider.refresh_from_db()
    assert alice.display_name == "Alice" and outsider.display_name == "Mallory"


@pytest.mark.parametrize("name", ["profile", "account_delete", "account_email", "account_change_password"])
def test_account_pages_send_a_visitor_to_log_in(client, db, name):
    url = reverse(name)

    response = client.get(url)

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('account_login')}?next={url}"


# --- deleting an account ------------------------------------------------------------------------

def test_deleting_an_account_needs_the_password(alice_client, alice):
    response = alice_client.post(reverse("account_delete"), {"password": "not it"})

    assert response.status_code == 200
    assert "That is not your password." in response.content.decode()
    assert User.objects.filter(pk=alice.pk).exists()


def test_deleting_an_account_removes_the_person_and_logs_out(alice_client, alice, bob):
    response = alice_client.post(reverse("account_delete"), {"password": PASSWORD}, follow=True)

    assert "Your account and your personal data are deleted" in response.content.decode()
    assert not User.objects.filter(pk=alice.pk).exists()
    assert not EmailAddress.objects.filter(email="alice@example.com").exists()
    assert "_auth_user_id" not in alice_client.session
    assert User.objects.filter(pk=bob.pk).exists()
    # The address is free again for a new sign-up.
    assert not User.objects.filter(email__iexact="alice@example.com").exists()


def test_deletion_tells_other_apps_first(alice):
    seen = []

    def receiver(sender, user, **kwargs):
        seen.append((user.pk, User.objects.filter(pk=user.pk).exists()))

    alice_pk = alice.pk
    account_deleting.connect(receiver, dispatch_uid="test-receiver")
    try:
        delete_account(alice)
    finally:
        account_deleting.disconnect(dispatch_uid="test-receiver")

    assert seen == [(alice_pk, True)]


def test_a_failing_clean_up_leaves_the_account_whole(alice):
    def receiver(sender, user, **kwargs):
        raise RuntimeError("cannot anonymise right now")

    account_deleting.connect(receiver, dispatch_uid="failing-receiver")
    try:
        with pytest.raises(RuntimeError):
            delete_account(alice)
    finally:
        account_deleting.disconnect(dispatch_uid="failing-receiver")

    assert User.objects.filter(pk=alice.pk).exists()
    assert EmailAddress.objects.filter(user=alice).exists()


def test_deleting_an_account_leaves_neither_address_nor_name_in_the_games(alice, bob):
    from games import services
    from games.models import Game

    # Bob came in through an invitation mailed to his address, then left a game early.
    game = services.start_game(alice, "lovers_discourse", invite_email="bob@example.com")
    seat = game.seats.get(index=1)
    services.accept_invitation(game.pk, bob, seat.invite_token)
    services.resign(game.pk, bob)
    assert Game.objects.get(pk=game.pk).end_reason == "Bob left the game."

    delete_account(bob)

    game = Game.objects.get(pk=game.pk)
    assert game.end_reason == "A departed player left the game."
    assert game.seats.get(index=1).user is None
    assert game.seats.get(index=1).invited_email == ""
    assert game.seats.get(index=0).user == alice


def test_the_deletion_page_says_what_becomes_of_running_games(alice_client):
    html = alice_client.get(reverse("account_delete")).content.decode()

    assert "Games still in play end now: you resign them" in html


@pytest.mark.parametrize("how", ["one", "action"])
def test_staff_deleting_a_user_in_the_admin_deletes_the_account_as_the_person_would(make_user, alice, how):
    from django.test import Client

    admin = make_user("root", is_staff=True, is_superuser=True)
    staff = Client()
    staff.force_login(admin)
    assert "Europe/Paris" in staff.get(reverse("admin:accounts_user_change", args=[alice.pk])).content.decode()
    told = []
    account_deleting.connect(lambda sender, user, **kwargs: told.append(user.pk), dispatch_uid="admin-test", weak=False)
    try:
        if how == "one":
            response = staff.post(reverse("admin:accounts_user_delete", args=[alice.pk]), {"post": "yes"})
        else:
            response = staff.post(reverse("admin:accounts_user_changelist"),
                                  {"action": "delete_selected", "_selected_action": [alice.pk], "post": "yes"})
    finally:
        account_deleting.disconnect(dispatch_uid="admin-test")

    assert response.status_code == 302
    assert told == [alice.pk]
    assert not User.objects.filter(pk=alice.pk).exists()


def test_the_owner_is_told_by_mail_when_their_password_changes(alice_client, alice, smtp_server):
    alice_client.post(reverse("account_change_password"), {
        "oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD,
    })
    notice = smtp_server.wait_for("alice@example.com")
    assert "password" in smtp_server.text(notice).lower()


def test_the_login_throttle_holds_while_redis_is_down(settings, alice):
    """Issue 38, item 19: the throttle's counters lived in Redis and stopped counting while
    it was away (15 wrong passwords, then the right one, logged in)."""
    from django.test import Client

    from tests.site.test_settings import setting
    from tests.support.redis_server import RedisServer

    server = RedisServer().start()
    try:
        # The cache the site sets up when Redis is its broker (REDIS_URL), in this test's
        # own namespace; then Redis goes away.
        caches = setting("CACHES", REDIS_URL=server.url)
        caches["default"]["KEY_PREFIX"] = settings.CACHES["default"]["KEY_PREFIX"]
        settings.CACHES = caches
        server.stop()

        client = Client()
        for _ in range(15):
            response = log_in(client, "alice", "wrong")
            assert response.status_code == 200  # told so, never a 500
        response = log_in(client, "alice")
    finally:
        server.close()

    assert "_auth_user_id" not in client.session
    assert "Too many failed login attempts" in response.content.decode()


def test_the_admin_login_goes_through_the_throttled_login(client, make_user):
    """Issue 38, item 19: /admin/login/ took 40 wrong passwords, then the right one."""
    make_user("root", is_staff=True, is_superuser=True)
    for _ in range(40):
        client.post("/admin/login/", {"username": "root", "password": "wrong", "next": "/admin/"})
    response = client.post("/admin/login/", {"username": "root", "password": PASSWORD, "next": "/admin/"})

    assert "_auth_user_id" not in client.session
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('account_login')}?next=%2Fadmin%2F"
    # There, wrong passwords count as anyone's do.
    for _ in range(5):
        log_in(client, "root", "wrong")
    assert "Too many failed login attempts" in log_in(client, "root").content.decode()
    assert "_auth_user_id" not in client.session


def test_staff_reach_the_admin_through_the_sites_login(client, make_user):
    make_user("root", is_staff=True, is_superuser=True)
    assert client.get("/admin/").status_code == 302

    log_in(client, "root")

    assert client.get("/admin/").status_code == 200
