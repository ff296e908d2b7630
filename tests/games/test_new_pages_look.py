"""The pages the newest games brought, as a player meets them in real Chromium at 390 px and
1280 px: Hermit's Arcana mid-way and finished, a 2021 Know Thyself game with a bridge, a
2021 Warring Planets game with a Guard, Tarot Hallow at three and six seats mid-round and
after a reveal, the tarot wizards table (list, table, character form and sheet, a live
session as its GM and as a player), the journal entry each of them leaves, their rules
pages and the new-game page. Each fits a phone (nothing wider than the screen) and is
photographed at both widths (and at 390 px in the dark scheme, new-*-390-dark.png) into
test-results/screenshots/new-*.png to be looked at."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from games import services
from games.models import Game
from games.wizards import services as wizards
from games.wizards import tasks as wizard_tasks
from journal.models import Entry

from .conftest import reload
from .hallow_helpers import cast, full_table
from .test_hermits_arcana_site import policy
from .test_phone_and_boards import DESKTOP, PHONE, SHOTS, overflow
from .wizards_helpers import make_table, stack

pytestmark = [pytest.mark.browser, pytest.mark.looks, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def carol(make_user):
    return make_user("carol", display_name="Carol")


# "Seat 1" where a name belongs, or a card's code ("M9", "Qs", "10c") where its name belongs.
SEAT_OR_CODE = re.compile(r"\b[Ss]eat \d\b|\bM\d{1,2}\b|\b(?:10|[2-9PNQK])[cswp]\b")


def photograph(browser, live_server, user, pages: dict[str, str]) -> dict[str, str]:
    """Each named path, as ``user``, at both widths; a phone must not scroll sideways. Returns
    each page's text."""
    said = {}
    client = Client()
    client.force_login(user)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for viewport, scheme in ((PHONE, "light"), (DESKTOP, "light"), (PHONE, "dark")):
        context = browser.new_context(base_url=live_server.url, viewport=viewport, color_scheme=scheme)
        context.set_default_timeout(20_000)
        context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                              "url": live_server.url}])
        page = context.new_page()
        try:
            for name, path in pages.items():
                response = page.goto(path)
                assert response.status == 200, (path, response.status)
                page.wait_for_load_state("networkidle")
                assert page.locator("h1").count(), f"{path} has no heading"
                dark = "-dark" if scheme == "dark" else ""
                page.screenshot(path=str(SHOTS / f"new-{name}-{viewport['width']}{dark}.png"), full_page=True)
                text = page.inner_text("body")
                (SHOTS / f"new-{name}.txt").write_text(text)
                assert not SEAT_OR_CODE.search(text), f"{name} says {SEAT_OR_CODE.search(text).group()!r}"
                said[name] = text
                if viewport is PHONE:
                    assert overflow(page) <= 0, f"{name} ({path}) is {overflow(page)} px wider than a phone"
                if scheme == "dark":
                    links_lead_somewhere(page, path)
        finally:
            context.close()
    return said


def links_lead_somewhere(page, path: str) -> None:
    """Every link of the site on the page answers (no 404, no 500)."""
    hrefs = page.evaluate("""() => [...document.querySelectorAll('a[href]')]
        .map(a => a.href).filter(h => h.startsWith(location.origin) && !h.includes('#'))""")
    for href in sorted(set(hrefs)):
        status = page.request.get(href).status
        assert status < 400, f"{path} links to {href}, which answers {status}"


def play(game: Game, choose: random.Random, *, prefer=lambda m: False, until=lambda g: False,
         end: bool = False, cap: int = 400) -> Game:
    """Seeded moves (never a forfeit), preferring moves ``prefer`` likes, until ``until``
    holds of the game (stopping before it would end unless ``end``)."""
    for _ in range(cap):
        game = reload(game)
        if game.status != Game.Status.ACTIVE or until(game):
            return game
        rules = game.rules
        state = rules.loads(game.state)
        seat = choose.choice(game.to_act)
        legal = [m for m in rules.legal_moves(state, seat) if m["type"] not in ("forfeit", "resign")]
        if not end:
            legal = [m for m in legal if rules.outcome(rules.apply(state, seat, m)) is None] or legal
        liked = [m for m in legal if prefer(m)]
        move = choose.choice(liked or legal)
        services.submit_move(game.pk, game.seats.get(index=seat), move, game.version)
    return reload(game)


