"""The journal is a diary: only its owner, or whoever holds a live share link, sees it."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from journal import services
from journal.models import Entry, Seal, Tag

pytestmark = pytest.mark.django_db


@pytest.fixture
def sealed_entry(drawn_entry):
    """Alice's entry with a seal whose PNG is on disk (written here, the worker's job is
    tested in test_seal_task)."""
    seal = Seal.objects.create(entry=drawn_entry, cards=["M0", "M19"], words=["a", "b"], input_hash="x" * 16,
                               status=Seal.Status.DONE)
    folder = services.seal_dir(drawn_entry.owner_id)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "seal-test-a5.png").write_bytes(b"\x89PNG fake")
    seal.files = {"png-a5": f"seals/u{drawn_entry.owner_id}/seal-test-a5.png"}
    seal.save()
    return drawn_entry, seal


def owner_urls(entry, seal):
    return [
        reverse("journal:detail", args=[entry.pk]),
        reverse("journal:edit", args=[entry.pk]),
        reverse("journal:pdf", args=[entry.pk]),
        reverse("journal:seal_new", args=[entry.pk]),
        reverse("journal:seal", args=[entry.pk, seal.pk]),
        reverse("journal:seal_file", args=[entry.pk, seal.pk, "png-a5"]),
    ]


def status_of(client, url: str) -> int:
    # A seal file's response holds the file open until its content is read to the end (the
    # test client closes it then, as a WSGI server would); one left to the garbage
    # collector warns (ResourceWarning) in whichever test happens to be running.
    response = client.get(url)
    if response.streaming:
        b"".join(response.streaming_content)
    return response.status_code


def test_the_owner_reaches_every_page_of_their_entry(alice_client, sealed_entry):
    entry, seal = sealed_entry

    for url in owner_urls(entry, seal):
        assert status_of(alice_client, url) == 200, url


def test_an_outsider_gets_404_for_a_private_entry_and_everything_under_it(outsider_client, sealed_entry):
    entry, seal = sealed_entry

    for url in owner_urls(entry, seal):
        assert status_of(outsider_client, url) == 404, url


def test_an_outsider_cannot_change_share_or_delete_an_entry(outsider_client, sealed_entry):
    entry, seal = sealed_entry

    posts = [
        (reverse("journal:edit", args=[entry.pk]), {"title": "pwned", "date": "2026-01-01",
                                                    "reflections": "", "reflections_format": "text"}),
        (reverse("journal:share", args=[entry.pk]), {"action": "share"}),
        (reverse("journal:delete", args=[entry.pk]), {}),
        (reverse("journal:seal_new", args=[entry.pk]), {"use_M0": "on", "use_M19": "on"}),
        (reverse("journal:seal_retry", args=[entry.pk, seal.pk]), {}),
        (reverse("journal:seal_preview", args=[entry.pk]), {"use_M0": "on", "use_M19": "on"}),
    ]
    for url, data in posts:
        assert outsider_client.post(url, data).status_code == 404, url
    entry.refresh_from_db()
    assert entry.title == "Morning draw" and entry.share_token is None and entry.seals.count() == 1


def test_a_seal_of_one_entry_is_not_reachable_through_another_entry(alice, alice_client, sealed_entry):
    entry, seal = sealed_entry
    other = services.record_drawn(alice, spread="one", reversals=False)

    assert alice_client.get(reverse("journal:seal_file", args=[other.pk, seal.pk, "png-a5"])).status_code == 404


def test_anonymous_visitors_are_sent_to_log_in(client, sealed_entry):
    entry, seal = sealed_entry

    response = client.get(reverse("journal:detail", args=[entry.pk]))

    assert response.status_code == 302 and "login" in response["Location"]


def test_an_outsiders_export_holds_nothing_of_alices(outsider_client, sealed_entry):
    response = outsider_client.get(reverse("journal:export"))

    with zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content))) as zf:
        assert json.loads(zf.read("journal.json"))["entries"] == []
        assert zf.namelist() == ["journal.json"]


def test_alices_export_holds_her_entry_and_seal_file(alice_client, sealed_entry):
    response = alice_client.get(reverse("journal:export"))

    with zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content))) as zf:
        assert [e["title"] for e in json.loads(zf.read("journal.json"))["entries"]] == ["Morning draw"]
        assert "seals/seal-test-a5.png" in zf.namelist()


def test_an_outsiders_search_and_statistics_never_count_alices_cards(outsider_client, sealed_entry):
    entry, _ = sealed_entry
    card = entry.reading["sections"][0]["positions"][0]["card"]

    assert list(outsider_client.get(reverse("journal:list"), {"card": card}).context["page"]) == []
    assert outsider_client.get(reverse("journal:stats"), {"period": "all"}).context["stats"]["total"] == 0


# --- share links ---------------------------------------------------------------------------


def test_a_share_link_shows_the_entry_and_its_seal_files_to_anyone(client, alice_client, sealed_entry):
    entry, seal = sealed_entry

    alice_client.post(reverse("journal:share", args=[entry.pk]), {"action": "share"})
    entry.refresh_from_db()

    assert len(entry.share_token) >= 40  # 256 random bits, URL-safe
    page = client.get(reverse("journal:shared", args=[entry.share_token]))
    assert page.status_code == 200 and "Morning draw" in page.content.decode()
    assert "Stop sharing" not in page.content.decode()
    file_url = reverse("journal:shared_seal_file", args=[entry.share_token, seal.pk, "png-a5"])
    assert f'href="{file_url}"' in page.content.decode() and "PNG A5 at 300 dpi" in page.content.decode()
    file = client.get(file_url)
    assert file.status_code == 200 and b"".join(file.streaming_content) == b"\x89PNG fake"


def test_a_revoked_share_link_stops_working(client, alice_client, sealed_entry):
    entry, seal = sealed_entry
    alice_client.post(reverse("journal:share", args=[entry.pk]), {"action": "share"})
    entry.refresh_from_db()
    old = entry.share_token

    response = alice_client.post(reverse("journal:share", args=[entry.pk]), {"action": "revoke"})

    assert response.status_code == 302
    assert client.get(reverse("journal:shared", args=[old])).status_code == 404
    assert client.get(reverse("journal:shared_seal_file", args=[old, seal.pk, "png-a5"])).status_code == 404
    # Sharing again makes a new link; the old one stays dead.
    alice_client.post(reverse("journal:share", args=[entry.pk]), {"action": "share"})
    entry.refresh_from_db()
    assert entry.share_token != old
    assert client.get(reverse("journal:shared", args=[old])).status_code == 404


def test_a_share_link_reaches_only_the_seals_of_its_own_entry(client, alice, alice_client, sealed_entry):
    entry, seal = sealed_entry
    other = services.share(services.record_drawn(alice, spread="one", reversals=False))

    response = client.get(reverse("journal:shared_seal_file", args=[other.share_token, seal.pk, "png-a5"]))

    assert response.status_code == 404


def test_a_made_up_share_token_is_404(client, sealed_entry):
    assert client.get(reverse("journal:shared", args=["not-a-token"])).status_code == 404


# --- reflections are text, never markup -------------------------------------------------------

SCRIPT = '<script>alert("x")</script> and <img src=x onerror=alert(1)> [click](javascript:alert(2))'


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_reflections_with_script_are_shown_as_text(alice_client, client, drawn_entry, fmt):
    alice_client.post(reverse("journal:edit", args=[drawn_entry.pk]), {
        "title": drawn_entry.title, "date": "2026-04-02", "reflections": SCRIPT, "reflections_format": fmt,
    })
    services.share(drawn_entry)
    drawn_entry.refresh_from_db()

    for html in (alice_client.get(drawn_entry.get_absolute_url()).content.decode(),
                 client.get(reverse("journal:shared", args=[drawn_entry.share_token])).content.decode()):
        reflections = html.split('<section id="reflections">')[1].split("</section>")[0]
        assert "<script" not in reflections and "<img" not in reflections
        assert "javascript:" not in reflections.replace("[click](javascript", "")
        assert "&lt;script&gt;alert(" in reflections  # the writer's text is kept, as text


def test_markdown_reflections_keep_their_formatting(drawn_entry):
    html = services.render_reflections("# Day one\n\n*soft* and **bold**\n\n- a\n- b", "markdown")

    assert "<h1>Day one</h1>" in html and "<em>soft</em>" in html and "<li>a</li>" in html


# --- account deletion ---------------------------------------------------------------------------


def test_deleting_an_account_removes_its_journal_and_seal_files(alice, bob, sealed_entry,
                                                               django_capture_on_commit_callbacks):
    from sefirot_site.accounts.services import delete_account

    entry, seal = sealed_entry
    bobs = services.record_drawn(bob, spread="one", reversals=False)
    folder = services.seal_dir(alice.pk)
    assert any(folder.iterdir())

    with django_capture_on_commit_callbacks(execute=True):
        delete_account(alice)

    assert not Entry.objects.filter(pk=entry.pk).exists()
    assert Entry.objects.filter(pk=bobs.pk).exists()
    assert not Seal.objects.filter(pk=seal.pk).exists()
    assert not Tag.objects.filter(owner_id=alice.pk).exists()
    assert not folder.exists()
    assert Path(settings.MEDIA_ROOT).exists()
