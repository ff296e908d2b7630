"""Celery tasks of the tarot wizards table: invitations, "asked to act" mails, the daily
digest of slow tables and the journal entries of a finished session.  Each takes ids,
is queued through the outbox (the digest by beat), and is idempotent: a row written once
the send succeeded marks it done, so a second run sends nothing.  No row is locked while a
mail server talks: a slow one would make the players' own requests wait for it."""

from __future__ import annotations

import contextlib
import datetime as dt

from celery import shared_task
from django.contrib.auth import get_user_model
from django.db import IntegrityError, OperationalError, transaction
from django.urls import reverse
from django.utils import timezone

from games.engine import cards as deck
from games.engine.tarot_wizards import session as rules
from games.mail import bounces
from games.mail.etiquette import about_all, about_one
from games.mail.outgoing import absolute, compose, reply_address_of

from . import services
from .models import AskMailSent, Member, PlaySession, SessionSeat, TableDigestSent

User = get_user_model()
RETRY = {"autoretry_for": (OSError, OperationalError), "retry_backoff": 30, "retry_backoff_max": 1800,
         "retry_jitter": True, "max_retries": 6, "soft_time_limit": 60, "time_limit": 90}
MAIL_LOG_LINES = 12


@shared_task(name="wizards.send_invitation_mail", **RETRY)
def send_invitation_mail(member_id: int) -> str:
    member = Member.objects.select_related("table", "table__gm", "user").filter(pk=member_id).first()
    if member is None or member.status != Member.Status.INVITED:
        return "no invitation open"
    to = member.user.email if member.user_id else member.email
    if not to:
        return "no address"
    link = absolute(reverse("wizards:invitation", args=[member.token]))
    compose("wizards/invitation", {"table": member.table, "gm": str(member.table.gm), "link": link,
                                   "name": str(member.user) if member.user_id else ""},
            [to], f"{member.table.gm} invites you to the tarot wizards table {member.table.name}").send()
    return "sent"


def ask_mail_context(seat: SessionSeat, note: str = "") -> dict:
    session = seat.session
    names = services.names_at(session.table, session)
    state = session.state
    hand = rules.hand_of(state, seat.key)
    challenge = state["challenge"]
    lines = services.log_lines(session, seat.key, names)[-MAIL_LOG_LINES:]
    return {
        "note": note, "session": session, "table": session.table, "gm": names[services.GM],
        "hand": [{"number": n, "name": deck.name(c)} for n, c in enumerate(hand, 1)],
        "roll_number": len(hand) + 1 if challenge else None,
        "challenge": challenge and (f"rating {challenge['rating']}" if challenge["rating"] is not None
                                    else "a Major challenge"),
        "lines": lines, "link": absolute(session.get_absolute_url()),
    }


def deliver_ask_mail(seat_id: int, version: int, *, note: str = "", in_reply_to: str = "", subject: str = "",
                     answer: bool = False) -> str:
    """Mail the seat that the GM asks them to act: their hand numbered, the challenge, the
    latest of the log (their own view of it) and a reply address for this version.

    The seat is locked only to read what to send and to record what the mail numbers
    (``mailed_version``, ``mailed_hand``: a reply is read against them); the mail goes
    after that commit, and its ``AskMailSent`` row after the send.  A lock held while the
    mail server talked made the player's own page wait for a slow server.  A failed send
    records nothing and the task retries; a crash between the send and the row sends
    again once, never not at all."""
    with transaction.atomic():
        seat = SessionSeat.objects.select_for_update().select_related("session", "session__table", "user").filter(
            pk=seat_id).first()
        if seat is None or not seat.user.is_active or not seat.user.email:
            return "no player to mail"
        if not answer and seat.user.turn_mail == seat.user.TurnMail.NEVER:
            return "preference is never"
        if seat.user.mail_undeliverable:
            return "the address bounced"
        session = seat.session
        member = Member.objects.filter(table_id=session.table_id, user=seat.user).first()
        if not answer and member is not None and member.mail_muted:
            return "the player stopped this table's mail"
        if session.status != PlaySession.Status.LIVE or seat.key not in session.state["asked"]:
            return "no longer asked"
        if not answer and session.version != version:
            version = session.version  # asked again meanwhile: the newest hand is the one to number
        if not answer and AskMailSent.objects.filter(seat=seat, version=session.version).exists():
            return "already sent"
        seat.mailed_version = session.version
        seat.mailed_hand = list(rules.hand_of(session.state, seat.key))
        seat.save(update_fields=["mailed_version", "mailed_hand"])
        context = ask_mail_context(seat, note)
        headers = {"In-Reply-To": in_reply_to, "References": in_reply_to} if in_reply_to else None
        message = compose("wizards/ask", context, [seat.user.email],
                          subject or f"{context['gm']} asks you to act at {session.table.name}",
                          reply_to=[reply_address_of(seat.reply_token, session.version)], headers=headers,
                          unsubscribe=about_one(seat.user, "table", member.pk, "this table") if member is not None
                          else about_all(seat.user))
    try:
        if not bounces.send(message, seat.user):
            return "the address bounced"
    except OSError as error:
        if not answer:
            raise
        return f"failed: {error}"
    with contextlib.suppress(IntegrityError), transaction.atomic():
        AskMailSent.objects.create(seat=seat, version=session.version)
    return "sent"


