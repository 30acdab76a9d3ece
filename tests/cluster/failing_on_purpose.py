"""A test that fails inside the machines, on purpose: test_machines runs it in a pytest of its own
(only when CARDSIM_MACHINES_RECORD names a file) and checks that nothing is left behind."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from benchmarks.machines import Machines


@pytest.mark.skipif("CARDSIM_MACHINES_RECORD" not in os.environ, reason="run by test_machines only")
def test_fails_on_purpose_with_a_cluster_running() -> None:
    with Machines() as machines:
        machines.start_cluster()
        record = {"owner": machines.owner, "inodes": sorted(machines.inodes())}
        Path(os.environ["CARDSIM_MACHINES_RECORD"]).write_text(json.dumps(record))
        assert not machines.pids("scheduler"), "failed on purpose, with the scheduler and two workers running"
