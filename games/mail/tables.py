"""What play by mail needs of a table: anything turn-based with seats.

A reply address ``play+<token>.<version>@MAIL_DOMAIN`` names one seat of one table and
the version of the table its turn mail showed.  Inbound mail (``inbound``) finds the seat
by asking each registered kind of table (``add_kind``), checks the sender against the
seat's player, reads the first line against the seat's numbered moves and asks the seat
to play the chosen one; every answer it sends is worded from what the seat says of its
table.  It knows nothing else of games: the site's games are one kind
(``games.mail.game_seats``), a game master's table can be another, each registered with
one ``add_kind`` line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol


@dataclass
class NumberedMove:
    """One move a reply may choose: by its number or by its words."""

    number: int
    words: str
    move: dict


class Refused(Exception):
    """The table will not take a move now.  ``kind`` chooses the answer's words
    (``templates/games/mail/_refused_reason.txt``: ``game_over``, ``not_started``,
    ``not_your_turn``, ``wrong_sender``, or anything else with ``detail`` said as it is);
    ``reason`` is for the log."""

    def __init__(self, kind: str, reason: str, detail: str = ""):
        super().__init__(reason)
        self.kind, self.reason, self.detail = kind, reason, detail


class Stale(Exception):
    """The reply answered a version of the table that has moved on."""


class MailSeat(Protocol):
    """One seat of a table, as play by mail sees it."""

    table_id: int  # for logs and the outcome of a message

    @property
    def player(self):  # the seat's user (who may reply from a verified address), or None
        ...

    def check_turn(self, version: int) -> None:
        """Raise ``Refused`` or ``Stale`` unless this seat may move now on ``version``."""

    def numbered_moves(self) -> list[NumberedMove]:
        """The moves a reply may choose now, numbered from 1."""

    def play(self, move: dict, version: int) -> None:
        """Play ``move``; raise ``IllegalMove``, ``Stale`` or ``Refused`` and change nothing."""

    def must_act(self) -> bool:
        """Whether the seat has to act (again) now, on the table as it is now."""

    def send_turn_mail(self, *, note: str, in_reply_to: str, subject: str) -> str:
        """Mail the seat its turn now (its board and numbered moves, a fresh reply
        address), ``note`` on top; "sent" or why not."""

    def answer_context(self) -> dict:
        """What the answer mails say of the table: ``game`` (its ``end_reason`` and
        ``is_over``), ``link``, ``to_act`` (names), ``outcome`` and ``reason``."""

    # Optional: a table that also reads words has ``read_words(text, chosen) -> NumberedMove
    # | None``, asked with all the player wrote above the quote and the move the first line
    # named (None when it named none and is not a number): the move to play instead (the
    # chosen one with the words attached, or a post of the words), or None to keep to it.


SeatFinder = Callable[[str], "MailSeat | None"]
KINDS: list[SeatFinder] = []


def add_kind(find_seat: SeatFinder) -> SeatFinder:
    """Register a kind of table: ``find_seat(token)`` gives its seat with that reply token,
    or None when the token is not one of its own."""
    if find_seat not in KINDS:
        KINDS.append(find_seat)
    return find_seat


def find_seat(token: str) -> MailSeat | None:
    for find in KINDS:
        seat = find(token)
        if seat is not None:
            return seat
    return None