@shared_task(name="wizards.send_ask_mail", **RETRY)
def send_ask_mail(seat_id: int, version: int) -> str:
    return deliver_ask_mail(seat_id, version)


# --- the daily digest of slow tables --------------------------------------------------------


@shared_task(name="wizards.send_table_digests", soft_time_limit=240, time_limit=300)
def send_table_digests() -> int:
    """Queue today's digest for everyone at a slow table with a session in play."""
    today = timezone.now().date()
    users = set(SessionSeat.objects.filter(session__status=PlaySession.Status.LIVE, session__table__slow=True)
                .values_list("user_id", flat=True))
    queued = 0
    for user_id in sorted(users):
        if not TableDigestSent.objects.filter(user_id=user_id, day=today).exists():
            send_table_digest.delay(user_id, today.isoformat())
            queued += 1
    return queued


@shared_task(name="wizards.send_table_digest", **RETRY)
def send_table_digest(user_id: int, day: str) -> str:
    """What happened at each of the user's slow tables since their last digest, as they
    may see it; nothing new, no mail (and no mark, so a later run may still send).

    Read, sent, then marked (the day's ``TableDigestSent`` and each seat's
    ``digested_upto``), with no lock held while the mail server talks: the seats' row locks
    made the player's own pages wait for a slow server.  A failed send marks nothing and
    the task retries; the marks only move forward, so a second run adds nothing."""
    today = dt.date.fromisoformat(day)
    if TableDigestSent.objects.filter(user_id=user_id, day=today).exists():
        return "already sent"
    user = User.objects.filter(pk=user_id).first()
    if user is None or not user.is_active or not user.email:
        return "no address"
    if user.turn_mail == User.TurnMail.NEVER:  # what "stop all mail about your turns" sets
        return "the player wants no mail"
    if user.mail_undeliverable:
        return "the address bounced"
    muted = set(Member.objects.filter(user=user, mail_muted=True).values_list("table_id", flat=True))
    tables, upto = [], {}
    seats = (SessionSeat.objects.filter(user=user, session__status=PlaySession.Status.LIVE, session__table__slow=True)
             .exclude(session__table_id__in=muted).select_related("session", "session__table"))
    for seat in seats:
        session = seat.session
        names = services.names_at(session.table, session)
        lines = [line for line in services.log_lines(session, seat.key, names) if line["n"] >= seat.digested_upto]
        if lines:
            tables.append({"session": session, "lines": lines, "link": absolute(session.get_absolute_url()),
                           "asked": seat.key in session.state["asked"]})
            upto[seat.pk] = len(session.state["log"])
    if not tables:
        return "nothing new"
    message = compose("wizards/digest", {"tables": tables, "name": str(user)}, [user.email],
                      "Your tarot wizards tables today", unsubscribe=about_all(user))
    if not bounces.send(message, user):
        return "the address bounced"
    with transaction.atomic():
        with contextlib.suppress(IntegrityError), transaction.atomic():
            TableDigestSent.objects.create(user=user, day=today)
        for seat_id, n in upto.items():
            SessionSeat.objects.filter(pk=seat_id, digested_upto__lt=n).update(digested_upto=n)
    return f"sent {len(tables)}"


# --- the journal ------------------------------------------------------------------------------


@shared_task(name="wizards.make_journal_entries", **RETRY)
def make_journal_entries(session_id: int) -> int:
    from games.wizards import journal_entries

    return len(journal_entries.entries_for_session(session_id))
