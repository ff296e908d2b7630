"""Play by mail serves any turn-based table with seats, not only the site's games.

A tally kept in memory (no model, no engine: what a game master's table would bring)
becomes a kind of mail table with one ``tables.add_kind`` line, and its player's replies
are read, checked and answered by the same inbound code as a game's.
"""

from __future__ import annotations

import secrets

import pytest

from games.engine import IllegalMove
from games.mail import tables
from games.mail.inbound import handle_message
from games.mail.outgoing import reply_address_of
from games.mail.tables import NumberedMove, Refused, Stale

from .mail_helpers import reply

pytestmark = pytest.mark.django_db


class TallySeat:
    """One player adds one or two to a tally, up to three; then the tally is closed."""

    def __init__(self, player):
        self.token = secrets.token_urlsafe(24)
        self.table_id = 7
        self._player = player
        self.total, self.version, self.turn_mails = 0, 0, []

    @property
    def player(self):
        return self._player

    def check_turn(self, version):
        if self.total >= 3:
            raise Refused("game_over", "tally closed")
        if version != self.version:
            raise Stale()

    def numbered_moves(self):
        return [NumberedMove(n, f"add {n}", {"type": "add", "n": n}) for n in (1, 2) if self.total + n <= 3]

    def play(self, move, version):
        self.check_turn(version)
        if move not in [m.move for m in self.numbered_moves()]:
            raise IllegalMove("That would take the tally past three.")
        self.total += move["n"]
        self.version += 1

    def must_act(self):
        return self.total < 3

    def send_turn_mail(self, *, note, in_reply_to, subject):
        self.turn_mails.append(note)
        return "sent"

    def answer_context(self):
        closed = self.total >= 3
        why = "the tally reached three" if closed else ""
        return {"game": {"is_over": closed, "end_reason": why}, "link": "", "to_act": [],
                "outcome": None, "reason": why}


@pytest.fixture
def tally(alice):
    seat = TallySeat(alice)

    def find(token):
        return seat if token == seat.token else None

    tables.add_kind(find)  # the one line a new kind of table adds
    yield seat
    tables.KINDS.remove(find)


def mail(seat, first_line, sender="alice@example.com", version=None):
    address = reply_address_of(seat.token, seat.version if version is None else version)
    return reply(address, first_line, sender=sender).as_bytes()


def test_a_reply_plays_on_a_table_that_is_not_a_game(tally, smtp_server):
    outcome = handle_message(mail(tally, "1"))
    assert (outcome.status, outcome.reason, outcome.game_id) == ("played", "add 1", 7)
    assert tally.total == 1
    # Still the player's turn: the answer is the table's own next turn mail.
    assert tally.turn_mails == ["Played: add 1."]


def test_the_last_move_is_answered_with_the_played_mail(tally, smtp_server):
    handle_message(mail(tally, "2"))
    outcome = handle_message(mail(tally, "add 1"))
    assert outcome.status == "played" and tally.total == 3
    answer = smtp_server.wait_for("alice@example.com")
    assert "Played: add 1." in smtp_server.text(answer)
    assert "The game is over: the tally reached three" in smtp_server.text(answer)


def test_another_players_address_cannot_play_at_the_table(tally, smtp_server, bob):
    outcome = handle_message(mail(tally, "1", sender="bob@example.com"))
    assert outcome.reason == "wrong sender" and tally.total == 0
    # The seat's player hears of it; its sender, matching no seat here, hears nothing.
    assert "not one of your account's verified addresses" in smtp_server.text(
        smtp_server.wait_for("alice@example.com"))
    assert smtp_server.messages_to("bob@example.com") == []


def test_an_old_reply_and_an_unreadable_one_change_nothing(tally, smtp_server):
    handle_message(mail(tally, "1"))
    stale = handle_message(mail(tally, "1", version=0))
    unreadable = handle_message(mail(tally, ""))
    assert (stale.reason, unreadable.reason) == ("stale", "unreadable")
    assert tally.total == 1 and tally.version == 1
    assert tally.turn_mails[1].startswith("Nothing was played: your reply answered a turn")
    assert tally.turn_mails[2].startswith("Nothing was played:")


def test_a_move_the_table_refuses_is_asked_again(tally, smtp_server):
    handle_message(mail(tally, "2"))
    outcome = handle_message(mail(tally, "add 2"))  # no longer offered: past three
    assert outcome.status == "refused" and tally.total == 2
