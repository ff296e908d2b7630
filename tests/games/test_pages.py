"""The game pages through plain HTTP: what is drawn, what can be clicked, what a move does."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from games import services
from games.models import ChatMessage, Game, Note

from .conftest import move_forms, pick_links, play_random_moves, reload, two_player_mode

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def url(name, game, **query):
    path = reverse(f"games:{name}", args=[game.pk])
    return path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def legal(game, seat=0):
    return game.rules.legal_moves(game.load_state(), seat)


def drawing_move(game):
    """A legal move after which the deck is shorter (it ends the turn; the next one draws)."""
    rules = game.rules
    state = game.load_state()
    for move in legal(game):
        if len(rules.zones(rules.apply(state, 0, move))["deck"]) < len(rules.zones(state)["deck"]):
            return move
    pytest.fail("no move draws here")


def post_move(client, game, move, version=None, **extra):
    data = {"version": game.version if version is None else version, "move": json.dumps(move)}
    return client.post(url("move", game), data, **extra)


def test_the_page_draws_the_tree_the_plane_and_the_hand(alice_client, solo_game):
    page = alice_client.get(url("game", solo_game)).content.decode()
    view = solo_game.rules.view(solo_game.load_state(), 0)
    for space in ("crown", "knowledge", "foundation", "sun", "moon", "grace-0"):
        assert f'id="space-{space}"' in page
    assert page.count('class="plane-column') == 3
    for card in view["hand"]:
        assert f'data-card="{card}"' in page
    assert "Your turn." in page


def test_picking_a_card_highlights_exactly_its_legal_targets(alice_client, solo_game):
    page = alice_client.get(url("game", solo_game)).content.decode()
    picks = pick_links(page)
    assert set(picks) == {m["card"] for m in legal(solo_game) if "card" in m}
    for card in picks:
        page = alice_client.get(url("game", solo_game, pick=card)).content.decode()
        offered = move_forms(page)
        expected = [m for m in legal(solo_game) if m.get("card") == card]
        as_text = lambda moves: sorted(json.dumps(m, sort_keys=True) for m in moves)  # noqa: E731
        assert as_text(offered) == as_text(expected * 2)  # each on the board and in the list
        assert page.count("target-button") == len(expected)


def test_a_plain_form_post_plays_the_move_and_redirects(alice_client, solo_game):
    move = legal(solo_game)[0]
    response = post_move(alice_client, solo_game, move)
    assert response.status_code == 302 and response["Location"] == url("game", solo_game)
    game = reload(solo_game)
    assert game.version == 1 and game.moves.get().move == move


def test_an_htmx_move_answers_with_the_changed_regions_only(alice_client, solo_game):
    first = alice_client.get(url("game", solo_game), **HX).content.decode()
    seen = dict(re.findall(r'name="seen_(\w+)" value="([\w.]+)"', first))
    assert set(seen) == {"status", "board", "planes", "hand", "log", "chat", "actions", "poll"}
    unchanged = alice_client.get(url("game", solo_game), {f"seen_{k}": v for k, v in seen.items()}, **HX)
    assert 'hx-swap-oob="true"' in unchanged.content.decode() and "id=\"board\"" not in unchanged.content.decode()
    move = legal(solo_game)[0]
    data = {"version": 0, "move": json.dumps(move), **{f"seen_{k}": v for k, v in seen.items()}}
    answer = alice_client.post(url("move", solo_game), data, **HX).content.decode()
    assert 'id="log"' in answer and 'hx-swap-oob="true"' in answer
    assert 'id="chat"' not in answer  # a solo game's chat region did not change


def test_a_stale_move_gets_409_a_message_and_the_fresh_board(alice_client, solo_game):
    old_move = legal(solo_game)[0]
    post_move(alice_client, solo_game, old_move)
    game = reload(solo_game)
    for extra in ({}, HX):
        response = post_move(alice_client, solo_game, old_move, version=0, **extra)
        assert response.status_code == 409
        page = response.content.decode()
        assert "moved on" in page
        assert 'name="version" value="1"' in page or "?pick=" in page  # built from the fresh state
    assert reload(solo_game).state == game.state and game.moves.count() == 1


def test_an_illegal_move_gets_400_with_the_engines_message_and_changes_nothing(alice_client, solo_game):
    bad = {"type": "play", "card": "M99", "to": "crown"}
    try:
        solo_game.rules.apply(solo_game.load_state(), 0, bad)
    except ValueError as error:
        message = str(error)
    for extra in ({}, HX):
        response = post_move(alice_client, solo_game, bad, **extra)
        assert response.status_code == 400
        assert escape(message) in response.content.decode()
    assert reload(solo_game).version == 0


@pytest.mark.parametrize("data", [
    {}, {"version": "x", "move": "{}"}, {"version": "0", "move": "not json"}, {"version": "0", "move": "[1, 2]"},
    {"version": "0", "move": '{"type": 5}'}, {"version": "0", "move": '{"type": "play", "card": ["M1"]}'},
    {"version": "0", "move": '{"type": "play", "extra": 1}'}, {"version": "-3", "move": "{}"},
])
def test_garbage_gets_a_4xx_never_a_500(alice_client, solo_game, data):
    response = alice_client.post(url("move", solo_game), data)
    assert 400 <= response.status_code < 500
    assert reload(solo_game).version == 0


def test_a_finished_game_refuses_moves_with_409(alice_client, alice):
    game = play_random_moves(services.start_game(alice, "know_thyself", seed=7), 500, seed=7)
    assert game.status == Game.Status.FINISHED
    response = post_move(alice_client, game, {"type": "play", "card": "M1", "to": "crown"})
    assert response.status_code == 409 and "over" in response.content.decode()


def test_confirmation_is_asked_once_before_a_move_that_draws(alice, alice_client):
    game = services.start_game(alice, "know_thyself", seed=11, time_control=1)
    assert game.seats.get().wants_confirmation  # on by default with a clock
    move = drawing_move(game)
    asked = post_move(alice_client, game, move)
    assert asked.status_code == 200 and "cannot be taken back" in asked.content.decode()
    assert reload(game).version == 0
    sent = alice_client.post(url("move", game), {"version": 0, "move": json.dumps(move), "confirmed": "1"})
    assert sent.status_code == 302 and reload(game).version == 1


def test_without_a_clock_moves_go_at_once_unless_the_player_asks(alice_client, solo_game):
    move = drawing_move(solo_game)
    alice_client.post(url("preferences", solo_game), {"confirm_moves": "on"})
    assert "cannot be taken back" in post_move(alice_client, solo_game, move).content.decode()
    alice_client.post(url("preferences", solo_game), {})
    assert post_move(alice_client, solo_game, move).status_code == 302


def test_the_version_endpoint_is_204_until_something_changes(alice_client, bob_client, duel):
    stamp = f"{duel.version}.active.0"
    assert alice_client.get(url("version", duel, v=stamp)).status_code == 204
    bob_client.post(url("chat", duel), {"text": "hello"})
    changed = alice_client.get(url("version", duel, v=stamp))
    assert changed.status_code == 200 and changed["HX-Trigger"] == "game-changed"


def test_the_waiting_seat_is_told_whose_turn_it_is(alice_client, bob_client, duel):
    assert "Your turn" in alice_client.get(url("game", duel)).content.decode()
    page = bob_client.get(url("game", duel)).content.decode()
    assert "Waiting for Alice" in page and "every 3s" in page
    assert move_forms(page) == [] and pick_links(page) == []


def test_chat_is_shared_by_the_two_players(alice_client, bob_client, duel):
    alice_client.post(url("chat", duel), {"text": "Good luck <b>bob</b>"})
    page = bob_client.get(url("game", duel)).content.decode()
    assert "Good luck &lt;b&gt;bob&lt;/b&gt;" in page
    assert alice_client.post(url("chat", duel), {"text": "   "}).status_code == 302
    assert ChatMessage.objects.count() == 1


def test_an_empty_chat_line_sent_by_htmx_is_refused_with_a_message_and_nothing_said(alice_client, duel):
    refused = alice_client.post(url("chat", duel), {"text": "   "}, **HX)
    assert refused.status_code == 400
    assert "Write something first." in refused.content.decode()
    assert ChatMessage.objects.count() == 0

def test_notes_are_private(alice_client, bob_client, duel):
    alice_client.post(url("notes", duel), {"text": "bob hoards cups"})
    assert "bob hoards cups" in alice_client.get(url("game", duel)).content.decode()
    assert "bob hoards cups" not in bob_client.get(url("game", duel)).content.decode()
    assert Note.objects.get().user.username == "alice"
    saved = bob_client.post(url("notes", duel), {"text": "mine"}, **HX)
    assert saved.status_code == 200 and "Saved." in saved.content.decode()


def test_my_games_lists_my_turn_first_then_waiting_then_finished(alice, bob, alice_client, duel):
    finished = play_random_moves(services.start_game(alice, "know_thyself", seed=7), 500, seed=7)
    invited = services.start_game(bob, two_player_mode(), opponent=alice)
    waiting = services.start_game(alice, two_player_mode(), open_challenge=True)
    page = alice_client.get(reverse("games:list")).content.decode()
    spots = [page.index(f'/games/{g.pk}/"') for g in (duel, waiting, finished)]
    assert spots == sorted(spots)
    assert page.index("Invitations for you") < page.index("Your turn")
    assert reverse("games:accept", args=[invited.pk]) in page


def test_the_new_game_page_describes_each_mode_and_variation(alice_client):
    from games.catalogue import VARIANT_TEXT
    from games.engine import RULES

    page = alice_client.get(reverse("games:new")).content.decode()
    for rules in RULES.values():
        assert escape(rules.title) in page
        for variant in rules.variants:
            assert VARIANT_TEXT.get(variant), f"no description for the {variant} variation"


def test_starting_games_from_the_form(alice_client, bob):
    solo = alice_client.post(reverse("games:new"), {"mode": "know_thyself", "variants": ["numerology"],
                                                    "opponent": "solo", "time_control": "7"})
    game = Game.objects.get()
    assert solo["Location"] == url("game", game)
    assert game.options["variant"] == ["numerology"] and game.time_control == 7
    duel = alice_client.post(reverse("games:new"), {"mode": two_player_mode(), "opponent": "user",
                                                    "username": "BOB"})
    assert duel.status_code == 302 and Game.objects.latest("pk").seats.get(index=1).user == bob
    wrong = alice_client.post(reverse("games:new"), {"mode": "know_thyself", "opponent": "user",
                                                     "username": "bob"})
    assert wrong.status_code == 400 and "played alone" in wrong.content.decode()
    nobody = alice_client.post(reverse("games:new"), {"mode": two_player_mode(), "opponent": "user",
                                                      "username": "nobody"})
    assert nobody.status_code == 400 and Game.objects.count() == 2


def test_the_lobby_lists_open_challenges_that_anyone_can_accept(alice, outsider_client):
    game = services.start_game(alice, two_player_mode(), open_challenge=True)
    assert url("accept_challenge", game) in outsider_client.get(reverse("games:lobby")).content.decode()
    assert outsider_client.post(url("accept_challenge", game)).status_code == 302
    assert reload(game).status == Game.Status.ACTIVE
    assert outsider_client.get(url("game", game)).status_code == 200


def test_an_invited_user_sees_the_invitation_not_the_board(alice, bob_client, bob):
    game = services.start_game(alice, two_player_mode(), opponent=bob)
    page = bob_client.get(url("game", game)).content.decode()
    assert "invites you" in page and 'id="board"' not in page
    assert bob_client.post(url("accept", game)).status_code == 302
    assert 'id="board"' in bob_client.get(url("game", game)).content.decode()


def test_history_steps_through_a_finished_game_and_the_record_downloads(alice, alice_client):
    game = play_random_moves(services.start_game(alice, "know_thyself", seed=7), 500, seed=7)
    page = alice_client.get(url("history", game, step=1)).content.decode()
    assert "Move 1 of" in page and escape(game.moves.get(number=1).description) in page
    partial = alice_client.get(url("history", game, step=2), **HX).content.decode()
    assert partial.startswith('\n<div id="replay">') or partial.lstrip().startswith('<div id="replay">')
    record = alice_client.get(url("record", game))
    assert record["Content-Disposition"].startswith("attachment")
    data = record.json()
    assert data["seed"] == game.seed and len(data["moves"]) == game.version
    rules = game.rules
    replayed = rules.replay(data["seed"], data["players"], data["options"],
                            [(m["seat"], m["move"]) for m in data["moves"]])
    assert rules.dumps(replayed) == game.state


def test_the_record_and_history_wait_for_the_end_of_the_game(alice_client, solo_game):
    assert alice_client.get(url("record", solo_game)).status_code == 404
    assert alice_client.get(url("history", solo_game)).status_code == 404


def test_the_rematch_button_starts_a_new_game(alice, alice_client):
    game = play_random_moves(services.start_game(alice, "know_thyself", seed=7), 500, seed=7)
    response = alice_client.post(url("rematch", game))
    new = Game.objects.latest("pk")
    assert new.rematch_of == game and response["Location"] == url("game", new)


@pytest.mark.parametrize("slug", sorted(__import__("games.engine", fromlist=["RULES"]).RULES))
def test_every_legal_move_can_be_clicked_and_nothing_else(slug, alice, bob, alice_client, bob_client):
    """Over random states: the moves offered as forms, directly or after picking a card,
    are exactly the seat's legal moves."""
    import random

    rules = Game(mode=slug).rules
    choose = random.Random(slug)
    clients = {alice.pk: alice_client, bob.pk: bob_client}
    for n in range(6):
        opponent = {"opponent": bob} if rules.min_players == 2 else {}
        game = services.start_game(alice, slug, {"variant": "standard"}, seed=choose.randrange(10**6), **opponent)
        if opponent:
            services.accept_invitation(game.pk, bob)
        game = play_random_moves(game, choose.randrange(0, 40), seed=n)
        if game.status != Game.Status.ACTIVE:
            continue
        for seat in game.seats.all():
            client = clients[seat.user_id]
            page = client.get(url("game", game)).content.decode()
            offered = move_forms(page)
            for card in pick_links(page):
                offered += move_forms(client.get(url("game", game, pick=card)).content.decode())
            as_text = {json.dumps(m, sort_keys=True) for m in offered}
            # Warring Planets' forfeit is the page's one Give up button, not a move form.
            legal_moves = [m for m in game.rules.legal_moves(game.load_state(), seat.index) if m["type"] != "forfeit"]
            assert as_text == {json.dumps(m, sort_keys=True) for m in legal_moves}, (slug, game.version)


