"""Sessions read through one statement made once (sefirot_site.sessions): what Django's
database backend reads, for a signed-in player, an expired or unknown key and a tampered
row; written and ended by Django's backend as before."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from sefirot_site.sessions import SessionStore


def test_the_site_reads_its_sessions_through_this_store():
    assert settings.SESSION_ENGINE == "sefirot_site.sessions"


@pytest.mark.django_db
def test_it_reads_what_djangos_backend_reads_in_one_query(alice_client, alice):
    key = alice_client.session.session_key
    with CaptureQueriesContext(connection) as queries:
        read = SessionStore(key).load()
    assert read == db.SessionStore(key).load()
    assert read["_auth_user_id"] == str(alice.pk)
    assert len(queries) == 1


@pytest.mark.django_db
def test_a_signed_in_player_is_known_and_one_signed_out_is_not(alice_client, alice):
    assert alice_client.get(reverse("games:list")).status_code == 200
    key = alice_client.session.session_key
    alice_client.post(reverse("account_logout"))
    assert not Session.objects.filter(session_key=key).exists()
    assert SessionStore(key).load() == {}
    page = alice_client.get(reverse("games:list"))
    assert page.status_code == 302 and reverse("account_login") in page["Location"]


@pytest.mark.django_db
def test_an_expired_session_is_not_read_and_its_key_is_dropped(alice_client):
    key = alice_client.session.session_key
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    store = SessionStore(key)
    assert store.load() == {}
    assert store.session_key is None  # saved, it gets a new key: never the expired one again
    page = alice_client.get(reverse("games:list"))
    assert page.status_code == 302


@pytest.mark.django_db
def test_an_unknown_key_reads_nothing_and_the_visitor_is_a_stranger(client, alice_client):
    assert SessionStore("x" * 32).load() == {}
    client.cookies[settings.SESSION_COOKIE_NAME] = "y" * 32
    assert client.get(reverse("games:list")).status_code == 302


@pytest.mark.django_db
def test_a_row_whose_signature_fails_reads_as_an_empty_session(alice_client):
    key = alice_client.session.session_key
    row = Session.objects.get(session_key=key)
    Session.objects.filter(session_key=key).update(session_data=row.session_data[:-3] + "abc")
    assert SessionStore(key).load() == {}
    assert alice_client.get(reverse("games:list")).status_code == 302
