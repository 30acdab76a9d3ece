"""The four machines of benchmarks.machines: they reach one another and nothing else, and nothing of
them is left behind (namespaces, links, processes) when a test passes, when a test fails inside them,
and when the process that made them is killed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.machines import ADDRESSES, PORT, ROLES, ROOT, SUBNET, Machines, our_namespaces, run

# From a machine: 0 if a TCP connection to ADDRESS PORT opens within 2 s, else the errno's name.
CONNECT = """
import socket, sys
try:
    socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=2).close()
    print("connected")
except OSError as error:
    print(type(error).__name__)
"""


def host_links() -> set[str]:
    """The links of the host's own namespace, by name."""
    return {line.split(":")[1].strip().split("@")[0] for line in run("ip", "-o", "link", "show").stdout.splitlines()}


def processes_in(inodes: set[int]) -> list[int]:
    """The processes whose network namespace is one of ``inodes``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.stat(entry / "ns" / "net").st_ino in inodes:
                    found.append(int(entry.name))
            except OSError:  # gone, or a zombie
                pass
    return found


def nothing_left(owner: int, inodes: set[int], links: set[str]) -> None:
    assert our_namespaces(owner) == []
    assert processes_in(inodes) == []
    assert host_links() == links


def connects(machines: Machines, role: str, address: str, port: int = PORT) -> str:
    command = ["ip", "netns", "exec", machines.namespace(role), sys.executable, "-c", CONNECT, address, str(port)]
    return subprocess.run(command, capture_output=True, text=True, timeout=30).stdout.strip()


def test_the_machines_reach_one_another_only_and_leave_nothing_behind() -> None:
    links = host_links()
    with Machines() as machines:
        inodes = machines.inodes()
        assert len(inodes) == len(ROLES) + 1  # and the switch
        assert host_links() == links, "nothing is added to the host's own namespace"
        for role in ROLES:
            assert machines.routes(role).split("\n")[0].startswith(f"{SUBNET}.0/24 dev eth0")
            assert "default" not in machines.routes(role)
        machines.start_cluster()
        assert len(processes_in(inodes)) >= 5  # a scheduler; per worker a loop, a nanny and its worker
        assert connects(machines, "client", ADDRESSES["scheduler"]) == "connected"
        host = run("ip", "-4", "-o", "addr", "show", "scope", "global").stdout.split()
        outside = next((word.split("/")[0] for word in host if word.count(".") == 3 and "/" in word), "1.1.1.1")
        assert connects(machines, "client", outside, 22) == "OSError"  # [Errno 101] Network is unreachable
        machines.unplug("client")
        assert connects(machines, "client", ADDRESSES["scheduler"]) in ("TimeoutError", "OSError")
        machines.plug("client")
    nothing_left(machines.owner, inodes, links)


def test_a_test_failing_inside_the_machines_leaves_nothing_behind(tmp_path: Path) -> None:
    links = host_links()
    record = tmp_path / "record.json"
    child = [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-q"]
    child += [str(Path(__file__).with_name("failing_on_purpose.py"))]
    environment = {**os.environ, "CARDSIM_MACHINES_RECORD": str(record)}
    failed = subprocess.run(child, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=300)
    assert failed.returncode == 1 and "failed on purpose" in failed.stdout, failed.stdout + failed.stderr
    made = json.loads(record.read_text())
    nothing_left(made["owner"], set(made["inodes"]), links)


KILLED = """
import json, sys, time
from benchmarks.machines import Machines
machines = Machines().__enter__()
machines.start_cluster()
print(json.dumps({"owner": machines.owner, "inodes": sorted(machines.inodes())}), flush=True)
time.sleep(600)
"""


def test_machines_of_a_killed_process_are_removed_by_the_next() -> None:
    links = host_links()
    killed = subprocess.Popen([sys.executable, "-c", KILLED], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        made = json.loads(killed.stdout.readline())  # type: ignore[union-attr]
    finally:
        killed.send_signal(signal.SIGKILL)  # no atexit, no context exit: everything it made is left
        killed.wait()
    inodes = set(made["inodes"])
    assert our_namespaces(made["owner"]) and processes_in(inodes), "a killed harness leaves its machines"
    with Machines():
        pass
    deadline = time.monotonic() + 10
    while processes_in(inodes) and time.monotonic() < deadline:  # killed, not yet reaped by init
        time.sleep(0.1)
    nothing_left(made["owner"], inodes, links)
