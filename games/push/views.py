"""A device's subscription, posted by the profile page's script (``static/js/push.js``)
with the CSRF token; a device forgotten from the profile; a game muted from its page.

A subscription names the address the site will post to: only a push service's (the
``PUSH_SERVICE_HOSTS``, over https) is taken, so nobody makes the site post to a host of
their choosing.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import json
import re
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from games.models import Game, Seat
from games.push.models import GameMute, PushSubscription

BODY_LIMIT = 4000  # bytes; a subscription is some 400
DEVICES_PER_PLAYER = 20


class Refused(ValueError):
    """A subscription the site does not take, with the reason in words."""


def _b64url(text: object, length: int, what: str) -> bytes:
    if not isinstance(text, str) or not re.fullmatch(r"[A-Za-z0-9_-]+={0,2}", text):
        raise Refused(f"The {what} is missing or not base64url.")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise Refused(f"The {what} is not base64url.") from None
    if len(raw) != length:
        raise Refused(f"The {what} must be {length} bytes, not {len(raw)}.")
    return raw


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def check_endpoint(endpoint: object) -> str:
    if not isinstance(endpoint, str) or len(endpoint) > 1000:
        raise Refused("The subscription has no endpoint.")
    parts = urlsplit(endpoint)
    host = (parts.hostname or "").lower()
    # http only on the machine itself: a stand-in push service in development and tests.
    if not (parts.scheme == "https" or parts.scheme == "http" and _is_loopback(host)) or parts.username:
        raise Refused("The endpoint must be a push service's https address.")
    if not any(host == allowed or host.endswith("." + allowed) for allowed in settings.PUSH_SERVICE_HOSTS):
        raise Refused(f"{host or 'That address'} is not a push service this site sends to.")
    return endpoint


def read_subscription(body: bytes) -> dict:
    """The endpoint and keys of a ``PushSubscription.toJSON()``, checked, or Refused."""
    if len(body) > BODY_LIMIT:
        raise Refused("The subscription is too long.")
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise Refused("The subscription could not be read.") from None
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise Refused("The subscription has no keys.")
    p256dh = data["keys"].get("p256dh")
    point = _b64url(p256dh, 65, "browser's public key")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise Refused("The browser's public key is not a point of P-256.") from None
    auth = data["keys"].get("auth")
    _b64url(auth, 16, "auth secret")
    return {"endpoint": check_endpoint(data.get("endpoint")), "p256dh": p256dh.rstrip("="), "auth": auth.rstrip("=")}


_BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("SamsungBrowser/", "Samsung Internet"),
             ("Chrome/", "Chrome"), ("Chromium/", "Chromium"), ("Safari/", "Safari"))
_SYSTEMS = (("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Windows", "Windows"),
            ("Mac OS X", "a Mac"), ("CrOS", "ChromeOS"), ("Linux", "Linux"))


def device_label(user_agent: str) -> str:
    """"Firefox on Android": enough for a player to tell their devices apart on the profile."""
    browser = next((name for mark, name in _BROWSERS if mark in user_agent), "A browser")
    system = next((name for mark, name in _SYSTEMS if mark in user_agent), "")
    return f"{browser} on {system}" if system else browser


def _refusal(message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


@login_required
@require_POST
def subscribe(request):
    try:
        fields = read_subscription(request.body)
    except Refused as refused:
        return _refusal(str(refused))
    mine = PushSubscription.objects.filter(user=request.user)
    if not mine.filter(endpoint=fields["endpoint"]).exists() and mine.count() >= DEVICES_PER_PLAYER:
        return _refusal(f"You have {DEVICES_PER_PLAYER} devices taking notifications; "
                        "forget one on your profile first.")
    # A browser has one subscription whoever is signed in: the last to subscribe on it gets it.
    subscription, _ = PushSubscription.objects.update_or_create(
        endpoint=fields["endpoint"],
        defaults={"user": request.user, "p256dh": fields["p256dh"], "auth": fields["auth"],
                  "label": device_label(request.headers.get("User-Agent", ""))[:80]})
    return JsonResponse({"ok": True, "id": subscription.pk, "label": subscription.label})


@login_required
@require_POST
def unsubscribe(request):
    """The page's script turned notifications off on this device: forget its endpoint."""
    try:
        data = json.loads(request.body[:BODY_LIMIT])
        endpoint = data["endpoint"] if isinstance(data, dict) else None
    except (ValueError, KeyError, RecursionError):
        endpoint = None
    if not isinstance(endpoint, str):
        return _refusal("Say which device: its subscription's endpoint.")
    removed, _ = PushSubscription.objects.filter(user=request.user, endpoint=endpoint).delete()
    return JsonResponse({"ok": True, "removed": bool(removed)})


@login_required
@require_POST
def forget(request, subscription_id):
    """A device forgotten from the profile (one lost, or a browser no longer used)."""
    subscription = get_object_or_404(PushSubscription, pk=subscription_id, user=request.user)
    label = subscription.label or "That device"
    subscription.delete()
    messages.success(request, f"{label} gets no more notifications from this site.")
    return redirect("profile")


@login_required
@require_http_methods(["GET", "POST"])
def mute(request, game_id):
    """A game's mute switch, on every device of the player: fetched by the game page on a
    device that takes pushes (``static/js/install.js``; nothing for a player without, and
    no query on every game page), and posted to switch it."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not Seat.objects.filter(game=game, user=request.user, status=Seat.Status.JOINED).exists():
        raise Http404("No such game.")
    mutes = GameMute.objects.filter(user=request.user, game=game)
    said = ""
    if request.method == "POST":
        muted = request.POST.get("muted") == "on"
        if muted:
            GameMute.objects.get_or_create(user=request.user, game=game)
        else:
            mutes.delete()
        said = "No notifications for this game." if muted else "Notifications for this game are on."
        if not request.htmx:
            messages.info(request, said)
            return redirect(game)
    return render(request, "push/_mute.html", {"game": game, "muted": mutes.exists(), "said": said})
