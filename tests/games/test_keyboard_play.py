"""Games played with the keyboard alone, in real Chromium (issue 42, item 6): a whole Know
Thyself game and a whole Warring Planets game against the computer, with Tab, Shift+Tab,
Enter and Space only: no click, and no script run to act (the test reads where the focus
is, as a person sees it, and decides what to play from the legal moves).  Focus stays on
the control a player was on when an answer redraws it, or lands in the page, never lost;
every card and board space has an accessible name; with reduced motion asked for, nothing
moves."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games import services
from games.computer import computer_player
from games.models import Game

from .conftest import reload
from .test_browser import logged_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABBABLE = ("a[href], button:not([disabled]), input:not([type=hidden]):not([disabled]), select, textarea, "
            "[tabindex]:not([tabindex='-1'])")
# Reads (never acts): where the focus is in the page's order of tabbable controls, and where
# the target is, so the test knows how many Tabs (or Shift+Tabs) a person would press.
WHERE = """([target, selector]) => {
  const all = [...document.querySelectorAll(selector)].filter(e => e.getClientRects().length && !e.closest('[hidden]'));
  return [all.indexOf(document.activeElement), all.indexOf(target)];
}"""


def tab_to(page, locator) -> None:
    """Move the focus to ``locator`` with Tab or Shift+Tab, as a person would."""
    target = locator.element_handle()
    for _ in range(3):
        now, there = page.evaluate(WHERE, [target, TABBABLE])
        if now == there and there >= 0:
            return
        if there < 0:
            pytest.fail(f"not reachable by Tab: {locator}")
        key, steps = ("Tab", there - now) if now < 0 or there > now else ("Shift+Tab", now - there)
        if now < 0:
            steps = there + 1
        for _ in range(steps):
            page.keyboard.press(key)
    assert page.evaluate("t => document.activeElement === t", target), f"Tab never reached {locator}"


def move_button(page, move: dict):
    value = json.dumps(move, sort_keys=True, separators=(",", ":"))
    return page.locator("form.move-form").filter(
        has=page.locator(f"input[name=move][value='{value}']")).locator("button").first


def play_by_keyboard(page, game: Game, seat: int, choose: random.Random) -> None:
    """One legal move with the keyboard: Space on the card to pick it (a toggle button),
    then Enter on the move's button (and on the confirmation when one is asked)."""
    rules = game.rules
    legal = [m for m in rules.legal_moves(rules.loads(game.state), seat) if m["type"] not in ("forfeit", "resign")]
    move = choose.choice(legal)
    button = move_button(page, move)
    if "card" in move and not button.count():
        pick = page.locator(f'a.pick[href="?pick={move["card"]}"]').first
        tab_to(page, pick)
        page.keyboard.press("Space")
        # The picked card is redrawn; the focus stays on it, whatever other answers (the
        # game's poll, the navigation's count) land meanwhile (test_focus_across_swaps.py).
        expect(page.locator(f'a.pick[aria-pressed="true"]:has([data-card="{move["card"]}"])').first).to_be_focused(
            timeout=15_000)
        button = move_button(page, move)
    expect(button).to_be_visible()
    tab_to(page, button)
    page.keyboard.press("Enter")
    page.wait_for_timeout(50)
    if page.locator(".confirm button").count():
        tab_to(page, page.locator(".confirm button").first)
        page.keyboard.press("Enter")


def keep_the_page_as_it_was(page, game: Game, name: str) -> None:
    """The page's markup and a screenshot, and the game as the server has it, in test-results."""
    folder = Path("test-results") / "failures"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.html").write_text(page.content())
    (folder / f"{name}.json").write_text(json.dumps({"version": game.version, "to_act": game.to_act,
                                                     "view": game.rules.view(game.load_state(), 0)}, default=str))
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def wait_for_move(game: Game, timeout: float = 30) -> Game:
    deadline = time.monotonic() + timeout
    while (current := reload(game)).version == game.version:
        assert time.monotonic() < deadline, "the move was not sent"
        time.sleep(0.05)
    return current


@pytest.mark.long(29)
def test_a_whole_know_thyself_game_by_keyboard_alone(browser, live_server, alice):
    game = services.start_game(alice, "know_thyself", {"variant": "standard"}, seed=12)
    context, page = logged_in_page(browser, live_server, alice)
    choose = random.Random(12)
    moves = 0
    try:
        page.goto(f"/games/{game.pk}/")
        while game.status == Game.Status.ACTIVE and moves < 300:
            expect(page.locator("#status")).to_be_visible()
            play_by_keyboard(page, game, 0, choose)
            game = wait_for_move(game)
            moves += 1
            # The page shows the move's answer before the next key: the database has the
            # move a moment before the page does, and a key pressed on the board the answer
            # is about to replace is lost with it.
            expect(page.locator("#log .log-list li").last).to_have_attribute("value", str(game.version),
                                                                             timeout=30_000)
            # After the answer the focus is somewhere in the page, never dropped to its start.
            page.wait_for_function("() => document.activeElement !== document.body", timeout=10_000)
        assert reload(game).status == Game.Status.FINISHED, f"still going after {moves} moves"
        expect(page.locator("#status .turn")).to_contain_text("Finished")
    finally:
        context.close()


