"""The inbound SMTP receiver as the run command starts it: ``manage.py run_mail_receiver``
in its own process, listening on INBOUND_SMTP_HOST:INBOUND_SMTP_PORT, playing replies
and stopping cleanly on SIGTERM (how ``runsite`` stops its children)."""

from __future__ import annotations

import os
import signal
import smtplib
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from games.mail.tasks import deliver_turn_mail
from sefirot_site.processes import site_processes
from tests.conftest import database_url
from tests.support.net import free_port

from .conftest import reload
from .mail_helpers import reply, reply_address_of, send_by_smtp, solo_game

BASE_DIR = Path(__file__).resolve().parents[2]


def test_the_run_command_starts_the_mail_receiver():
    processes = {p.name: p.argv for p in site_processes("127.0.0.1", 8000)}
    assert processes["mail-in"][-1] == "run_mail_receiver"


@pytest.fixture
def receiver_process(smtp_server):
    port = free_port()
    env = dict(os.environ)
    env.update(DATABASE_URL=database_url(connection.settings_dict), EMAIL_BACKEND="smtp",
               EMAIL_HOST=smtp_server.host, EMAIL_PORT=str(smtp_server.port),
               INBOUND_SMTP_HOST="127.0.0.1", INBOUND_SMTP_PORT=str(port))
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    process = subprocess.Popen([sys.executable, "manage.py", "run_mail_receiver"], cwd=BASE_DIR, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    process.port = port
    deadline = time.monotonic() + 60
    while True:
        assert process.poll() is None, process.stdout.read().decode()
        try:
            with smtplib.SMTP("127.0.0.1", port, timeout=5) as client:
                client.noop()
            break
        except OSError:
            assert time.monotonic() < deadline, "the receiver never answered"
            time.sleep(0.2)
    yield process
    if process.poll() is None:
        process.kill()
        process.wait()


@pytest.mark.django_db(transaction=True)
def test_the_receiver_command_plays_a_reply_and_stops_on_sigterm(receiver_process, smtp_server, alice):
    game = solo_game(alice)
    # A worker of the session may have sent it from the outbox already: either way, once.
    assert deliver_turn_mail(game.seats.get().pk, game.version) in ("sent", "already sent")
    turn = smtp_server.wait_for("alice@example.com")
    move = game.rules.legal_moves(game.load_state(), 0)[1]

    send_by_smtp("127.0.0.1", receiver_process.port,
                 reply(reply_address_of(turn), "2", sender="alice@example.com", quoting=turn))

    # The SMTP answer comes only after the move was played, so it is in the database now.
    game = reload(game)
    assert game.version == 1 and game.moves.get().move == move
    assert "Played:" in smtp_server.text(smtp_server.wait_for("alice@example.com", count=2))

    receiver_process.send_signal(signal.SIGTERM)
    assert receiver_process.wait(30) == 0
    output = receiver_process.stdout.read().decode()
    assert f"on 127.0.0.1:{receiver_process.port}" in output and "Mail receiver stopped." in output
