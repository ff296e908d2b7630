"""A prepared query (sefirot_site.prepared) gives what its queryset gives, for any values,
compiled once per connection; it refuses what the queryset would refuse."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.db.models import OuterRef, Subquery
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import ChatMessage, Seat
from sefirot_site.prepared import PreparedQuery

pytestmark = pytest.mark.django_db


def seats_with_newest_chat(game_id, user_id):
    """Joins, an annotation with a subquery, a filter on two values: what the site's
    prepared queries use."""
    newest = ChatMessage.objects.filter(game=OuterRef("game_id")).order_by("-pk").values("text")[:1]
    return (Seat.objects.select_related("game", "user").filter(game_id=game_id).exclude(user=user_id)
            .annotate(newest_chat=Subquery(newest)).order_by("index"))


def described(seats):
    return [(s.pk, s.index, s.user.username, s.user.date_joined, s.game.pk, s.game.options, s.game.to_act,
             s.game.created_at, s.newest_chat) for s in seats]


@pytest.fixture
def two_games(alice, bob, outsider):
    first = services.start_game(alice, "know_thyself", {"variant": "standard"}, seed=1)
    second = services.start_game(bob, "know_thyself", {"variant": "standard"}, seed=2)
    ChatMessage.objects.create(game=first, seat=0, user=alice, text="Good luck, me.")
    return first, second


def test_it_gives_what_its_queryset_gives_for_each_value(two_games, outsider):
    prepared = PreparedQuery(seats_with_newest_chat, 2)
    for game in two_games:
        expected = described(seats_with_newest_chat(game.pk, outsider.pk))
        assert described(prepared(game.pk, outsider.pk)) == expected
        assert expected  # a row each, with its game, user and annotation
    assert prepared(two_games[0].pk, two_games[0].created_by_id) == []  # the second value counts too
    assert prepared(10**9, outsider.pk) == []


def test_it_reads_its_related_objects_from_the_same_query(two_games, outsider):
    prepared = PreparedQuery(seats_with_newest_chat, 2)
    prepared(two_games[0].pk, outsider.pk)  # compiled here, on this connection
    with CaptureQueriesContext(connection) as queries:
        seat = prepared(two_games[1].pk, outsider.pk)[0]
        assert (seat.game.mode, seat.user.username, seat.newest_chat) == ("know_thyself", "bob", None)
    assert len(queries) == 1


@pytest.mark.django_db(transaction=True)  # outside the test's own transaction
def test_it_refuses_a_lock_outside_a_transaction(two_games):
    locked = PreparedQuery(lambda game_id: Seat.objects.filter(game_id=game_id).select_for_update(), 1, locks=True)
    with pytest.raises(TransactionManagementError):
        locked(two_games[0].pk)
    with transaction.atomic():
        assert [seat.game_id for seat in locked(two_games[0].pk)] == [two_games[0].pk]


def test_it_refuses_a_query_that_does_not_take_its_values(two_games):
    constant = PreparedQuery(lambda game_id: Seat.objects.filter(game_id=two_games[0].pk), 1)
    with pytest.raises(ValueError, match="does not take each of its 1 values"):
        constant(two_games[1].pk)
    with pytest.raises(TypeError):
        PreparedQuery(seats_with_newest_chat, 2)(two_games[0].pk)


def test_a_values_list_query_gives_its_rows_converted(two_games):
    newest = PreparedQuery(lambda game_id: ChatMessage.objects.filter(game_id=game_id)
                           .order_by("-pk").values_list("text", "created_at")[:5], 1)
    line = ChatMessage.objects.get()
    assert newest(two_games[0].pk) == [("Good luck, me.", line.created_at)]
    assert newest(two_games[1].pk) == []


def test_an_update_changes_the_rows_that_match_and_counts_them(two_games):
    from django.utils import timezone

    from games.models import Game
    from sefirot_site.prepared import update_where

    first, second = two_games
    when = timezone.now()
    values = {"state": first.state, "version": 1, "to_act": [0], "outcome": {"winners": [0], "reason": "done"},
              "deadline": when, "updated_at": when}
    assert update_where(Game, {"id": first.pk, "version": 0}, values) == 1
    assert update_where(Game, {"id": first.pk, "version": 0}, {**values, "version": 2}) == 0  # stale: nothing
    changed, untouched = Game.objects.get(pk=first.pk), Game.objects.get(pk=second.pk)
    assert (changed.version, changed.to_act, changed.outcome, changed.deadline) == (1, [0], values["outcome"], when)
    assert (untouched.version, untouched.outcome, untouched.deadline) == (0, None, None)
    assert update_where(Game, {"id": first.pk, "version": 1}, {"outcome": None}) == 1
    assert Game.objects.get(pk=first.pk).outcome is None


def test_an_insert_saves_what_create_would(two_games):
    from games.models import Move
    from sefirot_site.prepared import insert

    record = insert(Move(game=two_games[0], number=1, seat=0, move={"type": "play", "card": "M1"},
                         description="Play I The Magician"))
    made = Move.objects.create(game=two_games[0], number=2, seat=0, move={"type": "pass"}, description="Pass")
    assert record.pk is not None and record.pk != made.pk and not record._state.adding
    saved = Move.objects.get(pk=record.pk)
    assert (saved.game_id, saved.number, saved.move, saved.description, saved.created_at) == (
        two_games[0].pk, 1, {"type": "play", "card": "M1"}, "Play I The Magician", record.created_at)


def test_an_update_then_insert_writes_both_or_neither(two_games):
    from django.utils import timezone

    from games.models import Game, Move
    from sefirot_site.prepared import update_then_insert

    first, second = two_games
    when = timezone.now()
    values = {"state": first.state, "version": 1, "to_act": [0], "outcome": None, "updated_at": when}
    record = update_then_insert(Game, {"id": first.pk, "version": 0}, values,
                                Move(game=first, number=1, seat=0, move={"type": "play", "card": "M1"},
                                     description="Play I The Magician"))
    assert record is not None and record.pk is not None and not record._state.adding
    saved = Move.objects.get(pk=record.pk)
    assert (saved.game_id, saved.number, saved.seat, saved.move, saved.description, saved.created_at) == (
        first.pk, 1, 0, {"type": "play", "card": "M1"}, "Play I The Magician", record.created_at)
    assert Game.objects.get(pk=first.pk).version == 1
    # A stale version matches no row: the game stays as it was and no record is written.
    stale = update_then_insert(Game, {"id": first.pk, "version": 0}, {**values, "version": 2},
                               Move(game=first, number=2, seat=0, move={"type": "pass"}, description="Pass"))
    assert stale is None
    assert Game.objects.get(pk=first.pk).version == 1
    assert list(Move.objects.filter(game=first).values_list("number", flat=True)) == [1]
    assert not Move.objects.filter(game=second).exists()


def test_an_update_then_insert_reads_back_the_rows_before_it(two_games):
    from django.utils import timezone

    from games.models import Game, Move
    from sefirot_site.prepared import update_then_insert

    first, second = two_games
    Move.objects.create(game=second, number=1, seat=1, move={"type": "pass"}, description="Elsewhere")
    read = []
    for number in (1, 2, 3, 4):
        record = update_then_insert(
            Game, {"id": first.pk, "version": number - 1},
            {"state": first.state, "version": number, "updated_at": timezone.now()},
            Move(game=first, number=number, seat=number % 2, move={"type": "pass"}, description=f"Move {number}"),
            read_back=("game", "number", ("number", "seat", "description"), 2))
        read.append(record.read_back)
    # The rows of the same game written before each, the newest first, at most two; the
    # other game's row is not among them, nor the row the statement itself wrote.
    assert read == [[], [(1, 1, "Move 1")], [(2, 0, "Move 2"), (1, 1, "Move 1")],
                    [(3, 1, "Move 3"), (2, 0, "Move 2")]]


@pytest.mark.django_db(transaction=True)  # the thread's own connection sees the committed games
def test_what_a_thread_compiled_goes_with_its_connection(two_games):
    import gc
    import threading
    import weakref

    from django.db import connections

    prepared = PreparedQuery(seats_with_newest_chat, 2)
    kept = []

    def request_in_its_own_thread():  # as a threaded server serves each request
        assert prepared(two_games[0].pk, 0)[0].game_id == two_games[0].pk
        kept.append(weakref.ref(connections["default"]))
        connections.close_all()

    thread = threading.Thread(target=request_in_its_own_thread)
    thread.start()
    thread.join()
    del thread
    gc.collect()
    assert kept and kept[0]() is None


postgres_only = pytest.mark.skipif(connection.vendor != "postgresql",
                                   reason="statements are prepared on PostgreSQL only (CI runs this there)")


def prepared_on_server() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


@postgres_only
def test_on_postgresql_its_statements_are_prepared_once_per_connection(two_games, outsider):
    first, second = two_games
    query = PreparedQuery(lambda game_id, user_id: seats_with_newest_chat(game_id, user_id), 2)
    assert described(query(first.pk, outsider.pk)) == described(seats_with_newest_chat(first.pk, outsider.pk))
    ours = [sql for sql in prepared_on_server() if '"games_chatmessage"' in sql and '"games_seat"' in sql]
    assert len(ours) == 1 and "$1" in ours[0]
    assert described(query(second.pk, outsider.pk)) == described(seats_with_newest_chat(second.pk, outsider.pk))
    assert [sql for sql in prepared_on_server() if '"games_chatmessage"' in sql and '"games_seat"' in sql] == ours


@postgres_only
def test_the_query_log_holds_each_prepared_statement(two_games, outsider):
    query = PreparedQuery(lambda game_id, user_id: seats_with_newest_chat(game_id, user_id), 2)
    with CaptureQueriesContext(connection) as queries:
        query(two_games[0].pk, outsider.pk)
        query(two_games[1].pk, outsider.pk)
    assert len(queries) == 2 and all('"games_seat"' in q["sql"] for q in queries)


@postgres_only
def test_djangos_own_queries_are_not_prepared(two_games):
    services.game_with_seats(two_games[0].pk)  # a prepared statement first: the connection now prepares
    before = prepared_on_server()
    for _ in range(12):  # past psycopg's threshold of five, were it Django's
        list(Seat.objects.filter(game=two_games[0], index__gte=0))
    assert prepared_on_server() == before


@postgres_only
def test_with_prepared_statements_off_nothing_is_prepared(two_games, outsider, settings):
    settings.PREPARED_STATEMENTS = False
    query = PreparedQuery(lambda game_id, user_id: seats_with_newest_chat(game_id, user_id).filter(index__lt=9), 2)
    before = prepared_on_server()
    assert described(query(two_games[0].pk, outsider.pk)) == described(
        seats_with_newest_chat(two_games[0].pk, outsider.pk))
    assert prepared_on_server() == before
