"""The protocol between the game page and the server (``games.page_regions``), held by
calling the module itself: the page holds a digest of each region, made from what it is
drawn from; an answer draws and sends only the regions, and of a region in parts only
the parts, whose digest differs from the one the page sent back; the log shows a window
of the newest moves that moves on with the game.  The pages' own specs (test_fast_moves,
test_game_parts, test_golden_renders) hold the same through the client and the HTML."""

from __future__ import annotations

import dataclasses
import hashlib
import re
from datetime import timedelta

import pytest
from django.test import RequestFactory
from django.utils import timezone

from games import page_regions, services
from games.models import ChatMessage, Game, Move
from games.page_regions import LOG_WINDOW, REGIONS

from .conftest import play_random_moves, reload

pytestmark = pytest.mark.django_db

SEEN = re.compile(r'id="seen-(\w+)" name="seen_\w+" value="([\w.]+)"')


def page_of(user, game, **sent):
    """The request of ``user``'s page of ``game`` sending ``sent`` (its digests, its log's
    window), and the context the page and its regions are drawn from, as the views make it."""
    request = RequestFactory().get("/", sent)
    request.user = user
    game = services.game_with_seats(game.pk)
    seat = next(s for s in game.seats.all() if s.user_id == user.pk)
    return request, page_regions.game_context(request, game, seat)


def held(digests: dict[str, str]) -> dict[str, str]:
    """The digests as the page sends them back."""
    return {f"seen_{region}": digest for region, digest in digests.items()}


def first_legal(game, seat=0):
    return game.rules.legal_moves(game.load_state(), seat)[0]


def a_solo_game_moves_in(alice, moves: int):
    for seed in range(40):
        game = play_random_moves(services.start_game(alice, "know_thyself", {}, seed=seed), moves, seed=seed)
        if game.status == Game.Status.ACTIVE and game.version >= moves:
            return game
    pytest.fail("no seed gives a game that long")


def test_it_digests_the_same_game_alike_for_the_same_reader(alice):
    game = services.start_game(alice, "know_thyself", {}, seed=3)
    first = page_regions.region_digests(page_of(alice, game)[1])
    again = page_regions.region_digests(page_of(alice, game)[1])
    assert set(first) == set(REGIONS)
    assert first == again
    # A region's digest is 16 hex digits; a region in parts adds a short token per part.
    assert all(re.fullmatch(r"[0-9a-f]{16}(\.[\w]+)*", digest) for digest in first.values())


def test_it_digests_each_readers_page_apart(alice, bob):
    duel = services.start_game(alice, "lovers_discourse", {}, opponent=bob, seed=3)
    services.accept_invitation(duel.pk, bob)
    alices = page_regions.region_digests(page_of(alice, duel)[1])
    bobs = page_regions.region_digests(page_of(bob, duel)[1])
    # The reader starts every key: a page never holds a digest made for another seat's eyes.
    assert all(alices[region] != bobs[region] for region in REGIONS)


def test_the_whole_page_holds_the_digest_of_every_region(alice):
    game = services.start_game(alice, "know_thyself", {}, seed=3)
    request, context = page_of(alice, game)
    page = page_regions.render_page(request, context).content.decode()
    assert dict(SEEN.findall(page)) == page_regions.region_digests(context)
    assert 'id="pick-state" name="picked" value=""' in page
    assert f'id="log-limit" name="log" value="{LOG_WINDOW}"' in page


def test_an_answer_to_a_page_that_holds_every_digest_draws_nothing(alice):
    game = services.start_game(alice, "know_thyself", {}, seed=3)
    digests = page_regions.region_digests(page_of(alice, game)[1])
    request, context = page_of(alice, game, **held(digests))
    answer = page_regions.regions_response(request, context, count_turns=False)
    # Only the inputs every answer brings (the card picked, the log's window), no region.
    assert answer.content.decode() == (
        '<input type="hidden" class="region-hash" id="pick-state" name="picked" value="" hx-swap-oob="true">'
        f'<input type="hidden" class="region-hash" id="log-limit" name="log" value="{LOG_WINDOW}" hx-swap-oob="true">')
    assert "HX-Trigger" not in answer


