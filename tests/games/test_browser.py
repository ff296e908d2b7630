"""Two players in two real Chromium contexts play a two-player game through the pages; the
waiting side's page follows by itself (htmx polling), without anyone reloading it."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from games import services
from games.models import Game

from .conftest import TWO_PLAYER_MODES, play_random_moves, registered

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TURN_CHANGES = 4  # alice, bob, alice, bob: several whole turns each


def logged_in_page(browser, live_server, user):
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1100, "height": 1400})
    context.set_default_timeout(20_000)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    return context, context.new_page()


def play_one_move(page, game: Game, seat: int, choose: random.Random) -> dict:
    """Make one legal move by clicking, as a person would: a card, then its target."""
    rules = game.rules
    moves = [m for m in rules.legal_moves(rules.loads(game.state), seat) if m["type"] != "forfeit"]
    move = choose.choice(moves)
    value = json.dumps(move, sort_keys=True, separators=(",", ":"))
    if "card" in move:
        pick = page.locator(f'a.pick[href="?pick={move["card"]}"]')  # in hand, on the board or a plane
        if not page.locator(f"#hand .choices input[name=move][value='{value}']").count():
            pick.first.click()
        button = page.locator("#hand .choices form.move-form").filter(
            has=page.locator(f"input[name=move][value='{value}']"))
    else:
        button = page.locator("#hand form.move-form").filter(has=page.locator(f"input[name=move][value='{value}']"))
    button.locator("button").click()
    if page.locator(".confirm").count():
        page.locator(".confirm button").click()
    return move


@pytest.mark.parametrize("mode", [m for m in TWO_PLAYER_MODES if registered(m)])
def test_two_players_take_turns_and_the_waiting_page_updates_itself(browser, live_server, alice, bob, mode):
    game = services.start_game(alice, mode, {"variant": "standard"}, opponent=bob, seed=3)
    services.accept_invitation(game.pk, bob)
    pages = {}
    contexts = []
    for seat, user in ((0, alice), (1, bob)):
        context, page = logged_in_page(browser, live_server, user)
        contexts.append(context)
        page.goto(f"/games/{game.pk}/")
        pages[seat] = page
    navigations = []
    for page in pages.values():
        page.on("framenavigated", lambda frame: navigations.append(frame.url) if frame.parent_frame is None else None)
    try:
        expect(pages[0].locator("#status .turn")).to_have_text("Your turn.")
        expect(pages[1].locator("#status .turn")).to_contain_text("Waiting for Alice")
        choose = random.Random(3)
        changes = 0
        while changes < TURN_CHANGES:
            game = Game.objects.get(pk=game.pk)
            assert game.status == Game.Status.ACTIVE, game.end_reason
            seat = game.to_act[0]
            page, other = pages[seat], pages[1 - seat]
            play_one_move(page, game, seat, choose)
            # The mover's page shows the move in its log at once (htmx swapped the regions).
            expect(page.locator("#log .log-list li")).to_have_count(game.version + 1)
            game = Game.objects.get(pk=game.pk)
            if game.to_act != [seat]:
                changes += 1
                # The other page was never reloaded: its poll noticed and swapped the regions.
                expect(other.locator("#status .turn")).to_have_text("Your turn.", timeout=15_000)
                expect(other.locator("#log .log-list li")).to_have_count(game.version, timeout=15_000)
                expect(page.locator("#status .turn")).to_contain_text("Waiting for")
        assert Game.objects.get(pk=game.pk).version >= TURN_CHANGES
        assert navigations == []  # every change came by htmx swaps, no page was loaded again
    finally:
        for context in contexts:
            context.close()


def test_know_thyself_plays_in_the_browser_by_picking_a_card_then_its_place(browser, live_server, alice):
    game = services.start_game(alice, "know_thyself", {"variant": "standard"}, seed=11)
    context, page = logged_in_page(browser, live_server, alice)
    try:
        page.goto(f"/games/{game.pk}/")
        choose = random.Random(11)
        for number in range(1, 6):
            game = Game.objects.get(pk=game.pk)
            if game.status != Game.Status.ACTIVE:
                break
            play_one_move(page, game, 0, choose)
            expect(page.locator("#log .log-list li")).to_have_count(number)
        assert Game.objects.get(pk=game.pk).version == number
    finally:
        context.close()


LOG_AT_FOOT = """() => { const list = document.getElementById('log-list');
    return list.scrollHeight - list.scrollTop - list.clientHeight < 4; }"""


def _move_landed(page, game: Game) -> None:
    page.wait_for_function("""(v) => { const f = document.querySelector('form.move-form input[name=version]');
                                      return !f || f.value !== v; }""", arg=str(game.version))


def test_the_log_shows_its_newest_move_unless_the_reader_scrolled_up_to_earlier_ones(browser, live_server, alice):
    from .test_fast_moves import long_solo_game

    game = long_solo_game(alice, 32)
    context, page = logged_in_page(browser, live_server, alice)
    try:
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"/games/{game.pk}/")
        # Ten moves are taller than the log's box: it opens on the newest, at its foot.
        assert page.evaluate("() => { const l = document.getElementById('log-list'); "
                             "return l.scrollHeight > l.clientHeight + 4; }")
        page.wait_for_function(LOG_AT_FOOT)
        # With thirty shown ("Show earlier moves"), far taller than the box, so is it.
        page.goto(f"/games/{game.pk}/?log=30")
        assert page.evaluate("() => { const l = document.getElementById('log-list'); "
                             "return l.scrollHeight > 3 * l.clientHeight; }")
        page.wait_for_function(LOG_AT_FOOT)
        choose = random.Random(5)
        play_one_move(page, game, 0, choose)
        _move_landed(page, game)
        page.wait_for_function(LOG_AT_FOOT)  # the move just made is in sight
        page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
        # Scrolled up to read earlier moves, the reader is not pulled to the foot when a move
        # comes in (the browser's scroll anchoring may shift the list by the entry that left
        # the window's top, far from its foot).
        page.evaluate("() => { document.getElementById('log-list').scrollTop = 0; }")
        game = Game.objects.get(pk=game.pk)
        play_one_move(page, game, 0, choose)
        _move_landed(page, game)
        page.wait_for_timeout(100)  # the answer settled
        assert not page.evaluate(LOG_AT_FOOT)
    finally:
        context.close()


# The regions as the browser holds them, to compare a page kept up to date by htmx answers
# (parts replaced, appended, deleted) with the same page loaded afresh.
REGIONS_IN_PAGE = """() => Object.fromEntries(['status', 'board', 'planes', 'hand', 'log', 'region-hashes']
    .map(id => [id, document.getElementById(id) ? document.getElementById(id).outerHTML : null]))"""


def _comparable(html: str | None) -> str | None:
    if html is None:
        return None
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', 'name="csrfmiddlewaretoken"', html)
    # "now" may have turned into "a minute ago" meanwhile, and the log's digests with it.
    html = re.sub(r"(<time [^>]*>)[^<]*(</time>)", r"\1\2", html)
    html = re.sub(r'(name="seen_log" value=")[^"]*', r"\1", html)
    html = re.sub(r" ?htmx-[\w-]+", "", html).replace(' class=""', "")
    # A region the focus fell back to (its control gone with a swap) was made focusable
    # by site.js, as a fresh page's is not: the page's state, not the server's drawing.
    html = re.sub(r'(<section [^>]*?) tabindex="-1"', r"\1", html)
    return re.sub(r">\s+<", "><", html).strip()


def test_a_page_kept_up_by_answers_in_parts_matches_the_page_loaded_afresh(browser, live_server, alice, bob):
    game = services.start_game(alice, "lovers_discourse", {"variant": ["meditative", "fated", "numerology"]},
                               opponent=bob, seed=112)
    services.accept_invitation(game.pk, bob)
    game = play_random_moves(game, 30, seed=112)  # the log's window is full, the planes hold cards
    context, page = logged_in_page(browser, live_server, alice)
    try:
        page.goto(f"/games/{game.pk}/")
        page.evaluate("""() => { window.oobErrors = [];
            document.body.addEventListener('htmx:oobErrorNoTarget', e => window.oobErrors.push(e.detail.target)); }""")
        fresh = context.new_page()
        choose = random.Random(112)
        for round_ in range(6):
            game = Game.objects.get(pk=game.pk)
            if game.status != Game.Status.ACTIVE:
                break
            if 0 in game.to_act and round_ % 2:
                play_one_move(page, game, 0, choose)  # a move's own answer
            else:
                # Moves made elsewhere (the other player, alice by mail) reach the page as its
                # poll's answer does.
                game = play_random_moves(game, 1 + round_ % 3, seed=round_)
                page.evaluate("document.body.dispatchEvent(new Event('game-changed'))")
            version = Game.objects.get(pk=game.pk).version
            expect(page.locator(f"#log-{version}")).to_have_count(1)
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(300)  # htmx's settling classes are gone
            fresh.goto(f"/games/{game.pk}/")
            kept, loaded = page.evaluate(REGIONS_IN_PAGE), fresh.evaluate(REGIONS_IN_PAGE)
            for region in kept:
                assert _comparable(kept[region]) == _comparable(loaded[region]), (round_, region)
        assert page.evaluate("window.oobErrors") == []
    finally:
        context.close()


def test_a_card_picked_while_the_last_moves_answer_is_on_its_way_is_picked_once_it_lands(browser, live_server, alice):
    """A player quick with the next card clicks it before the last move's answer is in: the
    click counts once that answer has drawn the hand (it used to do nothing, the page
    taking the pick for one of its own refreshes, which wait while a form sends)."""
    from games.models import Seat

    game = services.start_game(alice, "know_thyself", seed=5)
    Seat.objects.filter(game=game, user=alice).update(confirm_moves=False)  # one click is the move
    rules, state = game.rules, game.load_state()
    move = next(m for m in rules.legal_moves(state, 0) if "card" in m)
    after = rules.apply(rules.loads(game.state), 0, move)
    still_pickable = {m["card"] for m in rules.legal_moves(after, 0) if "card" in m} - {move["card"]}
    context, page = logged_in_page(browser, live_server, alice)
    held = []
    try:
        page.goto(f"/games/{game.pk}/")
        page.route(re.compile(rf"/games/{game.pk}/move/"), lambda route: held.append((route, route.fetch())))
        page.locator(f'#hand a.pick[href="?pick={move["card"]}"]').click()
        value = json.dumps(move, sort_keys=True, separators=(",", ":"))
        page.locator("#hand .choices form.move-form").filter(
            has=page.locator(f"input[name=move][value='{value}']")).locator("button").click()
        for _ in range(200):
            if held:
                break
            page.wait_for_timeout(50)  # lets Playwright run the route's handler
        assert held, "the move was not sent"
        code = next(c for c in sorted(still_pickable)
                    if page.locator(f'#hand a.pick[href="?pick={c}"]').count())
        page.locator(f'#hand a.pick[href="?pick={code}"]').click()  # while the move's answer is held
        held[0][0].fulfill(response=held[0][1])
        expect(page.locator(f'#hand a.pick[aria-pressed="true"]:has([data-card="{code}"])')).to_be_attached()
        expect(page.locator("#pick-state")).to_have_value(code)
        expect(page.locator("#hand .choices form.move-form")).not_to_have_count(0)
        assert Game.objects.get(pk=game.pk).version == 1
    finally:
        context.close()
