"""Tarot Hallow tables: six seats posting their face-down cards at the same moment.

Run from the repository root (PostgreSQL must be up; the database is created if missing):

    .venv/bin/python bench/hallow.py [--database-url postgres://postgres@127.0.0.1:5432/sefirot_bench]
                                     [--port 8201] [--tables 3] [--rounds 8] [--workers 4]

It migrates, makes ``--tables`` six-seat Tarot Hallow games (six bench players each, every
one with a session), starts gunicorn (DEBUG off, the site's middleware, as bench/web.py),
and then plays ``--rounds`` rounds: in each, all six seats of every table post their card
at once (one thread per seat, released together), each from the page version the round
started at, as people answering the same page in any order do. So five of the six posts of
a table answer from a board others have moved on from, the path where the server checks
that the board still fits (services.still_current). Ties, court powers and the Fool are
then played seat by seat, unmeasured. Printed: the simultaneous posts, their p50 and p95
latency, how many were refused (there should be none), and the SQL queries of one such
post, first at the current version and then from a board two moves old, counted with
Django's test client on the same database.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web import ensure_database, server_env, set_up_django, wait_for_server  # noqa: E402

SEATS = 6


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sefirot_bench"))
    parser.add_argument("--port", type=int, default=8201)
    parser.add_argument("--tables", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
    return parser.parse_args()


def session_for(user) -> str:
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def make_tables(count: int) -> list[dict]:
    from django.contrib.auth import get_user_model

    from games import services
    from games.models import Game

    User = get_user_model()
    tables = []
    for t in range(count):
        users = [User.objects.get_or_create(username=f"hallow{t:02d}-{s}", defaults={"password": "!"})[0]
                 for s in range(SEATS)]
        Game.objects.filter(created_by=users[0]).delete()
        game = services.start_game(users[0], "tarot_hallow", {}, seats=SEATS, invitees=users[1:], seed=1000 + t)
        for user in users[1:]:
            services.accept_invitation(game.pk, user)
        tables.append({"game": game.pk, "sessions": [session_for(u) for u in users]})
    return tables


def post(port: int, session: str, game_id: int, move: dict, version: int) -> tuple[int, float]:
    csrf = secrets.token_hex(16)
    body = urllib.parse.urlencode({"version": version, "move": json.dumps(move)})
    t0 = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("POST", f"/games/{game_id}/move/", body=body, headers={
        "Cookie": f"sessionid={session}; csrftoken={csrf}", "X-CSRFToken": csrf, "HX-Request": "true",
        "Content-Type": "application/x-www-form-urlencoded"})
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.status, time.perf_counter() - t0


def simultaneous_round(port: int, tables: list[dict]) -> tuple[list[float], dict]:
    """Every seat asked to play, at every table, posts at once from the round's version."""
    from games.models import Game

    jobs = []
    for table in tables:
        game = Game.objects.get(pk=table["game"])
        if game.status != Game.Status.ACTIVE:
            continue
        state = game.load_state()
        if state["phase"] != "play":
            continue
        for seat in game.to_act:
            move = game.rules.legal_moves(state, seat)[0]
            jobs.append((table["sessions"][seat], game.pk, move, game.version))
    latencies, failures = [], {}
    lock = threading.Lock()
    start = threading.Barrier(len(jobs)) if jobs else None

    def run(job):
        start.wait()
        status, seconds = post(port, *job)
        with lock:
            latencies.append(seconds)
            if status >= 400:
                failures[status] = failures.get(status, 0) + 1

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, failures


def finish_round(port: int, tables: list[dict]) -> None:
    """Ties, powers and the Fool's place, seat by seat, until every table asks all its seats
    to play again (or is over)."""
    from games.models import Game

    for table in tables:
        for _ in range(50):
            game = Game.objects.get(pk=table["game"])
            state = game.load_state()
            if game.status != Game.Status.ACTIVE or (state["phase"] == "play" and len(game.to_act) == SEATS):
                break
            seat = game.to_act[0]
            post(port, table["sessions"][seat], game.pk, game.rules.legal_moves(state, seat)[0], game.version)


def queries_per_post() -> dict:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from games import services
    from games.models import Game

    User = get_user_model()
    users = [User.objects.get_or_create(username=f"hallow-q-{s}", defaults={"password": "!"})[0] for s in range(SEATS)]
    Game.objects.filter(created_by=users[0]).delete()
    game = services.start_game(users[0], "tarot_hallow", {}, seats=SEATS, invitees=users[1:], seed=77)
    for user in users[1:]:
        services.accept_invitation(game.pk, user)
    clients = []
    for user in users:
        client = Client()
        client.force_login(user)
        client.get(f"/games/{game.pk}/")
        clients.append(client)
    counts = {}
    state = Game.objects.get(pk=game.pk).load_state()
    for seat, label in ((0, "post at the current version"), (1, "post from a board 1 move old"),
                        (2, "post from a board 2 moves old")):
        move = game.rules.legal_moves(state, seat)[0]
        t0 = time.perf_counter()
        with CaptureQueriesContext(connection) as queries:
            response = clients[seat].post(f"/games/{game.pk}/move/", {"version": 0, "move": json.dumps(move)},
                                          HTTP_HX_REQUEST="true")
        took = (time.perf_counter() - t0) * 1000
        assert response.status_code == 200, response.status_code
        counts[label] = f"{len(queries)} queries, {took:.0f} ms alone (test client, this process)"
    return counts


def main():
    args = parse_args()
    ensure_database(args.database_url)
    work = Path(tempfile.mkdtemp(prefix="sefirot-bench-hallow-"))
    env = server_env(args, work / "data", work / "static")
    py = sys.executable
    try:
        subprocess.run([py, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        subprocess.run([py, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
        set_up_django(env)
        tables = make_tables(args.tables)
        server = subprocess.Popen(
            [str(Path(py).parent / "gunicorn"), "sefirot_site.wsgi", "--bind", f"127.0.0.1:{args.port}",
             "--workers", str(args.workers), "--worker-class", "sync", "--log-level", "warning",
             "--env", "DJANGO_SETTINGS_MODULE=bench.web_settings"],
            cwd=ROOT, env=env,
        )
        latencies, failures = [], {}
        try:
            wait_for_server(args.port, server)
            began = time.perf_counter()
            for _ in range(args.rounds):
                got, bad = simultaneous_round(args.port, tables)
                latencies += got
                for status, n in bad.items():
                    failures[status] = failures.get(status, 0) + n
                finish_round(args.port, tables)
            elapsed = time.perf_counter() - began
        finally:
            server.terminate()
            server.wait(timeout=30)
        latencies.sort()
        print(f"Server: gunicorn, {args.workers} sync workers, DEBUG off, PostgreSQL; {args.tables} tables of "
              f"{SEATS} seats, {args.rounds} rounds; {os.cpu_count()} CPUs")
        print(f"simultaneous posts {len(latencies)}, p50 {statistics.median(latencies) * 1000:.1f} ms, "
              f"p95 {latencies[max(int(len(latencies) * 0.95) - 1, 0)] * 1000:.1f} ms, "
              f"refused {failures or 'none'} ({elapsed:.1f} s in all, rounds' other moves included)")
        print("SQL queries per request (htmx post of a card, regions back):")
        for label, count in queries_per_post().items():
            print(f"  {label:<32} {count}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
