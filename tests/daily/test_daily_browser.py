"""/daily/ and a deal's results in real Chromium at 390 px and 1280 px, light and dark: they
fit a phone, axe-core finds nothing serious on them, and they are photographed into test-results/screenshots/daily-*.png to be looked at.  The play
button opens the day's game like any solo game."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.daily import services as daily
from games.daily.models import Play

from ..games.test_phone_and_boards import DESKTOP, PHONE, SHOTS, overflow
from ..site.test_accessibility import axe_violations
from .test_daily_deal import finish, played

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_daily_pages_fit_a_phone_and_are_photographed(browser, live_server, alice, bob):
    alice_client, bob_client = _client(alice), _client(bob)
    finish(played(alice_client))
    finish(played(bob_client))
    alice_client.post(reverse("daily:share", args=[daily.today().isoformat(), "know_thyself"]), {"shared": "1"})
    bob_client.post(reverse("daily:share", args=[daily.today().isoformat(), "know_thyself"]), {"shared": "1"})
    for play in Play.objects.all():
        daily.draw_shared_seal(play.pk)
    pages = {"daily": reverse("daily:today"),
             "daily-results": reverse("daily:results", args=[daily.today().isoformat(), "know_thyself"])}
    SHOTS.mkdir(parents=True, exist_ok=True)
    violations = []
    for viewport, scheme in ((PHONE, "light"), (DESKTOP, "light"), (PHONE, "dark"), (DESKTOP, "dark")):
        context = browser.new_context(base_url=live_server.url, viewport=viewport, color_scheme=scheme)
        context.set_default_timeout(30_000)
        context.add_cookies([{"name": "sessionid", "value": alice_client.cookies["sessionid"].value,
                              "url": live_server.url}])
        page = context.new_page()
        try:
            for name, path in pages.items():
                assert page.goto(path).status == 200
                page.wait_for_load_state("networkidle")
                dark = "-dark" if scheme == "dark" else ""
                page.screenshot(path=str(SHOTS / f"{name}-{viewport['width']}{dark}.png"), full_page=True)
                violations += axe_violations(page, f"{path}, {viewport['width']} px, {scheme}")
                if viewport is PHONE:
                    assert overflow(page) <= 0, f"{path} is {overflow(page)} px wider than a phone"
            assert page.locator(".daily-seal img").count() == 2
            page.goto(reverse("daily:today"))
            if viewport is PHONE and scheme == "light":  # the day's Dream Odyssey, started from the page by keyboard
                button = page.get_by_role("button", name="Play today's Dream Odyssey")
                button.focus()
                page.keyboard.press("Enter")
                page.wait_for_url("**/games/*/", timeout=30_000)
                assert page.locator("h1").count()
                assert not page.locator("form.hint-form").count()
        finally:
            context.close()
    assert Play.objects.filter(user=alice, deal__mode="dream_odyssey").exists()
    assert not violations, "\n".join(violations)
