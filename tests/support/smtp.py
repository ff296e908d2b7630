"""A real SMTP server on loopback (aiosmtpd) that keeps every message it receives."""

from __future__ import annotations

import asyncio
import contextlib
import email
import email.policy
import re
import threading
import time
from email.message import EmailMessage

from aiosmtpd.controller import Controller

from .net import free_port

LINK = re.compile(r"https?://[^\s<>\"']+")


class _Collect:
    def __init__(self, collector: "SmtpCollector"):
        self.collector = collector

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.collector._refused.get(address.lower()) == "RCPT":
            return f"550 5.1.1 <{address}>: Recipient address rejected: no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if any(self.collector._refused.get(r.lower()) == "DATA" for r in envelope.rcpt_tos):
            return "554 5.2.2 Mailbox full, and staying full: message refused"
        hold = self.collector._hold_for(envelope.rcpt_tos)
        if hold is not None:
            # The whole message is in; the sender now waits for the answer that never comes
            # until the test lets it (the loop serves other connections meanwhile).
            hold.arrived.set()
            while not hold.released.is_set():
                await asyncio.sleep(0.02)
        # Kept as bytes and parsed when read: the sender waits for this answer, and parsing
        # here (a millisecond a mail) made every send look that much slower (bench/mail.py).
        # The envelope sender kept as a final mail server does, in a Return-Path on top.
        content = envelope.original_content or envelope.content
        if isinstance(content, str):
            content = content.encode("utf-8", "surrogateescape")
        self.collector._add(envelope.rcpt_tos, b"Return-Path: <%s>\r\n" % (envelope.mail_from or "").encode() + content)
        return "250 Message accepted for delivery"


class Hold:
    """Mail to ``address`` held by a slow server: ``arrived`` is set once a sender is stuck
    waiting for its answer, ``released`` when the server answers."""

    def __init__(self, address: str):
        self.address = address.lower()
        self.arrived = threading.Event()
        self.released = threading.Event()


class SmtpCollector:
    """Start with ``start()``; ``wait_for(address)`` returns the first message to it."""

    def __init__(self):
        self.host = "127.0.0.1"
        self.port = free_port()
        self._messages: list[tuple[list[str], bytes]] = []
        self._parsed: dict[int, EmailMessage] = {}
        self._arrived = threading.Condition()
        self._holds: list[Hold] = []
        self._refused: dict[str, str] = {}
        self._controller = Controller(_Collect(self), hostname=self.host, port=self.port, ready_timeout=30)

    def start(self) -> "SmtpCollector":
        self._controller.start()
        return self

    def stop(self) -> None:
        self._controller.stop()

    @contextlib.contextmanager
    def holding(self, address: str):
        """A slow mail server for mail to ``address``: each such message is taken whole, and
        then the sender waits for the server's answer until the ``with`` block ends."""
        hold = Hold(address)
        self._holds.append(hold)
        try:
            yield hold
        finally:
            hold.released.set()
            self._holds.remove(hold)

    @contextlib.contextmanager
    def refusing(self, address: str, at: str = "RCPT"):
        """A mailbox that is gone: mail to ``address`` is refused for good, with a 550 to
        its RCPT (``at="RCPT"``) or a 554 after its DATA (``at="DATA"``), until the
        ``with`` block ends."""
        self._refused[address.lower()] = at
        try:
            yield
        finally:
            self._refused.pop(address.lower(), None)

    def _hold_for(self, recipients: list[str]) -> Hold | None:
        return next((h for h in list(self._holds) if h.address in (r.lower() for r in recipients)), None)

    def _add(self, recipients: list[str], raw: bytes) -> None:
        with self._arrived:
            self._messages.append(([r.lower() for r in recipients], raw))
            self._arrived.notify_all()

    def _message(self, index: int) -> EmailMessage:
        """The ``index``-th message received, parsed once (call with the lock held)."""
        message = self._parsed.get(index)
        if message is None:
            message = email.message_from_bytes(self._messages[index][1], policy=email.policy.default)
            self._parsed[index] = message
        return message

    @property
    def count(self) -> int:
        """How many messages arrived, without parsing them."""
        with self._arrived:
            return len(self._messages)

    @property
    def messages(self) -> list[EmailMessage]:
        with self._arrived:
            return [self._message(index) for index in range(len(self._messages))]

    def messages_to(self, address: str) -> list[EmailMessage]:
        with self._arrived:
            return [self._message(index) for index, (recipients, _) in enumerate(self._messages)
                    if address.lower() in recipients]

    def clear(self) -> None:
        with self._arrived:
            self._messages.clear()
            self._parsed.clear()

    def wait_for(self, address: str, timeout: float = 30, count: int = 1) -> EmailMessage:
        """The ``count``-th message envelope-addressed to ``address``, waiting up to ``timeout`` s."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while True:
                found = [index for index, (recipients, _) in enumerate(self._messages) if address.lower() in recipients]
                if len(found) >= count:
                    return self._message(found[count - 1])
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(
                        f"no mail #{count} to {address} within {timeout}s; got mail for "
                        f"{sorted({r for recipients, _ in self._messages for r in recipients}) or 'nobody'}"
                    )
                self._arrived.wait(remaining)

    @staticmethod
    def text(message: EmailMessage) -> str:
        """The plain-text body (or the HTML body if that is all there is)."""
        part = message.get_body(preferencelist=("plain", "html"))
        return part.get_content() if part is not None else ""

    @classmethod
    def links(cls, message: EmailMessage) -> list[str]:
        return LINK.findall(cls.text(message))