@pytest.mark.long(33)
def test_hermits_arcana_mid_way_and_finished(browser, live_server, alice):
    choose = random.Random(5)
    mid = Game.objects.get(pk=services.start_game(alice, "hermits_arcana", {"variant": "standard"}, seed=5).pk)
    for _ in range(12):
        state = mid.load_state()
        services.submit_move(mid.pk, mid.seats.get(index=0), policy(choose, mid.rules.legal_moves(state, 0)),
                             mid.version)
        mid = reload(mid)
    done = Game.objects.get(pk=services.start_game(alice, "hermits_arcana", {"variant": "standard"}, seed=6).pk)
    for _ in range(600):
        if done.status != Game.Status.ACTIVE:
            break
        services.submit_move(done.pk, done.seats.get(index=0),
                             policy(choose, done.rules.legal_moves(done.load_state(), 0)), done.version)
        done = reload(done)
    assert done.status == Game.Status.FINISHED
    entry = Entry.objects.get(owner=alice, source_game=done)
    photograph(browser, live_server, alice, {
        "hermit-mid": f"/games/{mid.pk}/", "hermit-finished": f"/games/{done.pk}/",
        "hermit-journal": f"/journal/{entry.pk}/", "hermit-rules": "/games/rules/hermits_arcana/",
        "new-game": "/games/new/",
    })


@pytest.mark.long(53)
def test_the_2021_editions_with_a_bridge_and_a_guard(browser, live_server, alice, bob):
    know = services.start_game(alice, "know_thyself_2021", {"variant": "standard"}, seed=21)
    know = play(know, random.Random(21), prefer=lambda m: "bridge:" in str(m.get("to", "")),
                until=lambda g: "bridge" in g.state and g.version > 8)
    war = services.start_game(alice, "warring_planets_2021", {"variant": "standard"}, opponent=bob, seed=6)
    services.accept_invitation(war.pk, bob)
    war = play(war, random.Random(6), prefer=lambda m: m["type"] == "guard",
               until=lambda g: '"guard"' in g.state and g.version > 8)
    finished = play(services.start_game(alice, "know_thyself_2021", {"variant": "standard"}, seed=22),
                    random.Random(22), end=True)
    pages = {"kt2021-bridge": f"/games/{know.pk}/", "wp2021-guard": f"/games/{war.pk}/",
             "kt2021-finished": f"/games/{finished.pk}/",
             "rules-kt2021": "/games/rules/know_thyself_2021/", "rules-wp2021": "/games/rules/warring_planets_2021/",
             "rules-ld2021": "/games/rules/lovers_discourse_2021/"}
    entry = Entry.objects.filter(owner=alice, source_game=finished).first()
    if entry:
        pages["kt2021-journal"] = f"/journal/{entry.pk}/"
    said = photograph(browser, live_server, alice, pages)
    # Alice waits for Bob: nothing asks her to pick a card; the Guards are "your" and "their".
    assert "Pick a highlighted card" not in said["wp2021-guard"]
    assert "Guard, yours" not in said["wp2021-guard"] and "Guard, theirs" not in said["wp2021-guard"]
    assert "your Guard" in said["wp2021-guard"] or "their Guard" in said["wp2021-guard"]


