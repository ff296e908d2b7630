"""A move costs the same few queries and bytes however long the game and however many
games a player has (issue 12): the page holds the digests of its regions and gets back
only what changed, the log shows its newest entries and the rest on demand, the game is
loaded once per move, and the lists ask a constant number of queries."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

# bench/web.py's long game (Lovers' Discourse with every variation, seed 112, 204 moves):
# the test holds the very moves the bench times.
from bench.web import LONG_GAME, long_game_moves
from games import services
from games.models import ChatMessage, Game, Move, Seat
from games.page_regions import LOG_WINDOW, REGIONS

from .conftest import play_random_moves, reload

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
# A region drawn in parts (a board's spaces) has its frame's digest and then one per part, dotted.
SEEN = re.compile(r'id="seen-(\w+)" name="seen_\w+" value="([\w.]+)"')


def url(name, game):
    return reverse(f"games:{name}", args=[game.pk])


def seen_in(html: str) -> dict[str, str]:
    return {f"seen_{region}": digest for region, digest in SEEN.findall(html)}


def first_legal(game, seat=0):
    return game.rules.legal_moves(game.load_state(), seat)[0]


def long_solo_game(alice, moves: int):
    """A Know Thyself game at least ``moves`` moves in (its seed plays long enough)."""
    for seed in range(40):
        game = play_random_moves(services.start_game(alice, "know_thyself", {}, seed=seed), moves, seed=seed)
        if game.status == Game.Status.ACTIVE and game.version >= moves:
            return game
    pytest.fail("no seed gives a game that long")


def test_the_page_holds_every_region_digest_and_an_unchanged_page_gets_no_region_back(alice_client, alice):
    game = services.start_game(alice, "know_thyself", {}, seed=3)
    page = alice_client.get(url("game", game)).content.decode()
    seen = seen_in(page)
    # The out-of-band swaps of every answer find their targets in the page.
    assert set(seen) == {f"seen_{region}" for region in REGIONS}
    for target in ("pick-state", "log-limit"):
        assert f'id="{target}"' in page
    again = alice_client.get(url("game", game), seen, **HX).content.decode()
    assert 'class="region ' not in again  # nothing changed: no region is drawn or sent
    assert seen_in(again) == {}  # nor the digests the page holds already


def test_a_move_sends_back_only_the_regions_it_changed(alice_client, alice):
    game = services.start_game(alice, "know_thyself", {}, seed=3)
    seen = seen_in(alice_client.get(url("game", game)).content.decode())
    answer = alice_client.post(url("move", game), {"version": 0, "move": json.dumps(first_legal(game)), **seen},
                               **HX).content.decode()
    assert first_legal(game) == {"type": "play", "card": "2c", "column": 0}  # onto the Material Plane
    assert 'id="log"' in answer
    # Of the planes, only the column played onto is sent (and the deck's count), not the region.
    assert 'id="plane-0-column-0" style="grid-column: 1" hx-swap-oob="true"' in answer
    assert 'id="planes"' not in answer and 'id="plane-0-column-1"' not in answer
    # The tree holds the same cards and no move form: it is not sent again.
    assert 'id="board"' not in answer and 'id="space-' not in answer
    assert 'id="chat"' not in answer and 'id="actions"' not in answer
    # Still your turn, the same score: the status is as it was.
    assert 'id="status"' not in answer
    # Of the hand, only its cards (one played, one drawn): the prompt and the hint's form stay.
    assert '<div id="hand-cards" hx-swap-oob="true">' in answer and 'id="hand"' not in answer
    assert 'class="hint-form"' not in answer and "csrfmiddlewaretoken" not in answer
    after = seen_in(answer)
    # Only the digests that changed come back: the page keeps those it holds.
    assert "seen_chat" not in after and after["seen_log"] != seen["seen_log"]
    assert after["seen_planes"] != seen["seen_planes"]


def test_the_status_comes_back_when_what_it_shows_changes(alice_client, alice):
    game = services.start_game(alice, "know_thyself", {}, seed=3)
    seen = seen_in(alice_client.get(url("game", game)).content.decode())
    answers = []
    while reload(game).status == Game.Status.ACTIVE:
        game = reload(game)
        answer = alice_client.post(url("move", game), {"version": game.version, "move": json.dumps(first_legal(game)),
                                                       **seen}, **HX).content.decode()
        seen.update(seen_in(answer))
        answers.append(answer)
    assert 'id="status"' not in answers[0]
    assert 'id="status"' in answers[-1] and 'class="outcome"' in answers[-1]  # the game's end, told
    fresh = alice_client.get(url("game", game)).content.decode()
    assert seen_in(fresh)["seen_status"] == seen["seen_status"]  # the page holds the status as it is


def data_queries(captured) -> list[str]:
    """The statements that read or write rows; a transaction's BEGIN and COMMIT are not
    counted (PostgreSQL's driver sends them outside the cursor, SQLite's inside)."""
    return [q["sql"] for q in captured if not q["sql"].startswith(("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE"))]


# Committed for real, as on the site: inside the test's transaction each service would add a
# savepoint and its release.
@pytest.mark.django_db(transaction=True)
def test_an_htmx_move_asks_at_most_eight_queries(alice_client, alice):
    game = services.start_game(alice, "know_thyself", {}, seed=3)
    seen = seen_in(alice_client.get(url("game", game)).content.decode())
    with CaptureQueriesContext(connection) as queries:
        response = alice_client.post(url("move", game), {"version": 0, "move": json.dumps(first_legal(game)),
                                                         **seen}, **HX)
    assert response.status_code == 200
    assert len(data_queries(queries)) <= 8, data_queries(queries)


@pytest.mark.django_db(transaction=True)
def test_a_move_in_a_long_game_asks_no_more_than_early_on(alice_client, alice):
    game = long_solo_game(alice, 30)
    with CaptureQueriesContext(connection) as queries:
        alice_client.post(url("move", game), {"version": game.version, "move": json.dumps(first_legal(game))}, **HX)
    # On PostgreSQL the window is read by the statement that writes the move (WITH ... SELECT).
    moves_queries = [q["sql"] for q in queries if '"games_move"' in q["sql"] and q["sql"].startswith(("SELECT", "WITH"))]
    # The log reads its window of the newest moves, never the whole log.
    assert moves_queries and all("LIMIT" in sql for sql in moves_queries), moves_queries
    assert len(data_queries(queries)) <= 8


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="one statement for both writes is PostgreSQL's")
def test_on_postgresql_a_move_is_written_and_its_log_read_in_one_statement(alice_client, alice):
    game = long_solo_game(alice, 12)
    seen = seen_in(alice_client.get(url("game", game)).content.decode())
    with CaptureQueriesContext(connection) as queries:
        answer = alice_client.post(url("move", game), {"version": game.version, "move": json.dumps(first_legal(game)),
                                                       **seen}, **HX)
    assert answer.status_code == 200
    statements = data_queries(queries)
    # The session, its user, the game locked with its seats, and the write that reads back the log.
    assert len(statements) == 4, statements
    assert statements[-1].startswith("WITH") and not any(
        sql.startswith("SELECT") and '"games_move"' in sql for sql in statements)
    # The log the answer drew from those rows is the log a page drawn afresh shows.
    seen.update(seen_in(answer.content.decode()))
    assert seen_in(alice_client.get(url("game", game)).content.decode())["seen_log"] == seen["seen_log"]


@pytest.mark.django_db(transaction=True)
def test_a_games_last_move_does_not_load_the_game_again_for_its_journal(alice_client, alice):
    game = services.start_game(alice, "know_thyself", {}, seed=5)
    while True:
        state = game.load_state()
        move = game.rules.legal_moves(state, 0)[0]
        if not game.rules.to_act(game.rules.apply(state, 0, move)):
            break
        services.submit_move(game.pk, alice, move, game.version)
        game = reload(game)
    with CaptureQueriesContext(connection) as queries:
        answer = alice_client.post(url("move", game), {"version": game.version, "move": json.dumps(move)}, **HX)
    assert answer.status_code == 200 and reload(game).status == Game.Status.FINISHED
    assert game.journal_entries.filter(owner=alice).count() == 1
    statements = data_queries(queries)
    # The journal's entry and the rating are made from the game the move holds, its seats and
    # users with it; a new entry has no tags to read and no card rows to delete.
    assert not any(sql.startswith('SELECT "games_game"') for sql in statements), statements
    assert not any('"journal_tag"' in sql or sql.startswith('DELETE FROM "journal_entrycard"')
                   for sql in statements), statements


@pytest.mark.django_db
@pytest.mark.parametrize("lines", [1, 30])
def test_a_game_page_asks_the_same_few_queries_whatever_its_chat_holds(lines, alice_client, alice, bob):
    game = services.start_game(alice, "lovers_discourse", {}, open_challenge=True, seed=3)
    services.accept_challenge(game.pk, bob)
    for number in range(lines):
        ChatMessage.objects.create(game=game, seat=number % 2, user=bob if number % 2 else alice, text=f"line {number}")
    alice_client.post(url("notes", game), {"text": "keep the Sun for later"})
    alice_client.get(url("game", game))  # the first look at a game writes that the player looks
    with CaptureQueriesContext(connection) as queries:
        page = alice_client.get(url("game", game)).content.decode()
    # The session, the player, the game with its seats, the log's window, the count of games
    # waiting, the chat with its speakers, the notes: each once, whatever their length.
    assert len(data_queries(queries)) <= 7, "\n".join(q[:90] for q in data_queries(queries))
    assert f"line {lines - 1}" in page and "keep the Sun for later" in page


def test_a_move_that_leaves_you_to_act_keeps_the_count_of_waiting_games_without_asking(alice_client, alice):
    # A solo game asks its player again after every move: this game still counts among
    # those waiting for them, so the answer leaves the page's count standing.
    game = services.start_game(alice, "know_thyself", {}, seed=3)
    seen = seen_in(alice_client.get(url("game", game)).content.decode())
    with CaptureQueriesContext(connection) as queries:
        response = alice_client.post(url("move", game), {"version": 0, "move": json.dumps(first_legal(game)),
                                                         **seen}, **HX)
    assert response.status_code == 200 and reload(game).to_act == [0]
    assert "turn-count" not in response.get("HX-Trigger", "")
    # The count's query: the player's joined seats with their games' to_act (the move's own
    # load reads every seat of the game, whatever its status).
    assert not [sql for sql in data_queries(queries) if '"games_game"."to_act"' in sql
                and '"games_seat"."status" =' in sql]


def test_a_move_that_passes_the_turn_brings_the_new_count_of_waiting_games(alice, bob, alice_client, bob_client):
    services.start_game(alice, "know_thyself", {}, seed=3)  # waits for alice throughout
    duel = services.start_game(alice, "warring_planets", {"variant": "standard"}, opponent=bob, seed=5)
    services.accept_invitation(duel.pk, bob)
    passed = False
    while not passed:
        duel = reload(duel)
        seat = duel.to_act[0]
        client, others_waiting = (alice_client, 1) if seat == 0 else (bob_client, 0)
        response = client.post(url("move", duel), {"version": duel.version,
                                                   "move": json.dumps(first_legal(duel, seat))}, **HX)
        assert response.status_code == 200
        passed = seat not in reload(duel).to_act
        if passed:
            assert json.loads(response["HX-Trigger"]) == {"turn-count": {"value": others_waiting}}
        else:
            assert "turn-count" not in response.get("HX-Trigger", "")


def test_the_poll_asks_at_most_four_queries(alice_client, bob_client, alice, bob, django_assert_max_num_queries):
    duel = services.start_game(alice, "lovers_discourse", {}, open_challenge=True, seed=2)
    services.accept_challenge(duel.pk, bob)
    alice_client.get(url("version", duel) + "?v=x")  # the first poll in ten seconds writes seen_at
    with django_assert_max_num_queries(4):
        assert alice_client.get(url("version", duel) + "?v=x").status_code == 200
    stamp = __import__("games.page_regions", fromlist=["poll_stamp"]).poll_stamp(reload(duel))
    with django_assert_max_num_queries(4):
        assert alice_client.get(url("version", duel) + f"?v={stamp}").status_code == 204


@pytest.mark.skipif(connection.vendor != "postgresql", reason="compression is PostgreSQL's (CI runs this there)")
def test_on_postgresql_a_game_state_is_compressed_with_lz4(alice, bob):
    slug, options, seed = LONG_GAME
    game = services.start_game(alice, slug, options, open_challenge=True, seed=seed)
    services.accept_challenge(game.pk, bob)
    seats = {seat.index: seat for seat in Seat.objects.filter(game=game)}
    for played, (seat, move) in enumerate(long_game_moves()[:150]):  # a state PostgreSQL compresses
        services.submit_move(game.pk, seats[seat], move, played)
    with connection.cursor() as cursor:
        cursor.execute("SELECT attcompression FROM pg_attribute WHERE attrelid = 'games_game'::regclass"
                       " AND attname = 'state'")
        assert cursor.fetchone() == ("l",)
        cursor.execute("SELECT length(state), pg_column_compression(state) FROM games_game WHERE id = %s",
                       [game.pk])
        size, method = cursor.fetchone()
    assert size > 2100 and method == "lz4"


def test_an_outsider_polls_and_moves_into_nothing(outsider_client, alice):
    game = services.start_game(alice, "know_thyself", {}, seed=3, public=False)
    assert outsider_client.get(url("version", game) + "?v=x").status_code == 404
    answer = outsider_client.post(url("move", game), {"version": 0, "move": json.dumps(first_legal(game))}, **HX)
    assert answer.status_code == 404
    assert reload(game).version == 0


def test_a_card_drawn_once_links_each_game_it_is_shown_in_to_that_game(alice_client, alice):
    # The same seed deals the same hand: the cards are drawn for the first page and reused.
    first, second = (services.start_game(alice, "know_thyself", {"variant": "standard"}, seed=21) for _ in (1, 2))
    pages = [alice_client.get(url("game", game)).content.decode() for game in (first, second)]
    hands = []
    for page, game, other in ((pages[0], first, second), (pages[1], second, first)):
        picks = re.findall(r'hx-get="(/games/\d+/)\?pick=(\w+)"', page)
        assert picks and {path for path, _ in picks} == {f"/games/{game.pk}/"}
        assert f"/games/{other.pk}/" not in page
        hands.append([card for _, card in picks])
    assert hands[0] == hands[1]


def test_a_remembered_url_is_the_url_of_its_arguments_under_the_prefix_in_force():
    from django.template import Context, Template
    from django.urls import get_script_prefix, set_script_prefix

    both = Template("{% load cached_url %}{% cached_url 'games:move' pk %}|{% url 'games:move' pk %}")
    for pk in (1, 2, 1):
        assert both.render(Context({"pk": pk})).split("|") == [f"/games/{pk}/move/"] * 2
    before = get_script_prefix()
    set_script_prefix("/sefirot/")
    try:
        assert both.render(Context({"pk": 1})).split("|") == ["/sefirot/games/1/move/"] * 2
    finally:
        set_script_prefix(before)


def test_the_log_shows_the_newest_moves_and_earlier_ones_on_demand(alice_client, alice):
    game = long_solo_game(alice, LOG_WINDOW + 8)
    page = alice_client.get(url("game", game)).content.decode()
    log = page[page.index('id="log"'):page.index("</section>", page.index('id="log"'))]
    numbers = [int(n) for n in re.findall(r'<li value="(\d+)"', log)]
    assert numbers == list(range(game.version - LOG_WINDOW + 1, game.version + 1))
    assert "Show earlier moves" in log
    # Without JavaScript the link is a page with a longer log...
    more = re.search(r'href="([^"]*\?log=\d+)#log"', log).group(1)
    longer = alice_client.get(more).content.decode()
    assert re.findall(r'<li value="(\d+)"', longer)[0] == "1"
    # ...and through htmx the page keeps the longer window for the answers that follow.
    # htmx sends the link's ?log=N and the page's hidden log input (the window shown) both.
    seen = seen_in(page)
    asked = more.split("?log=")[1]
    answer = alice_client.get(url("game", game), {**seen, "log": [str(LOG_WINDOW), asked]}, **HX).content.decode()
    assert '<li value="1"' in answer and 'id="log-limit" name="log" value="' in answer
    limit = re.search(r'id="log-limit" name="log" value="(\d+)"', answer).group(1)
    follow = alice_client.post(url("move", game), {"version": game.version, "log": limit,
                                                   "move": json.dumps(first_legal(game))}, **HX).content.decode()
    assert '<li value="1"' in follow


def test_the_history_keeps_the_whole_record(alice_client, alice):
    game = long_solo_game(alice, LOG_WINDOW + 5)
    state = game.load_state()
    # Finish it by abandoning: the history opens once a game has ended.
    services.abandon_game(game.pk, "Stopped for the test.")
    page = alice_client.get(url("history", game)).content.decode()
    assert page.count("<li") >= game.version
    assert state  # the game had a state to step through


def _games_for(alice, bob, count: int) -> None:
    """``count`` games of alice: running duels, invitations from bob, finished solos."""
    for n in range(count):
        kind = n % 3
        if kind == 0:
            game = services.start_game(alice, "lovers_discourse", {}, open_challenge=True, seed=n)
            services.accept_challenge(game.pk, bob)
        elif kind == 1:
            services.start_game(bob, "lovers_discourse", {}, opponent=alice, seed=n)
        else:
            game = services.start_game(alice, "know_thyself", {}, seed=n)
            services.abandon_game(game.pk, "Stopped.")
        services.start_game(bob, "warring_planets", {}, open_challenge=True, seed=n)  # the lobby's


@pytest.mark.parametrize("count", [10, 200])
def test_my_games_and_the_lobby_ask_the_same_few_queries_for_10_or_200_games(
        count, alice, bob, alice_client, django_assert_max_num_queries):
    _games_for(alice, bob, count)
    # The session and its user; the finished games, and those in play with their seats; the
    # games of computer players watched; the players followed; the vacation; the turns' count.
    with django_assert_max_num_queries(12):
        page = alice_client.get(reverse("games:list"))
    assert page.status_code == 200 and page.content.decode().count('class="game-row"') >= min(count, 100)
    assert "Bob invites you" in page.content.decode()
    with django_assert_max_num_queries(10):
        lobby = alice_client.get(reverse("games:lobby"))
    assert lobby.content.decode().count('class="game-row"') == min(count, 100)
    assert Seat.objects.filter(user=alice).count() >= count


def test_a_chat_line_comes_back_to_its_sender_and_to_the_other_player(alice_client, bob_client, alice, bob):
    duel = services.start_game(alice, "lovers_discourse", {}, open_challenge=True, seed=2)
    services.accept_challenge(duel.pk, bob)
    seen_alice = seen_in(alice_client.get(url("game", duel)).content.decode())
    seen_bob = seen_in(bob_client.get(url("game", duel)).content.decode())
    said = alice_client.post(url("chat", duel), {"text": "Good luck!", **seen_alice}, **HX).content.decode()
    assert 'id="chat"' in said and "Good luck!" in said
    heard = bob_client.get(url("game", duel), seen_bob, **HX).content.decode()
    assert 'id="chat"' in heard and "Good luck!" in heard
    assert 'id="board"' not in heard  # a chat line changes the chat only


OOB_TARGETS = re.compile(r'<\w+(?: [^>]*?)? id="([^"]+)"[^>]*? hx-swap-oob="true"|hx-swap-oob="\w+:([^"]+)"')


def oob_targets(answer: str) -> set[str]:
    """The ids an answer's out-of-band swaps replace, append to or delete."""
    targets = set()
    for replaced, selectors in OOB_TARGETS.findall(answer):
        targets |= {replaced} if replaced else {s.strip().removeprefix("#") for s in selectors.split(",")}
    return targets


