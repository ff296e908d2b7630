"""A real SMTP server on loopback (aiosmtpd) that keeps every message it receives."""

from __future__ import annotations

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

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.original_content or envelope.content, policy=email.policy.default)
        self.collector._add(envelope.rcpt_tos, message)
        return "250 Message accepted for delivery"


class SmtpCollector:
    """Start with ``start()``; ``wait_for(address)`` returns the first message to it."""

    def __init__(self):
        self.host = "127.0.0.1"
        self.port = free_port()
        self._messages: list[tuple[list[str], EmailMessage]] = []
        self._arrived = threading.Condition()
        self._controller = Controller(_Collect(self), hostname=self.host, port=self.port, ready_timeout=30)

    def start(self) -> "SmtpCollector":
        self._controller.start()
        return self

    def stop(self) -> None:
        self._controller.stop()

    def _add(self, recipients: list[str], message: EmailMessage) -> None:
        with self._arrived:
            self._messages.append(([r.lower() for r in recipients], message))
            self._arrived.notify_all()

    @property
    def messages(self) -> list[EmailMessage]:
        with self._arrived:
            return [message for _, message in self._messages]

    def messages_to(self, address: str) -> list[EmailMessage]:
        with self._arrived:
            return [message for recipients, message in self._messages if address.lower() in recipients]

    def clear(self) -> None:
        with self._arrived:
            self._messages.clear()

    def wait_for(self, address: str, timeout: float = 30, count: int = 1) -> EmailMessage:
        """The ``count``-th message envelope-addressed to ``address``, waiting up to ``timeout`` s."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while True:
                found = [m for recipients, m in self._messages if address.lower() in recipients]
                if len(found) >= count:
                    return found[count - 1]
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
