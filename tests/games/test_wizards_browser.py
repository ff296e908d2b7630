"""A game master and two players run a short scene at a tarot wizards table in three real
Chromium contexts, on a 390 px wide phone screen: each page follows the others' acts by
itself (htmx polling), and every page of the table fits the screen."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from games.wizards import services
from games.wizards.models import Character

from .wizards_helpers import make_table, stack

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def carol(make_user):
    return make_user("carol", display_name="Carol")


def phone_page(browser, live_server, user):
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=live_server.url, viewport=PHONE)
    context.set_default_timeout(20_000)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    return context, context.new_page()


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def act_form(page, kind):
    return page.locator("#acts form").filter(has=page.locator(f"input[name=type][value={kind}]"))


def test_a_gm_and_two_players_run_a_short_scene(browser, live_server, alice, bob, carol):
    table = make_table(alice, bob, carol)
    session = stack(services.start_session(table, alice, title="The ferry"),
                    bob=["Ac", "9w", "M3", "7s", "Kp"], carol=["Aw", "8c", "M17", "2p", "Qs"])
    contexts, pages = [], {}
    for name, user in (("alice", alice), ("bob", bob), ("carol", carol)):
        context, page = phone_page(browser, live_server, user)
        contexts.append(context)
        page.goto(session.get_absolute_url())
        pages[name] = page
    gm, bob_page, carol_page = pages["alice"], pages["bob"], pages["carol"]
    try:
        expect(gm.locator("[data-testid=gm-hand] li")).to_have_count(7)
        expect(bob_page.locator("[data-testid=my-hand] li")).to_have_count(5)
        expect(bob_page.locator("[data-testid=gm-hand]")).to_have_count(0)
        expect(bob_page.locator("#hand")).not_to_contain_text("Ace of Wands")  # Carol's card

        # The GM sets a challenge of rating 9 facing Bob, with a line of story.
        form = act_form(gm, "challenge")
        form.locator("select[name=source]").select_option("rating")
        form.locator("input[name=rating]").fill("9")
        form.locator("select[name=target]").select_option(label="Bob")
        form.locator("textarea[name=narration]").fill("The ferryman *holds out* his hand.")
        form.locator("button[type=submit]").click()
        expect(gm.locator("[data-testid=challenge]")).to_contain_text("rating 9")

        # Bob's page shows it by itself; he casts his Ace of Cups (12) with a description.
        expect(bob_page.locator("[data-testid=challenge]")).to_contain_text("rating 9, facing you")
        expect(bob_page.locator("#log")).to_contain_text("holds out")
        cast = bob_page.locator("#hand form.cast").first
        cast.locator("textarea[name=narration]").fill("Silver water pours into his palm.")
        cast.locator("button[value=cast]").click()
        expect(bob_page.locator("#log")).to_contain_text("Value 12 meets rating 9: you succeeded.")
        expect(bob_page.locator("[data-testid=my-hand] li")).to_have_count(4)

        # Carol and the GM see it without reloading, named.
        expect(carol_page.locator("#log")).to_contain_text("Bob cast Ace of Cups")
        expect(carol_page.locator("#log")).to_contain_text("Silver water pours into his palm.")
        expect(gm.locator("#log")).to_contain_text("Bob succeeded")

        # Carol posts; a mundane roll needs a challenge, and the refusal says so.
        carol_page.locator("#id_post").fill("I keep watch on the bank.")
        carol_page.locator("#acts button[value=post]").click()
        expect(gm.locator("#log")).to_contain_text("I keep watch on the bank.")
        expect(gm.locator("#log")).to_contain_text("Carol wrote:")
        carol_page.locator("#acts button[value=roll]").click()
        expect(carol_page.locator("[data-testid=message]")).to_contain_text("no challenge to roll against")

        # The GM closes the session: everyone's page says so.
        gm.locator("#acts button[value=end_session]").click()
        for page in (gm, bob_page, carol_page):
            expect(page.locator("[data-testid=over]")).to_contain_text("The game master closed the session.")
            assert fits(page), page.url

        # Every page of the table fits a phone.
        character = Character.objects.get(owner=bob)
        for url in (table.get_absolute_url(), "/wizards/", character.get_absolute_url(),
                    f"/wizards/{table.pk}/character/"):
            bob_page.goto(url)
            assert fits(bob_page), url
        gm.goto(table.get_absolute_url())
        assert fits(gm)
    finally:
        for context in contexts:
            context.close()
