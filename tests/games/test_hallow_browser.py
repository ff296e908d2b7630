"""Tarot Hallow in real Chromium: three players in three browser contexts play rounds in
different orders by clicking, each page following the others by itself (a face-down card
appears on a seat as it plays, the reveal shows the cards side by side and the winner);
a card picked stays picked when the page's poll answers after the pick; and a table of
six fits a 390 px phone."""

from __future__ import annotations

import random
import re
import time

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Game, Move

from .hallow_helpers import cast, full_table
from .test_browser import logged_in_page, play_one_move
from .test_hallow_mail import a_clean_seed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def moved_on(game: Game) -> Game:
    """The game once the move just clicked has been stored (the click returns before the
    htmx post has)."""
    for _ in range(200):
        now = Game.objects.get(pk=game.pk)
        if now.version > game.version:
            return now
        time.sleep(0.05)
    raise AssertionError("the move was not stored")


@pytest.mark.long(31)
def test_three_players_in_three_browsers_play_rounds_in_different_orders(browser, live_server, make_user,
                                                                          alice, bob):
    users = cast(make_user, alice, bob, 3)
    game = full_table(users, seed=a_clean_seed())
    contexts, pages = [], {}
    for index, user in enumerate(users):
        context, page = logged_in_page(browser, live_server, user)
        contexts.append(context)
        page.goto(f"/games/{game.pk}/")
        pages[index] = page
    try:
        for page in pages.values():
            expect(page.locator("#status .turn")).to_contain_text("Your turn")
            expect(page.locator(".hallow-seat")).to_have_count(3)
        choose = random.Random(7)
        for rnd, order in enumerate([(2, 0, 1), (1, 2, 0)], start=1):
            game = Game.objects.get(pk=game.pk)
            assert game.load_state()["round"]["number"] == rnd
            for seat in order:
                game = Game.objects.get(pk=game.pk)
                if seat not in game.to_act:
                    continue  # a tie replayed without this seat
                # The page follows by itself: its poll brings the new round's hand.
                expect(pages[seat].locator("#status .turn")).to_contain_text("Your turn", timeout=15_000)
                expect(pages[seat].locator(".hallow-major p")).to_contain_text(f"Round {rnd}", timeout=15_000)
                move = play_one_move(pages[seat], game, seat, choose)
                game = moved_on(game)
                if game.version and game.load_state()["phase"] == "play" and seat in game.load_state()["round"]["pending"]:
                    continue
                if game.load_state()["round"] and game.load_state()["round"]["face_down"][seat]:
                    # Everyone sees that this seat played, and only the player sees which card.
                    for other, page in pages.items():
                        face_down = page.locator(f"#hallow-seat-{seat} .hallow-played .card")
                        expect(face_down).to_have_attribute(
                            "data-card", move["card"] if other == seat else "back", timeout=15_000)
            # Powers of court cards, if any, by whoever is asked, until the next round.
            for _ in range(10):
                game = Game.objects.get(pk=game.pk)
                state = game.load_state()
                if state["phase"] == "play" and state["round"]["number"] > rnd:
                    break
                seat = game.to_act[0]
                expect(pages[seat].locator("#status .turn")).to_contain_text("Your turn", timeout=15_000)
                play_one_move(pages[seat], game, seat, choose)
                moved_on(game)
            game = Game.objects.get(pk=game.pk)
            last = game.load_state()["last_round"]
            for page in pages.values():
                expect(page.locator(".hallow-reveal h2")).to_contain_text(f"Round {rnd}:", timeout=15_000)
                expect(page.locator(".hallow-reveal .hallow-step").first.locator("li")).to_have_count(3)
                if last["winner"] is not None:
                    expect(page.locator(".hallow-winner")).to_contain_text("won the Major")
    finally:
        for context in contexts:
            context.close()


