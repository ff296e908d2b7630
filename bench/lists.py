"""Pages that list a player's things, small and large: the journal and My games.

    .venv/bin/python bench/lists.py [--database-url postgres://postgres@127.0.0.1:5432/sefirot_bench_lists]
                                    [--sqlite] [--repeats 40] [--json]

Four players are made in a fresh database (PostgreSQL by default, created if missing and
emptied first; ``--sqlite`` for the embedded default in a temporary folder): one with 100
journal entries and one with 10,000, one with 10 games and one with 1,000. Their entries
are alike (a drawn reading of the widest spread, a paragraph of reflections, a tag or two, over the
last years), so only their number differs; so are their games (two waiting for the
player's move, two for others', an invitation, the rest finished: a player's history
grows, the games in play at once do not). Then, in this process through Django's test
client with DEBUG off and the site's middleware, each page is asked ``--repeats`` times,
small and large in turn so both meet the same machine, and the median counts:

  journal list     GET /journal/ (the newest 20 entries, page 1)
  journal search   GET /journal/?q=lantern (a word in one reflection of 25, and the page's
                   count of matches)
  my games         GET /games/ (the games in play, then the newest finished ones)

Printed per page: the median ms at each size, their ratio (issue 38: at most 1.5), the SQL
queries of one request at each size (the same count at both) and the bytes of the page.
``--json`` prints one object (``pages``: name -> small/large ms, ``ratio``, ``queries``,
``bytes``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SMALL_JOURNAL, LARGE_JOURNAL = 100, 10_000
SMALL_GAMES, LARGE_GAMES = 10, 1_000
SEARCH_WORD = "lantern"
TARGET = 1.5
WORDS = ("tower moon star water cup sword coin wand fool magician priestess empress emperor hierophant "
         "lovers chariot strength hermit wheel justice hanged death temperance devil sun judgement world "
         "morning evening question answer dream road door river garden house letter friend work rest "
         "patience change choice doubt hope fear joy loss gift trust").split()


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sefirot_bench_lists"))
    parser.add_argument("--sqlite", action="store_true", help="the embedded SQLite database instead")
    parser.add_argument("--repeats", type=int, default=40, help="requests per page and size (the median counts)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    return parser.parse_args()


def fresh_postgres(url: str) -> None:
    import psycopg

    parts = urllib.parse.urlparse(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def set_up_django(args) -> None:
    data_dir = Path(tempfile.mkdtemp(prefix="sefirot-bench-lists-"))
    os.environ.update({
        "DATA_DIR": str(data_dir), "DEBUG": "off", "SECRET_KEY": secrets.token_urlsafe(48),
        "ALLOWED_HOSTS": "testserver", "SITE_URL": "http://testserver", "SECURE_SSL_REDIRECT": "off",
        "EMAIL_BACKEND": "locmem", "DJANGO_SETTINGS_MODULE": "sefirot_site.settings",
        "STATIC_ROOT": str(data_dir / "static"),
    })
    if args.sqlite:
        os.environ.pop("DATABASE_URL", None)
    else:
        fresh_postgres(args.database_url)
        os.environ["DATABASE_URL"] = args.database_url
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)  # DEBUG off: the pages name hashed files


def make_player(name: str):
    from allauth.account.models import EmailAddress
    from sefirot_site.accounts.models import User

    user = User.objects.create(username=name, email=f"{name}@example.com", password="!", display_name=name.title())
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def fill_journal(owner, count: int) -> None:
    """``count`` entries like those a player keeps: a drawn reading, reflections, tags."""
    from journal import readings, services
    from journal.models import Entry, EntryCard, Tag

    choose = random.Random(count)
    tags = [Tag.objects.create(owner=owner, name=name) for name in ("dreams", "work", "love", "morning", "tower")]
    widest = max(readings.SPREADS.values(), key=lambda spread: len(spread.positions))
    template = services.record_drawn(owner, spread=widest.slug, reversals=True, title="warm-up")
    rows = list(template.cards.values("card", "suit", "position", "reversed"))
    template.delete()
    today = dt.date(2026, 11, 1)
    entries = []
    for n in range(count):
        words = [choose.choice(WORDS) for _ in range(60)]
        if n % 25 == 0:
            words[choose.randrange(len(words))] = SEARCH_WORD
        entries.append(Entry(owner=owner, title=f"{choose.choice(WORDS).title()} {choose.choice(WORDS)}",
                             mode=choose.choice(("physical", "drawn", "know_thyself")), reading=template.reading,
                             reflections=" ".join(words).capitalize() + ".", date=today - dt.timedelta(days=n // 3)))
    Entry.objects.bulk_create(entries, batch_size=1000)
    entries = list(Entry.objects.filter(owner=owner).only("pk"))
    EntryCard.objects.bulk_create([EntryCard(entry=entry, **row) for entry in entries for row in rows], batch_size=5000)
    Through = Entry.tags.through
    Through.objects.bulk_create([Through(entry_id=entry.pk, tag_id=tag.pk) for entry in entries
                                 for tag in choose.sample(tags, choose.choice((0, 1, 1, 2)))], batch_size=5000)


def fill_games(player, opponent, count: int) -> None:
    """Five games in play (two waiting for ``player``, two for ``opponent``, an invitation)
    and the rest finished, copied from one game played to its end through the services."""
    from games import services
    from games.models import Game, Seat

    def duel(seed):
        game = services.start_game(opponent, "warring_planets", {}, open_challenge=True, seed=seed)
        services.accept_challenge(game.pk, player)
        return Game.objects.get(pk=game.pk)

    def play_to(game, *, until):
        choose = random.Random(game.seed)
        while game.status == Game.Status.ACTIVE and not until(game):
            index = game.to_act[0]
            user = player if Seat.objects.get(game=game, index=index).user_id == player.pk else opponent
            moves = game.rules.legal_moves(game.rules.loads(game.state), index)
            services.submit_move(game.pk, user, choose.choice(moves), game.version)
            game = Game.objects.get(pk=game.pk)
        return game

    def seat_of(game, user):
        return Seat.objects.get(game=game, user=user).index

    for n in range(2):
        play_to(duel(n), until=lambda g: seat_of(g, player) in g.to_act and g.version > 2)
        play_to(duel(10 + n), until=lambda g: seat_of(g, opponent) in g.to_act and g.version > 2)
    services.start_game(opponent, "lovers_discourse", {}, opponent=player, seed=20)
    finished = play_to(duel(30), until=lambda g: False)
    seats = list(Seat.objects.filter(game=finished))
    fields = {f.attname: getattr(finished, f.attname) for f in Game._meta.concrete_fields if not f.primary_key}
    stamp = finished.updated_at
    copies = Game.objects.bulk_create([Game(**fields) for _ in range(count - 6)], batch_size=500)
    Seat.objects.bulk_create([Seat(game=game, index=s.index, user_id=s.user_id, status=s.status, joined_at=s.joined_at)
                              for game in copies for s in seats], batch_size=1000)
    # Finished over the last months, so the newest are the ones to show.
    for n, game in enumerate(copies):
        game.updated_at = game.finished_at = stamp - dt.timedelta(hours=n)
    Game.objects.bulk_update(copies, ["updated_at", "finished_at"], batch_size=500)


def measure(args) -> dict:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    journal_small, journal_large = make_player("journal100"), make_player("journal10k")
    fill_journal(journal_small, SMALL_JOURNAL)
    fill_journal(journal_large, LARGE_JOURNAL)
    games_small, games_large, rival = make_player("games10"), make_player("games1000"), make_player("rival")
    fill_games(games_small, rival, SMALL_GAMES)
    fill_games(games_large, rival, LARGE_GAMES)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    else:
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")

    def client(user):
        c = Client()
        c.force_login(user)
        return c

    pages = {
        "journal list": ("/journal/", (client(journal_small), client(journal_large)), (SMALL_JOURNAL, LARGE_JOURNAL)),
        "journal search": (f"/journal/?q={SEARCH_WORD}", (client(journal_small), client(journal_large)),
                           (SMALL_JOURNAL, LARGE_JOURNAL)),
        "my games": ("/games/", (client(games_small), client(games_large)), (SMALL_GAMES, LARGE_GAMES)),
    }
    figures = {}
    for name, (url, clients, sizes) in pages.items():
        times = ([], [])
        queries, sizes_bytes = [], []
        for side, c in enumerate(clients):
            with CaptureQueriesContext(connection) as captured:
                answer = c.get(url)
            assert answer.status_code == 200, (name, answer.status_code)
            queries.append(len(captured))
            sizes_bytes.append(len(answer.content))
            for _ in range(3):
                c.get(url)  # warm
        for _ in range(args.repeats):
            for side, c in enumerate(clients):
                started = time.perf_counter()
                c.get(url)
                times[side].append(time.perf_counter() - started)
        small, large = (statistics.median(t) * 1000 for t in times)
        figures[name] = {"sizes": list(sizes), "small_ms": round(small, 2), "large_ms": round(large, 2),
                         "ratio": round(large / small, 2), "queries": queries, "bytes": sizes_bytes}
    return {"database": connection.vendor, "repeats": args.repeats, "target_ratio": TARGET, "pages": figures}


def main() -> None:
    args = parse_args()
    set_up_django(args)
    result = measure(args)
    if args.json:
        print(json.dumps(result))
        return
    print(f"database: {result['database']}, median of {result['repeats']} requests each")
    print(f"{'page':<16} {'sizes':>12} {'small ms':>9} {'large ms':>9} {'ratio':>6} {'queries':>9} {'KB':>11}")
    for name, row in result["pages"].items():
        sizes = "{:,} / {:,}".format(*row["sizes"])
        queries = "{} / {}".format(*row["queries"])
        kb = "{:.1f} / {:.1f}".format(*(b / 1024 for b in row["bytes"]))
        verdict = "ok" if row["ratio"] <= TARGET else "MISSED"
        print(f"{name:<16} {sizes:>12} {row['small_ms']:>9.2f} {row['large_ms']:>9.2f} {row['ratio']:>5.2f}x"
              f" {queries:>9} {kb:>11}  {verdict}")


if __name__ == "__main__":
    main()