def test_an_answer_sends_the_parts_that_changed_and_not_those_that_did_not(alice):
    game = services.start_game(alice, "know_thyself", {}, seed=3)
    before = page_regions.region_digests(page_of(alice, game)[1])
    assert first_legal(game) == {"type": "play", "card": "2c", "column": 0}  # onto the Material Plane
    services.submit_move(game.pk, alice, first_legal(game), game.version)
    request, context = page_of(alice, game, **held(before))
    now = page_regions.region_digests(context)
    parts = page_regions.region_parts(context)

    changed = {region: page_regions._changed_parts(before[region], now[region]) for region in ("board", "planes")}
    assert changed["board"] == []  # the Tree holds the cards it held: none of its spaces changed
    # Of the planes, the column played onto and the deck's count.
    assert [parts["planes"][number][1] for number, _, _ in changed["planes"]] == ["plane-0-column-0", "pile-0"]

    answer = page_regions.regions_response(request, context, count_turns=False).content.decode()
    assert 'id="plane-0-column-0"' in answer and 'id="pile-0"' in answer
    assert 'id="plane-0-column-1"' not in answer and 'id="planes"' not in answer
    assert 'id="space-' not in answer and 'id="board"' not in answer
    # The regions nothing changed in are neither drawn nor their digests sent again.
    for region in ("status", "board", "chat", "actions"):
        assert f'id="{region}"' not in answer and f'id="seen-{region}"' not in answer
    assert dict(SEEN.findall(answer)) == {region: now[region] for region in REGIONS if now[region] != before[region]}


def test_a_region_is_sent_whole_when_its_frame_or_its_number_of_parts_changed():
    assert page_regions._changed_parts("frame.a.b.c", "frame.a.x.c") == [(1, "b", "x")]
    assert page_regions._changed_parts("frame.a.b", "frame.a.b") == []
    assert page_regions._changed_parts("other.a.b", "frame.a.b") is None  # another frame
    assert page_regions._changed_parts("frame.a.b", "frame.a.b.c") is None  # a space more
    assert page_regions._changed_parts(None, "frame.a.b") is None  # a page that holds none of it
    assert page_regions._changed_parts("frame", "frame") is None  # a region without parts


def test_a_column_with_cards_played_onto_it_gets_only_those_cards():
    reader = hashlib.sha1(b"the reader")
    column = {"title": "Column 1"}
    cards = [{"code": "2c"}, {"code": "5w"}, {"code": "XII"}]

    def token(shown, frame=column):
        return page_regions._part_token(repr(frame), shown, reader, reader)

    part = ("plane_column", "plane-0-column-0", column, {}, cards)
    assert page_regions._cards_added(token(cards[:2]), token(cards), part, reader) == [{"code": "XII"}]
    # A card the page holds that is not the column's now, another frame, or no card held
    # before: the column is drawn again.
    assert page_regions._cards_added(token([{"code": "3s"}, cards[1]]), token(cards), part, reader) is None
    assert page_regions._cards_added(token(cards[:2], {"title": "Column 2"}), token(cards), part, reader) is None
    assert page_regions._cards_added(token([]), token(cards), part, reader) is None
    # Nor when the column has a move form at its foot (a card may go there).
    targeted = ("plane_column", "plane-0-column-0", {**column, "target": True}, {}, cards)
    assert page_regions._cards_added(token(cards[:2], targeted[2]), token(cards, targeted[2]), targeted, reader) is None


def test_the_log_shows_a_window_of_the_newest_moves_that_moves_on_with_each_move(alice):
    game = a_solo_game_moves_in(alice, LOG_WINDOW + 3)
    # Moves made days ago read "3 days ago" in both answers: only the window's move is news.
    Move.objects.filter(game=game).update(created_at=timezone.now() - timedelta(days=3))
    _, before_context = page_of(alice, game)
    newest = game.version
    assert [entry["number"] for entry in before_context["log"]] == list(range(newest - LOG_WINDOW + 1, newest + 1))
    assert before_context["log_earlier"] == newest - LOG_WINDOW
    before = page_regions.region_digests(before_context)

    services.submit_move(game.pk, alice, first_legal(reload(game)), newest)
    request, context = page_of(alice, game, **held(before))
    changes = page_regions._log_changes(before["log"], page_regions.region_digests(context)["log"], context)
    partials = [partial for partial, _ in changes]
    assert changes[0] == ("games/game.html#log_entries_gone", {"gone": [str(newest - LOG_WINDOW + 1)]})
    assert "games/game.html#log_entry" not in partials  # no entry the page keeps is drawn again
    added = dict(changes)["games/game.html#log_entries_added"]["added"]
    assert [entry["number"] for entry in added] == [newest + 1]

    answer = page_regions.regions_response(request, context, count_turns=False).content.decode()
    assert f'hx-swap-oob="delete:#log-{newest - LOG_WINDOW + 1}"' in answer
    assert f'<li value="{newest + 1}"' in answer and f'<li value="{newest}"' not in answer
    assert 'id="log"' not in answer  # the log's frame stays: its entries are its parts