def test_the_log_tells_another_players_move_from_the_readers_side(alice, alice_client, bob_client, duel):
    """Moves are described for the mover ("your Material Plane"); the other player reads
    whose plane it was, in the log and in the history."""
    to_plane = next(m for m in legal(duel) if "column" in m)
    post_move(alice_client, duel, to_plane)
    words = reload(duel).moves.get().description
    assert "of your Material Plane" in words
    assert escape(words) in alice_client.get(url("game", duel)).content.decode()
    theirs = escape(words.replace("your Material Plane", "their Material Plane"))
    bobs_page = bob_client.get(url("game", duel)).content.decode()
    assert theirs in bobs_page and "your Material Plane" not in bobs_page
    services.resign(duel.pk, alice)
    history = bob_client.get(url("history", duel, step=1)).content.decode()
    assert theirs in history and "your Material Plane" not in history


def test_raised_cards_are_placed_the_same_way_pick_one_then_a_highlighted_space(alice, alice_client):
    import random

    game = services.start_game(alice, "know_thyself", seed=0)
    choose = random.Random(0)
    while game.load_state()["phase"] != "place":
        assert game.version < 200, "no raise in this seeded game"
        services.submit_move(game.pk, alice, choose.choice(legal(game)), game.version)
        game = reload(game)
    waiting = game.load_state()["waiting"]
    page = alice_client.get(url("game", game)).content.decode()
    assert "Raised cards waiting for a place" in page
    assert set(pick_links(page)) == set(waiting)  # only the raised cards can be picked now
    for card in waiting:
        picked = alice_client.get(url("game", game, pick=card)).content.decode()
        targets = {m["to"] for m in legal(game) if m["card"] == card}
        highlighted = set(re.findall(r'class="space [^"]*\btarget\b[^"]*" id="space-([\w-]+)"', picked))
        assert highlighted == {t.replace(":", "-") for t in targets}
        assert picked.count("target-button") == len(targets)
    move = legal(game)[0]
    assert post_move(alice_client, game, move).status_code == 302
    assert reload(game).moves.last().move == move


