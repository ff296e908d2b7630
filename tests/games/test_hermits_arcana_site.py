"""Hermit's Arcana on the site: a seeded game played to its end by clicking in Chromium
(select table cards, then a Sigil's button; heap cards to return; the Shift), the board
on a 390 px phone, a move played by replying to the turn mail, the finished game's
reading in the journal, and an outsider who gets nothing."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from games import services
from games.mail.inbound import handle_message
from games.mail.outgoing import turn_mail
from games.models import Game
from games.engine import cards as deck
from journal.models import Entry
from journal.services import default_seal_input

from .conftest import move_forms, play_random_moves, reload
from .mail_helpers import reply

SLUG = "hermits_arcana"
SHOTS = Path(settings.BASE_DIR) / "test-results" / "screenshots"
PHONE = {"width": 390, "height": 844}


def start(user, seed=5) -> Game:
    return Game.objects.get(pk=services.start_game(user, SLUG, {"variant": "standard"}, seed=seed).pk)


def policy(choose: random.Random, moves: list[dict]) -> dict:
    """A player who exalts whenever they can, returns and shifts as asked, and otherwise
    mostly grounds a row (so the game ends in a few dozen moves), sometimes devotes or
    banishes."""
    by_type = {}
    for move in moves:
        by_type.setdefault(move["type"], []).append(move)
    for kind in ("exalt", "fool", "return", "search", "keep"):
        if kind in by_type:
            return choose.choice(by_type[kind])
    if "shift" in by_type and choose.random() < 0.3:
        return choose.choice(by_type["shift"])
    if "rest" in by_type:
        return by_type["rest"][0]
    roll = choose.random()
    if roll < 0.15 and "devote" in by_type:
        return choose.choice(by_type["devote"])
    if roll < 0.25 and "banish" in by_type:
        return choose.choice(by_type["banish"])
    return choose.choice(by_type.get("ground") or moves)


# --- in Chromium -----------------------------------------------------------------------------


def logged_in(browser, live_server, user, viewport):
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=live_server.url, viewport=viewport)
    context.set_default_timeout(20_000)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    return context, context.new_page()


def click_move(page, move: dict) -> None:
    """As a person: select the move's table cards (each a toggle on the board), then press
    the button that carries the move (on the Sigil, the empty spot, the heap card...)."""
    value = json.dumps(move, sort_keys=True, separators=(",", ":"))
    selected = move.get("cards") or ([move["card"]] if move["type"] in ("devote", "banish", "shift") else [])
    for code in selected:
        link = page.locator(f'#board .ha-spot a.pick:has([data-card="{code}"])')
        link.click()
        expect(page.locator(f'#board .ha-spot a.pick[aria-pressed="true"]:has([data-card="{code}"])')).to_have_count(1)
    button = page.locator("form.move-form").filter(has=page.locator(f"input[name=move][value='{value}']"))
    expect(button).to_have_count(1)
    button.locator("button").click()
    if page.locator(".confirm").count():
        page.locator(".confirm button").click()


@pytest.mark.long(65)
@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_seeded_game_is_played_to_its_end_by_clicking_on_a_phone(browser, live_server, alice):
    game = start(alice, seed=5)
    context, page = logged_in(browser, live_server, alice, PHONE)
    choose = random.Random(5)
    kinds = set()
    try:
        page.goto(f"/games/{game.pk}/")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{SLUG}-390.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        for _ in range(400):
            game = reload(game)
            if game.status != Game.Status.ACTIVE:
                break
            state = game.load_state()
            move = policy(choose, game.rules.legal_moves(state, 0))
            kinds.add(move["type"])
            click_move(page, move)
            # The log shows a window of the newest moves: the click's move is its last line.
            expect(page.locator("#log .log-list li").last).to_have_attribute("value", str(game.version + 1))
            if len(kinds) == 4 and "exalt" in kinds:
                page.screenshot(path=str(SHOTS / f"{SLUG}-390-mid.png"), full_page=True)
        game = reload(game)
        assert game.is_over, "the game did not end in 400 clicks"
        expect(page.locator("#status .outcome")).to_be_visible()
        assert {"exalt", "ground", "rest", "return", "shift", "devote", "banish"} <= kinds, kinds
        entry = Entry.objects.get(owner=alice, source_game=game)
        for path in (f"/journal/{entry.pk}/", f"/games/rules/{SLUG}/", "/games/new/"):
            page.goto(path)
            expect(page.locator("h1")).to_be_visible()
            assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0, path
        page.screenshot(path=str(SHOTS / f"page-games-rules-{SLUG}-390.png"), full_page=True)
    finally:
        context.close()


# --- the page without a browser ------------------------------------------------------------


@pytest.mark.django_db
def test_every_exalt_shows_at_its_sigil_once_one_of_its_cards_is_selected(alice, alice_client):
    rules = start(alice).rules
    for seed in range(40):
        game = play_random_moves(start(alice, seed=seed), seed % 7, seed=seed)
        state = game.load_state()
        exalts = [m for m in rules.legal_moves(state, 0) if m["type"] == "exalt"] if game.to_act else []
        for move in exalts:
            url = reverse("games:game", args=[game.pk])
            whole = move_forms(alice_client.get(url, {"pick": ".".join(move["cards"])}).content.decode())
            one = move_forms(alice_client.get(url, {"pick": move["cards"][0]}).content.decode())
            assert move in whole and move in one
        if exalts:
            return
    pytest.fail("no seed of 40 offered an exalt")


@pytest.mark.django_db
def test_every_legal_move_is_a_button_once_its_cards_are_selected_and_no_other_move_is(alice, alice_client):
    """Over states of every phase: select the move's table cards (none for Ground, the
    Fool, a return, a keep, no shift) and its button is on the page; every button there is
    a legal move."""
    phases = set()
    for seed in range(12):
        game = play_random_moves(start(alice, seed=seed), 3 * seed + 1, seed=seed)
        if not game.to_act:
            continue
        state = game.load_state()
        phases.add(state["phase"])
        legal = game.rules.legal_moves(state, 0)
        wanted: dict[str, list[dict]] = {}
        for move in legal:
            cards = move.get("cards") or ([move["card"]] if move["type"] in ("devote", "banish", "shift") else [])
            wanted.setdefault(".".join(cards) or "none", []).append(move)
        url = reverse("games:game", args=[game.pk])
        for pick, moves in wanted.items():
            offered = move_forms(alice_client.get(url, {"pick": pick}).content.decode())
            assert all(m in offered for m in moves), (seed, pick)
            assert all(m in legal for m in offered), (seed, pick)
    assert {"maneuver", "shift"} <= phases


@pytest.mark.django_db
def test_reversed_cards_are_drawn_upside_down_and_each_sigil_shows_its_ritual(alice, alice_client):
    game = start(alice)
    view = game.rules.view(game.load_state(), 0)
    page = alice_client.get(reverse("games:game", args=[game.pk])).content.decode()
    for sigil in view["altar"]:
        assert f">{sigil['short']}</summary>" in page.replace("&#x27;", "'")
    upside_down = sum(1 for t in view["table"] if t and t["reversed"]) + sum(1 for s in view["altar"] if s["reversed"])
    assert page.count('class="ha-card reversed"') >= upside_down > 0


@pytest.mark.django_db
def test_an_outsider_gets_nothing_of_a_hermits_arcana_game(alice, outsider_client):
    game = start(alice)
    Game.objects.filter(pk=game.pk).update(public=False)  # a public game they could watch
    move = game.rules.legal_moves(game.load_state(), 0)[0]
    for name in ("game", "version", "history", "record"):
        assert outsider_client.get(reverse(f"games:{name}", args=[game.pk])).status_code == 404
    response = outsider_client.post(reverse("games:move", args=[game.pk]),
                                    {"version": game.version, "move": json.dumps(move)})
    assert response.status_code == 404 and reload(game).version == 0
    assert "Hermit" not in outsider_client.get(reverse("games:list")).content.decode()


# --- by mail -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_move_is_played_by_replying_to_the_turn_mail_with_its_number(smtp_server, alice):
    game = start(alice)
    seat = game.seats.select_related("user", "game").get(index=0)
    mail = turn_mail(seat)
    state = game.load_state()
    moves = game.rules.legal_moves(state, 0)
    assert "The altar, left to right:" in mail.body and "The table:" in mail.body
    ground = next(n for n, m in enumerate(moves, 1) if m["type"] == "ground")
    assert f"{ground}. Ground the top row\n" in mail.body
    outcome = handle_message(reply(mail.reply_to[0], str(ground), sender="alice@example.com").as_bytes())
    assert outcome.status == "played", outcome
    game = reload(game)
    assert game.version == 1 and game.moves.get().move == moves[ground - 1]
    assert game.load_state()["phase"] == "shift"


# --- the journal ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_finished_games_reading_is_in_the_journal_with_orientations_and_keywords(alice, alice_client):
    game = play_random_moves(start(alice, seed=9), 2000, seed=9)
    assert game.is_over
    entry = Entry.objects.get(owner=alice, source_game=game)
    reading = game.rules.reading(game.load_state())
    positions = [p for s in entry.reading["sections"] for p in s["positions"]]
    assert [p["card"] for p in positions] == [p["card"] for p in reading["positions"]]
    assert [p["reversed"] for p in positions] == [p["reversed"] for p in reading["positions"]]
    page = alice_client.get(reverse("journal:detail", args=[entry.pk])).content.decode()
    assert "The present rites" in page
    for pos in reading["positions"]:
        assert pos["keyword"] in page
        if pos["reversed"]:
            assert pos["reads"] in page
    # A seal from it starts with the reading's cards (a seal holds five at most).
    cards, words = default_seal_input(entry)
    assert cards == list(dict.fromkeys(p["card"] for p in reading["positions"]))[:5]
    assert words == [deck.keyword(c) for c in cards]
    seal_page = alice_client.get(reverse("journal:seal_new", args=[entry.pk])).content.decode()
    assert all(f'name="use_{c}"' in seal_page for c in cards)
