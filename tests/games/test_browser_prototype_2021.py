"""The three 2021 prototype games played to the end in real Chromium, by clicking as a
person does (a card, then where it goes; a set or other choice as a button of its own):
Know Thyself 2021 in Freethought by alice alone, whose journal then keeps the tainted
reading; Lovers' Discourse 2021 and Warring Planets 2021 with alice and bob each in a
browser of their own, every move made on the page of the seat to act."""

from __future__ import annotations

import json
import random
import time

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Game
from journal.models import Entry

from .test_browser import logged_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MOVE_CAP = 150


def click_move(page, game: Game, seat: int, choose: random.Random) -> None:
    """Load the game page, make one legal move by clicking, and wait until the server has it."""
    page.goto(f"/games/{game.pk}/")
    rules = game.rules
    moves = [m for m in rules.legal_moves(rules.loads(game.state), seat) if m["type"] != "forfeit"]
    # Onto a Major rather than the plane, most of the time, so games end sooner.
    onto = [m for m in moves if "to" in m and m.get("card", "M")[0] != "M"]
    move = choose.choice(onto if onto and choose.random() < 0.7 else moves)
    value = json.dumps(move, sort_keys=True, separators=(",", ":"))
    form = page.locator("#hand form.move-form").filter(has=page.locator(f"input[name=move][value='{value}']"))
    if "card" in move and not form.count():
        page.locator(f'a.pick[href="?pick={move["card"]}"]').first.click()
    form.locator("button").first.click()
    deadline = time.monotonic() + 20
    while Game.objects.get(pk=game.pk).version == game.version:
        assert time.monotonic() < deadline, f"the move {move} never arrived"
        confirm = page.locator(".confirm button")
        if confirm.count():
            confirm.first.click()
        time.sleep(0.05)


def play_to_the_end(pages: dict, game: Game, seed: int) -> Game:
    choose = random.Random(seed)
    for _ in range(MOVE_CAP):
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.ACTIVE:
            return game
        seat = game.to_act[0]
        click_move(pages[seat], game, seat, choose)
    pytest.fail(f"the game did not end within {MOVE_CAP} moves")


def test_know_thyself_2021_in_freethought_plays_to_the_end_and_its_reading_is_tainted(browser, live_server, alice):
    game = services.start_game(alice, "know_thyself_2021", {"variant": "freethought"}, seed=21)
    context, page = logged_in_page(browser, live_server, alice)
    try:
        game = play_to_the_end({0: page}, game, seed=21)
        assert game.status == Game.Status.FINISHED
        page.goto(f"/games/{game.pk}/")
        expect(page.locator("#status .outcome")).to_be_visible()
        expect(page.locator("#status .facts")).to_contain_text("tainted (Freethought)")
        entry = Entry.objects.get(owner=alice, source_game=game)
        page.locator("#status .journal-link a").click()
        expect(page).to_have_url(f"{live_server.url}/journal/{entry.pk}/")
        expect(page.locator("#section-tainted")).to_contain_text("A tainted reading")
    finally:
        context.close()


@pytest.mark.parametrize("mode,seed", [("lovers_discourse_2021", 5), ("warring_planets_2021", 6)])
def test_a_two_player_2021_game_plays_to_the_end_with_both_seats_in_browsers(browser, live_server, alice, bob,
                                                                            mode, seed):
    game = services.start_game(alice, mode, {"variant": "standard"}, opponent=bob, seed=seed)
    services.accept_invitation(game.pk, bob)
    contexts, pages = [], {}
    for seat, user in ((0, alice), (1, bob)):
        context, page = logged_in_page(browser, live_server, user)
        contexts.append(context)
        pages[seat] = page
    try:
        game = play_to_the_end(pages, game, seed)
        assert game.status == Game.Status.FINISHED and game.version > 4
        for seat, user in ((0, alice), (1, bob)):
            pages[seat].goto(f"/games/{game.pk}/")
            expect(pages[seat].locator("#status .outcome")).to_be_visible()
            assert Entry.objects.filter(owner=user, source_game=game).exists()
    finally:
        for context in contexts:
            context.close()


def test_the_edition_is_chosen_on_the_new_game_page_by_clicking(browser, live_server, alice):
    context, page = logged_in_page(browser, live_server, alice)
    try:
        page.goto("/games/new/")
        page.locator('input[name="mode"][value="know_thyself"]').check()
        page.locator('input[name="edition-know_thyself"][value="know_thyself_2021"]').check()
        page.locator('input[name="variants-know_thyself_2021"][value="freethought"]').check()
        page.locator('input[name="opponent"][value="solo"]').check()
        page.locator("form.new-game button[type=submit]").click()
        expect(page.locator("#status h1")).to_contain_text("Know Thyself (2021 prototype)")
        game = Game.objects.get(created_by=alice)
        assert game.mode == "know_thyself_2021" and game.options["variant"] == ["freethought"]
        expect(page.locator("#status .facts")).to_contain_text("tainted (Freethought)")
    finally:
        context.close()
