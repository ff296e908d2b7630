"""Turn mail throughput: N turn mails through a local SMTP server with one Celery worker.

    .venv/bin/python bench/mail.py [--mails 1000] [--players 50]
                                   [--database-url postgres://postgres@127.0.0.1:5432/sefirot_bench_mail]

It migrates the database (created if missing), makes ``--players`` players (each turn mail
on, an address each) with ``--mails`` Know Thyself games between them, all waiting for
their first move, starts a Redis of its own (``redis-server`` on a free port, no disk), an
SMTP server on loopback (aiosmtpd, keeping what it receives) and one Celery worker
(``--pool=solo``: one process, one task at a time, the site's settings, DEBUG off).  Then
it queues one ``send_turn_mail`` task per game and prints the seconds from the first task
queued to the last mail received, mails per second, and the worker's CPU seconds per mail
(issue 12: 1,000 in at most 10 s).  Once the clock has stopped it reads every mail
received and checks that each is a whole turn mail and that no game got two.  ``--json``
prints the figures as one object.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.net import free_port  # noqa: E402
from tests.support.smtp import SmtpCollector  # noqa: E402
from tests.support.workers import celery_command  # noqa: E402


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/sefirot_bench_mail")
    parser.add_argument("--mails", type=int, default=1000)
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--timeout", type=float, default=300, help="give up after this many seconds")
    parser.add_argument("--json", action="store_true")
    return parser.parse_args()


def ensure_database(url: str) -> None:
    import psycopg

    parts = urllib.parse.urlparse(url)
    name = parts.path.lstrip("/")
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def main() -> int:
    args = parse_args()
    ensure_database(args.database_url)
    work = Path(tempfile.mkdtemp(prefix="sefirot-bench-mail-"))
    import logging

    smtp = SmtpCollector().start()
    redis_port = free_port()
    redis = subprocess.Popen(["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
                              "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = None
    env = dict(os.environ)
    env.update({
        "DATABASE_URL": args.database_url, "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
        "DATA_DIR": str(work / "data"), "DEBUG": "off", "SECRET_KEY": secrets.token_urlsafe(48),
        "ALLOWED_HOSTS": "127.0.0.1", "SITE_URL": "http://127.0.0.1:8000", "SECURE_SSL_REDIRECT": "off",
        "EMAIL_BACKEND": "smtp", "EMAIL_HOST": smtp.host, "EMAIL_PORT": str(smtp.port),
        "DJANGO_SETTINGS_MODULE": "sefirot_site.settings", "LOG_LEVEL": "WARNING", "PYTHONPATH": str(ROOT),
    })
    try:
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        os.environ.update(env)
        import django

        django.setup()
        logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd's line per command
        from django.contrib.auth import get_user_model

        from games import services
        from games.mail.tasks import send_turn_mail
        from games.models import Game, Seat

        User = get_user_model()
        players = []
        for n in range(args.players):
            user, _ = User.objects.get_or_create(username=f"mailbench{n:03d}", defaults={"password": "!"})
            # No mail while the games are made: the bench queues them itself, all at once.
            User.objects.filter(pk=user.pk).update(email=f"mailbench{n:03d}@example.org",
                                                   turn_mail=User.TurnMail.NEVER)
            players.append(user)
        Game.objects.filter(created_by__in=players).delete()
        for n in range(args.mails + 1):  # the last one for the warm-up
            services.start_game(players[n % len(players)], "know_thyself", {}, seed=n)
        User.objects.filter(pk__in=[p.pk for p in players]).update(turn_mail=User.TurnMail.EACH_TURN)
        seats = list(Seat.objects.filter(game__created_by__in=players).order_by("pk")
                     .values_list("pk", "game__version"))
        warm_up, rest = seats[-1], seats[:-1]

        log = open(work / "worker.log", "wb")
        worker = subprocess.Popen([*celery_command(), "-A", "sefirot_site", "worker", "--pool=solo",
                                   "--loglevel=WARNING", "--without-gossip", "--without-mingle",
                                   "--without-heartbeat"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        # Ready when a first mail has made the round trip (the worker's start is not timed).
        send_turn_mail.delay(*warm_up)
        deadline = time.monotonic() + 120
        while not smtp.count and time.monotonic() < deadline:
            time.sleep(0.05)
        if not smtp.count:
            sys.exit("the worker sent no mail within 120 s; see " + str(work / "worker.log"))
        cpu_before = _cpu_seconds(worker.pid)
        smtp.clear()
        start = time.perf_counter()
        for seat_id, version in rest:
            send_turn_mail.delay(seat_id, version)
        queued = time.perf_counter() - start
        deadline = time.monotonic() + args.timeout
        while smtp.count < len(rest) and time.monotonic() < deadline:
            time.sleep(0.02)
        elapsed = time.perf_counter() - start
        received = smtp.count
        cpu = _cpu_seconds(worker.pid) - cpu_before
        # Read after the clock stopped: every mail received is a whole turn mail, one per game.
        games = {message["Subject"].rsplit("(game ", 1)[-1] for message in smtp.messages
                 if message["Subject"].startswith("Your move in ") and "TO PLAY BY MAIL" in smtp.text(message)}
        figures = {"mails": len(rest), "received": received, "seconds": round(elapsed, 2),
                   "queued_seconds": round(queued, 2), "mails_per_second": round(received / elapsed, 1),
                   "worker_cpu_ms_per_mail": round(1000 * cpu / max(received, 1), 2),
                   "turn_mails_one_per_game": len(games) == received,
                   "target_met": received == len(rest) == len(games) and elapsed * 1000 / len(rest) <= 10}
        if args.json:
            print(json.dumps(figures))
        else:
            print(f"{received} of {len(rest)} turn mails received in {elapsed:.2f} s "
                  f"({figures['mails_per_second']} per second; queueing took {queued:.2f} s); "
                  f"one worker, {figures['worker_cpu_ms_per_mail']} ms of its CPU per mail")
            if len(games) != received:
                print(f"only {len(games)} of the mails received are turn mails of distinct games")
            scaled = elapsed * 1000 / len(rest)
            print(f"issue 12: 1,000 in at most 10 s -> {scaled:.1f} s per 1,000: "
                  f"{'ok' if figures['target_met'] else 'NOT MET'}")
        return 0 if figures["target_met"] else 1
    finally:
        if worker is not None:
            worker.terminate()
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                worker.kill()
        redis.terminate()
        redis.wait(timeout=30)
        smtp.stop()
        shutil.rmtree(work, ignore_errors=True)


def _cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    sys.exit(main())
