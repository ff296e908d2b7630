"""Nobody can pass for someone else by their name: a display name that reads as another
account's user name or as the site is refused, so is a new user name that reads as a name
someone goes by, and invitations find people by user name (or a verified address) only.
Mallory tries every spelling; Zed is the account she would pass for."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games import services as game_services
from games.models import Seat
from games.wizards import services as wizard_services
from games.wizards.models import Member
from sefirot_site.accounts.names import name_key
from tests.support.users import PASSWORD

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def zed(make_user):
    return make_user("zed")


@pytest.fixture
def mallory(make_user):
    return make_user("mallory", display_name="Mallory")


@pytest.fixture
def mallory_client(mallory):
    from django.test import Client

    client = Client()
    client.force_login(mallory)
    return client


def profile(display_name: str) -> dict:
    return {"display_name": display_name, "time_zone": "UTC", "turn_mail": "each"}


@pytest.mark.parametrize("display_name", [
    "zed", "ZED", "Zed", " zed ",
    "z\u0435d",          # a Cyrillic ie in the middle
    "\uff5a\uff45\uff44",  # full-width letters
    "\U0001d433\U0001d41e\U0001d41d",  # mathematical bold letters
    "z\u200bed",         # a zero-width space
    "ze\u0337d",         # a stroke over a letter
])
def test_a_display_name_that_reads_as_another_accounts_user_name_is_refused(mallory_client, mallory, zed,
                                                                              display_name):
    response = mallory_client.post(reverse("profile"), profile(display_name))
    assert response.status_code == 200  # the form again, with why
    assert "reads as another player’s user name" in response.content.decode()
    mallory.refresh_from_db()
    assert mallory.display_name == "Mallory"


@pytest.mark.parametrize("display_name", ["Sefirot Online", "sefirot online", "SEFIROT-ONLINE", "SefirotOnline",
                                          "\u0405\u0435firot \u041enline"])
def test_a_display_name_that_reads_as_the_site_is_refused(mallory_client, mallory, display_name):
    response = mallory_client.post(reverse("profile"), profile(display_name))
    assert "reads as the site’s own name" in response.content.decode()
    mallory.refresh_from_db()
    assert mallory.display_name == "Mallory"


@pytest.mark.parametrize("display_name", ["Zed the Wanderer", "mallory", "MALLORY", "Zoë", "zedd"])
def test_other_display_names_and_ones_own_user_name_are_taken(mallory_client, mallory, zed, display_name):
    response = mallory_client.post(reverse("profile"), profile(display_name), follow=True)
    assert "Your profile is saved." in response.content.decode()
    mallory.refresh_from_db()
    assert mallory.display_name == display_name


@pytest.mark.parametrize("username", ["zed", "Zed", "z\u0435d", "mallory", "Mallory", "SefirotOnline",
                                      "sefirot_online"])
def test_a_new_user_name_that_reads_as_a_name_someone_goes_by_is_refused(client, zed, make_user, username):
    make_user("mal", display_name="Mallory")
    response = client.post(reverse("account_signup"), {
        "email": "new@example.com", "username": username, "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 200 and not User.objects.filter(email="new@example.com").exists()
    page = response.content.decode()
    assert "already" in page or "reads as" in page


def test_a_new_user_name_unlike_anyone_s_signs_up(client, zed, smtp_server):
    response = client.post(reverse("account_signup"), {
        "email": "new@example.com", "username": "zedekiah", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302
    assert User.objects.get(email="new@example.com").username_key == "zedekiah"


def test_each_account_keeps_the_keys_of_its_names(zed, mallory):
    mallory.display_name = "Mal\u200bory"
    mallory.save(update_fields=["display_name"])
    mallory.refresh_from_db()
    assert (mallory.username_key, mallory.display_name_key) == ("mallory", "malory")
    assert name_key("\u0405\u0435\u0440\u0430") == name_key("SEPA") == "sepa"


# --- invitations --------------------------------------------------------------------------


def test_a_wizards_invitation_by_name_goes_to_that_user_name_never_a_display_name(alice, zed, mallory):
    # Mallory took "zed" as a display name before the check existed.
    User.objects.filter(pk=mallory.pk).update(display_name="zed")
    table = wizard_services.create_table(alice, name="Night Market")
    member = wizard_services.invite(table, alice, "zed")
    assert member.user == zed
    member = wizard_services.invite(table, alice, "Mallory")  # her user name is "mallory"
    assert member.user == mallory
    with pytest.raises(wizard_services.Refused, match="user name"):
        wizard_services.invite(table, alice, "Olive Outsider")  # the outsider's display name
    assert Member.objects.filter(table=table).count() == 2


def test_the_wizards_invitation_form_asks_for_a_user_name(alice_client, alice):
    table = wizard_services.create_table(alice, name="Night Market")
    page = alice_client.get(table.get_absolute_url()).content.decode()
    assert "user name" in page


def test_a_table_invitation_by_address_goes_to_a_verified_address_only(alice, bob, make_user):
    # Mallory signed up with Zed's address, which she cannot verify.
    mallory = make_user("mallory", email="zed@example.org", verified=False)
    game = game_services.start_game(alice, "tarot_hallow", {}, seats=3, invitees=[bob, "zed@example.org"])
    seat = game.seats.get(index=2)
    assert seat.user is None and seat.invited_email == "zed@example.org" and seat.status == Seat.Status.INVITED
    assert not game.seats.filter(user=mallory).exists()
