"""Move numbers of three digits show whole in the Moves list (issue 38, item 5): the list
scrolls, so it clips whatever is left of its padding, where an outside marker ("113.")
is drawn.  Chromium's own box of each ``::marker`` (DevTools' DOM.getBoxModel) must lie
within the list's padding box, on the game page and the history page, at 1280 and 390 px."""

from __future__ import annotations

import pytest

from .conftest import play_random_moves
from .hallow_helpers import cast, full_table
from .test_browser import logged_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def clipped_markers(page) -> list[str]:
    """The numbers of the Moves list whose marker box starts left of the list's padding box."""
    cdp = page.context.new_cdp_session(page)
    root = cdp.send("DOM.getDocument", {"depth": -1, "pierce": True})["root"]
    lists = cdp.send("DOM.querySelectorAll", {"nodeId": root["nodeId"], "selector": "ol.log-list"})["nodeIds"]
    assert lists, "no Moves list on the page"
    clipped, seen = [], 0

    def walk(node, left):
        nonlocal seen
        for pseudo in node.get("pseudoElements", []):
            if pseudo.get("pseudoType") == "marker":
                seen += 1
                box = cdp.send("DOM.getBoxModel", {"nodeId": pseudo["nodeId"]})["model"]["border"]
                attributes = dict(zip(node["attributes"][::2], node["attributes"][1::2]))
                if min(box[0::2]) < left - 0.5:
                    clipped.append(attributes.get("value", "?"))
        for child in node.get("children", []):
            walk(child, left)

    for list_id in lists:
        padding = cdp.send("DOM.getBoxModel", {"nodeId": list_id})["model"]["padding"]
        walk(cdp.send("DOM.describeNode", {"nodeId": list_id, "depth": -1})["node"] | {"nodeId": list_id},
             min(padding[0::2]))
    assert seen, "no numbered entries measured"
    return clipped


def test_a_three_digit_move_number_is_not_clipped_in_the_moves_list(browser, live_server, make_user, alice, bob):
    users = cast(make_user, alice, bob, 6)
    game = play_random_moves(full_table(users, seed=3), 400, seed=3)  # a table of six: 150 moves and more
    assert game.status == game.Status.FINISHED and game.version >= 113
    context, page = logged_in_page(browser, live_server, alice)
    try:
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 1000})
            for url in (f"/games/{game.pk}/", f"/games/{game.pk}/history/?step=113"):
                page.goto(url)
                numbers = page.locator("ol.log-list li[value]").evaluate_all("lis => lis.map(li => li.value)")
                assert max(numbers) >= 113, url  # the newest moves on the game page, 113 in the history
                assert clipped_markers(page) == [], f"{url} at {width} px"
    finally:
        context.close()
