"""Bad input gets a clear 4xx (web) or a permanent SMTP refusal (mail) and changes nothing."""

from __future__ import annotations

import io
import json
import smtplib
from email.message import EmailMessage

import pytest
from django.core.management import call_command
from django.urls import reverse
from hypothesis import HealthCheck, given, settings as hypothesis_settings, strategies as st

from games.mail.outgoing import reply_address
from games.models import Game, Move

from .conftest import reload
from .mail_helpers import solo_game

DEEP = "[" * 1000 + "]" * 1000


def _post_move(client, game, move_text, version=None):
    return client.post(reverse("games:move", args=[game.pk]),
                       {"version": game.version if version is None else version, "move": move_text})


@pytest.mark.django_db
@pytest.mark.parametrize("move_text", [
    DEEP,
    '{"type": "play", "card": ' + DEEP + "}",
    '{"type": "play", "cards": [["M0"]]}',
    '{"type": "play", "card": {"a": 1}}',
    '{"type": "play", "card": "' + "x" * 5000 + '"}',
])
def test_a_move_that_is_not_a_moves_shape_is_a_400_and_plays_nothing(alice, alice_client, move_text):
    game = solo_game(alice)

    response = _post_move(alice_client, game, move_text)

    assert response.status_code == 400
    assert "could not be read" in response.content.decode()
    assert reload(game).version == game.version


@pytest.mark.django_db
def test_an_invitation_token_with_a_nul_is_a_404(client):
    assert client.get("/games/invitation/%00/").status_code == 404
    assert client.get("/games/invitation/abc%00def/").status_code == 404


@pytest.mark.django_db
def test_a_journal_import_nested_too_deep_is_refused_with_a_message(alice_client):
    for payload in (DEEP, json.dumps({"entries": [{"title": "x", "reading": json.loads("[" * 200 + "]" * 200)}]})):
        upload = io.BytesIO(payload.encode())
        upload.name = "journal.json"
        response = alice_client.post(reverse("journal:import"), {"file": upload})
        assert response.status_code == 400
        assert "nested far too deep" in response.content.decode()


def _send(receiver, mail_bytes: bytes, to: str) -> tuple[int, bytes]:
    with smtplib.SMTP(receiver.hostname, receiver.port, timeout=30) as client:
        client.ehlo()
        client.mail("someone@example.com")
        client.rcpt(to)
        return client.data(mail_bytes)


def _reply_to(game: Game, first_line: str, sender: str) -> tuple[bytes, str]:
    seat = game.seats.get(index=0)
    to = reply_address(seat, game.version)
    body = EmailMessage()
    # Encoded as a mail client would (quoted-printable or base64): no line on the wire is
    # long, only the decoded text.
    body.set_content(f"{first_line}\n")
    encoded = bytes(body).split(b"\n\n", 1)
    headers = (f"From: {sender}\r\nTo: {to}\r\nSubject: Re: your move\r\n"
               f"Message-ID: <x@example.com>\r\n").encode("utf-8", "surrogateescape")
    return headers + (encoded[0] + b"\n\n" + encoded[1]).replace(b"\n", b"\r\n"), to


@pytest.mark.django_db(transaction=True)
def test_mail_from_a_nul_address_or_with_an_absurd_first_line_is_refused_for_good(receiver, alice, capsys):
    game = solo_game(alice)
    for raw, to in (_reply_to(game, "1", "Alice <alice\x00@example.com>"),
                    _reply_to(game, "9" * 5600, "alice@example.com")):
        code, answer = _send(receiver, raw, to)
        assert 550 <= code < 560, answer  # permanent: the sending server stops retrying
    assert reload(game).version == game.version
    assert not Move.objects.filter(game=game).exists()
    call_command("verify_replays")
    assert "match" in capsys.readouterr().out


@pytest.mark.django_db(transaction=True)
def test_ingest_mail_refuses_a_message_over_the_size_limit_for_good(settings, alice, smtp_server):
    from .test_mail_turns import manage

    game = solo_game(alice)
    raw, _ = _reply_to(game, "1", "alice@example.com")
    done = manage(["ingest_mail"], raw + b"x" * 3_000_000, smtp_server)
    assert done.returncode == 65, done.stderr
    assert b"larger than" in done.stderr
    assert reload(game).version == game.version


FIELD = st.one_of(st.text(max_size=300), st.from_regex(r"\{.{0,200}\}", fullmatch=True),
                  st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=20)),
                               lambda children: st.lists(children, max_size=4)
                               | st.dictionaries(st.text(max_size=8), children, max_size=4),
                               max_leaves=30).map(json.dumps))


@pytest.mark.django_db
@hypothesis_settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(move=FIELD, version=st.one_of(st.text(max_size=20), st.integers().map(str)),
       confirmed=st.sampled_from(["", "1", "x"]))
def test_whatever_the_move_form_posts_the_answer_is_never_a_500(alice, alice_client, move, version, confirmed):
    game = Game.objects.filter(created_by=alice).first() or solo_game(alice)
    before = reload(game)
    response = alice_client.post(reverse("games:move", args=[game.pk]),
                                 {"move": move, "version": version, "confirmed": confirmed})
    assert response.status_code < 500
    after = reload(game)
    if response.status_code >= 400:
        assert (after.version, after.state) == (before.version, before.state)
