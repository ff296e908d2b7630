"""A tarot wizards session's tale in the journal reads as the session's log does: the
narration's Markdown rendered (through the same Markdown and nh3 as the log), the site's
own words as they are, and nothing a player typed able to run as markup."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse

from games.wizards import services, tasks
from journal.models import Entry
from tests.games.wizards_helpers import make_table

pytestmark = pytest.mark.django_db

NARRATION = "A **door** of black iron, and _beyond_ it <script>alert(1)</script> [a link](javascript:alert(2))"


@pytest.fixture
def carol(make_user):
    return make_user("carol", display_name="Carol")


@pytest.fixture
def bobs_entry(alice, bob, carol):
    table = make_table(alice, bob, carol)
    session = services.start_session(table, alice, title="The ferry")
    services.act(session.pk, alice, {"type": "post", "narration": NARRATION}, session.version)
    session.refresh_from_db()
    services.act(session.pk, alice, {"type": "end_session", "narration": "Dawn *breaks*."}, session.version)
    tasks.make_journal_entries(session.pk)
    return Entry.objects.get(owner=bob)


def _tale(html: str) -> str:
    return html.split('<div class="story">')[1].split("</div>")[0]


def test_the_journal_tells_a_sessions_tale_with_its_markdown_rendered_as_the_log_does(bobs_entry, bob, alice_client):
    from django.test import Client

    client = Client()
    client.force_login(bob)
    page = client.get(bobs_entry.get_absolute_url()).content.decode()
    tale = _tale(page)

    assert "A <strong>door</strong> of black iron, and <em>beyond</em> it" in tale
    assert "**" not in tale and "_beyond_" not in tale
    assert "<script>" not in tale and "javascript:" not in tale
    assert "Dawn <em>breaks</em>." in tale
    # The site's own words around the narration stay as they were written, no stray escapes.
    assert "\\" not in tale
    # The closing line ends the tale and is not said again below it.
    assert page.count("The game master closed the session.") == 1


def test_the_entrys_pdf_tells_the_tale_without_markdown_marks(bobs_entry, bob):
    from django.test import Client
    from pypdf import PdfReader

    client = Client()
    client.force_login(bob)
    response = client.get(reverse("journal:pdf", args=[bobs_entry.pk]))

    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(response.content)).pages)
    assert response.status_code == 200
    assert "A door of black iron, and beyond it" in text
    assert "**" not in text and "_beyond_" not in text and "\\" not in text