def test_the_log_is_sent_whole_when_the_page_holds_another_frame(alice):
    game = a_solo_game_moves_in(alice, LOG_WINDOW + 1)
    _, context = page_of(alice, game)
    digest = page_regions.region_digests(context)["log"]
    assert page_regions._log_changes(None, digest, context) is None
    assert page_regions._log_changes("another." + digest.partition(".")[2], digest, context) is None
    assert page_regions._log_changes(digest, digest, context) == []


def test_a_log_entry_is_named_by_its_token_only_after_a_gap():
    entries = [{"number": 5, "key": "5"}, {"number": 6, "key": "6"},
               {"number": None, "event": True, "key": "6e0"}, {"number": 7, "key": "7"}, {"number": 9, "key": "9"}]
    tokens = [page_regions._log_token(entry, previous, f"d{entry['key']}")
              for previous, entry in zip([None] + entries, entries)]
    assert tokens == ["5_d5", "d6", "6e0_d6e0", "7_d7", "9_d9"]
    assert page_regions._log_keys(tokens) == {"5": "d5", "6": "d6", "6e0": "d6e0", "7": "d7", "9": "d9"}
    # Tokens the page did not write as the server does are not read.
    assert page_regions._log_keys(["d5"]) is None
    assert page_regions._log_keys(["five_d5"]) is None


@pytest.mark.parametrize("sent, window", [
    ({}, LOG_WINDOW),
    ({"log": ["30"]}, 30),
    # The page's hidden input and a "Show earlier" link both send one: the larger counts.
    ({"log": [str(LOG_WINDOW), "50"]}, 50),
    ({"log": ["many", "25"]}, 25),
    ({"log": ["10000000"]}, 100_000),
])
def test_the_page_asks_for_a_wider_log_window_and_the_largest_asked_counts(sent, window):
    assert page_regions.log_limit(RequestFactory().get("/", sent)) == window


def test_the_poll_stamp_moves_on_with_a_move_and_a_chat_line_and_only_then(alice, bob):
    duel = services.start_game(alice, "lovers_discourse", {}, opponent=bob, seed=3)
    services.accept_invitation(duel.pk, bob)
    stamp = page_regions.poll_stamp(reload(duel))
    assert page_regions.poll_stamp(reload(duel)) == stamp
    ChatMessage.objects.create(game=duel, seat=1, user=bob, text="Good luck")
    chatted = page_regions.poll_stamp(reload(duel))
    assert chatted != stamp
    duel = reload(duel)
    seat = duel.to_act[0]
    services.submit_move(duel.pk, alice if seat == 0 else bob, first_legal(duel, seat), duel.version)
    assert page_regions.poll_stamp(reload(duel)) not in (stamp, chatted)


def test_the_engine_words_for_seats_are_said_as_you_and_the_players_names():
    @dataclasses.dataclass
    class Shown:
        view: dict
        prompt: str
        cells: list

    # The engine counts its seats from 0, as the seats' indexes do.
    shown = page_regions.worded(Shown(view={"note": "Seat 0 leads"}, prompt="Seat 1 plays after Seat 0.",
                                      cells=[{"label": "Seat 1's card"}, {"label": "a card"}]),
                                0, {0: "Alice", 1: "Bob"})
    assert shown.prompt == "Bob plays after you."
    assert shown.cells == [{"label": "Bob's card"}, {"label": "a card"}]
    assert shown.view == {"note": "Seat 0 leads"}  # the seat's raw view is left as it is
