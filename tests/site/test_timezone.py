"""Times are shown in the logged-in user's own time zone, and only during their request."""

from __future__ import annotations

import pytest
from django.utils import timezone

pytestmark = pytest.mark.django_db


def test_a_request_runs_in_the_users_zone_and_leaves_no_zone_behind(alice, alice_client):
    alice.time_zone = "Asia/Tokyo"
    alice.save(update_fields=["time_zone"])
    seen = {}

    from django.test.signals import template_rendered

    def remember_zone(sender, **kwargs):
        seen["zone"] = timezone.get_current_timezone_name()

    template_rendered.connect(remember_zone)
    try:
        assert alice_client.get("/").status_code == 200
    finally:
        template_rendered.disconnect(remember_zone)

    assert seen["zone"] == "Asia/Tokyo"
    assert timezone.get_current_timezone_name() == "UTC"


def test_an_unknown_stored_zone_falls_back_to_utc(alice, alice_client):
    alice.time_zone = "Nowhere/Atlantis"
    alice.save(update_fields=["time_zone"])
    assert alice_client.get("/").status_code == 200
