"""Moves by mail: read one raw RFC 5322 message and play the move its first line names.

Both ways mail comes in end here: the SMTP receiver (``games.smtp_receiver``, started by
the run command) and ``manage.py ingest_mail < message.eml`` (a production mail server's
pipe).  The reply address names a seat of a table (``tables``: for the site's games,
``game_seats``, whose moves go through ``services.submit_move``) and the version its
turn mail showed, so a reply to an old turn mail is refused as stale exactly like a
doubled click on the web; anything refused gets a polite answer saying why, and changes
nothing.

Who may move: the address carries the seat's secret token, and the sender must be one of
the verified addresses of that seat's player.  (A From header can be forged; the token is
what keeps strangers out, the sender check stops a forwarded mail from playing.)

Who is answered: only that player, at a verified address.  Anyone can write any From
header and make up a token, so an answer to an unknown address or to a sender who is not
the seat's player would let anyone aim the site's mail, and words of their choosing, at
anybody (issue 38: sixty forged mails made sixty answers quoting them).  Those mails are
dropped; a mail from a stranger to a real seat's address tells that seat's player, at
their own address, that one came, and nothing of what it said.  And no address gets more
than ``INBOUND_REFUSALS_PER_HOUR`` answers an hour saying that nothing was played, however
many mails it sends (the answer to a move played is bounded by the game's moves).
"""

from __future__ import annotations

import html
import logging
import re
import unicodedata
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr

from allauth.account.models import EmailAddress
from django.conf import settings
from django_ratelimit.core import get_usage

from games.engine import IllegalMove
from games.mail import game_seats  # noqa: F401  (registers the site's games as a kind of table)
from games.mail import bounces, tables
from games.mail.outgoing import answer_mail, compose, from_address, parse_reply_address
from games.mail.tables import MailSeat, NumberedMove

log = logging.getLogger(__name__)

# Headers that may carry the address the reply was sent to (the envelope comes first).
RECIPIENT_HEADERS = ("Delivered-To", "X-Original-To", "To", "Cc")


MAX_FIRST_LINE = 500  # characters: the longest move in words is a line of a few dozen


@dataclass
class Outcome:
    """What became of one inbound message: ``played``, ``refused`` (answered), ``ignored``
    (a robot or a stranger: its sender is not answered) or ``rejected`` (malformed: the
    mail server is told to give up on it, a permanent 5xx)."""

    status: str
    reason: str
    game_id: int | None = None
    detail: str = ""

    def __str__(self):
        where = f" (game {self.game_id})" if self.game_id else ""
        return f"{self.status}: {self.reason}{where}" + (f": {self.detail}" if self.detail else "")


class UnreadableMove(ValueError):
    """The first line names no legal move; the message says why, for the player."""


# --- reading the message ----------------------------------------------------------------


def parse(raw: bytes) -> EmailMessage:
    return message_from_bytes(raw, policy=policy.default)


def sender_of(message: EmailMessage) -> str:
    return parseaddr(str(message.get("From", "")))[1].strip().lower()


def is_automatic(message: EmailMessage, envelope_from: str | None) -> bool:
    """Bounces, auto-replies and list mail: never answered, so two robots cannot loop."""
    if envelope_from is not None and envelope_from.strip("<> ") == "":
        return True  # the null sender of a bounce
    if str(message.get("Return-Path", "")).strip() == "<>":
        return True
    auto = str(message.get("Auto-Submitted", "no")).strip().lower()
    if auto and auto != "no":
        return True
    if str(message.get("Precedence", "")).strip().lower() in {"bulk", "junk", "list", "auto_reply"}:
        return True
    return any(message.get(h) for h in ("X-Autoreply", "X-Autorespond", "List-Id", "X-Auto-Response-Suppress"))


