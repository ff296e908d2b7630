"""Pages anyone can use (issue 42, item 6), in real Chromium.

axe-core (``axe-playwright-python``, which ships axe-core's script) checks every page of
the site, found from the URLconf (``tests/site/every_page.py``), with real data, at 390
and 1280 px, in the light and the dark scheme, against WCAG 2.2 A and AA and axe's best
practices: no serious or critical violation anywhere.  One test per width and scheme, each
with one browser context, the visitor's session cookie swapped in; every page's violations
are gathered into one message (and test-results/axe-violations-<width>-<scheme>.txt).
Keyboard play, focus across htmx swaps and reduced motion: tests/games/test_keyboard_play.py.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.test import Client

from .every_page import HOW_TO_ADD, Visit, build_cast, patterns, unvisitable, visits, why_not_a_page

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa",
                                          "best-practice"]},
    "resultTypes": ["violations"],
}
GRAVE = {"serious", "critical"}
# What axe-core finds depends on the markup alone, which the test client's tests draw on
# both backends: the second pass of .ci/run leaves this walk out (tests/support/passes.py).
pytestmark = pytest.mark.looks
# Every violation of the last run, to read whole (the assertion's message is cut short):
# one file per width and scheme, named from this one.
REPORT = Path(settings.BASE_DIR) / "test-results" / "axe-violations.txt"


def classify(cast, planned: list[Visit]) -> tuple[list[Visit], list[str]]:
    """Ask each visit's address over HTTP first (cheap): the pages to check in the browser,
    and what is wrong with the plan (a pattern none of whose visits reached anything)."""
    clients = {}
    reached: dict[str, list[str]] = defaultdict(list)
    pages, problems, seen = [], [], set()
    for visit in planned:
        if visit.visitor not in clients:
            clients[visit.visitor] = Client()
            if visit.visitor:
                clients[visit.visitor].force_login(cast.users[visit.visitor])
        answer = clients[visit.visitor].get(visit.path, follow=True)
        kind = answer.get("Content-Type", "").split(";")[0]
        final = answer.request["PATH_INFO"]
        if answer.status_code == 405:
            reached[visit.pattern].append("an action")
        elif answer.status_code == 200 and kind != "text/html":
            reached[visit.pattern].append("a file")
        elif answer.status_code == visit.status and kind == "text/html":
            if b"<html" not in answer.content[:400]:
                problems.append(f"{visit.label}: {visit.path} answers a fragment of a page. {HOW_TO_ADD}")
                continue
            reached[visit.pattern].append("a page")
            if (final, visit.visitor) not in seen:
                seen.add((final, visit.visitor))
                pages.append(Visit(visit.label, final if visit.status == 200 else visit.path, visit.visitor,
                                   visit.pattern, visit.status))
    for pattern in patterns():
        key = pattern.name or pattern.route
        if not why_not_a_page(pattern) and not reached[key] and any(v.pattern == key for v in planned):
            problems.append(f"/{pattern.route} ({key}): none of its visits reached it "
                            f"(each answered an error). {HOW_TO_ADD}")
    return pages, problems


def axe_violations(page, where: str) -> list[str]:
    results = Axe().run(page, options=AXE_OPTIONS).response
    found = []
    for violation in results["violations"]:
        if violation["impact"] not in GRAVE:
            continue
        for node in violation["nodes"][:5]:
            target = " ".join(str(t) for t in node["target"])
            checks = node.get("any", []) + node.get("all", []) + node.get("none", [])
            said = checks[0]["message"] if checks else violation["help"]
            found.append(f"{where}: {violation['id']} ({violation['impact']}) at {target}: {said}")
    return found


def test_a_page_added_without_visit_data_is_named_with_how_to_add_it(settings):
    """The walk is the URLconf's: a page with an argument no sample covers (a calendar's
    secret, say) is named, and the message says where its visit data goes."""
    settings.ROOT_URLCONF = "tests.site.urls_with_a_new_page"
    missing = unvisitable()
    assert missing == ["/games/calendar/<str:secret>.ics (games:calendar, arguments secret)"]
    assert "SAMPLES" in HOW_TO_ADD and "BY_NAME" in HOW_TO_ADD and "NOT_PAGES" in HOW_TO_ADD


# The walk at each width and scheme is a test of its own, with a cast of its own: the four
# run side by side on the suite's workers.  As one test the walk took 7 min 19 s of a
# 12 min 30 s PostgreSQL pass, the last two and a half minutes alone; building the cast
# again costs each part a few seconds.  (Sharing one cast through a module fixture was
# tried: the module's flush met the live server's connections and left rows behind.)
@pytest.mark.long(115)
@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
def test_every_page_passes_axe_at_both_widths_in_both_schemes(browser, live_server, make_user, settings, tmp_path,
                                                              viewport, scheme):
    missing = unvisitable()
    assert not missing, "pages with no way to visit them:\n" + "\n".join(missing) + "\n" + HOW_TO_ADD
    cast = build_cast(make_user, settings, tmp_path / "sent-mail")
    planned = visits(cast)
    pages, problems = classify(cast, planned)
    assert not problems, "\n".join(problems)
    cookies = {}
    for name in {p.visitor for p in pages if p.visitor}:
        client = Client()
        client.force_login(cast.users[name])
        cookies[name] = [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    violations: list[str] = []
    # One context for the width and scheme; the visitor's session cookie is swapped in.
    context = browser.new_context(base_url=live_server.url, viewport=viewport, color_scheme=scheme)
    context.set_default_timeout(20_000)
    page = context.new_page()
    visitor = "-"
    try:
        for visit in sorted(pages, key=lambda v: str(v.visitor)):
            if visit.visitor != visitor:
                context.clear_cookies()
                context.add_cookies(cookies.get(visit.visitor, []))
                visitor = visit.visitor
            answer = page.goto(visit.path)
            assert answer.status == visit.status, (visit, answer.status)
            page.wait_for_load_state("load")
            who = visit.visitor or "not logged in"
            where = f"{visit.label} {visit.path} as {who}, {viewport['width']} px, {scheme}"
            violations += axe_violations(page, where)
    finally:
        context.close()
    report = REPORT.with_name(f"axe-violations-{viewport['width']}px-{scheme}.txt")
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text("\n".join(violations) + "\n")
    assert not violations, (f"{len(violations)} serious or critical axe violations:\n" + "\n".join(violations))