def test_a_finished_game_says_who_won_by_name_and_each_list_says_it_from_its_players_side(
        alice, bob, alice_client, bob_client):
    game = services.start_game(alice, "warring_planets", opponent=bob, seed=5)
    services.accept_invitation(game.pk, bob)
    services.resign(game.pk, alice)  # Warring Planets: alice's forfeit, bob wins
    game = reload(game)
    assert game.outcome["winners"] == [1] and "Seat 0" in game.outcome["reason"]  # the engine's words
    assert game.end_reason.startswith("Alice forfeited") and "Seat" not in game.end_reason
    for client in (alice_client, bob_client):
        page = client.get(url("game", game)).content.decode()
        assert "Alice forfeited" in page and "Seat 0" not in page and "Seat 1" not in page
    assert "you lost" in alice_client.get(reverse("games:list")).content.decode()
    assert "you won" in bob_client.get(reverse("games:list")).content.decode()


def test_a_finished_game_names_the_raised_card_it_ended_on_as_left_without_a_place(alice, alice_client,
                                                                                   outsider_client):
    game = play_random_moves(services.start_game(alice, "know_thyself", {"variant": "standard"}, seed=3,
                                                 public=False), 400, seed=3)
    assert game.status == Game.Status.FINISHED and "was raised but fits on no Sefira" in game.end_reason
    page = alice_client.get(game.get_absolute_url()).content.decode()
    assert "Raised cards left without a place when the game ended" in page
    assert "waiting for a place" not in page
    assert outsider_client.get(game.get_absolute_url()).status_code == 404
