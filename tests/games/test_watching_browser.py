"""Watching games in real Chromium (issue 41, item 4): the page of games to watch and a
spectator's page of a game fit a phone (390 px) and a desktop (1280 px), photographed
into test-results/screenshots/watch-*.png; a spectator's page, not logged in, follows a
player's move by its polling, with no reload, and never offers a move."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import services
from games.models import Game, Seat

from .conftest import reload
from .hallow_helpers import cast, full_table
from .test_phone_and_boards import DESKTOP, PHONE, SHOTS, mid_game, overflow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A spectator's page polls every 3 s; under load the answer may take a while more.
WITHIN_A_POLL = 30_000


def a_table_in_play(make_user, alice, bob) -> Game:
    game = full_table(cast(make_user, alice, bob, 4), seed=8)
    choose = random.Random(8)
    for _ in range(6):
        game = reload(game)
        seat = choose.choice(game.to_act)
        move = choose.choice(game.rules.legal_moves(game.load_state(), seat))
        services.submit_move(game.pk, game.seats.get(index=seat), move, game.version)
    return reload(game)


def test_the_watch_page_and_a_spectators_page_fit_a_phone_and_a_desktop(browser, live_server, make_user,
                                                                        alice, bob):
    # Rows enough for a second page (the list reads no state: these are never opened) ...
    now = timezone.now()
    older = Game.objects.bulk_create(
        Game(mode="lovers_discourse", options={}, seed=n, players=2, status=Game.Status.ACTIVE, state="",
             to_act=[n % 2], version=n + 1, created_by=alice, started_at=now) for n in range(25))
    Seat.objects.bulk_create(seat for game in older
                             for seat in (Seat(game=game, index=0, user=alice), Seat(game=game, index=1, user=bob)))
    # ... and real games, moved since, at the top.
    duel = mid_game("warring_planets", alice, bob)
    solo = mid_game("know_thyself", alice, bob, moves=6)
    table = a_table_in_play(make_user, alice, bob)
    # The duel has a clock: its line (who must move, by when) fits a phone too.
    Game.objects.filter(pk=duel.pk).update(time_control=3, deadline=timezone.now() + timedelta(days=3))
    SHOTS.mkdir(parents=True, exist_ok=True)
    for viewport in (PHONE, DESKTOP):
        context = browser.new_context(base_url=live_server.url, viewport=viewport)
        context.set_default_timeout(20_000)
        page = context.new_page()
        try:
            width = viewport["width"]
            assert page.goto("/games/watch/").status == 200
            expect(page.get_by_role("heading", name="Games to watch")).to_be_visible()
            for game in (duel, solo, table):
                expect(page.locator(f'a[href="/games/{game.pk}/"]')).to_be_visible()
            expect(page.get_by_role("navigation", name="Pages of games")).to_contain_text("Page 1 of 2")
            expect(page.locator("li.game-row", has=page.locator(f'a[href="/games/{duel.pk}/"]'))
                   .locator(".clock")).to_contain_text("to move runs out")
            assert "seat " not in page.inner_text("main").lower()
            page.screenshot(path=str(SHOTS / f"watch-{width}.png"), full_page=True)
            assert overflow(page) <= 0, f"the watch page is {overflow(page)} px wider than {width} px"
            for name, game in (("warring-planets", duel), ("tarot-hallow", table)):
                page.locator(f'a[href="/games/{game.pk}/"]').first.click()
                expect(page.locator(".watching")).to_contain_text("You are watching this game")
                assert page.locator('input[name="move"]').count() == 0
                if game is duel:
                    expect(page.locator("#clock")).to_contain_text("to move runs out")
                page.screenshot(path=str(SHOTS / f"watch-spectator-{name}-{width}.png"), full_page=True)
                assert overflow(page) <= 0, f"a spectator's {name} is {overflow(page)} px wider than {width} px"
                page.go_back()
        finally:
            context.close()


def test_a_spectators_page_follows_a_players_move_by_polling(browser, live_server, alice, bob):
    game = services.start_game(alice, "warring_planets", {}, opponent=bob, seed=5)
    services.accept_invitation(game.pk, bob)
    game = reload(game)
    context = browser.new_context(base_url=live_server.url, viewport=PHONE)
    context.set_default_timeout(20_000)
    page = context.new_page()
    try:
        assert page.goto(f"/games/{game.pk}/").status == 200
        expect(page.locator("#log")).to_contain_text("No moves yet")
        mover = game.seats.get(index=game.to_act[0])
        expect(page.locator("#status .turn")).to_contain_text(f"Waiting for {mover.player_name}")
        move = next(m for m in game.rules.legal_moves(game.load_state(), mover.index) if m["type"] != "forfeit")
        services.submit_move(game.pk, mover, move, game.version)
        # The poll finds the move; the regions that changed are swapped in, no reload.
        expect(page.locator("#log-list li")).to_have_count(1, timeout=WITHIN_A_POLL)
        expect(page.locator("#log-list li").first).to_contain_text(mover.player_name)
        after = reload(game)
        waiting_for = " and ".join(s.player_name for s in after.seats.all() if s.index in after.to_act)
        expect(page.locator("#status .turn")).to_contain_text(f"Waiting for {waiting_for}", timeout=WITHIN_A_POLL)
        assert page.locator('input[name="move"]').count() == 0
        assert page.evaluate("performance.getEntriesByType('navigation').length") == 1  # never reloaded
    finally:
        context.close()
