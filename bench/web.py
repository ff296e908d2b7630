"""Web speed: move submissions against a running server on PostgreSQL, 20 players at once.

Run from the repository root (PostgreSQL must be up; the database is created if missing
and its games tables are filled with bench players):

    .venv/bin/python bench/web.py [--database-url postgres://postgres@127.0.0.1:5432/sefirot_bench]
                                  [--port 8200] [--players 20] [--seconds 20] [--workers 4]
                                  [--rounds 5] [--repeats 15] [--json]

It migrates the database, creates ``--players`` users with a session each and a stock of
Know Thyself games, collects static files, starts gunicorn (DEBUG off, the site's real
middleware) on ``--port``, and then, for ``--seconds`` per scenario, runs one thread per
player that sends requests back to back, the scenarios in turn in ``--rounds`` slices
each (bare, page, write, move, bare, ...: the floor and the move see the same machine):

  bare   GET /bench/bare: a constant response through the same server and middleware
         (the floor: what the server costs before any game work)
  page   GET of the player's game page
  write  the player's next legal move, played as the move view plays it (the same service
         call under the same lock) but answered with a constant: what the move's write
         costs before its answer is drawn, to tell the two apart
  move   the player's next legal move as htmx sends it (POST, ``HX-Request``; the answer
         is the regions that changed), with the state version of the page and the digests
         of the regions it holds (``seen_*``, kept from the previous answer as the page does)

Each player plays their own games (the bench keeps a copy of each game's state to know
the legal moves; a finished game is swapped for the next from the stock).  Printed per
scenario: requests per second, p50 and p95 latency in ms, and any non-2xx/3xx answers,
and the move's throughput and p95 against the bare view's (issue 12: at least 0.33, at
most 3x), with the throughput ratio of each round, which shows how noisy the machine
was.  Then, counted in this process through Django's test client on the same database:
the SQL queries of one move request (htmx, and the plain form post with its redirect)
and of a poll (a page that polled a moment ago: the first poll in ten seconds also
writes that the player is looking); and the cost of one htmx move at move 10 and at move
200 of a long Lovers' Discourse game (median time in process and bytes of the answer:
two games of the same seed wait at those moves, and the two moves are sent in turn
``--repeats`` times each, each rolled back, so both are timed on the same machine).
``--json`` prints all of it as one JSON object instead (keys ``move_vs_bare``,
``move_p95_vs_bare``, ``write_vs_bare``, ``sql_htmx_move``, ``sql_poll``,
``move_cost_200_vs_10`` and the rest), to compare runs.
On Linux it also prints where the machine's CPU went per request of each scenario,
read from /proc around each slice: the server (gunicorn and its workers), the database
(every PostgreSQL process), this bench's own players, and the rest of the machine
(``cpu_ms_per_request`` in the JSON).  With every core busy, a scenario's throughput is
the machine's CPU divided by that sum, so the sums tell which part a change must shrink.
REDIS_URL, when set, is passed to the server (the broker for the tasks a move queues).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
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

GAMES_PER_PLAYER = 40
# The digests of the regions a page holds (games.page_regions.region_inputs), sent back by htmx.
SEEN = re.compile(r'name="(seen_\w+)" value="([\w.]+)"')
# A long game: Lovers' Discourse with every variation, seed 112, played with random.Random(112)
# choosing seat and move, lasts 204 moves.
LONG_GAME = ("lovers_discourse", {"variant": ["meditative", "fated", "numerology"]}, 112)
SCENARIOS = ("bare", "page", "write", "move")
BENCH_PASSWORD_HASH = "!"  # bench users never log in with a password


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sefirot_bench"))
    parser.add_argument("--port", type=int, default=8200)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
    parser.add_argument("--rounds", type=int, default=5,
                        help="slices each scenario's seconds are cut into, the four scenarios run in turn")
    parser.add_argument("--repeats", type=int, default=15,
                        help="times moves 10 and 200 of the long game are each timed, in turn (the median counts)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    return parser.parse_args()


def ensure_database(url: str) -> None:
    import psycopg

    parts = urllib.parse.urlparse(url)
    if not parts.scheme.startswith("postgres"):
        sys.exit("bench/web.py measures the PostgreSQL set-up: give a postgres:// --database-url")
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def server_env(args, data_dir: Path, static_root: Path) -> dict:
    env = dict(os.environ)
    env.update({
        "DJANGO_SETTINGS_MODULE": "bench.web_settings",
        "DATABASE_URL": args.database_url,
        "DATA_DIR": str(data_dir),
        "STATIC_ROOT": str(static_root),
        "DEBUG": "off",
        "SECRET_KEY": secrets.token_urlsafe(48),
        "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        "SITE_URL": f"http://127.0.0.1:{args.port}",  # production settings require it
        "SECURE_SSL_REDIRECT": "off",
        "SECURE_HSTS_SECONDS": "0",
        "EMAIL_BACKEND": "locmem",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
    })
    return env


def set_up_django(env: dict) -> None:
    for key in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "DATA_DIR", "STATIC_ROOT", "DEBUG", "SECRET_KEY",
                "ALLOWED_HOSTS", "SITE_URL", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "EMAIL_BACKEND", "LOG_LEVEL"):
        os.environ[key] = env[key]
    import django

    django.setup()


def make_players(count: int):
    """Users with a session each, and a stock of solo games; returns per-player dicts."""
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    from games import services
    from games.models import Game

    User = get_user_model()
    players = []
    for n in range(count):
        user, _ = User.objects.get_or_create(username=f"bench{n:02d}", defaults={"password": BENCH_PASSWORD_HASH})
        session = SessionStore()
        session["_auth_user_id"] = str(user.pk)
        session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
        session["_auth_user_hash"] = user.get_session_auth_hash()
        session.create()
        # Old bench games would crowd My games; the stock is made afresh for each run.
        Game.objects.filter(created_by=user).delete()
        games = [services.start_game(user, "know_thyself", {"variant": "standard"}, seed=n * 1000 + g)
                 for g in range(GAMES_PER_PLAYER)]
        players.append({"user": user, "session": session.session_key, "games": [(g.pk, g.seed) for g in games]})
    return players


class Player:
    """One simulated player: a keep-alive-less HTTP client with its own games."""

    def __init__(self, port: int, info: dict, seed: int):
        from games.engine import get_rules

        self.port = port
        self.rules = get_rules("know_thyself")
        self.stock = list(info["games"])
        self.csrf = secrets.token_hex(16)  # a 32-character secret; the header repeats it
        self.cookie = f"sessionid={info['session']}; csrftoken={self.csrf}"
        self.choose = random.Random(seed)
        self.game_id = None
        self._next_game()

    def _next_game(self):
        if not self.stock:
            raise RuntimeError("a player ran out of games: raise GAMES_PER_PLAYER")
        self.game_id, seed = self.stock.pop(0)
        self.state = self.rules.new_game(seed, 1, {"variant": "standard"})
        self.version = 0
        self.seen = {}  # the region digests the page holds, as the answers leave them

    def request(self, method: str, path: str, body: str | None = None, headers: dict | None = None,
                keep: bool = False):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        all_headers = {"Cookie": self.cookie, "X-CSRFToken": self.csrf, **(headers or {})}
        if body is not None:
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn.request(method, path, body=body, headers=all_headers)
        response = conn.getresponse()
        content = response.read()
        conn.close()
        if keep and response.status == 200:
            self.seen.update(SEEN.findall(content.decode()))
        return response.status

    def bare(self):
        return self.request("GET", "/bench/bare")

    def page(self):
        return self.request("GET", f"/games/{self.game_id}/")

    def move(self):
        return self._play(f"/games/{self.game_id}/move/", keep=True)

    def write(self):
        return self._play(f"/bench/write/{self.game_id}", keep=False)

    def _play(self, path: str, keep: bool):
        move = self.choose.choice(self.rules.legal_moves(self.state, 0))
        body = urllib.parse.urlencode({"version": self.version, "move": json.dumps(move), **self.seen})
        status = self.request("POST", path, body, {"HX-Request": "true"}, keep=keep)
        if status == 200:
            self.state = self.rules.apply(self.state, 0, move)
            self.version += 1
            if not self.rules.to_act(self.state):
                self._next_game()
        return status


CPU_PARTS = ("server", "database", "client", "other")


def cpu_seconds(server_pid: int) -> dict[int, tuple[str, float]] | None:
    """CPU seconds used so far by each process of the machine, with the part
    (``CPU_PARTS``) it belongs to, from /proc; None where there is no /proc."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return None
    tick = os.sysconf("SC_CLK_TCK")
    used = {}
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                raw = stat.read()
        except OSError:
            continue  # ended meanwhile
        # The command name is in parentheses and may hold spaces: fields count from its end.
        command, fields = raw[raw.index("(") + 1:raw.rindex(")")], raw[raw.rindex(")") + 2:].split()
        pid, parent = int(name), int(fields[1])
        part = ("client" if pid == os.getpid() else "server" if server_pid in (pid, parent)
                else "database" if command.startswith("postgres") else "other")
        used[pid] = (part, (int(fields[11]) + int(fields[12])) / tick)  # utime + stime
    return used


