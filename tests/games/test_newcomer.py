"""What a newcomer tripped over (issue 13), each point as a spec: cards drawn as cards, a
rules page per game, a new-game form offering each mode its own variations, one way to give
up, results said per player, a greeting that fits, a tidy Finished list, raised cards that
say whose they are, plain-text history arrows and a count of games waiting for you."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from games import services
from games.cardfaces import BACK, SPRITE, card_svg, sprite_svg
from games.engine import RULES
from games.engine.cards import CARDS, MAJORS, ROMAN
from games.models import Game

from .conftest import move_forms, play_random_moves, reload

pytestmark = pytest.mark.django_db

MODES = ("know_thyself", "lovers_discourse", "warring_planets", "dream_odyssey")
CARD_DIR = Path(settings.BASE_DIR) / "static" / "cards"


def game_url(game, name="game"):
    return reverse(f"games:{name}", args=[game.pk])


def finish(game, seed=1):
    game = play_random_moves(game, 3000, seed=seed)
    assert game.status == Game.Status.FINISHED
    return game


# --- cards that look like cards -----------------------------------------------------------

def test_every_card_and_the_back_has_its_own_committed_drawing_as_the_builder_draws_it():
    for code in [*CARDS, BACK]:
        path = CARD_DIR / f"{code}.svg"
        assert path.is_file(), f"static/cards/{code}.svg is missing: run manage.py build_cards"
        assert path.read_text(encoding="utf-8") == card_svg(code), f"{code}.svg is stale: run manage.py build_cards"


def test_the_sprite_holds_every_card_as_a_symbol_as_the_builder_draws_it():
    sprite = (CARD_DIR / SPRITE).read_text(encoding="utf-8")
    assert sprite == sprite_svg(), "static/cards/sprite.svg is stale: run manage.py build_cards"
    symbols = re.findall(r'<symbol id="c-([^"]+)" viewBox="0 0 100 160">', sprite)
    assert symbols == [*CARDS, BACK]
    # What it places by <use> it defines once: every reference is to an id of the sprite.
    ids = set(re.findall(r' id="([^"]+)"', sprite))
    assert set(re.findall(r'<use href="#([^"]+)"', sprite)) <= ids


def test_a_major_is_drawn_with_its_numeral_name_and_seal_symbol_on_a_coloured_face():
    for code in MAJORS:
        card = CARDS[code]
        svg = card_svg(code)
        assert f"<title>{card.name}</title>" in svg
        face = re.search(r'<rect [^>]*fill="(#[0-9a-f]{6})"', svg).group(1)
        assert face != "#ffffff"
        # The symbol: an element's triangle as a polygon, or the planet's or sign's glyph outline.
        assert ("<polygon" in svg) if card.shape else svg.count("<path") > len(ROMAN[card.number]) + 3
    faces = {re.search(r'fill="(#[0-9a-f]{6})"', card_svg(code)).group(1) for code in MAJORS}
    assert len(faces) == len(MAJORS), "each Major has a face colour of its own"


def test_pip_cards_show_as_many_suit_drawings_as_their_number_and_courts_a_figure():
    # Each suit drawing has one mark of its own: a cup's rim and a sword's guard are lines,
    # a pentacle's coin a ring; the two corners carry one drawing each.
    marks = {"c": "<polyline", "s": "<polyline", "p": "<circle"}
    for code, card in CARDS.items():
        if card.arcana != "minor":
            continue
        svg = card_svg(code)
        if card.rank in ("P", "N", "Q", "K"):
            assert "<circle" in svg and svg.count("<path") >= 3  # the figure: head, body, headdress
        elif card.suit in marks:
            assert svg.count(marks[card.suit]) == card.number + 2, code


def test_the_game_page_draws_each_card_as_its_picture(alice_client, solo_game):
    page = alice_client.get(game_url(solo_game)).content.decode()
    for code in solo_game.rules.view(solo_game.load_state(), 0)["hand"]:
        assert re.search(rf'data-card="{re.escape(code)}"[^>]*><svg class="card-face"[^>]*>'
                         rf'<use href="/static/cards/sprite\.svg#c-{re.escape(code)}"/>', page), code


def test_dream_odyssey_draws_face_down_majors_as_card_backs_with_short_words(alice, alice_client):
    game = services.start_game(alice, "dream_odyssey", {"variant": "standard"}, seed=3)
    page = alice_client.get(game_url(game)).content.decode()
    assert 'href="/static/cards/sprite.svg#c-back"' in page
    assert "not yet in reach" not in page and "face-down Major," not in page


# --- how to play ---------------------------------------------------------------------------

def test_every_mode_has_a_rules_page_with_its_diagram_and_only_its_variations(client):
    index = client.get(reverse("games:rules")).content.decode()
    for slug in MODES:
        assert reverse("games:rules_mode", args=[slug]) in index
        page = client.get(reverse("games:rules_mode", args=[slug]))
        assert page.status_code == 200
        text = page.content.decode()
        assert 'class="rules-diagram"' in text and "<line " in text and "<circle " in text
        own = {v for v in RULES[slug].variants if v != "standard"}
        others = {v for r in RULES.values() for v in r.variants} - own - {"standard"}
        for name in own:
            assert f"<dt>{name.capitalize()}</dt>" in text
        for name in others:
            assert f"<dt>{name.capitalize()}</dt>" not in text
    assert client.get(reverse("games:rules_mode", args=["no_such_game"])).status_code == 404


def test_the_new_game_page_and_each_game_page_link_to_how_to_play(alice_client, solo_game, duel):
    new = alice_client.get(reverse("games:new")).content.decode()
    assert reverse("games:rules") in new
    for slug in MODES:
        assert reverse("games:rules_mode", args=[slug]) in new
    for game in (solo_game, duel):
        page = alice_client.get(game_url(game)).content.decode()
        assert f'href="{reverse("games:rules_mode", args=[game.mode])}">How to play</a>' in page


# --- the new-game form ---------------------------------------------------------------------

def test_the_new_game_form_offers_each_mode_only_its_own_variations(alice_client):
    page = alice_client.get(reverse("games:new")).content.decode()
    for slug, rules in RULES.items():
        offered = set(re.findall(rf'name="variants-{slug}" value="([^"]+)"', page))
        assert offered == {v for v in rules.variants if v != "standard"}, slug


def test_a_variation_ticked_under_another_mode_changes_nothing(alice_client):
    response = alice_client.post(reverse("games:new"), {
        "mode": "know_thyself", "opponent": "solo", "variants-know_thyself": "fated",
        "variants-warring_planets": "noble"})
    assert response.status_code == 302
    assert Game.objects.get().options["variant"] == ["fated"]


def test_a_variation_the_mode_lacks_is_refused_with_a_clear_message(alice_client):
    response = alice_client.post(reverse("games:new"), {"mode": "know_thyself", "opponent": "solo", "variants": "noble"})
    assert response.status_code == 400
    assert "Know Thyself has no noble variation." in response.content.decode()
    assert not Game.objects.exists()


# --- confusing points ----------------------------------------------------------------------

def test_warring_planets_offers_one_give_up_and_no_forfeit_move(alice, bob, alice_client, bob_client):
    game = services.start_game(alice, "warring_planets", {"variant": "standard"}, opponent=bob, seed=5)
    services.accept_invitation(game.pk, bob)
    for client in (alice_client, bob_client):
        page = client.get(game_url(game)).content.decode()
        assert {"type": "forfeit"} not in move_forms(page)
        assert page.count(">Give up</button>") == 1 and "Forfeit" not in page


def test_a_finished_lovers_discourse_page_says_won_or_lost(alice, bob, alice_client, bob_client):
    game = services.start_game(alice, "lovers_discourse", {"variant": "standard"}, opponent=bob, seed=2)
    services.accept_invitation(game.pk, bob)
    game = finish(game)
    said = "won together" if game.outcome.get("winners") else "lost together"
    for client, partner in ((alice_client, "Bob"), (bob_client, "Alice")):
        page = client.get(game_url(game)).content.decode()
        assert f'<strong class="result">You and {partner} {said}.</strong>' in page


def test_a_finished_know_thyself_page_gives_its_score_once_and_the_result(alice, alice_client):
    game = finish(services.start_game(alice, "know_thyself", {"variant": "standard"}, seed=7), seed=7)
    page = alice_client.get(game_url(game)).content.decode()
    assert page.count("<dt>Score</dt>") == 1 and "Scores:" not in page
    assert re.search(r'<strong class="result">You (won|lost)\.</strong>', page)


def test_a_new_user_is_welcomed_and_only_a_returning_one_welcomed_back(alice, alice_client):
    assert "Welcome back" not in alice_client.get("/").content.decode()
    assert "Welcome, alice" in alice_client.get("/").content.decode().replace("Alice", "alice")
    services.start_game(alice, "know_thyself", {"variant": "standard"}, seed=1)
    assert "Welcome back" in alice_client.get("/").content.decode()


def test_cancelled_and_declined_games_stay_out_of_finished(alice, bob, alice_client):
    cancelled = services.start_game(alice, "warring_planets", {"variant": "standard"}, opponent=bob, seed=1)
    alice_client.post(game_url(cancelled, "cancel"))
    declined = services.start_game(alice, "warring_planets", {"variant": "standard"}, opponent=bob, seed=2)
    services.decline_invitation(declined.pk, bob)
    finished = finish(services.start_game(alice, "know_thyself", {"variant": "standard"}, seed=7), seed=7)
    assert {reload(cancelled).status, reload(declined).status} == {Game.Status.CANCELLED, Game.Status.DECLINED}
    page = alice_client.get(reverse("games:list")).content.decode()
    listed = page.split("<h2>Finished</h2>", 1)[1]
    assert game_url(finished) in listed
    assert game_url(cancelled) not in listed and game_url(declined) not in listed


def test_raised_cards_waiting_on_the_other_players_page_say_whose_they_are(alice, bob, alice_client, bob_client):
    clients = {0: alice_client, 1: bob_client}
    for seed in range(40):
        game = services.start_game(alice, "warring_planets", {"variant": "standard"}, opponent=bob, seed=seed)
        services.accept_invitation(game.pk, bob)
        choose = random.Random(seed)
        for _ in range(80):
            game = reload(game)
            if game.status != Game.Status.ACTIVE:
                break
            state, mover = game.load_state(), game.to_act[0]
            if game.rules.view(state, 1 - mover).get("waiting"):
                page = clients[1 - mover].get(game_url(game)).content.decode()
                owner = game.seats.get(index=mover).player_name
                assert f"{owner}&#x27;s raised cards, waiting for a place" in page
                mine = clients[mover].get(game_url(game)).content.decode()
                assert "Raised cards waiting for a place" in mine
                return
            moves = [m for m in game.rules.legal_moves(state, mover) if m["type"] != "forfeit"]
            services.submit_move(game.pk, game.seats.get(index=mover), choose.choice(moves), game.version)
    pytest.fail("no game had raised cards waiting")


def test_the_history_steps_with_plain_text_arrows_marked_for_the_keys(alice, alice_client):
    game = finish(services.start_game(alice, "know_thyself", {"variant": "standard"}, seed=7), seed=7)
    page = alice_client.get(game_url(game, "history") + "?step=1").content.decode()
    assert "⏮" not in page and "⏭" not in page and "◀" not in page and "▶" not in page
    for key in ("Home", "ArrowLeft", "ArrowRight", "End"):
        assert f'data-key="{key}"' in page


# --- your turn, counted --------------------------------------------------------------------

def test_the_title_and_navigation_count_the_games_waiting_for_you(alice, bob, alice_client, bob_client):
    solo = services.start_game(alice, "know_thyself", {"variant": "standard"}, seed=1)
    duel = services.start_game(alice, "warring_planets", {"variant": "standard"}, opponent=bob, seed=5)
    services.accept_invitation(duel.pk, bob)
    duel = reload(duel)
    waiting_for_alice = 1 + (0 in duel.to_act)
    page = alice_client.get(reverse("games:list")).content.decode()
    assert f"<title>({waiting_for_alice}) My games" in page
    assert re.search(rf'id="turn-count"[^>]*>.*?{waiting_for_alice}</span>', page)
    bob_waits = 1 in duel.to_act
    bob_page = bob_client.get(reverse("games:list")).content.decode()
    assert ("<title>(1) My games" in bob_page) == bob_waits
    # The game page's poll brings the count along, even when its own game did not change.
    stamp = f"{solo.version}.active.0"
    polled = alice_client.get(reverse("games:version", args=[solo.pk]), {"v": stamp})
    assert polled.status_code == 204
    assert json.loads(polled["HX-Trigger"]) == {"turn-count": {"value": waiting_for_alice}}
