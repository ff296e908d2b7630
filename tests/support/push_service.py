"""A browser's side of Web Push, on loopback: what a browser keeps when it subscribes, and a
stand-in for its vendor's push service that takes the site's pushes and decrypts them.

``BrowserKeys`` makes what ``PushManager.subscribe()`` makes: its own P-256 key pair and a
16-byte auth secret (``cryptography``), and reads a push's body as the browser would
(RFC 8291's aes128gcm, by ``http_ece``, which pywebpush itself encrypts with).

``LocalPushService`` is an HTTP server on 127.0.0.1 that answers every POST to
``/push/<name>`` with the status set for that name (201 Created, as a push service does,
unless ``answer(name, 410)``), and keeps each request: ``received(name)``, ``wait_for(name,
count=1, timeout=30)``.
"""

from __future__ import annotations

import base64
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class BrowserKeys:
    def __init__(self):
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth_secret = os.urandom(16)

    @property
    def p256dh(self) -> str:
        return b64url(self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))

    def subscription(self, endpoint: str) -> dict:
        """As the browser's ``PushSubscription.toJSON()`` spells it."""
        return {"endpoint": endpoint, "expirationTime": None,
                "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth_secret)}}

    def decrypt(self, body: bytes) -> bytes:
        # aes128gcm carries the sender's public key and the salt in the body's header.
        return http_ece.decrypt(body, private_key=self.private_key, auth_secret=self.auth_secret,
                                version="aes128gcm")


@dataclass
class PushRequest:
    path: str
    headers: dict
    body: bytes
    status: int


@dataclass
class LocalPushService:
    requests: list[PushRequest] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)

    def start(self) -> LocalPushService:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - the http.server spelling
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                name = self.path.rsplit("/", 1)[-1]
                status = service.statuses.get(name, 201)
                service.requests.append(PushRequest(self.path, {k.lower(): v for k, v in self.headers.items()},
                                                    body, status))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def endpoint(self, name: str) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/push/{name}"

    def answer(self, name: str, status: int) -> None:
        self.statuses[name] = status

    def received(self, name: str) -> list[PushRequest]:
        return [request for request in self.requests if request.path == f"/push/{name}"]

    def wait_for(self, name: str, count: int = 1, timeout: float = 30) -> list[PushRequest]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(self.received(name)) >= count:
                return self.received(name)
            time.sleep(0.05)
        raise AssertionError(f"the push service got {len(self.received(name))} of {count} pushes for {name} "
                             f"within {timeout} s")
