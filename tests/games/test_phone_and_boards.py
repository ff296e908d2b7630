"""The pages on a 390 px phone and on a desktop, in real Chromium: nothing wider than the
screen, the Tree's branch lines ending at the spheres' centres, and a screenshot of each
board mid-game at both widths in test-results/screenshots/ (named in the README) to look at."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from games import services
from games.models import Game

from .conftest import registered

pytestmark = [pytest.mark.browser, pytest.mark.looks, pytest.mark.django_db(transaction=True)]

SHOTS = Path(settings.BASE_DIR) / "test-results" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
MODES = [m for m in ("know_thyself", "lovers_discourse", "warring_planets", "dream_odyssey", "hermits_arcana",
                    "know_thyself_2021", "lovers_discourse_2021", "warring_planets_2021") if registered(m)]
TWO_PLAYERS = {"lovers_discourse", "warring_planets", "lovers_discourse_2021", "warring_planets_2021"}
TREE_MODES = [m for m in ("know_thyself", "dream_odyssey") if registered(m)]


def mid_game(mode: str, alice, bob, moves: int = 10) -> Game:
    """A game of ``mode`` a few turns in, played with seeded random moves (never a forfeit)."""
    game = services.start_game(alice, mode, {"variant": "standard"}, opponent=bob if mode in TWO_PLAYERS else None,
                               seed=4)
    if mode in TWO_PLAYERS:
        services.accept_invitation(game.pk, bob)
    choose = random.Random(4)
    for _ in range(moves):
        game = Game.objects.get(pk=game.pk)
        rules = game.rules
        state = rules.loads(game.state)
        seat_index = choose.choice(game.to_act)
        legal = [m for m in rules.legal_moves(state, seat_index) if m["type"] not in ("forfeit", "resign")]
        # Stop before the game would end: a board mid-game is what is looked at.
        safe = [m for m in legal if rules.outcome(rules.apply(state, seat_index, m)) is None]
        if not safe:
            break
        services.submit_move(game.pk, game.seats.get(index=seat_index), choose.choice(safe), game.version)
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.ACTIVE
    return game


def page_for(browser, live_server, user, viewport):
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=live_server.url, viewport=viewport)
    context.set_default_timeout(20_000)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    return context, context.new_page()


def overflow(page) -> int:
    """How many CSS pixels the page is wider than the window (0 when it fits)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


# Board spaces whose name runs out of the space's box, or is broken inside a word without
# a hyphen ("Understand / ing"): each line of a name ends at a space, a hyphen or its end.
NAMES_THAT_DO_NOT_FIT = r"""() => [...document.querySelectorAll('#board .space-name')].filter(name => {
  const box = name.closest('.space').getBoundingClientRect();
  const r = name.getBoundingClientRect();
  if (r.left < box.left - 0.5 || r.right > box.right + 0.5) return true;
  const text = name.firstChild;
  if (!text || text.nodeType !== Node.TEXT_NODE) return false;
  const range = document.createRange();
  let lastTop = null;
  for (let i = 0; i < text.length; i++) {
    range.setStart(text, i); range.setEnd(text, i + 1);
    // The last of a character's boxes: after a soft hyphen's break the first character's
    // range also holds the hyphen drawn at the end of the line before.
    const rects = range.getClientRects();
    if (!rects.length) continue;
    const top = rects[rects.length - 1].top;
    if (lastTop !== null && top > lastTop + 1 && !/[\s\u00ad-]/.test(text.data[i - 1]) && !/[\s\u00ad]/.test(text.data[i])) return true;
    lastTop = top;
  }
  return false;
}).map(name => name.textContent)"""


@pytest.mark.parametrize("mode", MODES)
def test_a_game_in_progress_fits_a_phone_and_is_photographed_at_both_widths(browser, live_server, alice, bob, mode):
    game = mid_game(mode, alice, bob)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        context, page = page_for(browser, live_server, alice, viewport)
        try:
            page.goto(f"/games/{game.pk}/")
            page.wait_for_load_state("networkidle")
            page.screenshot(path=str(SHOTS / f"{mode}-{viewport['width']}.png"), full_page=True)
            if name == "phone":
                assert overflow(page) <= 0, f"{mode} is {overflow(page)} px wider than a phone"
                assert (bad := page.evaluate(NAMES_THAT_DO_NOT_FIT)) == [], f"{mode}: names broken or sticking out: {bad}"
        finally:
            context.close()


def test_the_new_game_page_the_journal_and_the_seal_form_fit_a_phone(browser, live_server, alice):
    from journal import services as journal

    entry = journal.record_drawn(alice, spread="three", reversals=True, title="Morning draw", tags=["morning"])
    context, page = page_for(browser, live_server, alice, PHONE)
    try:
        for path in ("/games/new/", "/journal/", f"/journal/{entry.pk}/", f"/journal/{entry.pk}/seals/new/", "/games/rules/", "/games/rules/warring_planets/",
                     "/games/rules/know_thyself/", "/games/rules/lovers_discourse/"):
            page.goto(path)
            assert page.locator("h1").count(), path
            SHOTS.mkdir(parents=True, exist_ok=True)
            name = path.strip("/").replace("/", "-").replace(str(entry.pk), "entry")
            page.screenshot(path=str(SHOTS / f"page-{name}-390.png"), full_page=True)
            assert overflow(page) <= 0, f"{path} is {overflow(page)} px wider than a phone"
    finally:
        context.close()


# Each line's two ends, and every space's centre, in page pixels.
ENDS_AND_CENTRES = """() => {
  const svg = document.querySelector('#board .branches');
  const box = svg.getBoundingClientRect();
  const [, , vw, vh] = svg.getAttribute('viewBox').split(' ').map(Number);
  const ends = [];
  for (const line of svg.querySelectorAll('line')) {
    for (const [x, y] of [['x1', 'y1'], ['x2', 'y2']]) {
      ends.push([box.left + line.getAttribute(x) / vw * box.width, box.top + line.getAttribute(y) / vh * box.height]);
    }
  }
  const centres = [...document.querySelectorAll('#board .space')].map(el => {
    const r = el.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2];
  });
  return {ends, centres};
}"""


@pytest.mark.parametrize("mode", TREE_MODES)
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_trees_branch_lines_end_at_the_spheres_centres(browser, live_server, alice, bob, mode, viewport):
    game = mid_game(mode, alice, bob)
    context, page = page_for(browser, live_server, alice, viewport)
    try:
        page.goto(f"/games/{game.pk}/")
        found = page.evaluate(ENDS_AND_CENTRES)
    finally:
        context.close()
    assert found["ends"]
    for x, y in found["ends"]:
        nearest = min(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 for cx, cy in found["centres"])
        assert nearest <= 3, f"a branch ends {nearest:.1f} px from the nearest sphere's centre at {x:.0f},{y:.0f}"