@pytest.mark.long(43)
@pytest.mark.parametrize("seats", [3, 6])
def test_tarot_hallow_mid_round_and_after_a_reveal(browser, live_server, make_user, alice, bob, seats):
    users = cast(make_user, alice, bob, seats)
    game = full_table(users, seed=9)
    choose = random.Random(9)
    # Two rounds revealed, then everyone but alice plays into the third.
    game = play(game, choose, until=lambda g: len(g.load_state()["story"]) >= 2
                and g.load_state()["phase"] == "play")
    revealed = f"/games/{game.pk}/"
    photograph(browser, live_server, alice, {f"hallow{seats}-revealed": revealed})
    state = game.load_state()
    for index in range(1, seats):
        moves = game.rules.legal_moves(state, index)
        if moves:
            services.submit_move(game.pk, game.seats.get(index=index), moves[0], game.version)
            game = reload(game)
            state = game.load_state()
    pages = {f"hallow{seats}-mid-round": f"/games/{game.pk}/", "hallow-rules": "/games/rules/tarot_hallow/"}
    done = play(full_table(users, seed=21), random.Random(1), end=True, cap=4000)
    entry = Entry.objects.filter(owner=alice, source_game=done).first()
    if entry:
        pages[f"hallow{seats}-journal"] = f"/journal/{entry.pk}/"
    said = photograph(browser, live_server, alice, pages)
    # A card is played face down, not "then where it goes".
    assert "Choose a card to play face down" in said[f"hallow{seats}-mid-round"]
    assert "then where it goes" not in said[f"hallow{seats}-mid-round"]


@pytest.mark.long(60)
def test_the_tarot_wizards_table(browser, live_server, alice, bob, carol):
    table = make_table(alice, bob, carol)
    first = wizards.start_session(table, alice, title="The ferry")
    wizards.act(first.pk, alice, {"type": "challenge", "source": "hand", "index": 2}, first.version)
    first.refresh_from_db()
    wizards.act(first.pk, bob, {"type": "cast", "index": 3, "narration": "The Empress answers."}, first.version)
    first.refresh_from_db()
    wizards.act(first.pk, alice, {"type": "end_session", "narration": "Dawn."}, first.version)
    wizard_tasks.make_journal_entries(first.pk)
    session = stack(wizards.start_session(table, alice, title="The toll bridge"),
                    bob=["Ac", "9w", "M3", "7s", "Kp"], carol=["Aw", "8c", "M17", "2p", "Qs"])
    wizards.act(session.pk, alice, {"type": "challenge", "source": "rating", "rating": 9,
                                    "target": wizards.key_of(bob), "narration": "The toll-keeper *waits*."},
                session.version)
    session.refresh_from_db()
    wizards.act(session.pk, bob, {"type": "cast", "index": 1, "narration": "Silver water pours."}, session.version)
    morwen = table.characters.get(owner=bob)
    # A table where Bob has no wizard yet: the form offers the site's draw or his own.
    other = wizards.create_table(alice, name="Night Market")
    wizards.answer_invitation(wizards.invite(other, alice, "bob"), bob, accept=True)
    bob_pages = {"wizards-list": "/wizards/", "wizards-table-player": f"/wizards/{table.pk}/",
                 "wizards-character-form": f"/wizards/{table.pk}/character/",
                 "wizards-session-player": f"/wizards/sessions/{session.pk}/",
                 "wizards-journal": Entry.objects.get(owner=bob, mode="tarot_wizards").get_absolute_url(),
                 "wizards-sheet": f"/wizards/characters/{morwen.pk}/",
                 "wizards-character-new": f"/wizards/{other.pk}/character/"}
    said = photograph(browser, live_server, bob, bob_pages)
    # A card drawn at home is chosen by its name; the closing line is said once.
    assert "choose the card" in said["wizards-character-new"] and "card code" not in said["wizards-character-new"]
    assert said["wizards-journal"].count("The game master closed the session.") == 1
    photograph(browser, live_server, alice, {
        "wizards-table-gm": f"/wizards/{table.pk}/", "wizards-session-gm": f"/wizards/sessions/{session.pk}/"})
