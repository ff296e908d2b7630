"""The pages of the calendar's address, a bounced address and an unsubscribe link, in
Chromium on a 390 px phone, used by keyboard alone (issue 42, items 4 and 5)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games.mail import etiquette
from games.models import Seat
from tests.games.test_browser import logged_in_page

from .mail_helpers import two_player_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 800}


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def press_on(page, name: str) -> None:
    """Tab to the button called ``name`` and press Enter, as a keyboard user does."""
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.innerText") == name:
            with page.expect_navigation():
                page.keyboard.press("Enter")
            return
    pytest.fail(f"no button {name!r} within reach of the Tab key")


def test_the_profile_renews_the_calendar_and_mails_again_by_keyboard_on_a_phone(browser, live_server, alice):
    alice.undeliverable_email, alice.undeliverable_since = alice.email, timezone.now()
    alice.undeliverable_reason = "The mail server answered: 550 5.1.1 no such mailbox"
    alice.save()
    context, page = logged_in_page(browser, live_server, alice)
    try:
        page.set_viewport_size(PHONE)
        page.goto("/accounts/profile/")
        assert fits(page)
        notice = page.get_by_test_id("mail-undeliverable")
        assert "We no longer mail alice@example.com" in notice.inner_text()
        old = page.get_by_test_id("calendar-address").input_value()
        assert old.endswith(".ics") and f"/calendar/{alice.pk}/" in old

        press_on(page, "Give my calendar a new address")
        assert "the old one no longer works" in page.inner_text("body")
        new = page.get_by_test_id("calendar-address").input_value()
        assert new != old and fits(page)

        press_on(page, "The address works: mail me again")
        assert "We mail alice@example.com again." in page.inner_text("body")
        assert page.get_by_test_id("mail-undeliverable").count() == 0
        alice.refresh_from_db()
        assert not alice.mail_undeliverable
    finally:
        context.close()


def test_an_unsubscribe_link_asks_then_stops_by_keyboard_without_login(browser, live_server, alice, bob):
    game = two_player_game(alice, bob)
    seat = game.seats.select_related("user").get(index=0)
    address = etiquette.about_seat(seat).header.removeprefix("http://127.0.0.1:8000")
    context = browser.new_context(base_url=live_server.url, viewport=PHONE)  # a visitor: no session
    try:
        page = context.new_page()
        page.goto(address)
        assert f"Stop mail about Warring Planets with Bob (game {game.pk})?" in page.inner_text("h1")
        assert fits(page) and not Seat.objects.get(pk=seat.pk).mail_muted
        press_on(page, "Stop this mail")
        assert "No more mail about" in page.inner_text("h1")
        assert Seat.objects.get(pk=seat.pk).mail_muted and fits(page)
    finally:
        context.close()
