"""Several nodes on one machine, behind a real proxy, with nodes dying: is anything lost?

    .venv/bin/python bench/cluster.py [--seconds 12] [--games 8] [--seals 4] [--json]
                                      [--database-url postgres://postgres@127.0.0.1:5432/sefirot_cluster]

Starts, against one PostgreSQL database (made afresh) and one Redis of its own (a
redis-server on a free port): two web nodes (gunicorn), two Celery workers and two beats,
a real S3 API server for the seal files (moto's), an SMTP server that collects the mail,
and haproxy in front (Debian's; installed with apt-get when missing and run as root, as
dev.py does for Chromium). Players then play Warring Planets games through the proxy:

1. through one web node only, for --seconds;
2. through both, for --seconds, while seals are asked for;
3. through both, for --seconds, while one web node, one worker and the beat holding the
   schedule are killed outright (SIGKILL).

Then it waits for the outbox to drain, starts the dead web node again, and checks: every
move a player was told was played is in the database and every game replays; every turn
mail went out once (none twice, none missing); every seal was drawn and downloads through
either web node; the schedule moved to the surviving beat. It prints the figures, or with
--json one object; it exits 1 when anything was lost. tests/cluster runs it short in CI.
Needs the test tools (python3.11 dev.py test installs them).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.net import free_port  # noqa: E402
from tests.support.object_store import ObjectStore  # noqa: E402
from tests.support.redis_server import RedisServer  # noqa: E402
from tests.support.smtp import SmtpCollector  # noqa: E402

PYTHON = sys.executable
HAPROXY = "/usr/sbin/haproxy"
BUCKET = "sefirot-cluster-seals"


def ensure_haproxy() -> None:
    if Path(HAPROXY).exists():
        return
    if os.geteuid() != 0:
        raise SystemExit(f"{HAPROXY} is missing: install Debian's haproxy (apt-get install haproxy)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update"], env=env, stdin=subprocess.DEVNULL, check=True, capture_output=True)
    subprocess.run(["apt-get", "install", "-y", "--no-install-recommends", "haproxy"], env=env,
                   stdin=subprocess.DEVNULL, check=True, capture_output=True)


class Node:
    """One process of the cluster, in a process group of its own so a kill takes it whole."""

    def __init__(self, name: str, argv: list[str], env: dict, logs: Path):
        self.name, self.log_path = name, logs / f"{name}.log"
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, start_new_session=True)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill(self, sig=signal.SIGKILL) -> None:
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, sig)
            except ProcessLookupError:
                pass
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def wait_until(condition, timeout: float, what: str) -> float:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if condition():
            return time.monotonic() - started
        time.sleep(0.2)
    raise RuntimeError(f"{what} did not happen within {timeout:.0f} s")


def http(method: str, url: str, *, cookies: dict | None = None, form: dict | None = None) -> tuple[int, dict, bytes]:
    """One request, redirects not followed (a 302 after a move is its acknowledgement)."""
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    data = urllib.parse.urlencode(form).encode() if form is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    if cookies:
        request.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in cookies.items()))
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()
    except OSError:
        return 0, {}, b""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=12, help="length of each of the three phases")
    parser.add_argument("--games", type=int, default=8, help="games played at once (two players each)")
    parser.add_argument("--seals", type=int, default=4)
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/sefirot_cluster")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    ensure_haproxy()

    run_id = secrets.token_hex(4)
    work = Path(tempfile.mkdtemp(prefix="sefirot-cluster-"))
    logs = work / "logs"
    logs.mkdir()
    redis = RedisServer().start()
    store = ObjectStore().start()
    store.client().create_bucket(Bucket=BUCKET)
    smtp = SmtpCollector().start()
    import logging

    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd's line per SMTP command
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE",)},
        "DJANGO_SETTINGS_MODULE": "sefirot_site.settings", "DEBUG": "on",
        "DATABASE_URL": args.database_url, "REDIS_URL": redis.url, "DATA_DIR": str(work / "data"),
        "CELERY_QUEUE": f"cluster-{run_id}", "CACHE_KEY_PREFIX": f"cluster-{run_id}",
        "EMAIL_BACKEND": "smtp", "EMAIL_HOST": smtp.host, "EMAIL_PORT": str(smtp.port),
        "AWS_STORAGE_BUCKET_NAME": BUCKET, "AWS_S3_ENDPOINT_URL": store.url, "AWS_S3_REGION_NAME": "us-east-1",
        "AWS_ACCESS_KEY_ID": "sefirot-test", "AWS_SECRET_ACCESS_KEY": "sefirot-test-secret",
        # Short timings, so a run of a minute shows what hours of real time would.
        "OUTBOX_SWEEP_SECONDS": "5", "OUTBOX_LEASE_SECONDS": "10", "OUTBOX_CLAIM_SECONDS": "20",
        "BEAT_LOCK_SECONDS": "10", "WORKER_HEARTBEAT_SECONDS": "2", "CONN_MAX_AGE": "0",
    }
    os.environ.update(env)
    nodes: list[Node] = []
    haproxy = None
    try:
        subprocess.run([PYTHON, "-c", _RECREATE_DATABASE, args.database_url], check=True, cwd=ROOT, env=env)
        subprocess.run([PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"], check=True, cwd=ROOT, env=env)
        import django

        django.setup()
        from django.conf import settings

        web_ports = [free_port(), free_port()]

        def web(i: int) -> Node:
            return Node(f"web{i}", [PYTHON, "-m", "gunicorn", "sefirot_site.wsgi", "--bind", f"127.0.0.1:{web_ports[i]}",
                                    "--workers", "2", "--no-control-socket"], env, logs)

        webs = [web(0), web(1)]
        workers = [Node(f"worker{i}", [PYTHON, "-m", "celery", "-A", "sefirot_site", "worker", "--concurrency", "2",
                                       f"--hostname=w{i}-{run_id}@%h", "--loglevel", "INFO"], env, logs)
                   for i in range(2)]
        beats = [Node(f"beat{i}", [PYTHON, "-m", "celery", "-A", "sefirot_site", "beat", "--loglevel", "INFO",
                                   "--schedule", str(work / f"beat{i}")], env, logs) for i in range(2)]
        nodes += webs + workers + beats
        one_port, both_port = free_port(), free_port()
        config = work / "haproxy.cfg"
        config.write_text(_HAPROXY_CONFIG.format(one=one_port, both=both_port, a=web_ports[0], b=web_ports[1]))
        haproxy = subprocess.Popen([HAPROXY, "-f", str(config), "-db"], stdout=open(logs / "haproxy.log", "wb"),
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        for port in web_ports + [one_port, both_port]:
            wait_until(lambda p=port: http("GET", f"http://127.0.0.1:{p}/accounts/login/")[0] == 200, 120,
                       f"port {port} answering")
        wait_until(lambda: any("Acquired lock" in b.log() for b in beats), 60, "a beat taking the schedule")

        players, games = _cast(args.games)
        acknowledged: list[tuple[int, int]] = []
        lock = threading.Lock()
        stop = threading.Event()
        target = {"url": f"http://127.0.0.1:{one_port}"}

        def play(pair: dict):
            from django.db import connection

            from games import services
            from games.models import Game

            choose = random.Random(pair["game"])
            token = secrets.token_hex(16)
            while not stop.is_set():
                game = Game.objects.get(pk=pair["game"])
                if game.status != Game.Status.ACTIVE:
                    # The pair plays on: a new game, so the load lasts the whole phase.
                    users = pair["users"]
                    fresh = services.start_game(users[0], "warring_planets", {}, open_challenge=True,
                                                seed=choose.randrange(10**6))
                    services.accept_challenge(fresh.pk, users[1])
                    pair["game"] = fresh.pk
                    continue
                seat = game.to_act[0]
                moves = [m for m in game.rules.legal_moves(game.load_state(), seat) if m["type"] != "forfeit"]
                status, _, _ = http("POST", f"{target['url']}/games/{game.pk}/move/",
                                    cookies={"sessionid": pair["sessions"][seat], "csrftoken": token},
                                    form={"csrfmiddlewaretoken": token, "version": game.version,
                                          "move": json.dumps(choose.choice(moves or [{"type": "forfeit"}]))})
                if status in (200, 302, 303):
                    with lock:
                        acknowledged.append((game.pk, game.version + 1))
                elif status == 0 or status >= 500:
                    time.sleep(0.05)  # a node dying under the request: the player tries again
            connection.close()

        def phase(url: str, seconds: float, during=None) -> float:
            target["url"] = url
            before = len(acknowledged)
            stop.clear()
            threads = [threading.Thread(target=play, args=(pair,)) for pair in games]
            started = time.monotonic()
            for thread in threads:
                thread.start()
            if during:
                during(started)
            while time.monotonic() - started < seconds:
                time.sleep(0.1)
            stop.set()
            for thread in threads:
                thread.join()
            return (len(acknowledged) - before) / (time.monotonic() - started)

        one_node = phase(f"http://127.0.0.1:{one_port}", args.seconds)
        seals = _ask_for_seals(players, args.seals)
        two_nodes = phase(f"http://127.0.0.1:{both_port}", args.seconds)

        moved = {}

        def kill_things(started: float) -> None:
            def later():
                time.sleep(args.seconds / 4)
                webs[1].kill()
                time.sleep(args.seconds / 4)
                workers[0].kill()
                time.sleep(args.seconds / 4)
                active = next(b for b in beats if "Acquired lock" in b.log())
                other = next(b for b in beats if b is not active)
                active.kill()
                try:  # counted from the kill
                    moved["seconds"] = wait_until(lambda: "Acquired lock" in other.log(), 90, "the beat moving")
                except RuntimeError:
                    moved["seconds"] = None
            threading.Thread(target=later, daemon=True).start()

        under_failure = phase(f"http://127.0.0.1:{both_port}", args.seconds, kill_things)
        wait_until(lambda: "seconds" in moved, 120, "the scheduler check")
        webs[1] = web(1)  # the dead node comes back, for the downloads through either node
        nodes.append(webs[1])
        wait_until(lambda: http("GET", f"http://127.0.0.1:{web_ports[1]}/accounts/login/")[0] == 200, 120,
                   "the restarted web node")

        from sefirot_site.outbox.models import PendingTask

        drained = wait_until(lambda: not PendingTask.objects.filter(done_at__isnull=True, failed_at__isnull=True)
                             .exists(), 180, "the outbox draining")
        time.sleep(2)  # the last mails on their way
        figures = _check(acknowledged, smtp, seals, web_ports, players)
        figures.update({
            "moves_per_s_one_node": round(one_node, 1), "moves_per_s_two_nodes": round(two_nodes, 1),
            "two_vs_one": round(two_nodes / one_node, 2) if one_node else None,
            "moves_per_s_under_failure": round(under_failure, 1), "moves_acknowledged": len(acknowledged),
            "scheduler_moved_s": round(moved["seconds"], 1) if moved.get("seconds") is not None else None,
            "outbox_drained_s": round(drained, 1), "failed_tasks": PendingTask.objects.filter(
                failed_at__isnull=False).count(),
            "lock_timeout_s": int(settings.CELERY_REDBEAT_LOCK_TIMEOUT),
        })
    finally:
        for node in nodes:
            node.kill(signal.SIGTERM)
        if haproxy is not None:
            haproxy.terminate()
            haproxy.wait(10)
        smtp.stop()
        store.stop()
        redis.close()
        from django.db import connections

        connections.close_all()
        subprocess.run([PYTHON, "-c", _DROP_DATABASE, args.database_url], cwd=ROOT, capture_output=True)

    ok = (figures["moves_lost"] == 0 and figures["duplicate_mails"] == 0 and figures["missing_mails"] == 0
          and figures["seals_missing"] == 0 and figures["replays_ok"] and figures["scheduler_moved_s"] is not None)
    figures["ok"] = ok
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:28} {value}")
        print(f"logs: {logs}")
    return 0 if ok else 1


def _cast(count: int):
    """Players with sessions (made in the database, as a login would), paired into games."""
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    from games import services

    User = get_user_model()
    players, games = [], []
    for i in range(count):
        pair = []
        for side in ("a", "b"):
            user = User.objects.create_user(f"p{i}{side}", f"p{i}{side}@example.com", "x" * 12)
            from allauth.account.models import EmailAddress

            EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
            session = SessionStore()
            session.update({"_auth_user_id": str(user.pk), "_auth_user_hash": user.get_session_auth_hash(),
                            "_auth_user_backend": "django.contrib.auth.backends.ModelBackend"})
            session.create()
            pair.append((user, session.session_key))
        players += pair
        game = services.start_game(pair[0][0], "warring_planets", {}, open_challenge=True, seed=i)
        services.accept_challenge(game.pk, pair[1][0])
        games.append({"game": game.pk, "users": [pair[0][0], pair[1][0]], "sessions": {0: pair[0][1], 1: pair[1][1]}})
    return players, games


def _ask_for_seals(players, count: int) -> list:
    from journal import services

    seals = []
    for user, session in players[:count]:
        entry = services.record_drawn(user, spread="three", reversals=False, title="Cluster draw")
        cards, words = services.default_seal_input(entry)
        seals.append((services.request_seal(entry, cards, words), session))
    return seals


def _check(acknowledged, smtp, seals, web_ports, players) -> dict:
    from django.core.management import call_command

    from games.mail.models import SeatMailSent
    from games.models import Move
    from journal.models import Seal

    stored = set(Move.objects.values_list("game_id", "number"))
    lost = [pair for pair in acknowledged if pair not in stored]
    try:
        call_command("verify_replays", stdout=open(os.devnull, "w"))
        replays_ok = True
    except Exception:  # noqa: BLE001 - reported as a figure
        replays_ok = False
    reply_tos = collections.Counter(str(m["Reply-To"]) for m in smtp.messages
                                    if m["Reply-To"] and "play+" in str(m["Reply-To"]))
    expected = SeatMailSent.objects.filter(kind=SeatMailSent.Kind.TURN).count()
    missing_seals = 0
    for seal, session in seals:
        seal = Seal.objects.get(pk=seal.pk)
        if seal.status != Seal.Status.DONE:
            missing_seals += 1
            continue
        for port in web_ports:
            status, headers, _ = http("GET", f"http://127.0.0.1:{port}/journal/{seal.entry_id}/seals/{seal.pk}/png-a5",
                                      cookies={"sessionid": session})
            if status != 302 or http("GET", headers.get("Location", ""))[0] != 200:
                missing_seals += 1
                break
    return {"moves_lost": len(lost), "replays_ok": replays_ok,
            "turn_mails": sum(reply_tos.values()), "duplicate_mails": sum(n - 1 for n in reply_tos.values() if n > 1),
            "missing_mails": max(expected - len(reply_tos), 0), "seals": len(seals), "seals_missing": missing_seals}


_RECREATE_DATABASE = """
import sys, psycopg
from urllib.parse import urlsplit
url = urlsplit(sys.argv[1]); name = url.path.lstrip("/")
admin = url._replace(path="/postgres").geturl()
with psycopg.connect(admin, autocommit=True) as db:
    db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    db.execute(f'CREATE DATABASE "{name}"')
"""

_DROP_DATABASE = _RECREATE_DATABASE.replace("""    db.execute(f'CREATE DATABASE "{name}"')\n""", "")

_HAPROXY_CONFIG = """
global
    maxconn 2000
defaults
    mode http
    timeout connect 2s
    timeout client 30s
    timeout server 30s
    retries 3
    option redispatch
frontend one_node
    bind 127.0.0.1:{one}
    default_backend only_a
frontend two_nodes
    bind 127.0.0.1:{both}
    default_backend both
backend only_a
    server a 127.0.0.1:{a}
backend both
    balance roundrobin
    option httpchk GET /accounts/login/
    server a 127.0.0.1:{a} check inter 500ms fall 2 rise 1
    server b 127.0.0.1:{b} check inter 500ms fall 2 rise 1
"""

if __name__ == "__main__":
    sys.exit(main())