def addressed_to(message: EmailMessage, recipients: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The addresses a message was sent to: the envelope's first, then its headers'."""
    addresses = list(recipients)
    for header in RECIPIENT_HEADERS:
        addresses += [address for _, address in getaddresses([str(v) for v in message.get_all(header, [])])]
    return addresses


def reply_target(message: EmailMessage, recipients: list[str] | tuple[str, ...] = ()) -> tuple[str, int] | None:
    """(seat token, version) from the first of our reply addresses the message was sent to."""
    for address in addressed_to(message, recipients):
        found = parse_reply_address(address)
        if found:
            return found
    return None


BLOCK_BREAKS = re.compile(r"<\s*(br|/p|/div|/li|/tr|/h\d)\b[^>]*>", re.I)
BLOCKQUOTE = re.compile(r"<blockquote\b.*?</blockquote>", re.I | re.S)
TAG = re.compile(r"<[^>]+>")
ATTRIBUTION = re.compile(r"^(on\b.*\bwrote|le\b.*\ba écrit|am\b.*\bschrieb)\s*:?$", re.I)


def reply_text(message: EmailMessage) -> str:
    """The body of the reply as plain text (an HTML-only reply loses its tags and quotes)."""
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    try:
        text = part.get_content()
    except (LookupError, ValueError):  # an unknown charset: read what we can
        text = part.get_payload(decode=True).decode("utf-8", "replace")
    if part.get_content_type() == "text/html":
        text = BLOCKQUOTE.sub("\n", text)
        text = BLOCK_BREAKS.sub("\n", text)
        text = re.sub(r"<(head|style|script)\b.*?</\1>", "", text, flags=re.I | re.S)
        text = html.unescape(TAG.sub("", text))
    return text


def first_line(message: EmailMessage) -> str:
    """The first line the player wrote, or "" when the reply only quotes our mail."""
    for line in reply_text(message).splitlines():
        line = unicodedata.normalize("NFKC", line).strip()
        if not line:
            continue
        if line.startswith(">") or line in {"--", "-- "} or ATTRIBUTION.match(line) or "original message" in line.lower():
            return ""
        return line
    return ""


def written_text(message: EmailMessage) -> str:
    """All the player wrote above the quoted mail (for tables that take a post by mail)."""
    lines = []
    for line in reply_text(message).splitlines():
        line = unicodedata.normalize("NFKC", line).rstrip()
        bare = line.strip()
        if bare.startswith(">") or bare in {"--", "-- "} or ATTRIBUTION.match(bare) or "original message" in bare.lower():
            break
        lines.append(line)
    return "\n".join(lines).strip()


# --- reading the move -------------------------------------------------------------------

NUMBER = re.compile(r"^(?:move|play|no\.?|number|nr\.?)?\s*#?\s*(\d+)(?=$|[\s.):!,;-])", re.I)


def _words(text: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", text.lower()).split())


def read_move(line: str, moves: list[NumberedMove]) -> NumberedMove:
    """The move a reply's first line names: its number in the mail, or its words."""
    if not line:
        raise UnreadableMove(
            "I found no move in your reply. Write the number of your move (or the move in words) "
            "on the first line, above the quoted mail."
        )
    count = len(moves)
    number = NUMBER.match(line)
    if number:
        n = int(number.group(1))
        if 1 <= n <= count:
            return moves[n - 1]
        raise IllegalMove(f"There is no move {n} in this position: your moves are numbered 1 to {count}.")
    said = _words(line)
    # "move ..." / "I play ..." in front of the words a move is described with.
    readings = [said] + [said[len(p):] for p in ("move ", "i play ") if said.startswith(p)]
    for words in readings:
        exact = [m for m in moves if _words(m.words) == words]
        if exact:
            return exact[0]
    for words in readings:
        begins = [m for m in moves if _words(m.words).startswith(words)] if len(words) >= 4 else []
        if len(begins) == 1:
            return begins[0]
        if len(begins) > 1:
            options = "; ".join(f"{m.number}. {m.words}" for m in begins[:5])
            raise UnreadableMove(f"\u201c{line}\u201d could be more than one move ({options}). Reply with its number.")
    raise IllegalMove(f"\u201c{line}\u201d is not one of your moves in this position.")


# --- handling -------------------------------------------------------------------------


def may_answer(address: str) -> bool:
    """Whether ``address`` may have one more answer now, counted as sent.

    django-ratelimit's core rather than a counter of our own: a fixed window per address
    in the site's cache (shared by the receiver and every ``ingest_mail``), each address's
    window starting at its own moment; a cache that fails refuses the answer (the
    library's default), never the mail itself."""
    usage = get_usage(None, group="games.mail.inbound.answer", key=lambda group, request: address.lower(),
                      rate=f"{settings.INBOUND_REFUSALS_PER_HOUR}/h", increment=True)
    return usage is None or not usage["should_limit"]


def sender_may_play(seat: MailSeat, sender: str) -> bool:
    player = seat.player
    if player is None or not player.is_active or not sender:
        return False
    return EmailAddress.objects.filter(user=player, email__iexact=sender, verified=True).exists()


def handle_message(raw: bytes, *, envelope_from: str | None = None,
                   recipients: list[str] | tuple[str, ...] = ()) -> Outcome:
    """Play the move in one inbound message, or answer why not.  Never raises for bad mail."""
    try:
        message = parse(raw)
        sender = sender_of(message)
    except Exception:  # a message the parser cannot read at all: nobody to answer
        log.warning("inbound mail: unreadable message of %d bytes", len(raw))
        return Outcome("ignored", "unreadable message")
    bounce_to = [address for address in addressed_to(message, recipients) if bounces.parse_bounce_address(address)]
    if bounce_to:
        # A bounce report for mail we sent (to its envelope sender: games.mail.bounces),
        # from a mail server's null sender: read before the robot check below drops it.
        return Outcome(*bounces.read_report(message, bounce_to))
    if not sender or "@" not in sender:
        return Outcome("ignored", "no sender")
    if not sender.isprintable() or len(sender) > 254:
        # A NUL or a line break in an address: no mail client writes that (and PostgreSQL
        # refuses a NUL in a query). Refused for good, so the sending server stops trying.
        return Outcome("rejected", "malformed sender address")
    if sender == from_address() or is_automatic(message, envelope_from):
        return Outcome("ignored", "automatic mail")
    reply = Reply(message, sender)
    if len(reply.line) > MAX_FIRST_LINE:
        return Outcome("rejected", "the first line is too long to be a move")

    target = reply_target(message, recipients)
    seat = tables.find_seat(target[0]) if target else None
    if seat is None:
        # Nobody's seat: whoever the From header names, it matches no seat's player, so
        # nobody is answered (see the top of this module).
        log.info("inbound mail to an address that is no seat's")
        return Outcome("ignored", "unknown address")
    if not sender_may_play(seat, sender):
        log.info("inbound mail for table %s from an address that is not the player's", seat.table_id)
        return reply.tell_the_player(seat)
    return reply.play(seat, target[1])


class Reply:
    """Answers one inbound message; every path ends in exactly one answer (or none for robots)."""

    def __init__(self, message: EmailMessage, sender: str):
        self.message = message
        self.sender = sender
        self.subject = str(message.get("Subject", ""))
        self.message_id = str(message.get("Message-ID", "")).strip()
        self.line = first_line(message)

    def play(self, seat: MailSeat, version: int) -> Outcome:
        try:
            seat.check_turn(version)
            chosen = self.choose(seat)
            seat.play(chosen.move, version)
        except tables.Stale:
            return self.stale(seat)
        except tables.Refused as refusal:
            return self.refuse(refusal.reason, refusal.kind, seat, detail=refusal.detail)
        except UnreadableMove as error:
            return self.again(seat, "unreadable", str(error))
        except IllegalMove as error:
            return self.again(seat, "illegal move", str(error))
        return self.played(seat, chosen)

    def choose(self, seat: MailSeat) -> NumberedMove:
        """The move the first line names.  A table that also reads words (``read_words``,
        see ``tables``) is shown all the player wrote, with that move or with none."""
        read_words = getattr(seat, "read_words", None)
        try:
            chosen = read_move(self.line, seat.numbered_moves())
        except (UnreadableMove, IllegalMove):
            posted = (read_words(written_text(self.message), None)
                      if read_words is not None and not NUMBER.match(self.line) else None)
            if posted is None:
                raise
            return posted
        return (read_words(written_text(self.message), chosen) or chosen) if read_words is not None else chosen

    # -- the answers --

    def _send(self, message) -> None:
        # The move (or refusal) stands whether or not the answer gets out; a mail server
        # that is down must not make the sender's server retry a move already played.
        if any(bounces.address_stopped(address) for address in message.to):
            log.info("inbound mail: no answer to an address that bounced")
            return
        try:
            message.send()
        except OSError:
            log.exception("inbound mail: could not send the answer to %s", self.sender)

    def _may_answer(self, address: str) -> bool:
        if may_answer(address):
            return True
        log.warning("inbound mail: no answer to %s, who had %s this hour", address,
                    settings.INBOUND_REFUSALS_PER_HOUR)
        return False

    def refuse(self, reason: str, kind: str, seat: MailSeat, *, detail: str = "") -> Outcome:
        """Nothing was played: the seat's own player is told why (the sender was checked)."""
        if self._may_answer(self.sender):
            context = {**seat.answer_context(), "kind": kind, "line": self.line, "detail": detail}
            self._send(answer_mail(self.sender, self.subject, "refused", context, in_reply_to=self.message_id))
        return Outcome("refused", reason, seat.table_id, detail)

    def tell_the_player(self, seat: MailSeat) -> Outcome:
        """A mail to the seat's address from someone else (another address of theirs, a
        forwarded turn mail, a forgery): its sender hears nothing, the player hears that it
        came, at their own address, with not a word of its subject or text."""
        player = seat.player
        address = player.email if player is not None and player.is_active else ""
        if address and self._may_answer(address):
            context = {**seat.answer_context(), "kind": "not_from_player", "line": "", "detail": ""}
            self._send(compose("refused", context, [address], "A mail to your reply address was not played",
                               auto="auto-replied"))
        return Outcome("ignored", "wrong sender", seat.table_id)

    def again(self, seat: MailSeat, reason: str, explanation: str) -> Outcome:
        """Refused, but the seat still has to act: the answer is a fresh turn mail with the why on top."""
        if self._may_answer(self.sender):
            self._mark_sent(seat.send_turn_mail(note=f"Nothing was played: {explanation}",
                                                in_reply_to=self.message_id, subject=self.subject))
        return Outcome("refused", reason, seat.table_id, explanation)

    def stale(self, seat: MailSeat) -> Outcome:
        if seat.must_act():
            note = ("Nothing was played: your reply answered a turn that was already played, so its move "
                    "numbers no longer fit. Here is the position now; reply to this mail instead.")
            if self._may_answer(self.sender):
                self._mark_sent(seat.send_turn_mail(note=note, in_reply_to=self.message_id, subject=self.subject))
            return Outcome("refused", "stale", seat.table_id)
        game = seat.answer_context()["game"]
        return self.refuse("stale", "game_over" if game is not None and game.is_over else "stale", seat)

    def played(self, seat: MailSeat, chosen: NumberedMove) -> Outcome:
        # Not counted against the sender: each of these answers a move the game took, so
        # the game's own length bounds them (and in a solo game it is the next turn mail).
        if seat.must_act():
            # Still this seat's turn (the next step of a turn, or a solo game): the answer
            # is the next turn mail, with the new numbers and the new reply address.
            self._mark_sent(seat.send_turn_mail(note=f"Played: {chosen.words}.", in_reply_to=self.message_id,
                                                subject=self.subject))
        else:
            context = {**seat.answer_context(), "move": chosen.words}
            self._send(answer_mail(self.sender, self.subject, "played", context, in_reply_to=self.message_id))
        return Outcome("played", chosen.words, seat.table_id)

    def _mark_sent(self, result: str) -> None:
        if result != "sent":
            log.warning("inbound mail: no answer went to %s: %s", self.sender, result)
