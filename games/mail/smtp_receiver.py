"""The inbound SMTP receiver: a real mail server (aiosmtpd) for replies to turn mail.

It accepts mail only for reply addresses of ``MAIL_DOMAIN`` (and its bounce addresses,
where reports of mail that could not be delivered come back: ``bounces``), hands each message to
``games.mail.inbound.handle_message`` in a worker thread (the ORM is synchronous), and answers
the sending server only after the move was played or refused, so a message is never
acknowledged and then lost.  An unexpected error answers 451, which makes the sending
server try again later instead of dropping the player's move.

Run by ``manage.py run_mail_receiver`` (which the site's run command starts); tests start
``make_controller`` on a free loopback port.
"""

from __future__ import annotations

import asyncio
import logging
from email.utils import parseaddr

from aiosmtpd.controller import Controller
from django.conf import settings
from django.db import close_old_connections, connections

from games.mail import bounces, inbound
from games.mail.outgoing import parse_reply_address

log = logging.getLogger(__name__)


def _handle(content: bytes, mail_from: str, rcpt_tos: list[str]) -> inbound.Outcome:
    # Each call runs in a pool thread: drop connections the database has closed meanwhile,
    # and close this thread's own after (close_old_connections would keep a healthy one for
    # CONN_MAX_AGE), so idle pool threads hold no connection.
    close_old_connections()
    try:
        return inbound.handle_message(content, envelope_from=mail_from, recipients=rcpt_tos)
    finally:
        connections.close_all()


class ReplyHandler:
    """aiosmtpd hooks: refuse foreign recipients at RCPT, handle the message at DATA."""

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        bare = parseaddr(address)[1]
        if parse_reply_address(bare) is None and bounces.parse_bounce_address(bare) is None:
            # Not one of ours: refusing here means we never relay, and the sender learns at once.
            return "550 5.1.1 No such mailbox here; reply to a turn mail from Sefirot Online"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        content = envelope.original_content or envelope.content
        if isinstance(content, str):
            content = content.encode("utf-8", "surrogateescape")
        loop = asyncio.get_running_loop()
        try:
            outcome = await loop.run_in_executor(None, _handle, content, envelope.mail_from or "",
                                                 list(envelope.rcpt_tos))
        except Exception:
            log.exception("inbound mail from %s could not be handled", envelope.mail_from)
            return "451 4.3.0 Could not handle the message now; please try again later"
        log.info("inbound mail from %s: %s", envelope.mail_from, outcome)
        if outcome.status == "rejected":
            return f"554 5.6.0 Message refused: {outcome.reason}"
        return "250 2.0.0 Message accepted"


def make_controller(host: str | None = None, port: int | None = None) -> Controller:
    """A receiver (not started yet) on ``host:port``, by default the ones in settings."""
    return Controller(
        ReplyHandler(),
        hostname=host or settings.INBOUND_SMTP_HOST,
        port=port or settings.INBOUND_SMTP_PORT,
        ready_timeout=30,
        # SMTP parameters: replies are small; our name in the greeting.
        server_hostname=settings.MAIL_DOMAIN,
        data_size_limit=settings.INBOUND_MAX_MESSAGE_BYTES,
        ident="Sefirot Online",
    )
