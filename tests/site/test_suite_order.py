"""The longest tests start first, one share of the workers each (tests/support/order.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.support.order import order_for_shares, share_sizes

ROOT = Path(__file__).resolve().parents[2]


def test_worksteal_shares_are_split_as_the_scheduler_splits_them():
    assert share_sizes(10, 4) == [2, 2, 3, 3]
    assert share_sizes(2520, 4) == [630, 630, 630, 630]
    assert sum(share_sizes(971, 4)) == 971


def test_the_long_tests_head_the_shares_the_longest_on_shares_of_their_own():
    items = [f"t{i}" for i in range(40)]
    seconds = {"t3": 100, "t5": 100, "t30": 60, "t31": 60, "t7": 20, "t39": 10}
    ordered = order_for_shares(items, seconds.get, 4)
    assert sorted(ordered) == sorted(items)
    shares, start = [], 0
    for size in share_sizes(len(items), 4):
        shares.append(ordered[start:start + size])
        start += size
    heads = [[item for item in share if item in seconds] for share in shares]
    assert all(share[:len(head)] == head for share, head in zip(shares, heads))  # at the heads
    assert sorted(head[0] for head in heads) == ["t3", "t30", "t31", "t5"]  # one long test each first
    assert [item for item in ordered if item not in seconds] == [item for item in items if item not in seconds]


def test_nothing_moves_without_long_tests_or_with_one_worker():
    items = ["a", "b", "c"]
    assert order_for_shares(items, {}.get, 4) == items
    assert order_for_shares(items, {"c": 9}.get, 1) == items


def test_under_worksteal_each_worker_starts_with_a_long_test(tmp_path):
    """A real pytest-xdist run of two workers over a collection whose two long tests are
    both at its end: each worker's first test is one of them."""
    (tmp_path / "test_sample.py").write_text(textwrap.dedent("""
        import os, pytest

        @pytest.mark.parametrize("n", range(8))
        def test_short(n):
            pass

        @pytest.mark.long(50)
        def test_long_one():
            pass

        @pytest.mark.long(40)
        def test_long_two():
            pass
    """))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.support.order", "-p", "no:cacheprovider", "-n", "2",
         "--dist", "worksteal", "-v", "-c", os.devnull, "--rootdir", str(tmp_path), str(tmp_path)],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    first = {}
    for line in run.stdout.splitlines():  # "[gw0] [ 10%] PASSED test_sample.py::test_long_one"
        if line.startswith("[gw") and "PASSED" in line:
            first.setdefault(line.split("]")[0], line.rsplit("::", 1)[1].strip())
    assert sorted(first.values()) == ["test_long_one", "test_long_two"], run.stdout
