"""The site's main navigation (templates/base.html): My games, a new game, the lobby, the
journal, the profile and how to play for a logged-in player; a new game and how to play for
a visitor too; the development mailbox only in development or for staff, since it shows
everyone's mail."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

PLAYER_LINKS = {"My games": "games:list", "New game": "games:new", "Lobby": "games:lobby", "Journal": "journal:list",
                "Wizards": "wizards:list", "Profile": "profile", "How to play": "games:rules"}
# A newcomer's first questions, asked before they have an account (issue 38, item 10).
VISITOR_LINKS = {"New game": "games:new", "How to play": "games:rules"}


def nav_links(client, path="/") -> dict[str, tuple[str, bool]]:
    """The main navigation as {label: (href, is the current page)}."""
    page = client.get(path).content.decode()
    nav = re.search(r'<nav class="site-nav".*?</nav>', page, re.S).group(0)
    return {label: (href, rest.find("aria-current") >= 0)
            for href, rest, label in re.findall(r'<a href="([^"]+)"([^>]*)>([^<]+)</a>', nav)}


def test_a_player_finds_their_games_the_lobby_the_journal_and_their_profile(alice_client):
    links = nav_links(alice_client)
    for label, name in PLAYER_LINKS.items():
        assert links[label][0] == reverse(name)
    for label, name in PLAYER_LINKS.items():
        current = [other for other, (_, here) in nav_links(alice_client, reverse(name)).items() if here]
        assert current == [label], f"on {name} the navigation marks {current}"


def test_the_vacation_page_and_a_game_page_sit_under_my_games(alice_client, solo_game):
    for path in (solo_game.get_absolute_url(), reverse("clocks:vacation")):
        current = [label for label, (_, here) in nav_links(alice_client, path).items() if here]
        assert current == ["My games"], path


def test_a_game_of_the_rules_sits_under_how_to_play(alice_client):
    path = reverse("games:rules_mode", args=["tarot_hallow"])
    assert [label for label, (_, here) in nav_links(alice_client, path).items() if here] == ["How to play"]


def test_a_visitor_is_offered_a_new_game_how_to_play_and_to_log_in_or_sign_up(client, settings):
    settings.DEBUG = False
    assert nav_links(client) == {label: (reverse(name), False) for label, name in VISITOR_LINKS.items()}
    assert nav_links(client, reverse("games:rules"))["How to play"] == (reverse("games:rules"), True)
    page = client.get("/").content.decode()
    assert f'href="{reverse("account_login")}"' in page and f'href="{reverse("account_signup")}"' in page


def test_the_mailbox_is_in_the_navigation_in_development(alice_client, client, settings):
    settings.DEBUG = True
    assert nav_links(alice_client)["Mailbox"][0] == reverse("mail:mailbox")
    # A visitor who is not signed in has no mailbox: it would show other people's mail.
    assert "Mailbox" not in nav_links(client)
    assert nav_links(alice_client, reverse("mail:mailbox"))["Mailbox"][1]


def test_in_production_only_staff_see_the_mailbox(alice_client, make_user, settings):
    from django.test import Client

    settings.DEBUG = False
    assert "Mailbox" not in nav_links(alice_client)
    assert alice_client.get(reverse("mail:mailbox")).status_code == 404
    staff = Client()
    staff.force_login(make_user("steward", is_staff=True))
    assert nav_links(staff)["Mailbox"][0] == reverse("mail:mailbox")
    assert staff.get(reverse("mail:mailbox")).status_code == 200
