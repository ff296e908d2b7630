"""The signed-in player read by id through one statement made once
(sefirot_site.accounts.models.SiteUserManager): the same user the queryset reads, one
query, and every other lookup left to the queryset; signing in and out as before."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

User = get_user_model()


@pytest.mark.django_db
def test_it_reads_by_id_what_the_queryset_reads_in_one_query(alice):
    User.objects.filter(pk=alice.pk).update(display_name="Alice of the Stars", time_zone="Europe/Paris")
    with CaptureQueriesContext(connection) as queries:
        read = User.objects.get(pk=alice.pk)
    by_queryset = User.objects.filter(pk=alice.pk).get()
    assert len(queries) == 1
    assert "LIMIT" not in queries[0]["sql"]  # the queryset's get asks for at most 21 rows; this reads by id
    assert type(read) is User and read._state.adding is False and read._state.db == "default"
    assert model_to_dict(read) == model_to_dict(by_queryset)
    assert (read.last_login, read.date_joined) == (by_queryset.last_login, by_queryset.date_joined)
    assert read.date_joined.tzinfo is not None


@pytest.mark.django_db
def test_an_unknown_id_is_not_found(alice):
    with pytest.raises(User.DoesNotExist, match="matching query does not exist"):
        User.objects.get(pk=alice.pk + 1000)
    for beyond_any_id in (0, -1, 2**63, 2**80):  # not found, as the queryset says (SQLite refused 2**63 here)
        with pytest.raises(User.DoesNotExist):
            User.objects.get(pk=beyond_any_id)


@pytest.mark.django_db
def test_other_lookups_are_the_querysets(alice, bob):
    assert User.objects.get(username="bob") == bob
    assert User.objects.get(pk=str(alice.pk)) == alice  # not a whole number: the queryset's way
    assert User.objects.get(pk=alice.pk, username="alice") == alice
    with pytest.raises(User.DoesNotExist):
        User.objects.get(pk=alice.pk, username="bob")


@pytest.mark.django_db
def test_a_signed_in_player_is_known_on_each_request_through_it(alice_client, alice):
    with CaptureQueriesContext(connection) as queries:
        page = alice_client.get(reverse("games:list"))
    assert page.status_code == 200
    assert page.wsgi_request.user == alice
    by_id = [q["sql"] for q in queries if q["sql"].startswith('SELECT "accounts_user"."id"')
             and q["sql"].rstrip().endswith(('"accounts_user"."id" = %s' % alice.pk, '"accounts_user"."id" = $1'))]
    assert len(by_id) == 1, [q["sql"] for q in queries]


@pytest.mark.django_db
def test_a_player_made_inactive_is_signed_out_on_their_next_request(alice_client, alice):
    User.objects.filter(pk=alice.pk).update(is_active=False)
    page = alice_client.get(reverse("games:list"))
    assert page.status_code == 302 and reverse("account_login") in page["Location"]


@pytest.mark.django_db
def test_a_password_changed_elsewhere_signs_the_other_sessions_out(alice_client, alice):
    alice.set_password("a new and much longer secret phrase")
    alice.save()
    page = alice_client.get(reverse("games:list"))
    assert page.status_code == 302 and reverse("account_login") in page["Location"]
