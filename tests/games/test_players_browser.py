"""The players' pages in real Chromium (issue 41, items 2 and 3): a profile with its rating
chart, the search with its hits, the players one follows and My games with their open
challenges, each at 390 and 1280 px (photographed into test-results/screenshots/players-*),
fitting a phone and passing axe-core; following and unfollowing by htmx in place."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from games import services
from games.players.models import Follow
from tests.site.test_accessibility import axe_violations

from .test_phone_and_boards import DESKTOP, PHONE, SHOTS, overflow
from .test_players import duels

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def signed_in(browser, live_server, user, viewport):
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=live_server.url, viewport=viewport)
    context.set_default_timeout(30_000)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    return context


def test_the_players_pages_fit_both_widths_and_pass_axe(alice, bob, outsider, make_user, browser, live_server):
    duels(bob, alice, 6)
    duels(alice, bob, 2)
    for n in range(4):
        make_user(f"bobbin{n}", display_name=f"Bobbin the {['Bold', 'Brave', 'Wise', 'Quick'][n]}")
    Follow.objects.create(follower=alice, followed=bob)
    services.start_game(bob, "warring_planets", {}, open_challenge=True, seed=9)
    pages = {
        "profile": reverse("players:profile", args=["bob"]),
        "own-profile": reverse("players:profile", args=["alice"]),
        "search": reverse("players:search") + "?q=bob",
        "following": reverse("players:search"),
        "my-games": reverse("games:list"),
    }
    SHOTS.mkdir(parents=True, exist_ok=True)
    violations = []
    for viewport in (PHONE, DESKTOP):
        context = signed_in(browser, live_server, alice, viewport)
        page = context.new_page()
        try:
            for name, path in pages.items():
                assert page.goto(path).status == 200, path
                page.wait_for_load_state("load")
                assert overflow(page) <= 0, f"{path} is wider than {viewport['width']} px"
                page.screenshot(path=str(SHOTS / f"players-{name}-{viewport['width']}.png"), full_page=True)
                violations += axe_violations(page, f"{path} at {viewport['width']} px")
        finally:
            context.close()
    assert not violations, "\n".join(violations)


def test_following_from_a_profile_and_a_search_swaps_the_switch_in_place(alice, bob, browser, live_server):
    context = signed_in(browser, live_server, alice, PHONE)
    page = context.new_page()
    try:
        page.goto(reverse("players:profile", args=["bob"]))
        page.get_by_role("button", name="Follow Bob", exact=True).click()
        expect(page.get_by_text("You follow Bob.")).to_be_visible()
        assert page.url.endswith(reverse("players:profile", args=["bob"])), "htmx swapped the switch; no new page"
        assert Follow.objects.filter(follower=alice, followed=bob).exists()

        page.goto(reverse("players:search") + "?q=bo")
        page.get_by_role("button", name="Unfollow Bob", exact=True).click()
        expect(page.get_by_role("button", name="Follow Bob", exact=True)).to_be_visible()
        assert not Follow.objects.exists()

        # The invitation leads to the new-game page with Bob chosen.
        page.get_by_role("link", name="Invite Bob to a game").click()
        expect(page.locator('input[name="username"]')).to_have_value("bob")
    finally:
        context.close()
