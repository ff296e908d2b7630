"""The longest tests start first, one at the head of each worker's share (issue 39).

pytest-xdist's ``worksteal`` scheduler hands each of the n workers a contiguous share of
the collection at the start, and a worker that runs out takes the back half of the
longest queue left.  A test of two minutes met late in a share keeps its worker busy
after the others have finished: in the quiet PostgreSQL pass of 2026-11-28, the axe walk
(then one test, 439 s) ran alone for the pass's last two and a half minutes.  So the
tests marked ``long(seconds)`` are taken out of the collection and put back at the heads
of the shares, the longest first onto the share with the least long work so far (longest
processing time first); the other tests keep their order, and so their fixtures' reuse.

Each worker collects and orders for itself and xdist checks that all collected the same,
so the order depends on the collection alone.  The shares are worked out as worksteal
splits them (``len(pending) // nodes_remaining``, xdist 3.x); if a later xdist splits
otherwise, the long tests land a little off the heads and the suite is only slower.
Without xdist (one process, or tests named on the command line) nothing moves.
"""

from __future__ import annotations

import pytest


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "long(seconds): one of the suite's longest tests, about that long in a four-worker pass; "
        "started first on a worker of its own (tests/support/order.py)",
    )


def share_sizes(total: int, workers: int) -> list[int]:
    """How worksteal splits ``total`` pending tests among ``workers`` idle ones."""
    sizes, left = [], total
    for remaining in range(workers, 0, -1):
        sizes.append(left // remaining)
        left -= sizes[-1]
    return sizes


def order_for_shares(items: list, seconds_of, workers: int) -> list:
    """items with the long ones (seconds_of(item) not None) at the heads of the shares."""
    long = sorted((item for item in items if seconds_of(item) is not None), key=seconds_of, reverse=True)
    if not long or workers < 2:
        return items
    rest = [item for item in items if seconds_of(item) is None]
    heads: list[list] = [[] for _ in range(workers)]
    load = [0.0] * workers
    for item in long:
        lightest = load.index(min(load))
        heads[lightest].append(item)
        load[lightest] += seconds_of(item)
    ordered, taken = [], 0
    for head, size in zip(heads, share_sizes(len(items), workers)):
        filler = max(0, size - len(head))
        ordered += head + rest[taken:taken + filler]
        taken += filler
    return ordered + rest[taken:]


def _seconds(item) -> float | None:
    marker = item.get_closest_marker("long")
    return None if marker is None else float(marker.args[0])


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """xdist's controller tells each worker how it schedules (a worker's own ``dist`` option
    reads "no")."""
    node.workerinput["sefirot_dist"] = node.config.getoption("dist")


@pytest.hookimpl(trylast=True)  # after the second pass's selection (tests/support/passes.py)
def pytest_collection_modifyitems(config, items):
    workerinput = getattr(config, "workerinput", None)
    if workerinput is None or workerinput.get("sefirot_dist") != "worksteal":
        return
    items[:] = order_for_shares(items, _seconds, int(workerinput["workercount"]))
