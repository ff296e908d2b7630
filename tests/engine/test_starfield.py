"""The Starfield board as data (RULINGS.md section 5)."""

from __future__ import annotations

from games.engine import starfield as sf


def test_it_has_thirteen_spaces_in_three_columns():
    assert sf.SPACES == ("L0", "L1", "L2", "L3", "C0", "C1", "C2", "C3", "C4", "R0", "R1", "R2", "R3")
    assert [len(c) for c in sf.COLUMNS.values()] == [4, 5, 4]
    assert sf.CENTRAL == "C2"


def test_each_space_neighbours_the_spaces_above_and_below_it_in_its_column():
    for column in sf.COLUMNS.values():
        for a, b in zip(column, column[1:]):
            assert b in sf.ADJACENT[a] and a in sf.ADJACENT[b]
    assert "C2" not in sf.ADJACENT["C0"]
    assert "L0" not in sf.ADJACENT["C0"]  # edge spaces side by side are not joined


def test_the_ouroboros_joins_the_outer_columns_to_c1_and_c3():
    assert set(sf.RING_EDGES) == {("L1", "C1"), ("R1", "C1"), ("L2", "C3"), ("R2", "C3")}
    assert sf.ADJACENT["C1"] == {"C0", "C2", "L1", "R1"}
    assert sf.ADJACENT["C3"] == {"C2", "C4", "L2", "R2"}
    assert sf.ADJACENT["L1"] == {"L0", "L2", "C1"}
    assert sf.ADJACENT["R2"] == {"R1", "R3", "C3"}


def test_adjacency_is_symmetric_and_has_no_other_edges():
    assert len(sf.EDGES) == 3 + 4 + 3 + 4
    for a, ns in sf.ADJACENT.items():
        for b in ns:
            assert a in sf.ADJACENT[b]
    assert sum(len(ns) for ns in sf.ADJACENT.values()) == 2 * len(sf.EDGES)


def test_seat_0_sits_at_the_l0_c0_r0_edge_and_seat_1_at_the_far_edge():
    assert sf.SEAT_EDGE == (("L0", "C0", "R0"), ("L3", "C4", "R3"))
    for s in sf.SEAT_EDGE[0]:
        assert sf.distance(0, s) == 0 and sf.side(s) == 0
    for s in sf.SEAT_EDGE[1]:
        assert sf.distance(1, s) == 0 and sf.side(s) == 1


def test_the_rings_meet_at_c1_and_c3_and_run_along_edges():
    assert sf.RINGS == {"left": ("C1", "L1", "L2", "C3"), "right": ("C1", "R1", "R2", "C3")}
    assert sf.RING_MEETINGS == ("C1", "C3")
    for ring in sf.RINGS.values():
        for a, b in zip(ring, ring[1:]):
            assert b in sf.ADJACENT[a]
        assert ring[0] == "C1" and ring[-1] == "C3"  # seat 0's tip first


def test_the_gift_fields_are_the_moon_by_seat_0_and_the_sun_by_seat_1():
    assert sf.GIFT_FIELDS == ("gift:0", "gift:1")
    assert sf.GIFT_NAMES == {"gift:0": "the Moon", "gift:1": "the Sun"}
    assert sf.gift_of(0) == "gift:0" and sf.gift_of(1) == "gift:1"
    assert sf.seat_of_gift("gift:1") == 1
    assert sf.is_gift("gift:0") and not sf.is_gift("C2") and not sf.is_gift(["gift:0"])
    # Corners: the Moon's beside L0 (seat 0's left), the Sun's beside R3 (seat 1's right).
    (mx, my), (lx, ly) = sf.LAYOUT["gift:0"], sf.LAYOUT["L0"]
    assert my == ly and mx == lx - 1
    (sx, sy), (rx, ry) = sf.LAYOUT["gift:1"], sf.LAYOUT["R3"]
    assert sy == ry and sx == rx + 1


def test_the_moons_column_is_emotional_the_centre_spiritual_the_suns_intellectual():
    assert sf.COLUMN_MEANINGS == {"L": "emotional", "C": "spiritual", "R": "intellectual"}
    # "The column closest to the moon" is L: the Moon's Gift Field lies on L's side.
    assert sf.LAYOUT["gift:0"][0] < sf.LAYOUT["L0"][0] < sf.LAYOUT["R0"][0] < sf.LAYOUT["gift:1"][0]


def test_the_layout_gives_every_space_its_own_place_as_each_seat_sees_it():
    assert set(sf.LAYOUT) == set(sf.SPACES) | set(sf.GIFT_FIELDS)
    assert len(set(sf.LAYOUT.values())) == len(sf.LAYOUT)
    bottom = max(y for _, y in sf.LAYOUT.values())
    assert {s for s in sf.SPACES if sf.LAYOUT[s][1] == bottom} == set(sf.SEAT_EDGE[0])
    turned = sf.layout_for(1)
    assert {s for s in sf.SPACES if turned[s][1] == bottom} == set(sf.SEAT_EDGE[1])
    assert turned["gift:1"] == sf.LAYOUT["gift:0"]  # each sees its own field at its left
    assert sf.layout_for(None) == sf.LAYOUT
    # L1 sits between C1 and C2, L2 between C2 and C3, as on the board.
    y = {s: sf.LAYOUT[s][1] for s in sf.SPACES}
    assert y["C1"] > y["L1"] > y["C2"] > y["L2"] > y["C3"]


def test_halves_and_distances():
    assert sf.side("C2") is None
    assert [sf.side(s) for s in ("C1", "L1", "R1", "C3", "L2", "R2")] == [0, 0, 0, 1, 1, 1]
    assert sf.distance(0, "C2") == 2 and sf.distance(1, "C2") == 2
    assert sf.distance(0, "L2") == 2 and sf.distance(0, "C4") == 4 and sf.distance(0, "L3") == 3


def test_joined_to_edge_follows_chains_of_occupied_spaces():
    assert sf.joined_to_edge(0, {"C0", "C1", "L1", "L3"}) == {"C0", "C1", "L1"}
    assert sf.joined_to_edge(1, {"C0", "C1", "L1"}) == set()
    assert not sf.edges_joined({"C0", "C1", "C2", "C3"})
    assert sf.edges_joined({"C0", "C1", "C2", "C3", "C4"})
    assert sf.edges_joined({"R0", "R1", "C1", "C2", "C3", "L2", "L3"})


def test_reach_looks_across_passable_spaces_only():
    assert sf.reach(["C0"]) == {"C1"}
    assert sf.reach(["C0"], passable=["C1"]) == {"C1", "C2", "L1", "R1", "C0"}
    # A run of two passable spaces is looked across too; an impassable one stops the look.
    assert "L2" in sf.reach(["C0"], passable=["C1", "L1"])
    assert "C3" not in sf.reach(["C0"], passable=["C1"])
    assert sf.connected(["C0"], ["C0", "C1", "C3"]) == {"C0", "C1"}
