"""The site's VAPID key (RFC 8292): push services accept a push only when it is signed by
the key the browser was subscribed with.

From ``VAPID_PRIVATE_KEY`` when set (what several nodes must share), else made on first
use and kept in ``DATA_DIR/vapid-private.pem``: a key that changed would orphan every
subscription, so it is written once, atomically, and only read after that.
"""

from __future__ import annotations

import base64
import os
import tempfile
from functools import cache
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from py_vapid import Vapid

KEY_FILE = "vapid-private.pem"


def key_path() -> Path:
    return Path(settings.DATA_DIR) / KEY_FILE


@cache
def site_key() -> Vapid:
    if settings.VAPID_PRIVATE_KEY:
        return _from_setting(settings.VAPID_PRIVATE_KEY)
    path = key_path()
    if not path.exists():
        _write_once(path)
    return Vapid.from_pem(path.read_bytes())


def _from_setting(text: str) -> Vapid:
    try:
        if "-----BEGIN" in text:
            return Vapid.from_pem(text.strip().encode())
        return Vapid.from_string(text.strip())  # base64url: the raw 32 bytes, or DER
    except Exception:  # noqa: BLE001 - py_vapid and cryptography raise many kinds
        raise ImproperlyConfigured(
            "VAPID_PRIVATE_KEY is not a P-256 private key: give it as PEM, or as base64url "
            "(the 32 raw bytes or DER), e.g. the output of `vapid --gen`.") from None


def _write_once(path: Path) -> None:
    """A new key, unless another process (web, worker) got there first: written under a
    temporary name and linked into place, which fails if the file exists."""
    key = Vapid()
    key.generate_keys()
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".vapid-")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(key.private_pem())
        os.chmod(temporary, 0o600)
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass
    finally:
        os.unlink(temporary)


def public_key() -> str:
    """The application server key a page subscribes with: the uncompressed point, base64url."""
    raw = site_key().public_key.public_bytes(serialization.Encoding.X962,
                                             serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