def test_a_move_late_in_a_long_game_sends_no_more_bytes_than_early_on(alice, bob, alice_client, bob_client):
    """At move 200 the board and planes hold many more cards and the log a full window,
    yet the answer carries only what the move changed (issue 12: within 20 % of move 10),
    and every out-of-band swap in it finds its target on the page the player has open."""
    slug, options, seed = LONG_GAME
    moves = long_game_moves()
    game = services.start_game(alice, slug, options, open_challenge=True, seed=seed)
    services.accept_challenge(game.pk, bob)
    seats = {seat.index: seat for seat in Seat.objects.filter(game=game)}
    clients = [alice_client if seats[index].user_id == alice.pk else bob_client for index in (0, 1)]
    sizes, pages = {}, {}
    for number, (seat, move) in enumerate(moves[:200], start=1):
        if number in (10, 200):
            answer = clients[seat].post(url("move", game), {"version": number - 1, "move": json.dumps(move),
                                                            **seen_in(pages[seat])}, **HX)
            assert answer.status_code == 200
            sizes[number] = len(answer.content)
            # The page was opened three moves before: it gets those moves and this one, in parts.
            answer = answer.content.decode()
            assert 'id="board"' not in answer and 'id="log"' not in answer
            on_page = set(re.findall(r' id="([^"]+)"', pages[seat]))
            assert oob_targets(answer) and oob_targets(answer) <= on_page, oob_targets(answer) - on_page
        else:
            services.submit_move(game.pk, seats[seat], move, number - 1)
        if number in (7, 197):
            # The moves so far three days old: "3 days ago" reads the same when the answer
            # comes, however long the moves between take on a loaded machine ("4 seconds ago"
            # turning "9 seconds ago" redraws every entry, and then the whole log is sent).
            Move.objects.filter(game=game).update(created_at=timezone.now() - timedelta(days=3))
            pages = [client.get(url("game", game)).content.decode() for client in clients]
    assert 'id="planes"' not in answer and "beforeend:#plane-" in answer and "delete:#log-" in answer
    assert sizes[200] <= 1.2 * sizes[10], sizes