def test_a_table_of_six_fits_a_phone(browser, live_server, make_user, alice, bob):
    users = cast(make_user, alice, bob, 6)
    game = full_table(users, seed=9)
    from games import services
    services.submit_move(game.pk, users[3], game.rules.legal_moves(game.load_state(), 3)[0], game.version)
    from django.test import Client
    client = Client()
    client.force_login(alice)
    context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844})
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    try:
        page = context.new_page()
        page.goto(f"/games/{game.pk}/")
        expect(page.locator(".hallow-seat")).to_have_count(6)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        for index in range(6):
            box = page.locator(f"#hallow-seat-{index}").bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (index, box)
        expect(page.locator("#hallow-seat-3 .hallow-played .card")).to_have_attribute("data-card", "back")
        page.screenshot(path="test-results/screenshots/tarot_hallow-6-390.png", full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.screenshot(path="test-results/screenshots/tarot_hallow-6-1280.png", full_page=True)
    finally:
        context.close()


@pytest.mark.parametrize("poll_sent", ["just before the pick", "while the pick is on its way"])
def test_a_poll_answered_after_a_pick_leaves_the_card_picked(browser, live_server, make_user, alice, bob, poll_sent):
    """Everyone plays at once, so the page polls while its player chooses: Bob plays, the
    page's poll finds it and asks for its regions, and that answer is held back until
    Alice's pick has been answered (the request sent before the pick, or while the pick's
    own answer is on its way, so drawn with no card picked).  The late answer must not
    put her card back down, nor make the page forget it (``#pick-state``, which every
    later request sends): it was once swapped in over the pick, out of band, and the card
    went back down (the server had it right; the page lost it until she clicked again)."""
    users = cast(make_user, alice, bob, 3)
    game = full_table(users, seed=a_clean_seed())
    context, page = logged_in_page(browser, live_server, alice)
    # The first of each that the page sends is held, drawn by the server at once and let
    # go by the spec; any later one (the page asking again) goes through.
    to_hold = {"pick": 1 if poll_sent == "while the pick is on its way" else 0, "refresh": 1}
    held = {"pick": [], "refresh": []}

    def hold_or_go(route):
        kind = "pick" if re.search(r"[?&]pick=", route.request.url) else "refresh"
        if to_hold[kind]:
            to_hold[kind] -= 1
            held[kind].append((route, route.fetch()))
        else:
            route.continue_()

    def wait_for_held(kind):
        for _ in range(400):  # the poll asks every 5 s on a turn others share
            if held[kind]:
                return held[kind].pop()
            page.wait_for_timeout(50)  # lets Playwright run the route's handler
        raise AssertionError(f"the page sent no {kind}")

    def bob_plays():
        now = Game.objects.get(pk=game.pk)
        services.submit_move(now.pk, bob, now.rules.legal_moves(now.load_state(), 1)[0], now.version)

    try:
        page.goto(f"/games/{game.pk}/")
        expect(page.locator("#status .turn")).to_contain_text("Your turn")
        page.route(re.compile(rf"/games/{game.pk}/\?"), hold_or_go)
        card = page.locator("#hand a.pick").first
        code = card.locator("[data-card]").get_attribute("data-card")
        picked = page.locator(f'#hand a.pick[aria-pressed="true"]:has([data-card="{code}"])')
        page.evaluate("""() => { window.answersLanded = 0;
          document.addEventListener("htmx:afterOnLoad", () => { window.answersLanded += 1; }); }""")
        if poll_sent == "just before the pick":
            bob_plays()
            refresh = wait_for_held("refresh")
            card.click()
        else:
            card.click()
            pick = wait_for_held("pick")
            bob_plays()
            refresh = wait_for_held("refresh")
            pick[0].fulfill(response=pick[1])
        expect(picked).to_be_attached()
        expect(page.locator("#hand .choices form.move-form")).not_to_have_count(0)
        expect(page.locator("#pick-state")).to_have_value(code)
        landed = page.evaluate("() => window.answersLanded")
        refresh[0].fulfill(response=refresh[1])  # the poll's late answer, drawn with no card picked
        page.wait_for_function(f"() => window.answersLanded > {landed}")
        page.wait_for_function("() => !document.querySelector('.htmx-settling, .htmx-request')")
        expect(picked).to_be_attached()
        expect(page.locator("#pick-state")).to_have_value(code)
        # The page still follows the table: Bob's face-down card is on his seat (the page
        # asked again for what the late answer brought).
        expect(page.locator("#hallow-seat-1 .hallow-played .card")).to_have_attribute("data-card", "back")
        expect(picked).to_be_attached()
        # And the pick plays: its choice is there to click.
        page.locator("#hand .choices form.move-form button").first.click()
        expect(page.locator("#hallow-seat-0 .hallow-played .card")).to_have_attribute("data-card", code)
        assert Move.objects.filter(game=game, seat=0).count() == 1
    finally:
        context.close()
