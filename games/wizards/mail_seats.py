"""A tarot wizards session as a kind of mail table (``games.mail.tables``): the player the
GM asked to act answers their mail with a card's number in their hand (or "roll"), or
with words to post in the log."""

from __future__ import annotations

from django.http import Http404

from games.engine import cards as deck
from games.engine.base import IllegalMove
from games.engine.tarot_wizards import session as rules
from games.mail import etiquette
from games.mail.outgoing import absolute
from games.mail.tables import MailSeat, NumberedMove, Refused, Stale, add_kind

from . import services
from .models import Member, PlaySession, SessionSeat

MAX_POST = rules.MAX_NARRATION


class WizardSeat(MailSeat):
    def __init__(self, seat: SessionSeat):
        self.seat = seat

    @property
    def table_id(self) -> int:
        return self.seat.session_id

    @property
    def player(self):
        return self.seat.user

    def _session(self) -> PlaySession:
        self.seat.session = PlaySession.objects.select_related("table", "table__gm").get(pk=self.seat.session_id)
        return self.seat.session

    def check_turn(self, version: int) -> None:
        session = self._session()
        if session.status != PlaySession.Status.LIVE:
            raise Refused("game_over", "session over")
        if self.seat.key not in session.state["asked"]:
            raise Refused("other", "not asked", "The game master has not asked you to act just now, or you "
                          "already answered on the web.")
        # Numbers in the mail are places in the hand it showed: they still mean the same
        # cards while the hand is unchanged, whatever else happened at the table.
        if version != self.seat.mailed_version or rules.hand_of(session.state, self.seat.key) != self.seat.mailed_hand:
            raise Stale()

    def numbered_moves(self) -> list[NumberedMove]:
        state = self.seat.session.state
        hand = rules.hand_of(state, self.seat.key)
        moves = [NumberedMove(n, f"cast {deck.name(card)}", {"type": "cast", "index": n})
                 for n, card in enumerate(hand, 1)]
        if state["challenge"] is not None:
            moves.append(NumberedMove(len(hand) + 1, "roll the die", {"type": "roll"}))
        return moves

    def read_words(self, text: str, chosen: NumberedMove | None) -> NumberedMove | None:
        """Words that name no move are posted to the log; the lines below a card's number
        say what the spell does."""
        if chosen is None:
            text = text.strip()[:MAX_POST]
            return NumberedMove(0, "a post to the table", {"type": "post", "narration": text}) if text else None
        below = "\n".join(text.splitlines()[1:]).strip()[:MAX_POST]
        if not below:
            return None
        return NumberedMove(chosen.number, chosen.words, {**chosen.move, "narration": below})

    def play(self, move: dict, version: int) -> None:
        hand = self.seat.mailed_hand
        expect = hand[move["index"] - 1] if move.get("type") == "cast" else None
        try:
            services.act(self.seat.session_id, self.seat.user, move, None, expect_card=expect)
        except services.StaleAct:
            raise Stale() from None
        except services.Refused as error:
            if self._session().status != PlaySession.Status.LIVE:
                raise Refused("game_over", "session over") from None
            raise IllegalMove(str(error)) from None
        except Http404:
            raise Refused("wrong_sender", "not at this session") from None

    def must_act(self) -> bool:
        session = self._session()
        return session.status == PlaySession.Status.LIVE and self.seat.key in session.state["asked"]

    def send_turn_mail(self, *, note: str, in_reply_to: str, subject: str) -> str:
        from .tasks import deliver_ask_mail

        return deliver_ask_mail(self.seat.pk, self._session().version, note=note, in_reply_to=in_reply_to,
                                subject=subject, answer=True)

    def answer_context(self) -> dict:
        session = self._session()
        names = services.names_at(session.table, session)
        over = session.status != PlaySession.Status.LIVE
        return {"game": {"is_over": over, "end_reason": session.state["end_reason"]},
                "link": absolute(session.get_absolute_url()),
                "to_act": [] if over else [names.get(k, "") for k in session.state["asked"]],
                "outcome": None, "reason": session.state["end_reason"]}


@add_kind
def find_wizard_seat(token: str) -> WizardSeat | None:
    seats = SessionSeat.objects.select_related("session", "user")
    seat = seats.filter(reply_token=token).first() or seats.filter(reply_token__iexact=token).first()
    return WizardSeat(seat) if seat is not None else None


def _about_table(pk: int, user) -> str | None:
    member = Member.objects.select_related("table").filter(pk=pk, user=user).first()
    return f"the tarot wizards table {member.table.name}" if member is not None else None


def _mute_table(pk: int, user, muted: bool) -> None:
    Member.objects.filter(pk=pk, user=user).update(mail_muted=muted)


# A table's "asked to act" mail stops that table's mail with one click (games.mail.etiquette).
etiquette.add_kind("table", _about_table, _mute_table)
