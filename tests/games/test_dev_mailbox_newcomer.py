"""The development mailbox for a newcomer (issue 38, item 11): who has just signed up
reads the mail that confirms their own address there (that mail only, never another's),
the "Verify your email" page says where mail goes in development, and the mailbox and
its answer page fit a 390 px phone. With DEBUG off it stays closed (the older spec
``test_the_mailbox_exists_only_in_development_or_for_staff`` in test_mail_turns.py)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.mail.views import sent_mail
from tests.support.users import PASSWORD

from .mail_helpers import solo_game

LINK = re.compile(r"https?://[^\s\"<]+/accounts/confirm-email/[^\s\"<]+/")


@pytest.fixture
def file_mail(settings, tmp_path):
    settings.DEBUG = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    # A folder path as long as a real checkout's, which the page must wrap on a phone.
    folder = tmp_path / "a-checkout-of-sefirot-online-in-a-long-folder" / "var" / "sent-mail"
    settings.EMAIL_FILE_PATH = str(folder)
    return folder


def sign_up(name: str) -> Client:
    client = Client()
    answer = client.post(reverse("account_signup"), {
        "email": f"{name}@example.org", "username": name, "password1": PASSWORD, "password2": PASSWORD})
    assert answer.status_code == 302 and answer["Location"] == reverse("account_email_verification_sent")
    return client


def mailbox_mails(client) -> list:
    answer = client.get(reverse("mail:mailbox"))
    assert answer.status_code == 200
    return answer.context["mails"]


@pytest.mark.django_db
def test_the_verify_page_says_where_mail_goes_in_development_and_links_the_mailbox(file_mail):
    newcomer = sign_up("nina")

    page = newcomer.get(reverse("account_email_verification_sent")).content.decode()

    assert "development mailbox" in page and f'href="{reverse("mail:mailbox")}"' in page


@pytest.mark.django_db
def test_a_newcomer_opens_their_own_confirmation_mail_and_verifies_their_address(file_mail):
    from allauth.account.models import EmailAddress

    newcomer = sign_up("nina")

    mails = mailbox_mails(newcomer)

    assert [mail.to for mail in mails] == [["nina@example.org"]]
    page = newcomer.get(reverse("mail:mailbox")).content.decode()
    link = LINK.search(page).group(0)
    assert f'href="{link}"' in page, "the link is one to follow"
    assert ">Answer</a>" not in page, "a confirmation asks no answer"
    assert newcomer.get(reverse("mail:mailbox_reply", args=[mails[0].key])).status_code == 404
    path = link.split("://", 1)[1].split("/", 1)[1]
    assert newcomer.post("/" + path).status_code == 302
    assert EmailAddress.objects.get(email="nina@example.org").verified


@pytest.mark.django_db
def test_a_newcomer_never_reads_the_mail_that_confirms_another_address(file_mail, alice, alice_client):
    nina, otto = sign_up("nina"), sign_up("otto")
    game = solo_game(alice)
    from games.mail.tasks import deliver_turn_mail

    deliver_turn_mail(game.seats.get(index=0).pk, game.version)
    keys = {tuple(mail.to): mail.key for mail in sent_mail()}

    assert [mail.to for mail in mailbox_mails(nina)] == [["nina@example.org"]]
    assert [mail.to for mail in mailbox_mails(otto)] == [["otto@example.org"]]
    # Nor a signed-in player another's confirmation, nor the newcomer anyone's other mail.
    assert [mail.to for mail in mailbox_mails(alice_client)] == [["alice@example.com"]]
    for key in (keys[("otto@example.org",)], keys[("alice@example.com",)]):
        assert nina.get(reverse("mail:mailbox_reply", args=[key])).status_code == 404


@pytest.mark.django_db
def test_a_signed_in_player_reads_the_confirmation_of_an_address_they_add(file_mail, alice, alice_client):
    answer = alice_client.post(reverse("account_email"), {"action_add": "", "email": "alice.new@example.org"})
    assert answer.status_code in (200, 302)

    mails = mailbox_mails(alice_client)

    assert ["alice.new@example.org"] in [mail.to for mail in mails]


@pytest.mark.django_db
def test_a_visitor_with_no_signup_in_progress_still_has_no_mailbox(file_mail, client):
    sign_up("nina")

    assert client.get(reverse("mail:mailbox")).status_code == 404


@pytest.mark.django_db
def test_with_debug_off_a_newcomer_has_no_mailbox(file_mail, settings):
    newcomer = sign_up("nina")
    settings.DEBUG = False

    assert newcomer.get(reverse("mail:mailbox")).status_code == 404
    assert "development mailbox" not in newcomer.get(reverse("account_email_verification_sent")).content.decode()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_mailbox_and_its_answer_page_fit_a_390_px_phone(file_mail, browser, live_server, alice):
    from games.mail.tasks import deliver_turn_mail

    game = solo_game(alice)
    # answer=True: a worker left running by an earlier test may have sent the game's first
    # turn mail already (to the SMTP server), and a second plain turn mail is never sent.
    deliver_turn_mail(game.seats.get(index=0).pk, game.version, answer=True)
    client = Client()
    client.force_login(alice)
    context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 800})
    context.set_default_timeout(20_000)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = context.new_page()
    try:
        page.goto(reverse("mail:mailbox"))
        page.get_by_text("Read").first.click()  # the mail's text open too
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.get_by_role("link", name="Answer").first.click()
        page.wait_for_url(re.compile(r"/reply/$"))
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()
