"""Past one machine: bench/cluster.py, run short. Two web nodes, two workers and two beats
behind haproxy on one PostgreSQL and one Redis; one web node, one worker and the active
beat killed mid-run; nothing a player was told is lost, no mail twice or missing, every
seal drawn and downloadable through either node, the schedule moved."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.long(100)
@pytest.mark.cluster
def test_a_cluster_loses_nothing_when_a_web_node_a_worker_and_the_scheduler_die():
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    database = f"postgres://postgres@127.0.0.1:5432/sefirot_cluster_{os.getpid()}"
    done = subprocess.run([sys.executable, "bench/cluster.py", "--seconds", "6", "--games", "4", "--seals", "2",
                           "--json", "--database-url", database],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)

    assert done.stdout.strip(), done.stderr[-4000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["moves_acknowledged"] > 0
    assert figures["moves_lost"] == 0 and figures["replays_ok"] is True
    assert figures["duplicate_mails"] == 0 and figures["missing_mails"] == 0 and figures["turn_mails"] > 0
    assert figures["seals_missing"] == 0 and figures["seals"] == 2
    assert figures["failed_tasks"] == 0
    assert figures["scheduler_moved_s"] is not None and figures["scheduler_moved_s"] < 60
    assert done.returncode == 0, figures
