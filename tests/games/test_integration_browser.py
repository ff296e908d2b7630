"""The clock's controls in real Chromium, JavaScript on: "confirm before sending" asks in
place and sends on "Yes", and "Give the other player a day" updates the clock, both by
htmx swaps without any page load."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Game

from .integration_helpers import drawing_move, timed_duel
from .test_browser import logged_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def watch_navigations(page) -> list[str]:
    navigations: list[str] = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url) if frame.parent_frame is None else None)
    return navigations


def click_move(page, move: dict) -> None:
    value = json.dumps(move, sort_keys=True, separators=(",", ":"))
    page.locator(f'a.pick[href="?pick={move["card"]}"]').first.click()
    page.locator("#hand .choices form.move-form").filter(
        has=page.locator(f"input[name=move][value='{value}']")).locator("button").click()


def test_a_drawing_move_is_confirmed_in_place_then_sent(browser, live_server, alice):
    game = services.start_game(alice, "know_thyself", seed=11, time_control=1)
    move = drawing_move(game)
    context, page = logged_in_page(browser, live_server, alice)
    try:
        page.goto(f"/games/{game.pk}/")
        navigations = watch_navigations(page)
        click_move(page, move)
        expect(page.locator("#hand .confirm")).to_contain_text("cannot be taken back")
        page.locator("#hand .confirm a", has_text="No, choose again").click()
        expect(page.locator("#hand .confirm")).to_have_count(0)
        assert Game.objects.get(pk=game.pk).version == 0

        click_move(page, move)
        page.locator("#hand .confirm button", has_text="Yes, send it").click()
        expect(page.locator("#log .log-list li")).to_have_count(1)
        expect(page.locator("#hand .confirm")).to_have_count(0)
        assert Game.objects.get(pk=game.pk).moves.get().move == move
        assert navigations == []
    finally:
        context.close()


def test_giving_a_day_updates_the_clock_in_place(browser, live_server, alice, bob):
    game = timed_duel(alice, bob)
    (acting,) = game.to_act
    waiter = (alice, bob)[1 - acting]
    context, page = logged_in_page(browser, live_server, waiter)
    try:
        page.goto(f"/games/{game.pk}/")
        navigations = watch_navigations(page)
        before = page.locator("#clock time").get_attribute("datetime")
        page.locator("#clock button", has_text="Give the other player a day").click()
        expect(page.locator("#status .notice")).to_contain_text("You gave the other player a day more")
        later = Game.objects.get(pk=game.pk).deadline
        assert later == game.deadline + timedelta(days=1)
        expect(page.locator("#clock time")).to_have_attribute("datetime", later.isoformat())
        assert before != later.isoformat() and navigations == []
    finally:
        context.close()


def test_giving_up_warring_planets_is_one_button_that_asks_first_even_off_turn(browser, live_server, alice, bob):
    """Forfeiting loses the game at once. The engine's forfeit move is not offered among the
    moves as well: the one Give up button (games.services.resign plays the forfeit) asks
    first, and the player who is waiting can use it too."""
    game = services.start_game(alice, "warring_planets", seed=5, opponent=bob)
    services.accept_invitation(game.pk, bob)
    game = Game.objects.get(pk=game.pk)
    waiting = 1 - game.to_act[0]
    context, page = logged_in_page(browser, live_server, (alice, bob)[waiting])
    try:
        page.goto(f"/games/{game.pk}/")
        assert page.locator("""input[name=move][value='{"type":"forfeit"}']""").count() == 0
        give_up = page.locator("#actions button", has_text="Give up")
        expect(give_up).to_have_count(1)
        asked = []
        page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
        give_up.click()
        page.wait_for_timeout(500)  # time for a request, had one been sent
        assert asked and "give up" in asked[0]
        assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE

        page.once("dialog", lambda dialog: dialog.accept())
        give_up.click()
        expect(page.locator("#status .outcome")).to_contain_text("You lost")
        game = Game.objects.get(pk=game.pk)
        assert game.status == Game.Status.FINISHED and game.outcome["winners"] == [1 - waiting]
    finally:
        context.close()