def cpu_used_between(before: dict, after: dict) -> dict[str, float]:
    """The CPU seconds each part used between two readings of ``cpu_seconds``, process by
    process: one that started meanwhile counts whole, one that ended meanwhile (a
    PostgreSQL autovacuum worker) is left out.  Summed by part before they were taken
    apart, an ended process took its whole life's seconds off its part: the database's
    share of a scenario once read -1.1 ms a request."""
    used = dict.fromkeys(CPU_PARTS, 0.0)
    for pid, (part, seconds) in after.items():
        earlier = before.get(pid)
        used[part] += seconds - (earlier[1] if earlier and earlier[0] == part else 0.0)
    return used


def run_scenario(players: list[Player], action: str, seconds: float) -> dict:
    """One slice of a scenario: every player sends ``action`` back to back for ``seconds``."""
    latencies: list[float] = []
    failures: dict[int, int] = {}
    lock = threading.Lock()
    stop_at = time.perf_counter() + seconds
    start_line = threading.Barrier(len(players))

    def loop(player: Player):
        mine, bad = [], {}
        start_line.wait()
        while time.perf_counter() < stop_at:
            t0 = time.perf_counter()
            status = getattr(player, action)()
            mine.append(time.perf_counter() - t0)
            if status >= 400:
                bad[status] = bad.get(status, 0) + 1
        with lock:
            latencies.extend(mine)
            for k, v in bad.items():
                failures[k] = failures.get(k, 0) + v

    began = time.perf_counter()
    threads = [threading.Thread(target=loop, args=(p,)) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {"latencies": latencies, "elapsed": time.perf_counter() - began, "failures": failures}


def summed(slices: list[dict]) -> dict:
    """A scenario's slices as one: its requests per second over all of them, its latencies'
    median and 95th percentile, its failures."""
    latencies = sorted(latency for one in slices for latency in one["latencies"])
    failures: dict[int, int] = {}
    for one in slices:
        for status, count in one["failures"].items():
            failures[status] = failures.get(status, 0) + count
    return {
        "requests": len(latencies),
        "per_second": len(latencies) / sum(one["elapsed"] for one in slices),
        "p50": statistics.median(latencies) * 1000,
        "p95": latencies[int(len(latencies) * 0.95) - 1] * 1000,
        "failures": failures,
    }


def _data_queries(captured) -> int:
    # A transaction's BEGIN/COMMIT are not queries (psycopg sends them outside the cursor).
    return sum(1 for q in captured if not q["sql"].startswith(("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")))


def queries_per_move() -> dict:
    """SQL queries of one move request and of a poll, counted with Django's test client in
    this process: the htmx move sends the digests of the page it came from, as a page does."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from games import services
    from games.models import Game

    user, _ = get_user_model().objects.get_or_create(username="bench-queries", defaults={"password": "!"})
    Game.objects.filter(created_by=user).delete()
    client = Client(enforce_csrf_checks=False)
    client.force_login(user)
    counts = {}
    for label, extra in (("htmx move (regions back)", {"HTTP_HX_REQUEST": "true"}), ("plain form move (302)", {})):
        game = services.start_game(user, "know_thyself", {"variant": "standard"}, seed=99)
        page = client.get(f"/games/{game.pk}/").content.decode()  # warm the session and caches as a real page would
        seen = dict(SEEN.findall(page))
        move = game.rules.legal_moves(game.load_state(), 0)[0]
        with CaptureQueriesContext(connection) as queries:
            response = client.post(f"/games/{game.pk}/move/", {"version": 0, "move": json.dumps(move), **seen},
                                   **extra)
        assert response.status_code in (200, 302), response.status_code
        counts[label] = _data_queries(queries)
    game = services.start_game(user, "know_thyself", {"variant": "standard"}, seed=98)
    client.get(f"/games/{game.pk}/version/?v=x")  # the page's first poll writes that it is looking
    with CaptureQueriesContext(connection) as queries:
        client.get(f"/games/{game.pk}/version/?v=x")
    counts["version poll"] = _data_queries(queries)
    return counts


def long_game_moves() -> list[tuple[int, dict]]:
    """The (seat, move) list of LONG_GAME, chosen as bench/engine.py-style random play."""
    from games.engine import get_rules

    slug, options, seed = LONG_GAME
    rules = get_rules(slug)
    choose = random.Random(seed)
    state = rules.new_game(seed, 2, options)
    moves = []
    while rules.to_act(state):
        seat = choose.choice(rules.to_act(state))
        legal = rules.legal_moves(state, seat)
        move = choose.choice([m for m in legal if m["type"] != "forfeit"] or legal)
        moves.append((seat, move))
        state = rules.apply(state, seat, move)
    return moves


def move_cost_by_length(repeats: int, early: int = 10, late: int = 200) -> dict:
    """Time (median, in process, through the test client) and bytes of an htmx move at
    move ``early`` and at move ``late`` of the same long game, as a page that holds its
    region digests sends it; the page was opened three moves before each, so both answers
    bring it the same number of moves.

    Two games of the same seed wait side by side, three moves before each; then, in
    turn, ``repeats`` times each (after two rounds that warm the process), each game's
    page is opened, the two moves after it are played and the third is timed, all in a
    transaction rolled back afterwards, so every round plays the same moves on the same
    board.  Timed in turn, the two see the same machine: a noisy neighbour slows both
    (timed minutes apart, a single move each, the ratio swung by a third)."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.test import Client

    from games import services
    from games.models import Game, Seat

    slug, options, seed = LONG_GAME
    moves = long_game_moves()
    assert len(moves) >= late, f"the long game lasts {len(moves)} moves, fewer than {late}"
    User = get_user_model()
    users = [User.objects.get_or_create(username=f"bench-long{n}", defaults={"password": "!"})[0] for n in (0, 1)]
    Game.objects.filter(created_by=users[0]).delete()
    clients = []
    for user in users:
        clients.append(Client(enforce_csrf_checks=False))
        clients[-1].force_login(user)
    waiting = {}  # move number -> the game, three moves before it
    for number in (early, late):
        game = services.start_game(users[0], slug, options, open_challenge=True, seed=seed)
        services.accept_challenge(game.pk, users[1])
        seats = {s.index: s for s in Seat.objects.filter(game=game)}
        for played, (seat, move) in enumerate(moves[:number - 3], start=1):
            services.submit_move(game.pk, seats[seat], move, played - 1)
        waiting[number] = (game, seats)
    timings = {early: [], late: []}
    sizes = {early: [], late: []}
    for round_ in range(repeats + 2):
        for number, (game, seats) in waiting.items():
            seat, move = moves[number - 1]
            with transaction.atomic():
                # The page is open a little before the move timed, as long before for both:
                # the answer brings it the two moves made since, then the move's own changes.
                held = dict(SEEN.findall(clients[seat].get(f"/games/{game.pk}/").content.decode()))
                for played in (number - 2, number - 1):
                    services.submit_move(game.pk, seats[moves[played - 1][0]], moves[played - 1][1], played - 1)
                start = time.perf_counter()
                response = clients[seat].post(f"/games/{game.pk}/move/",
                                              {"version": number - 1, "move": json.dumps(move), **held},
                                              HTTP_HX_REQUEST="true")
                elapsed = time.perf_counter() - start
                assert response.status_code == 200, response.status_code
                transaction.set_rollback(True)  # the same three moves again next round
            if round_ >= 2:
                timings[number].append(elapsed)
                sizes[number].append(len(response.content))
    Game.objects.filter(created_by=users[0]).delete()
    result = {}
    for number in (early, late):
        result[f"move_{number}_ms"] = 1000 * statistics.median(timings[number])
        result[f"move_{number}_bytes"] = statistics.median(sizes[number])
    result["move_cost_200_vs_10"] = result[f"move_{late}_ms"] / result[f"move_{early}_ms"]
    result["move_bytes_200_vs_10"] = result[f"move_{late}_bytes"] / result[f"move_{early}_bytes"]
    return result


def wait_for_server(port: int, process: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if process.poll() is not None:
            sys.exit(f"gunicorn exited with {process.returncode}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/bench/bare")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.3)
    sys.exit(f"the server did not answer on port {port}")


def main():
    args = parse_args()
    ensure_database(args.database_url)
    work = Path(tempfile.mkdtemp(prefix="sefirot-bench-web-"))
    env = server_env(args, work / "data", work / "static")
    py = sys.executable
    try:
        subprocess.run([py, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        subprocess.run([py, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
        set_up_django(env)
        infos = make_players(args.players)
        server = subprocess.Popen(
            [str(Path(py).parent / "gunicorn"), "sefirot_site.wsgi", "--bind", f"127.0.0.1:{args.port}",
             "--workers", str(args.workers), "--worker-class", "sync", "--log-level", "warning",
             "--env", "DJANGO_SETTINGS_MODULE=bench.web_settings"],
            cwd=ROOT, env=env,
        )
        results = {}
        try:
            wait_for_server(args.port, server)
            players = [Player(args.port, info, seed) for seed, info in enumerate(infos)]
            say(args, f"Server: gunicorn, {args.workers} sync workers, DEBUG off, PostgreSQL "
                      f"({urllib.parse.urlparse(args.database_url).path.lstrip('/')}); "
                      f"{args.players} concurrent players; {args.seconds:g} s per scenario in {args.rounds} rounds; "
                      f"{os.cpu_count()} CPUs")
            say(args, f"{'scenario':<8} {'requests':>9} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8}  failures")
            # Each scenario's time is cut into --rounds slices, run in turn (bare, page, write,
            # move, bare, ...), so that the floor and the move see the same machine: run one
            # after the other, a neighbour's load that came or went between them moved the
            # ratio of the same code from 0.27 to 0.33.
            slices = {action: [] for action in SCENARIOS}
            cpu = {action: dict.fromkeys(CPU_PARTS, 0.0) for action in SCENARIOS}
            for _ in range(args.rounds):
                for action in SCENARIOS:
                    before = cpu_seconds(server.pid)
                    slices[action].append(run_scenario(players, action, args.seconds / args.rounds))
                    after = cpu_seconds(server.pid)
                    if before is not None and after is not None:
                        for part, seconds in cpu_used_between(before, after).items():
                            cpu[action][part] += seconds
            for action in SCENARIOS:
                result = results[action] = summed(slices[action])
                say(args, f"{action:<8} {result['requests']:>9} {result['per_second']:>8.1f} {result['p50']:>8.1f} "
                          f"{result['p95']:>8.1f}  {result['failures'] or 'none'}")
            cpu_per_request = {action: {part: 1000 * seconds / results[action]["requests"]
                                        for part, seconds in cpu[action].items()}
                               for action in SCENARIOS if any(cpu[action].values())}
            if cpu_per_request:
                say(args, f"CPU ms per request  {'  '.join(f'{part:>8}' for part in CPU_PARTS)}     total")
                for action, parts in cpu_per_request.items():
                    say(args, f"{action:<19} {'  '.join(f'{ms:>8.2f}' for ms in parts.values())}  "
                              f"{sum(parts.values()):>8.2f}")
            by_round = [len(move["latencies"]) / move["elapsed"] / (len(bare["latencies"]) / bare["elapsed"])
                        for bare, move in zip(slices["bare"], slices["move"])]
        finally:
            server.terminate()
            server.wait(timeout=30)
        figures = {
            "players": args.players, "workers": args.workers, "seconds": args.seconds,
            **{f"{action}_{key}": round(value, 2) if isinstance(value, float) else value
               for action, result in results.items() for key, value in result.items() if key != "failures"},
            "failures": {action: result["failures"] for action, result in results.items() if result["failures"]},
            "move_vs_bare": results["move"]["per_second"] / results["bare"]["per_second"],
            "move_p95_vs_bare": results["move"]["p95"] / results["bare"]["p95"],
            "page_vs_bare": results["page"]["per_second"] / results["bare"]["per_second"],
            "write_vs_bare": results["write"]["per_second"] / results["bare"]["per_second"],
            "rounds": args.rounds, "move_vs_bare_by_round": [round(ratio, 3) for ratio in by_round],
            "cpu_ms_per_request": {action: {part: round(ms, 3) for part, ms in parts.items()}
                                   for action, parts in cpu_per_request.items()},
        }
        say(args, f"move/bare throughput {figures['move_vs_bare']:.2f} (issue 12: >= 0.33), "
                  f"p95 {figures['move_p95_vs_bare']:.2f}x the bare p95 (<= 3); "
                  f"page/bare throughput {figures['page_vs_bare']:.2f}; "
                  f"write/bare throughput {figures['write_vs_bare']:.2f} (the move without its answer)")
        say(args, f"move/bare throughput in each of the {args.rounds} rounds: "
                  + ", ".join(f"{ratio:.2f}" for ratio in by_round))
        counts = queries_per_move()
        figures.update({"sql_htmx_move": counts["htmx move (regions back)"],
                        "sql_plain_move": counts["plain form move (302)"], "sql_poll": counts["version poll"]})
        say(args, "SQL queries per request (issue 12: htmx move <= 8, poll <= 4):")
        for label, count in counts.items():
            say(args, f"  {label:<26} {count}")
        cost = move_cost_by_length(args.repeats)
        figures.update(cost)
        say(args, f"An htmx move of a long game ({LONG_GAME[0]}, median of {args.repeats}, timed in turn; issue 12: within 20 %):")
        say(args, f"  move 10:  {cost['move_10_ms']:.1f} ms, {cost['move_10_bytes']:.0f} bytes")
        say(args, f"  move 200: {cost['move_200_ms']:.1f} ms, {cost['move_200_bytes']:.0f} bytes")
        say(args, f"  200 vs 10: time {cost['move_cost_200_vs_10']:.2f}x, bytes {cost['move_bytes_200_vs_10']:.2f}x")
        if args.json:
            print(json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in figures.items()}))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def say(args, line: str) -> None:
    """A line of the human report; with --json only the JSON object goes to stdout."""
    print(line, file=sys.stderr if args.json else sys.stdout, flush=True)


if __name__ == "__main__":
    main()
