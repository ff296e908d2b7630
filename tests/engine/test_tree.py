"""The Tree of Life as data (RULINGS 3)."""

from __future__ import annotations

from games.engine import tree


def test_the_twelve_spaces_and_the_root():
    assert set(tree.SEFIRA) == {"crown", "knowledge", "wisdom", "understanding", "mercy",
                                "severity", "spirit", "victory", "splendour", "foundation"}
    assert tree.SPACES[-2:] == ("sun", "moon") and len(tree.SPACES) == 12
    assert tree.ROOT not in tree.SPACES


RULED_BRANCHES = """
    root-foundation root-victory root-splendour
    foundation-victory foundation-splendour foundation-spirit
    victory-splendour victory-spirit victory-mercy
    splendour-spirit splendour-severity
    spirit-mercy spirit-severity spirit-knowledge spirit-wisdom spirit-understanding
    mercy-severity mercy-wisdom severity-understanding
    wisdom-understanding wisdom-crown understanding-crown knowledge-crown
    sun-understanding sun-severity moon-wisdom moon-mercy
"""  # RULINGS 3, word for word


def test_branches_are_exactly_the_ruled_ones_and_undirected():
    ruled = {frozenset(pair.split("-")) for pair in RULED_BRANCHES.split()}
    assert {frozenset(b) for b in tree.BRANCHES} == ruled
    assert len(tree.BRANCHES) == len({frozenset(b) for b in tree.BRANCHES}) == 27
    assert tree.ADJACENT["root"] == {"foundation", "victory", "splendour"}
    assert tree.ADJACENT["spirit"] == {"foundation", "victory", "splendour", "mercy", "severity",
                                       "knowledge", "wisdom", "understanding"}
    assert tree.ADJACENT["sun"] == {"understanding", "severity"}
    assert tree.ADJACENT["moon"] == {"wisdom", "mercy"}
    assert tree.ADJACENT["crown"] == {"wisdom", "understanding", "knowledge"}
    for a, neighbours in tree.ADJACENT.items():
        for b in neighbours:
            assert a in tree.ADJACENT[b] and tree.adjacent(a, b)
    assert not tree.adjacent("crown", "foundation")


def test_the_frontier_grows_from_the_root():
    assert tree.frontier([]) == ["splendour", "victory", "foundation"]
    assert tree.frontier(["foundation"]) == ["spirit", "splendour", "victory"]
    assert "sun" in tree.frontier(["foundation", "splendour", "severity"])


def test_the_layout_is_as_the_player_sees_it():
    x = {s: tree.LAYOUT[s][0] for s in tree.SPACES}
    y = {s: tree.LAYOUT[s][1] for s in tree.SPACES}
    assert x["understanding"] == x["severity"] == x["splendour"] < x["crown"]
    assert x["crown"] == x["knowledge"] == x["spirit"] == x["foundation"] < x["wisdom"]
    assert x["wisdom"] == x["mercy"] == x["victory"]
    assert x["sun"] < x["understanding"] and x["moon"] > x["wisdom"] and y["sun"] == y["moon"]
    assert y["crown"] < y["knowledge"] < y["spirit"] < y["foundation"] < tree.LAYOUT["root"][1]
    assert all(g in tree.LAYOUT for g in tree.GRACE_FIELDS)
    assert len(set(tree.LAYOUT.values())) == len(tree.LAYOUT)


def test_special_spaces_central_sefira_and_grace_fields():
    assert tree.SPECIAL_CARD == {"sun": "M19", "moon": "M18"}
    assert tree.CENTRAL == ("foundation", "spirit", "knowledge", "crown")
    assert tree.GRACE_FIELDS == ("grace:0", "grace:1", "grace:2", "grace:3")
    assert tree.is_grace("grace:3") and not tree.is_grace("grace:4") and not tree.is_grace(None)
