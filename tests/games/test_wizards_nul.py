"""A NUL character anywhere a person can type at the tarot wizards table or on the account
pages, or in their links, is refused with a 4xx and stores nothing.  PostgreSQL refuses NUL in text and in
JSON (where SQLite keeps it), so these matter most when run with DATABASE_URL set; they
hold on both.  Alice is the game master, Bob and Carol play."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.wizards import services
from games.wizards.models import Member, PlaySession, Table

from .wizards_helpers import make_table

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def carol(make_user):
    return make_user("carol", display_name="Carol")


@pytest.fixture
def table(alice, bob, carol):
    return make_table(alice, bob, carol)


@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("token", ["%00", "abc%00def", "a%00"])
def test_an_invitation_link_with_a_nul_is_not_found(alice, bob, bob_client, method, token):
    table = services.create_table(alice, name="Night Market")
    member = services.invite(table, alice, "bob")
    response = getattr(bob_client, method)(f"/wizards/invitation/{token}/", {"answer": "accept"})
    assert response.status_code == 404
    member.refresh_from_db()
    assert member.status == Member.Status.INVITED


@pytest.mark.parametrize("field", ["narration", "target", "enemy", "name", "skill"])
def test_an_act_with_a_nul_is_refused_and_changes_nothing(table, alice, bob, bob_client, field):
    session = services.start_session(table, alice, title="The ferry")
    post = {"type": "post", "narration": "I look around.", "version": session.version, field: "a\x00b"}
    response = bob_client.post(reverse("wizards:act", args=[session.pk]), post, **HX)
    assert response.status_code == 400 and "NUL" in response.content.decode()
    assert PlaySession.objects.get(pk=session.pk).version == session.version


def test_a_session_title_with_a_nul_is_refused_and_starts_nothing(table, alice, alice_client):
    response = alice_client.post(reverse("wizards:start", args=[table.pk]), {"title": "The\x00ferry"})
    assert response.status_code == 400 and "NUL" in response.content.decode()
    assert not PlaySession.objects.exists()


@pytest.mark.parametrize("url_name, post", [
    ("wizards:new", {"name": "Night\x00Market"}),
    ("wizards:new", {"name": "Night Market", "campaign": "Bar\x00gains"}),
])
def test_a_table_with_a_nul_is_refused(alice_client, url_name, post):
    response = alice_client.post(reverse(url_name), post)
    assert response.status_code == 400 and "Null characters are not allowed" in response.content.decode()
    assert not Table.objects.exists()


def test_an_invitation_or_a_character_with_a_nul_is_refused(table, alice_client, bob_client):
    response = alice_client.post(reverse("wizards:invite", args=[table.pk]), {"who": "dora\x00@example.org"})
    assert response.status_code == 400 and table.members.count() == 2
    response = bob_client.post(reverse("wizards:character", args=[table.pk]), {
        "name": "Wren\x00", "spread_source": "site", "practice_choice": "Witchcraft", "prime": "p",
        "skill_origin": "Herb lore", "skill_purpose": "Bargaining", "skill_means": "Sewing"})
    assert response.status_code == 400
    assert table.characters.get(owner__username="bob").name == "Morwen"


@pytest.mark.parametrize("url, post", [
    ("/accounts/profile/", {"display_name": "Bo\x00b", "time_zone": "UTC", "turn_mail": "each"}),
    ("/accounts/login/", {"login": "bob\x00", "password": "x"}),
    ("/accounts/signup/", {"email": "new@example.org", "username": "ne\x00w", "password1": "a long passphrase 1",
                           "password2": "a long passphrase 1"}),
])
def test_account_forms_refuse_a_nul(client, bob, url, post):
    from django.contrib.auth import get_user_model

    if url == "/accounts/profile/":
        client.force_login(bob)
    response = client.post(url, post)
    assert response.status_code in (200, 400)  # allauth redraws its forms with their errors at 200
    assert "Null characters are not allowed" in response.content.decode()
    assert get_user_model().objects.count() == 1


def test_a_post_by_mail_with_a_nul_is_refused_with_words_and_changes_nothing(table, alice, bob):
    from games.engine.base import IllegalMove
    from games.wizards.mail_seats import WizardSeat

    session = services.start_session(table, alice, title="The ferry")
    seat = WizardSeat(session.seats.get(user=bob))
    move = seat.read_words("A tide of silver\x00 coins.", None)
    with pytest.raises(IllegalMove, match="NUL"):
        seat.play(move.move, session.version)
    assert PlaySession.objects.get(pk=session.pk).version == session.version


@pytest.mark.parametrize("path", ["/accounts/confirm-email/%00/", "/accounts/confirm-email/a%00b/",
                                  "/accounts/password/reset/key/%00-%00/", "/accounts/login/?next=/%00",
                                  "/wizards/%00/", "/wizards/sessions/%00/", "/wizards/characters/%00/"])
def test_account_and_table_links_with_a_nul_never_fail(client, bob, path):
    assert client.get(path).status_code < 500
    client.force_login(bob)
    assert client.get(path).status_code < 500
