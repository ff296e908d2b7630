"""The front page shows a visitor every game the site offers, straight from the registry
(a new game appears by itself), the tarot wizards table and the other editions; the
navigation, which offers "New game" and "How to play" to visitors and players alike
(tests/games/test_integration_nav.py), still fits a 390 px phone (issue 38, item 10)."""

from __future__ import annotations

import html as html_lib

import pytest
from django.urls import reverse

from games.catalogue import modes
from games.rules_views import has_rules_page
from tests.games.test_browser import logged_in_page


@pytest.mark.django_db
def test_a_visitor_sees_every_game_of_the_registry_the_wizards_table_and_the_editions(client):
    page = html_lib.unescape(client.get("/").content.decode())
    for mode in modes():
        if mode["edition_of"]:
            assert f"{mode['edition']} edition" in page
        else:
            assert f">{mode['title']}<" in page and mode["summary"] in page
        if has_rules_page(mode["slug"]):
            assert f'href="{reverse("games:rules_mode", args=[mode["slug"]])}"' in page
    for title in ("Hermit's Arcana", "Tarot Hallow", "The tarot wizards table"):
        assert f">{title}<" in page
    assert f'href="{reverse("wizards:list")}"' in page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_navigation_fits_a_390_px_phone_logged_in_or_not(browser, live_server, make_user):
    staff = make_user("staffer", is_staff=True)  # the longest menu: staff also see the mailbox
    visitor = browser.new_context(base_url=live_server.url)
    member, _page = logged_in_page(browser, live_server, staff)
    try:
        for context in (visitor, member):
            page = context.new_page()
            page.set_viewport_size({"width": 390, "height": 800})
            page.goto("/")
            links = page.locator(".site-nav a:visible")
            names = links.all_inner_texts()
            assert {"New game", "How to play"} <= set(names)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            for box in (links.nth(i).bounding_box() for i in range(links.count())):
                assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (names, box)
    finally:
        visitor.close()
        member.close()
