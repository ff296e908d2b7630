"""A refused request from any htmx form of the site (issue 38): the answer says why in
the form's own region and the page stays whole, its header, navigation and stylesheet
kept, in real Chromium.  One spec per kind of form: a game move, the game's chat and
notes, an act at the wizards table, a journal entry's reflections and its sharing; and
going Back to a page htmx had kept up by fetching its regions shows the page, not them.

The browser fixture fails a spec on any console error: a refusal is an answer the page
shows, not a failure, so htmx logs none (Chromium's own network line for a 4xx is not a
script's error; tests/conftest.py)."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from games import services
from games.wizards import services as wizards
from journal import services as journal

from tests.games.wizards_helpers import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def page_of(browser, live_server, user):
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 1000})
    context.set_default_timeout(20_000)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    return context, context.new_page()


def set_value(locator, value: str) -> None:
    """What a person could not type (past a field's maxlength, say), set as a forged or
    outdated page would send it: the server is the one that refuses."""
    locator.evaluate("(field, value) => { field.value = value }", value)


def assert_whole(page, title: str) -> None:
    """The page as loaded: one header with its navigation, the site's stylesheet applied,
    its title, and no second document swapped into it."""
    expect(page).to_have_title(title)
    expect(page.locator("header.site-header")).to_have_count(1)
    expect(page.locator("header.site-header nav.site-nav")).to_be_visible()
    expect(page.locator("main#main")).to_have_count(1)
    assert page.evaluate("""() => {
        const link = document.querySelector('head link[rel=stylesheet][href$="/css/site.css"]');
        return !!(link && link.sheet && link.sheet.cssRules.length);
    }""")
    # The stylesheet draws the header (its own layout, not a browser's bare block).
    assert page.evaluate("getComputedStyle(document.querySelector('.site-header__inner')).display") != "block"


@pytest.fixture
def carol(make_user):
    return make_user("carol", display_name="Carol")


@pytest.fixture
def duel(alice, bob):
    """A Warring Planets game between Alice and Bob, and the page of the one to move."""
    game = services.start_game(alice, "warring_planets", {"variant": "standard"}, opponent=bob, seed=3)
    services.accept_invitation(game.pk, bob)
    game.refresh_from_db()
    return game


def mover_page(browser, live_server, game, alice, bob):
    user = alice if 0 in game.to_act else bob
    context, page = page_of(browser, live_server, user)
    page.goto(game.get_absolute_url())
    return context, page


def test_a_refused_move_says_why_on_the_board_and_leaves_the_page_whole(browser, live_server, alice, bob, duel):
    context, page = mover_page(browser, live_server, duel, alice, bob)
    title = page.title()
    page.locator("#hand a.pick").first.click()  # a card, then where it goes: a move's form
    form = page.locator("#hand .choices form.move-form").first
    set_value(form.locator("input[name=move]"), '{"type": "play", "card": "M99"}')  # no such card
    form.locator("button").click()
    expect(page.locator("#status [role=alert]")).to_be_visible()
    assert page.locator("#status [role=alert]").inner_text().strip()
    assert_whole(page, title)
    context.close()


def test_a_refused_chat_line_says_why_and_stays_in_its_box(browser, live_server, alice, bob, duel):
    context, page = mover_page(browser, live_server, duel, alice, bob)
    title = page.title()
    page.locator("#id_chat_text").fill("   ")  # a line of spaces: blank once stripped
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#status [role=alert]")).to_contain_text("Write something first.")
    expect(page.locator("#id_chat_text")).to_have_value("   ")
    assert_whole(page, title)
    context.close()


def test_notes_refused_say_why_in_the_notes(browser, live_server, alice, bob, duel):
    context, page = mover_page(browser, live_server, duel, alice, bob)
    title = page.title()
    set_value(page.locator("#notes textarea"), "n" * 20_001)
    page.get_by_role("button", name="Save notes").click()
    expect(page.locator("#notes [role=alert]")).to_contain_text("at most 20000 characters")
    assert_whole(page, title)
    context.close()


def test_a_refused_act_at_the_wizards_table_says_why_and_leaves_the_page_whole(browser, live_server, alice, bob,
                                                                                  carol):
    table = make_table(alice, bob, carol)
    session = wizards.start_session(table, alice, title="The ferry")
    context, page = page_of(browser, live_server, bob)
    page.goto(session.get_absolute_url())
    title = page.title()
    page.locator("#acts button[value=roll]").click()  # no challenge is set
    expect(page.locator("#status [data-testid=message]")).to_contain_text("There is no challenge to roll against yet")
    assert_whole(page, title)
    context.close()


def test_refused_reflections_say_why_and_keep_what_was_written(browser, live_server, alice):
    entry = journal.record_drawn(alice, spread="three", reversals=False, title="Morning draw")
    context, page = page_of(browser, live_server, alice)
    page.goto(entry.get_absolute_url())
    title = page.title()
    page.get_by_text("Write your reflections").click()
    set_value(page.locator("#id_reflections"), "r" * 50_001)
    page.get_by_role("button", name="Save reflections").click()
    expect(page.locator("#reflections [role=alert]")).to_contain_text("at most 50000 characters")
    assert page.locator("#id_reflections").evaluate("field => field.value.length") == 50_001
    assert_whole(page, title)
    context.close()


def test_sharing_an_entry_deleted_meanwhile_says_so_and_leaves_the_page_whole(browser, live_server, alice):
    entry = journal.record_drawn(alice, spread="three", reversals=False, title="Morning draw")
    context, page = page_of(browser, live_server, alice)
    page.goto(entry.get_absolute_url())
    title = page.title()
    journal.delete_entry(entry)  # from another tab, say: the share form's answer is a 404
    page.get_by_role("button", name="Make a share link").click()
    expect(page.locator("#messages [role=alert]")).to_contain_text("no longer here")
    assert_whole(page, title)
    context.close()


def test_going_back_to_a_page_kept_up_by_htmx_shows_the_page_not_its_regions(browser, live_server, alice, bob,
                                                                               carol):
    table = make_table(alice, bob, carol)
    session = wizards.start_session(table, alice, title="The ferry")
    context, page = page_of(browser, live_server, bob)
    page.goto(session.get_absolute_url())
    title = page.title()
    # The game master posts; Bob's page fetches its regions from the page's own address.
    wizards.act(session.pk, alice, {"type": "post", "narration": "A door of black iron."}, session.version)
    expect(page.locator("#log")).to_contain_text("A door of black iron.")
    page.get_by_role("link", name="The table").click()
    expect(page).to_have_url(f"{live_server.url}{table.get_absolute_url()}")
    page.go_back()
    assert_whole(page, title)
    expect(page.locator("#log")).to_contain_text("A door of black iron.")
    context.close()


def test_a_refusal_answered_after_the_page_updated_itself_still_shows(browser, live_server, alice, bob, carol):
    """The page polls for others' acts and swaps in its fresh regions, its forms with
    them; an act sent just before is answered after: its refusal still shows (it was
    lost, the console saying "Response Status Error Code 400", when the fresh regions
    replaced the form that sent it)."""
    table = make_table(alice, bob, carol)
    session = wizards.start_session(table, alice, title="The ferry")
    context, page = page_of(browser, live_server, bob)
    page.goto(session.get_absolute_url())
    title = page.title()
    held = []
    # The roll reaches the site and is refused there; its answer is slow to come back.
    page.route("**/act/", lambda route: held.append((route, route.fetch())))
    page.locator("#acts button[value=roll]").click()  # no challenge is set
    while not held:
        page.wait_for_timeout(50)
    session.refresh_from_db()
    wizards.act(session.pk, alice, {"type": "post", "narration": "A door of black iron."}, session.version)
    page.wait_for_timeout(4_000)  # more than the page's poll interval (POLL_EVERY)
    route, answer = held[0]
    route.fulfill(response=answer)
    expect(page.locator("#status [data-testid=message]")).to_contain_text("There is no challenge to roll against yet")
    expect(page.locator("#log")).to_contain_text("A door of black iron.", timeout=10_000)  # the next poll
    assert_whole(page, title)
    context.close()
