"""The Material Plane's pure functions (shared by Know Thyself and the Starfield games)."""

from __future__ import annotations

from games.engine import plane


def test_rows_are_read_across_the_columns_with_gaps():
    columns = [["2c", "3s"], [], ["4p", "5w", "6c"]]
    assert plane.rows(columns) == [["2c", "4p"], ["3s", "5w"], ["6c"]]
    assert plane.lines(columns)[-3:] == columns


def test_place_and_remove_are_pure_and_close_up():
    columns = [["2c", "3s", "4p"], [], []]
    placed = plane.place(columns, "5w", 1)
    assert placed == [["2c", "3s", "4p"], ["5w"], []] and columns[1] == []
    assert plane.remove(columns, ["3s"]) == [["2c", "4p"], [], []]
    assert columns == [["2c", "3s", "4p"], [], []]
    assert plane.position(placed, "4p") == (0, 2) and plane.position(placed, "Kc") is None


def test_fated_opens_only_the_shortest_columns():
    assert plane.open_columns([["2c"], [], []]) == [0, 1, 2]
    assert plane.open_columns([["2c"], [], []], fated=True) == [1, 2]
    assert plane.open_columns([["2c"], ["3c"], ["4c"]], fated=True) == [0, 1, 2]


def test_suit_groups_in_rows_and_columns():
    columns = [["2c", "3s"], ["7c"], ["9s", "Ks"]]
    assert plane.suit_groups(columns) == [["2c", "7c"], ["3s", "Ks"], ["9s", "Ks"]]


def test_cascade_takes_all_groups_at_once_then_rematches():
    steps_plane, steps = plane.cascade([["9p"], ["Qp", "3c"], ["Qc"]])
    assert steps_plane == [[], [], []]
    assert steps == [{"groups": [["9p", "Qp"]], "left": ["9p", "Qp"]},
                     {"groups": [["3c", "Qc"]], "left": ["3c", "Qc"]}]
    assert plane.cascade([["2c"], ["3s"], []]) == ([["2c"], ["3s"], []], [])


def test_court_pairs_of_a_group():
    assert plane.court_pairs(["Kc", "3c", "Qc"]) == [["Qc", "Kc"]]
    assert plane.court_pairs(["Pw", "Nw", "Qw"]) == [["Pw", "Nw"], ["Pw", "Qw"], ["Nw", "Qw"]]
    assert plane.court_pairs(["Qc", "3c"]) == []


def test_numerology_sets_total_a_multiple_of_the_sacred_number():
    columns = [["3c", "7s", "Kc"], ["Qc"], []]
    assert plane.sum_sets(columns, 10) == [["3c", "7s"], ["3c", "Kc", "7s"]]  # card order: suits c, s, p, w
    assert plane.sum_sets([["2c", "5s"], [], []], 7) == [["2c", "5s"]]
    assert plane.sum_sets([["2c", "4s"], [], []], 7) == []


def test_numerology_court_pairs_need_one_suit_and_a_shared_line():
    assert plane.court_pair_sets([["Qc", "Kc"], ["Ks"], []]) == [["Qc", "Kc"]]
    assert plane.court_pair_sets([["Qc"], ["Ks"], []]) == []
    assert plane.must_negate(["Qc", "Kc"]) and not plane.must_negate(["Qc", "Ks"])
    assert not plane.must_negate(["3c", "Kc"])


def test_numerology_sets_list_each_set_once_smallest_first():
    sets = plane.numerology_sets([["Qc", "Kc"], ["4s"], []], 7)
    assert sets == [["Qc", "Kc"], ["Qc", "4s"]]
    assert plane.numerology_sets([["4c", "6s"], ["2s", "4w"], []], 10) == [
        ["4c", "6s"], ["6s", "4w"]]
