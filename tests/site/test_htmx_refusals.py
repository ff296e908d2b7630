"""Refusals without JavaScript, and the answers' Vary header (issue 38).  The browser
specs are in test_htmx_refusals_browser.py; here, the same forms posted as a page without
JavaScript posts them: the refusal comes back in a whole page (or after a redirect to
one), header and stylesheet included, and nothing is saved."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.models import ChatMessage, Note
from games.wizards import services as wizards
from journal import services as journal

from tests.games.wizards_helpers import make_table

pytestmark = pytest.mark.django_db

WHOLE = ('<header class="site-header">', '/static/css/site.css')


def whole(response) -> str:
    html = response.content.decode()
    assert all(part in html for part in WHOLE), html[:300]
    return html


@pytest.fixture
def duel(alice, bob):
    game = services.start_game(alice, "warring_planets", {"variant": "standard"}, opponent=bob, seed=3)
    services.accept_invitation(game.pk, bob)
    game.refresh_from_db()
    return game


def test_without_javascript_a_refused_move_answers_the_whole_page_saying_why(alice_client, bob_client, duel):
    client = alice_client if 0 in duel.to_act else bob_client
    response = client.post(reverse("games:move", args=[duel.pk]),
                           {"version": duel.version, "move": '{"type": "play", "card": "M99"}'})
    assert response.status_code == 400
    assert 'class="message error" role="alert"' in whole(response)


def test_without_javascript_a_refused_chat_line_and_notes_say_why_on_the_page(alice_client, duel):
    response = alice_client.post(reverse("games:chat", args=[duel.pk]), {"text": "   "}, follow=True)
    assert "Write something first." in whole(response)
    response = alice_client.post(reverse("games:notes", args=[duel.pk]), {"text": "n" * 20_001}, follow=True)
    assert "The notes could not be saved." in whole(response)
    assert not ChatMessage.objects.filter(game=duel).exists() and not Note.objects.filter(game=duel).exists()


def test_without_javascript_a_refused_act_answers_the_whole_session_page(bob_client, alice, bob, make_user):
    table = make_table(alice, bob, make_user("carol"))
    session = wizards.start_session(table, alice)
    response = bob_client.post(reverse("wizards:act", args=[session.pk]), {"version": session.version, "type": "roll"})
    assert response.status_code == 400
    assert "There is no challenge to roll against yet" in whole(response)


def test_refused_reflections_answer_htmx_in_their_region_and_a_page_in_a_whole_page(alice_client, alice):
    entry = journal.record_drawn(alice, spread="three", reversals=False, title="Morning draw")
    form = {"title": entry.title, "date": "2026-04-02", "tags": "", "reflections": "r" * 50_001,
            "reflections_format": "text"}
    url = reverse("journal:edit", args=[entry.pk])

    answer = alice_client.post(url, form, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="reflections")
    assert answer.status_code == 400
    html = answer.content.decode()
    assert html.lstrip().startswith('<section id="reflections">')
    assert "Not saved: Ensure this value has at most 50000 characters" in html
    assert "r" * 50_001 in html  # what was written is kept to be mended

    page = alice_client.post(url, form)
    assert page.status_code == 400
    assert "at most 50000 characters" in whole(page)
    entry.refresh_from_db()
    assert entry.reflections == ""


def test_every_answer_varies_on_htmx_so_a_browser_never_shows_regions_as_a_page(alice_client, duel):
    # The page and its regions share an address: a cache that ignored the header would
    # give Back the last htmx answer (test_htmx_refusals_browser.py goes Back in Chromium).
    for response in (alice_client.get(duel.get_absolute_url()),
                     alice_client.get(duel.get_absolute_url(), HTTP_HX_REQUEST="true")):
        assert "HX-Request" in response.headers["Vary"]
