"""In real Chromium (issue 42): the badge on a page that is no game's follows the other
player's move and a wizards table's request to act, without a reload; "Next game waiting"
leads on after a move; a game page draws its cards from one sprite, each still named."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from games import services
from games.computer import computer_player
from games.engine.cards import CARDS
from games.models import Game, Seat
from games.wizards import services as wizards

from .conftest import reload
from .mail_helpers import two_player_game
from .test_browser import logged_in_page, play_one_move
from .test_phone_and_boards import mid_game
from .wizards_helpers import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The badge asks every 5 s (base.html): a change shows within one ask and its answer.
WITHIN_A_FEW_SECONDS = 8_000


@pytest.fixture
def carol(make_user):
    return make_user("carol", display_name="Carol")


def first_move(game: Game) -> tuple[dict, int]:
    state = game.load_state()
    seat = game.to_act[0]
    return next(m for m in game.rules.legal_moves(state, seat) if m["type"] != "forfeit"), seat


def test_the_badge_on_the_journal_follows_the_other_players_move_without_a_reload(browser, live_server, alice, bob):
    duel = two_player_game(alice, bob)  # alice is asked first; bob waits
    context, page = logged_in_page(browser, live_server, bob)
    try:
        page.goto("/journal/")
        badge = page.locator("#turn-count")
        expect(badge).to_be_hidden()
        page.evaluate("window.notReloaded = true")
        move, seat = first_move(duel)
        services.submit_move(duel.pk, duel.seats.get(index=seat), move, duel.version)
        expect(badge).to_be_visible(timeout=WITHIN_A_FEW_SECONDS)
        expect(badge).to_have_text(re.compile(r"\b1$"))
        expect(page).to_have_title(re.compile(r"^\(1\) "))
        assert page.evaluate("window.notReloaded === true"), "the page was loaded again"
    finally:
        context.close()


def test_a_wizards_request_to_act_shows_in_the_badge(browser, live_server, alice, bob, carol):
    table = make_table(alice, bob, carol)
    session = wizards.start_session(table, alice, title="The ferry")
    context, page = logged_in_page(browser, live_server, bob)
    try:
        page.goto("/accounts/profile/")
        expect(page.locator("#turn-count")).to_be_hidden()
        wizards.act(session.pk, alice, {"type": "ask", "target": wizards.key_of(bob)}, session.version)
        expect(page.locator("#turn-count")).to_have_text(re.compile(r"\b1$"), timeout=WITHIN_A_FEW_SECONDS)
        expect(page).to_have_title(re.compile(r"^\(1\) "))
    finally:
        context.close()


def test_after_a_move_next_game_waiting_opens_the_other_game(browser, live_server, alice, bob, carol):
    waiting_game = two_player_game(alice, carol, seed=12)
    game = two_player_game(alice, bob)
    Game.objects.filter(pk=waiting_game.pk).update(updated_at=game.updated_at.replace(year=2020))
    context, page = logged_in_page(browser, live_server, alice)
    try:
        page.goto(f"/games/{game.pk}/")
        expect(page.locator("#turn-count")).to_have_text(re.compile(r"\b2$"))
        expect(page.get_by_test_id("next-game")).to_have_count(0)
        play_one_move(page, reload(game), 0, random.Random(3))
        next_game = page.get_by_test_id("next-game")
        expect(next_game).to_have_text("Next game waiting")
        expect(page.locator("#turn-count")).to_have_text(re.compile(r"\b1$"))
        next_game.click()
        expect(page).to_have_url(re.compile(rf"/games/{waiting_game.pk}/$"))
        expect(page.locator("#status .turn")).to_have_text("Your turn.")
    finally:
        context.close()


def test_a_game_page_draws_its_cards_from_one_sprite_each_card_still_named(browser, live_server, alice, bob):
    game = mid_game("warring_planets", alice, bob, moves=35)
    context, page = logged_in_page(browser, live_server, game.seats.get(index=game.to_act[0]).user)
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    try:
        page.goto(f"/games/{game.pk}/")
        page.wait_for_load_state("networkidle")
        cards = page.locator("#game .card")
        assert cards.count() >= 20
        card_files = [url for url in requests if "/static/cards/" in url]
        assert len(card_files) == 1 and "sprite" in card_files[0], card_files
        # The page, its stylesheets and scripts (install.js among them, for the installed
        # site), the icon, the sprite: a handful, whatever the number of cards.
        assert len(requests) <= 10, requests
        # Drawn: the sprite's symbol is there, as large as the card.
        width = page.evaluate("document.querySelector('#hand .card-face use').getBoundingClientRect().width")
        assert width > 30
        # Named: a card to pick is a link named by its card; the picture says nothing twice.
        pick = page.locator("#hand a.pick").first
        code = pick.locator(".card").get_attribute("data-card")
        expect(pick).to_have_accessible_name(re.compile(rf"^{re.escape(CARDS[code].name)}, value \d+$"))
        assert page.locator("#hand .card-face[aria-hidden=true]").count() == page.locator("#hand .card-face").count()
    finally:
        context.close()


def test_the_computers_answer_comes_with_the_fast_poll_that_finds_it(browser, live_server, alice,
                                                                      celery_worker_process, settings):
    # The real worker plays the computer's move (a worker any earlier test started would
    # take it anyway); the page learns of it by its fast poll, which brings the regions.
    # The poll is what finds a searching computer's move, or a quick one's the request did
    # not play (games.computer.answer): here the request plays none.
    settings.COMPUTER_MOVES_IN_REQUEST = False
    game = services.start_game(alice, "warring_planets", {"variant": "standard"},
                               opponent=computer_player("greedy"), seed=9)
    Seat.objects.filter(game=game, user=alice).update(confirm_moves=False)
    context, page = logged_in_page(browser, live_server, alice)
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    try:
        page.goto(f"/games/{game.pk}/")
        choose = random.Random(9)
        while not game.moves.filter(seat=1).exists():
            game = reload(game)
            if game.to_act != [0]:
                break  # the turn passed: the computer is thinking
            asked.clear()
            version = game.version
            play_one_move(page, game, 0, choose)
            expect(page.locator(f'#log .log-list li[value="{version + 1}"]')).to_have_count(1)
        expect(page.locator("#status .turn")).to_have_text("Your turn.", timeout=15_000)
        assert game.moves.filter(seat=1).exists()
        # Every poll while it thought carried the page's digests, and no poll made the page
        # fetch itself again: the answer came in the poll that found it.
        polls = [url for url in asked if "/version/" in url]
        assert all("seen_status=" in url for url in polls), polls
        # (A pick of a card is a GET of the page too, by the player's own last move.)
        assert not [url for url in asked if re.search(rf"/games/{game.pk}/(\?(?!pick=)|$)", url)], asked
    finally:
        context.close()