@pytest.mark.long(49)
@pytest.mark.worker
def test_a_whole_warring_planets_game_against_the_computer_by_keyboard_alone(
        browser, live_server, celery_worker_process, alice):
    game = services.start_game(alice, "warring_planets", opponent=computer_player("greedy"), seed=9)
    context, page = logged_in_page(browser, live_server, alice)
    choose = random.Random(9)
    moves = 0
    try:
        page.goto(f"/games/{game.pk}/")
        while moves < 300:
            game = reload(game)
            if game.status != Game.Status.ACTIVE:
                break
            if game.to_act != [0]:
                deadline = time.monotonic() + 90
                while reload(game).to_act == [1] and reload(game).status == Game.Status.ACTIVE:
                    assert time.monotonic() < deadline, "the computer did not answer"
                    time.sleep(0.1)
                continue
            # The page follows the computer's move by itself before the person plays on.
            expect(page.locator("#status .turn")).to_have_text("Your turn.", timeout=30_000)
            log = page.locator("#log .log-list li")
            if game.version:
                expect(log.last).to_have_attribute("value", str(game.version), timeout=30_000)
                # The poll redrew the regions the focus was in: it is still in the page.
                page.wait_for_function("() => document.activeElement !== document.body", timeout=10_000)
            try:
                play_by_keyboard(page, game, 0, choose)
            except Exception:
                # Seen once in three fresh-clone runs under load: the page showed the newest
                # log and "Your turn." but not the card the game had dealt, for 20 s; cause not
                # found yet.  What the page held then, for whoever looks next.
                keep_the_page_as_it_was(page, game, "keyboard-warring-planets")
                raise
            wait_for_move(game)
            moves += 1
        assert reload(game).status == Game.Status.FINISHED, f"still going after {moves} moves"
        expect(page.locator("#status .turn")).to_contain_text("Finished", timeout=30_000)
    finally:
        context.close()


def test_focus_stays_on_the_picked_card_and_a_refusal_is_announced(browser, live_server, alice):
    game = services.start_game(alice, "know_thyself", {"variant": "standard"}, seed=12)
    context, page = logged_in_page(browser, live_server, alice)
    try:
        page.goto(f"/games/{game.pk}/")
        pick = page.locator("#hand a.pick").first
        code = pick.locator("[data-card]").get_attribute("data-card")
        tab_to(page, pick)
        page.keyboard.press("Enter")
        # The hand was redrawn (the card now pressed): the focus is on the same card.
        picked = page.locator(f'#hand a.pick[aria-pressed="true"]:has([data-card="{code}"])')
        expect(picked).to_be_focused(timeout=15_000)
        page.keyboard.press("Space")  # Space toggles it back, as a button does
        expect(page.locator(f'#hand a.pick[aria-pressed="false"]:has([data-card="{code}"])')).to_be_focused(
            timeout=15_000)
        # Someone (another tab) moves first: this page's move is refused as stale, and the
        # refusal is said in the page's live region.
        page.keyboard.press("Space")
        expect(picked).to_be_focused(timeout=15_000)
        tab_to(page, page.locator("#hand .choices form.move-form button").first)
        state = game.rules.loads(game.state)
        other = next(m for m in game.rules.legal_moves(state, 0) if m.get("card") != code)
        services.submit_move(game.pk, game.seats.get(index=0), other, game.version)
        page.keyboard.press("Enter")
        expect(page.locator("#messages [data-region-said]").first).to_have_text(re.compile(r"\w"), timeout=15_000)
        expect(page.locator("#messages")).to_have_attribute("aria-live", "polite")
        page.wait_for_function("() => document.activeElement !== document.body", timeout=10_000)
    finally:
        context.close()


def test_every_card_and_board_space_has_an_accessible_name(browser, live_server, alice, bob):
    solo = services.start_game(alice, "know_thyself", {"variant": "standard"}, seed=12)
    duel = services.start_game(alice, "warring_planets", {}, opponent=bob, seed=3)
    services.accept_invitation(duel.pk, bob)
    context, page = logged_in_page(browser, live_server, alice)
    try:
        for game in (solo, duel):
            page.goto(f"/games/{game.pk}/")
            cards = page.locator(".card")
            spaces = page.locator("#board .space")
            assert cards.count() and spaces.count()
            for index in range(cards.count()):
                expect(cards.nth(index)).to_have_role("img")
                expect(cards.nth(index)).to_have_accessible_name(re.compile(r"\w{3}"))
            for index in range(spaces.count()):
                expect(spaces.nth(index)).to_have_role("group")
                # (a Starfield's star is named as the board shows it: "L0", "C2 (centre)")
                expect(spaces.nth(index)).to_have_accessible_name(re.compile(r"\w\d|\w{3}"))
    finally:
        context.close()


def test_reduced_motion_turns_transitions_and_htmx_settling_off(browser, live_server, alice):
    game = services.start_game(alice, "know_thyself", {"variant": "standard"}, seed=12)
    context, page = logged_in_page(browser, live_server, alice)
    try:
        page.emulate_media(reduced_motion="reduce")
        for path in (f"/games/{game.pk}/", "/journal/", "/"):
            page.goto(path)
            moving = page.evaluate("""() => [...document.querySelectorAll('*')].flatMap(e => {
                const s = getComputedStyle(e);
                const t = s.transitionDuration.split(',').some(d => parseFloat(d) > 0);
                const a = s.animationName !== 'none' && s.animationDuration.split(',').some(d => parseFloat(d) > 0);
                return t || a ? [e.tagName + '.' + e.className] : [];
            })""")
            assert moving == [], f"{path}: still moving with reduced motion: {moving[:10]}"
            assert page.evaluate("() => [htmx.config.defaultSwapDelay, htmx.config.defaultSettleDelay]") == [0, 0]
        # Without the wish, the page's hover lift still moves (the test would see a change).
        page.emulate_media(reduced_motion="no-preference")
        page.goto(f"/games/{game.pk}/")
        assert page.evaluate("() => htmx.config.defaultSettleDelay") > 0
    finally:
        context.close()
