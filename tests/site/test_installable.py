"""The installable site (issue 42): the web manifest, the service worker served from the
root, the offline page that is the same for everyone, and the app icons drawn from the
card back. Chromium's own verdict on them is in tests/games/test_push_browser.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.urls import reverse
from PIL import Image, ImageChops, ImageStat

from games.cardfaces import ICON_SIZES, app_icon

BASE_DIR = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_every_page_names_the_manifest_and_registers_the_worker(client):
    page = client.get(reverse("home")).content.decode()
    assert f'<link rel="manifest" href="{reverse("manifest")}">' in page
    assert f'data-worker="{reverse("service_worker")}"' in page
    assert reverse("service_worker") == "/sw.js"  # at the root: its scope is the whole site


@pytest.mark.django_db
def test_the_manifest_names_the_site_and_its_icons(client):
    answer = client.get(reverse("manifest"))
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = answer.json()
    assert manifest["name"] == "Sefirot Online" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        path = finders.find(icon["src"].removeprefix(settings.STATIC_URL))
        with Image.open(path) as image:
            assert f"{image.width}x{image.height}" == icon["sizes"] and image.format == "PNG"


@pytest.mark.django_db
def test_the_worker_is_served_from_the_root_and_keeps_only_what_is_everyones(client, alice_client):
    answer = alice_client.get(reverse("service_worker"))
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/" and answer["Cache-Control"] == "no-cache"
    script = answer.content.decode()
    kept = script.split("const KEPT = [", 1)[1].split("];", 1)[0]
    assert "OFFLINE" in kept and all(path.strip(' "').startswith(settings.STATIC_URL)
                                     for path in kept.split(",")[1:])
    # The same script for everyone: nothing of the signed-in player's in it.
    assert script == client.get(reverse("service_worker")).content.decode()


@pytest.mark.django_db
def test_the_offline_page_is_the_same_for_everyone(client, alice_client):
    theirs = alice_client.get(reverse("offline"))
    assert theirs.status_code == 200 and "You are offline" in theirs.content.decode()
    assert theirs.content == client.get(reverse("offline")).content
    assert "csrf" not in theirs.content.decode().lower() and "Alice" not in theirs.content.decode()


@pytest.mark.parametrize("name", sorted(ICON_SIZES))
def test_the_committed_icons_are_the_card_backs_drawing(name):
    """``manage.py build_icons`` draws them: this fails while they are stale."""
    size, kind = ICON_SIZES[name]
    with Image.open(BASE_DIR / "static" / "icons" / name) as committed:
        drawn = app_icon(size, kind)
        assert committed.size == drawn.size
        difference = ImageChops.difference(committed.convert("RGBA"), drawn.convert("RGBA"))
        # Resampling may differ by a shade between Pillow versions; a changed drawing differs far more.
        assert max(ImageStat.Stat(difference).mean) < 1.0, f"run manage.py build_icons ({name} is stale)"


def test_a_maskable_icon_fills_its_square_and_keeps_the_tree_inside_the_safe_circle():
    icon = app_icon(512, "maskable").convert("RGB")
    ground = icon.getpixel((0, 0))
    assert all(icon.getpixel(corner) == ground for corner in [(511, 0), (0, 511), (511, 511)])
    # Outside the circle of radius 40 % a launcher may cut: nothing but the ground.
    for x in range(0, 512, 8):
        for y in range(0, 512, 8):
            if (x - 256) ** 2 + (y - 256) ** 2 > (0.4 * 512) ** 2:
                assert icon.getpixel((x, y)) == ground, (x, y)


@pytest.mark.parametrize(("value", "message"), [
    ("not a key", "VAPID_PRIVATE_KEY is not a P-256 private key"),
])
def test_a_vapid_key_that_is_none_stops_start_up_with_a_message(value, message):
    from tests.site.test_settings import manage

    result = manage("check", VAPID_PRIVATE_KEY=value)
    assert result.returncode != 0 and message in result.stderr


def test_a_vapid_subject_push_services_cannot_write_to_stops_start_up():
    from tests.site.test_settings import manage

    result = manage("check", VAPID_SUBJECT="nobody")
    assert result.returncode != 0 and "VAPID_SUBJECT='nobody' must be mailto:" in result.stderr