@pytest.mark.parametrize("seconds", [0.3, 1.5, 30.5, 90, 45.5 * 60, 61 * 60, 5.5 * 3600, 3 * 86400 + 7200, 40 * 86400])
@pytest.mark.parametrize("language", ["en-gb", "de"])
def test_the_log_says_how_long_ago_as_naturaltime_does(seconds, language):
    """The log's "3 minutes ago" is remembered by its words and count (page_regions.ago) rather
    than made by naturaltime each time: the same words, past or future, in any language.
    Each time is mid-way in its unit, so the moment between the two readings of the
    clock cannot carry it over into the next."""
    from datetime import timedelta

    from django.contrib.humanize.templatetags.humanize import naturaltime
    from django.utils import timezone, translation

    from games.page_regions import ago

    with translation.override(language):
        for sign in (1, -1):
            moment = timezone.now() - sign * timedelta(seconds=seconds)
            expected = str(naturaltime(moment))
            assert ago(moment, timezone.now()) == expected
            assert ago(moment, timezone.now()) == expected  # and again, remembered


def test_the_web_bench_counts_the_cpu_of_each_process_between_two_readings():
    from bench.web import cpu_used_between

    before = {10: ("server", 5.0), 11: ("database", 7.0), 12: ("database", 40.0), 13: ("client", 1.0)}
    # 12 (an autovacuum worker) ended meanwhile: left out, not its whole life taken off; 14 started: counted whole.
    after = {10: ("server", 5.5), 11: ("database", 7.25), 13: ("client", 1.5), 14: ("database", 0.25)}
    used = cpu_used_between(before, after)
    assert used == {"server": 0.5, "database": 0.5, "client": 0.5, "other": 0.0}
