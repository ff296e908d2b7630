"""Mail that bounces for good stops the mail to that address.

Two ways to learn that an address is dead:

- at sending: the receiving server refuses the recipient or the message with a permanent
  5xx answer (``smtplib.SMTPRecipientsRefused``, ``SMTPDataError``), caught by ``send``;
- later: the bounce report (RFC 3464, a ``multipart/report`` with a ``message/delivery-
  status`` part) a server mails back after accepting the mail and failing to deliver it.

Reports go to the envelope sender, so mail to a player's account address is sent from a
bounce address of its own (VERP): ``bounces+<user id>-<tag>@MAIL_DOMAIN``, the tag an
HMAC of the user and the address (lower case, since some servers lower-case a local
part), so a report names whose mail failed and nobody can make one up for someone else's
address.  The inbound receiver accepts mail to these addresses and hands it to
``read_report``; a report counts only when it says ``failed`` with a 5.x.x status for the
very address the tag was made for.  A delay (4.x.x) or an address changed since changes
nothing.

Either way the address is marked on the user (``User.undeliverable_email``): while it is
still their address, every mail task skips them (``User.mail_undeliverable``), and the
profile says so with a button that clears the mark.  Sending to a dead address again and
again is how a site ends up in spam folders.
"""

from __future__ import annotations

import logging
import re
import smtplib
from email.message import EmailMessage
from email.utils import parseaddr

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

log = logging.getLogger(__name__)

BOUNCE_LOCAL_PART = "bounces"
BOUNCE_ADDRESS = re.compile(rf"^{BOUNCE_LOCAL_PART}\+(?P<user>\d{{1,12}})-(?P<tag>[0-9a-f]{{20}})@(?P<domain>[^@\s]+)$",
                            re.I)
PERMANENT_STATUS = re.compile(r"^5\.\d{1,3}\.\d{1,3}$")


def _tag(user_id: int, address: str) -> str:
    return salted_hmac("games.mail.bounces", f"{user_id}:{address.lower()}").hexdigest()[:20]


def bounce_address(user) -> str:
    """The envelope sender of mail to ``user``'s account address."""
    return f"{BOUNCE_LOCAL_PART}+{user.pk}-{_tag(user.pk, user.email)}@{settings.MAIL_DOMAIN}"


def parse_bounce_address(address: str) -> tuple[int, str] | None:
    """(user id, tag) of one of our bounce addresses, or None for any other address."""
    match = BOUNCE_ADDRESS.match((address or "").strip().strip("<>"))
    if not match or match["domain"].lower() != settings.MAIL_DOMAIN:
        return None
    return int(match["user"]), match["tag"].lower()


def bounce_user(address: str):
    """The active user a bounce address was made for, while it is still their address."""
    parsed = parse_bounce_address(address)
    if parsed is None:
        return None
    user = get_user_model().objects.filter(pk=parsed[0], is_active=True).first()
    if user is None or not user.email or not constant_time_compare(_tag(user.pk, user.email), parsed[1]):
        return None
    return user


def mark_undeliverable(user, address: str, reason: str) -> None:
    """Stop the mail to ``address`` (the user's own), saying why on their profile."""
    now = timezone.now()
    reason = " ".join(reason.split())[:300]
    get_user_model().objects.filter(pk=user.pk, email__iexact=address).update(
        undeliverable_email=address, undeliverable_since=now, undeliverable_reason=reason)
    if (user.email or "").lower() == address.lower():
        user.undeliverable_email, user.undeliverable_since, user.undeliverable_reason = address, now, reason
    log.warning("mail to user %s stopped: %s", user.pk, reason)


def address_stopped(address: str) -> bool:
    """Whether ``address`` is an account's address marked undeliverable (for mail that
    has an address rather than a user at hand: answers to inbound mail)."""
    return get_user_model().objects.filter(email__iexact=address, undeliverable_email__iexact=address).exists()


# --- at sending --------------------------------------------------------------------------------


def _answer(code: int, text: bytes | str) -> str:
    text = text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)
    return f"{code} {text}"


def permanent_refusal(error: Exception) -> str | None:
    """The server's words when ``error`` is a permanent (5xx) refusal of the mail's
    recipient or message; None for anything that may pass on a retry."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        answers = list(error.recipients.values())
        if answers and all(500 <= code < 600 for code, _ in answers):
            return _answer(*answers[0])
    elif isinstance(error, smtplib.SMTPDataError) and 500 <= error.smtp_code < 600:
        return _answer(error.smtp_code, error.smtp_error)
    return None


def send(message, user, send=None) -> bool:
    """Send ``message`` to ``user`` (by ``send``, by default its own ``send``); False when
    the server refused it for good, the address then marked. Anything else is raised, for
    the task's retry."""
    try:
        (send or message.send)()
    except (smtplib.SMTPRecipientsRefused, smtplib.SMTPDataError) as error:
        refusal = permanent_refusal(error)
        if refusal is None or not user.email:
            raise
        mark_undeliverable(user, user.email, f"The mail server answered: {refusal}")
        return False
    return True


# --- bounce reports ----------------------------------------------------------------------------


def _fields(part) -> list[EmailMessage]:
    """The field blocks of a ``message/delivery-status`` part: per message, then per recipient."""
    payload = part.get_payload()
    return [block for block in payload if hasattr(block, "get")] if isinstance(payload, list) else []


def _address_of(value) -> str:
    """``rfc822; someone@example.com`` -> the address."""
    text = str(value or "")
    kind, _, address = text.partition(";")
    return parseaddr(address.strip() if address else kind.strip())[1].lower()


def failed_recipients(message: EmailMessage) -> list[tuple[str, str, str]]:
    """(address, status, diagnostic) of each recipient a bounce report says failed for good."""
    if message.get_content_type() != "multipart/report":
        return []
    failed = []
    for part in message.walk():
        if part.get_content_type() != "message/delivery-status":
            continue
        for block in _fields(part)[1:]:
            status = str(block.get("Status", "")).strip().split(" ")[0]
            action = str(block.get("Action", "")).strip().lower()
            if action != "failed" or not PERMANENT_STATUS.match(status):
                continue
            for header in ("Final-Recipient", "Original-Recipient"):
                address = _address_of(block.get(header))
                if address:
                    failed.append((address, status, str(block.get("Diagnostic-Code", "")).strip()))
    return failed


def read_report(message: EmailMessage, recipients: list[str]) -> tuple[str, str]:
    """Act on a mail to one of our bounce addresses: (status, reason) for the log."""
    users = [user for user in map(bounce_user, recipients) if user is not None]
    if not users:
        return "ignored", "a bounce address of no account's current address"
    for user in users:
        for address, status, diagnostic in failed_recipients(message):
            if address == user.email.lower():
                _, _, said = diagnostic.partition(";")
                mark_undeliverable(user, user.email,
                                   f"A bounce report said: {status}" + (f", {said.strip()}" if said.strip() else ""))
                return "bounced", f"mail to user {user.pk} stopped ({status})"
    return "ignored", "not a report of a permanent failure for the address we mailed"

