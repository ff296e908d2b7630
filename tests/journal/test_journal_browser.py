"""The whole journey in Chromium: finish a Know Thyself game on the web, find its journal
entry, write a reflection, render a seal in the worker, watch it progress, download it."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import expect

from tests.support.users import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

# Records every status the seal's progress region shows, including the ones htmx swaps in.
WATCH_PROGRESS = """
window.__sealStatuses = [];
new MutationObserver(() => {
  const region = document.querySelector('#progress');
  const status = region && region.dataset.status;
  if (status && window.__sealStatuses[window.__sealStatuses.length - 1] !== status) {
    window.__sealStatuses.push(status);
  }
}).observe(document, {subtree: true, childList: true, attributes: true});
"""


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    expect(page.get_by_test_id("current-user")).to_be_visible()


def play_until_over(page, game_id: int, seed: int = 11, max_steps: int = 600) -> None:
    """Click through the game as a player would: pick a card, then one of the places the
    page offers for it, or one of the offered actions; any legal choice will do."""
    from games.models import Game

    choose = random.Random(seed)
    for _ in range(max_steps):
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.ACTIVE:
            return
        forms = page.locator("form.move-form")
        if forms.count():
            forms.nth(choose.randrange(forms.count())).locator("button").click()
            # The move is applied when the page's forms carry the next version (or are gone).
            page.wait_for_function(
                """(v) => { const f = document.querySelector('form.move-form input[name=version]');
                            return !f || f.value !== v; }""",
                arg=str(game.version),
            )
        else:
            picks = page.locator("a.pick")
            assert picks.count(), "the page offers neither a card to pick nor a move"
            picks.nth(choose.randrange(picks.count())).click()
            page.wait_for_selector("form.move-form", state="attached")
    raise AssertionError(f"game {game_id} did not end within {max_steps} clicks")


def test_a_finished_game_becomes_a_journal_entry_with_a_reflection_and_a_printable_seal(
        page, alice, celery_worker_process):
    from journal.models import Entry, Seal

    log_in(page, "alice")

    # Finish a Know Thyself game through the games pages.
    page.goto("/games/new/?mode=know_thyself")
    page.check("input[name=mode][value=know_thyself]")
    page.click("form.new-game button[type=submit]")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game_id = int(re.search(r"/games/(\d+)/", page.url).group(1))
    play_until_over(page, game_id)

    # Its entry is in the journal.
    page.goto("/journal/")
    entry = Entry.objects.get(owner=alice, source_game_id=game_id)
    page.get_by_role("link", name=entry.title).click()
    expect(page.locator("h1")).to_have_text(entry.title)
    expect(page.locator('[data-position="crown"] > .card .keyword')).to_be_visible()
    expect(page.locator('[data-position="crown"] > .question')).not_to_be_empty()

    # A reflection, saved in place through htmx.
    page.get_by_text("Write your reflections").click()
    page.fill("#id_reflections", "The Crown asks what lifts me. <script>alert(1)</script> Patience, perhaps.")
    page.get_by_role("button", name="Save reflections").click()
    expect(page.locator("#reflections .reflections")).to_contain_text("<script>alert(1)</script> Patience")

    # A seal: the reading's cards with their keywords, a live preview, then Render.
    page.get_by_role("link", name="Make a seal").click()
    expect(page.locator("#preview img")).to_be_visible()
    first_word = page.locator(".seal-rows input[type=text]").first
    first_word.fill("Crowned")
    expect(page.locator("#preview img")).to_have_attribute("alt", re.compile("Crowned"))
    page.add_init_script(WATCH_PROGRESS)
    page.get_by_role("button", name="Render").click()
    page.wait_for_url(re.compile(r"/journal/\d+/seals/\d+/$"))

    # Progress, polled by htmx, until the worker is done.
    expect(page.locator("#progress")).to_have_attribute("data-status", "done", timeout=90_000)
    statuses = page.evaluate("window.__sealStatuses")
    assert statuses[0] in ("queued", "rendering") and statuses[-1] == "done", statuses
    seal = Seal.objects.get(entry=entry)
    assert seal.words[0] == "Crowned" and seal.status == Seal.Status.DONE

    # Download the PNG and the PDF.
    with page.expect_download() as png_download:
        page.locator('a[data-kind="png-a4"]').click()
    image = Image.open(io.BytesIO(Path(png_download.value.path()).read_bytes()))
    assert image.size == (2480, 3508) and round(image.info["dpi"][0]) == 300
    with page.expect_download() as pdf_download:
        page.locator('a[data-kind="pdf-a4"]').click()
    assert Path(pdf_download.value.path()).read_bytes()[:5] == b"%PDF-"
    assert pdf_download.value.suggested_filename.endswith(".pdf")
