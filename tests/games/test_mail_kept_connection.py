"""Turn mails go through one SMTP connection the worker keeps open (games.mail.tasks.send_kept):
a connection the server dropped is opened again, and one that failed is never kept."""

from __future__ import annotations

import smtplib
import socket

import pytest
from django.core.mail import EmailMessage

from games.mail import tasks


def mail(n: int) -> EmailMessage:
    return EmailMessage(subject=f"Mail {n}", body=f"Body {n}", to=[f"player{n}@example.org"])


@pytest.fixture
def nothing_kept():
    tasks._kept.connections = {}
    yield
    for connection in getattr(tasks._kept, "connections", {}).values():
        connection.close()
    tasks._kept.connections = {}


def kept_connection():
    (connection,) = tasks._kept.connections.values()
    return connection


def test_mails_one_after_another_share_one_connection(smtp_server, nothing_kept):
    tasks.send_kept(mail(1))
    first = kept_connection()
    tasks.send_kept(mail(2))

    assert kept_connection() is first
    assert [m["Subject"] for m in smtp_server.messages] == ["Mail 1", "Mail 2"]


def test_a_connection_dropped_between_two_mails_is_opened_again(smtp_server, nothing_kept):
    tasks.send_kept(mail(1))
    dropped = kept_connection()
    dropped.connection.sock.shutdown(socket.SHUT_RDWR)  # as a server closing an idle session

    tasks.send_kept(mail(2))

    assert kept_connection() is not dropped
    assert [m["Subject"] for m in smtp_server.messages] == ["Mail 1", "Mail 2"]


class FailingConnection:
    """A backend whose sends fail with ``error``; records whether it was closed."""

    opened = []

    def __init__(self, error: Exception | None):
        self.error = error
        self.closed = False
        FailingConnection.opened.append(self)

    def open(self):
        return True

    def close(self):
        self.closed = True

    def send_messages(self, messages):
        if self.error is not None:
            raise self.error
        return len(messages)


@pytest.fixture
def backends(settings, monkeypatch, nothing_kept):
    """Connections that fail as listed, one after another."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    FailingConnection.opened = []

    def use(*errors):
        queue = list(errors)
        monkeypatch.setattr(tasks, "get_connection", lambda: FailingConnection(queue.pop(0)))
        return FailingConnection.opened

    return use


def test_an_error_in_the_middle_of_a_message_is_raised_and_the_connection_is_not_kept(backends):
    opened = backends(socket.timeout("timed out"), None)

    with pytest.raises(socket.timeout):
        tasks.send_kept(mail(1))  # the task's retry sends it later
    assert opened[0].closed and tasks._kept.connections == {}

    tasks.send_kept(mail(2))
    assert len(opened) == 2 and kept_connection() is opened[1]


def test_a_refusal_is_raised_and_the_next_mail_has_a_fresh_connection(backends):
    opened = backends(smtplib.SMTPDataError(451, b"try later"), None)

    with pytest.raises(smtplib.SMTPDataError):
        tasks.send_kept(mail(1))
    tasks.send_kept(mail(2))

    assert opened[0].closed and kept_connection() is opened[1]


def test_a_server_that_keeps_dropping_the_connection_fails_the_send_after_one_new_try(backends):
    opened = backends(smtplib.SMTPServerDisconnected("gone"), smtplib.SMTPServerDisconnected("gone again"))

    with pytest.raises(smtplib.SMTPServerDisconnected):
        tasks.send_kept(mail(1))

    assert len(opened) == 2 and all(c.closed for c in opened) and tasks._kept.connections == {}
