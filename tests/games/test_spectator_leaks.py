"""A spectator is never sent a card the view of no seat does not show (issue 41, item 4):
over seeded games of every registered game (every system and edition; Tarot Hallow at a
table of four, with cards lying face down while a round is answered), at several points
of play and once it is over, what a visitor without a seat is sent (the page, every
region an htmx request or the poll can ask for, the log widened, the poll itself, a card
asked to be picked, and every step of the history) names no card, by code or by name,
that ``view(state, None)`` does not show; and it holds no hand, no move, no hint.

The tarot wizards table is not watchable (its pages answer 404 to whoever is not at the
table: tests/games/test_watching.py), so it has nothing to check here."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.engine import RULES
from games.models import Game
from games.presenters import visible_cards

from .conftest import move_forms, reload
from .hallow_helpers import cast, full_table
from .test_leaks import leaks

pytestmark = pytest.mark.django_db

HALLOW_SEATS = 4


def every_card(rules, state) -> set[str]:
    return {card for cards in rules.zones(state).values() for card in cards}


def hidden_from_spectators(rules, state) -> set[str]:
    return every_card(rules, state) - visible_cards(rules.view(state, None))


def lying_face_down(slug: str, state) -> set[str]:
    """Tarot Hallow's cards played face down and not yet revealed."""
    round_ = state["round"] if slug == "tarot_hallow" else None
    if not round_:
        return set()
    return {card for card in round_["face_down"] if card}


def spectator_sent(client, game, forbidden: set[str]) -> dict[str, str]:
    """Everything the site sends a spectator about a game: the page, the regions an htmx
    request that has seen nothing gets (all of them), the log widened, the poll (stale,
    and with the page's digests: the fast poll that brings regions), a card asked for by
    a pick link made up (a spectator's page has none)."""
    url = reverse("games:game", args=[game.pk])
    poll = reverse("games:version", args=[game.pk])
    sent = {"page": client.get(url)}
    sent["regions"] = client.get(url, HTTP_HX_REQUEST="true")
    sent["log widened"] = client.get(url, {"log": 1000}, HTTP_HX_REQUEST="true")
    sent["poll"] = client.get(poll, {"v": "stale"}, HTTP_HX_REQUEST="true")
    sent["fast poll"] = client.get(poll, {"v": "stale", "seen_status": "x", "seen_board": "x.y"},
                                   HTTP_HX_REQUEST="true")
    for card in sorted(forbidden)[:2]:
        sent[f"pick {card}"] = client.get(url, {"pick": card})
    texts = {}
    for name, response in sent.items():
        assert response.status_code in (200, 204), (name, response.status_code)
        texts[name] = response.content.decode() + repr(dict(response.headers))
    return texts


def assert_nothing_hidden(texts: dict[str, str], forbidden: set[str], face_down: set[str], where: str):
    for name, text in texts.items():
        assert leaks(text, forbidden) == [], f"{where}: {name}"
        assert move_forms(text) == [], f"{where}: {name} offers a move"
        assert "Your hand" not in text and "hint-form" not in text and 'name="text"' not in text, f"{where}: {name}"
        for log in re.findall(r'<ol class="log-list"[^>]*>.*?</ol>', text, re.S):
            assert leaks(log, face_down) == [], f"{where}: {name}'s log names a card lying face down"


def history_steps(total: int) -> list[int]:
    return sorted({0, 1, total // 3, total // 2, total - 1, total} & set(range(total + 1)))


def assert_history_hides_what_no_seat_saw(client, game, where: str) -> int:
    """Each step of the history shows the board as no seat saw it then, and the moves'
    words as the game's end shows them: no card that neither view shows."""
    rules = game.rules
    records = list(game.moves.all())
    final = rules.view(game.load_state(), None)
    seen_at_end = visible_cards(final)
    url = reverse("games:history", args=[game.pk])
    for step in history_steps(len(records)):
        state = rules.replay(game.seed, game.players, game.options, [(m.seat, m.move) for m in records[:step]])
        forbidden = every_card(rules, state) - visible_cards(rules.view(state, None)) - seen_at_end
        for htmx in (False, True):
            response = client.get(url, {"step": step}, **({"HTTP_HX_REQUEST": "true"} if htmx else {}))
            assert response.status_code == 200
            text = response.content.decode()
            assert leaks(text, forbidden) == [], f"{where}: history step {step}"
            assert "record.json" not in text
    return len(records)


def play(game, count: int, choose: random.Random) -> Game:
    """``count`` seeded random moves (the game's own end not excluded), by seats drawn
    among those asked, through the services as the pages and the mail do."""
    for _ in range(count):
        game = reload(game)
        if game.status != Game.Status.ACTIVE:
            break
        index = choose.choice(game.to_act)
        legal = [m for m in game.rules.legal_moves(game.load_state(), index) if m["type"] not in ("forfeit", "resign")]
        services.submit_move(game.pk, game.seats.get(index=index), choose.choice(legal), game.version)
    return reload(game)


def a_game(slug: str, seed: int, users) -> Game:
    rules = RULES[slug]
    alice, bob = users[:2]
    if slug == "tarot_hallow":
        return full_table(users[:HALLOW_SEATS], seed=seed)
    if rules.min_players == 1:
        return services.start_game(alice, slug, {}, seed=seed)
    game = services.start_game(alice, slug, {}, opponent=bob, seed=seed)
    services.accept_invitation(game.pk, bob)
    return reload(game)


@pytest.mark.parametrize("slug", sorted(RULES))
def test_a_spectator_is_sent_no_card_the_view_of_no_seat_does_not_show(slug, make_user, alice, bob, outsider):
    users = cast(make_user, alice, bob, HALLOW_SEATS)
    spectators = {"not logged in": Client(), "the outsider": Client()}
    spectators["the outsider"].force_login(outsider)
    choose = random.Random(slug)
    checked, face_down_met, history_moves = 0, False, 0
    for number in range(2):
        game = a_game(slug, choose.randrange(10**6), users)
        rules = game.rules
        # A few moves in, then further, then (the second game) on to its end.
        for stage, moves in enumerate((0, choose.randrange(3, 12), choose.randrange(10, 40), 3000 * number)):
            game = play(game, moves, choose)
            state = game.load_state()
            forbidden = hidden_from_spectators(rules, state)
            face_down = lying_face_down(slug, state)
            face_down_met |= bool(face_down)
            assert not face_down & visible_cards({k: v for k, v in rules.view(state, None).items()
                                                  if k not in ("log", "story")})
            for who, client in spectators.items():
                where = f"{slug} game {number} at move {game.version} ({game.status}), {who}"
                assert_nothing_hidden(spectator_sent(client, game, forbidden), forbidden, face_down, where)
                checked += 1
            if game.status != Game.Status.ACTIVE:
                break
        if game.status == Game.Status.ACTIVE:
            game = services.abandon_game(game.pk, "Stopped for the test.")
        history_moves += assert_history_hides_what_no_seat_saw(spectators["not logged in"], reload(game),
                                                               f"{slug} game {number}")
    assert checked >= 6 and history_moves > 0
    if slug == "tarot_hallow":
        assert face_down_met  # the check met cards lying face down, not only fresh rounds


def test_the_leak_check_reads_a_card_in_a_spectators_page():
    # The criterion itself: a card's code as the page writes it, or its name, is found.
    assert leaks('<span data-card="Qc">Queen of Cups</span>', {"Qc"}) == ["Qc (Queen of Cups)"]
