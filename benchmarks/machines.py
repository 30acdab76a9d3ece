"""Four "machines" on one host: Linux network namespaces on a private switch, for cluster fault tests.

``Machines()`` makes a namespace per machine (``scheduler``, ``worker1``, ``worker2``, ``client``),
each with one interface, ``eth0``, cabled to a bridge that lives in a fifth namespace (the switch),
and its own address on a private /24. Nothing is added to the host's own namespace (no link, no
route), and the machines have no route but their subnet's: they reach one another and nothing else.

On them, ``start_cluster`` runs ``dask scheduler`` on the scheduler and ``dask worker ADDRESS
--nworkers 1 --nthreads 1`` on each worker under the README's supervisor loop, as the README tells
users to; ``tournament`` runs ``cardsim tournament ... --backend dask --scheduler ADDRESS`` on the
client. ``unplug``/``plug`` pull and put back a machine's cable (its port on the switch goes down:
the machine's link has no carrier, packets to and from it are lost); ``kill_scheduler`` and
``start_scheduler`` restart the scheduler; ``slow_down`` holds a machine to a share of one core.

Everything is torn down whatever happens: on leaving the context, at exit (``atexit``), and, for a
run killed before either, by the next ``Machines()``, which removes the namespaces and log folders
whose owner process is gone. Tearing down kills every process in each namespace (``ip netns pids``,
which also finds a nanny's worker), then every process group started here, then deletes the
namespaces (their interfaces go with them) and the cgroups. ``CARDSIM_KEEP_MACHINE_LOGS=1`` keeps
the machines' logs (the log folder, named in any timeout's message).

``python -m benchmarks.machines`` measures a tournament's throughput on one and two worker machines
against local loky workers (docs/scaling.md, "When machines fail").

Dask's timeouts are set from the environment (``DASK_TIMEOUTS``) so that a lost machine is noticed
in seconds, not in Dask's default of 30 s (a dead connection) and 5 minutes (a silent worker).
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

BIN = Path(sys.executable).parent  # the venv's dask and cardsim, as a user of the README runs them
ROOT = Path(__file__).resolve().parents[1]
PREFIX = "cardsim-net"  # every namespace made here: cardsim-net-<owner pid>-<machine>
SUBNET = "10.86.0"
ROLES = ("scheduler", "worker1", "worker2", "client")
ADDRESSES = {role: f"{SUBNET}.{number}" for number, role in enumerate(ROLES, start=1)}
PORT = 8786  # dask scheduler's default, as the README's commands use it
SCHEDULER = f"tcp://{ADDRESSES['scheduler']}:{PORT}"

# A connection is called dead after 11 s without an answer (TCP_USER_TIMEOUT and keepalives, as Dask
# sets them from comm.timeouts.tcp, which takes no less), a connection attempt gives up after 3 s, and
# a worker silent for 8 s is removed (scheduler.worker-ttl). Dask's defaults: 30 s, 30 s, 5 minutes.
DASK_TIMEOUTS = {
    "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "3s",
    "DASK_DISTRIBUTED__COMM__TIMEOUTS__TCP": "11s",
    "DASK_DISTRIBUTED__SCHEDULER__WORKER_TTL": "8s",
}
START_SECONDS = 90.0  # for the scheduler to listen and the workers to register (a busy 2-core machine)


class Unavailable(RuntimeError):
    """Network namespaces cannot be made here (not root, no ``ip``): the reason, for a test's skip."""


def run(*command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, check=check, timeout=30)


def unavailable() -> str | None:
    """Why network namespaces cannot be made here, or None when they can (a namespace made and deleted)."""
    if os.geteuid() != 0:
        return "network namespaces need root (ip netns add)"
    if shutil.which("ip") is None:
        return "no `ip` command (iproute2)"
    probe = f"{PREFIX}-{os.getpid()}-probe"
    made = run("ip", "netns", "add", probe, check=False)
    if made.returncode != 0:
        return f"cannot make a network namespace: {made.stderr.strip()}"
    run("ip", "netns", "del", probe, check=False)
    return None


def our_namespaces(owner: int | None = None) -> list[str]:
    """The namespaces made by this module (by ``owner``'s harness only, when given)."""
    listed = run("ip", "netns", "list", check=False).stdout.split("\n")
    names = [line.split()[0] for line in listed if line.strip()]
    start = f"{PREFIX}-" if owner is None else f"{PREFIX}-{owner}-"
    return [name for name in names if name.startswith(start)]


def kill_namespace(name: str) -> None:
    """Kill every process in namespace ``name`` and delete it (its interfaces go with it). Again until
    none is left: a supervisor loop may have started a process between the listing and its end."""
    for _ in range(100):
        pids = run("ip", "netns", "pids", name, check=False).stdout.split()
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.05)
    run("ip", "netns", "del", name, check=False)


def remove_orphans() -> None:
    """Namespaces (and log folders) left by a harness whose process is gone (killed before it could
    tear down)."""
    for name in our_namespaces():
        found = re.match(rf"{PREFIX}-(\d+)-", name)
        if found and not Path(f"/proc/{found.group(1)}").exists():
            kill_namespace(name)
    for folder in Path(tempfile.gettempdir()).glob(f"{PREFIX}-*"):
        found = re.match(rf"{PREFIX}-(\d+)-", folder.name)
        if found and not Path(f"/proc/{found.group(1)}").exists() and not os.environ.get("CARDSIM_KEEP_MACHINE_LOGS"):
            shutil.rmtree(folder, ignore_errors=True)


@dataclass
class Machines:
    """The four machines and the switch; a context manager that tears them all down."""

    owner: int = field(default_factory=os.getpid)
    folder: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix=f"{PREFIX}-{os.getpid()}-")))
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    cgroups: list[Path] = field(default_factory=list)
    scheduler: subprocess.Popen[bytes] | None = None
    up: bool = False

    def namespace(self, role: str) -> str:
        return f"{PREFIX}-{self.owner}-{role}"

    @property
    def switch(self) -> str:
        return self.namespace("switch")

    def __enter__(self) -> Machines:
        reason = unavailable()
        if reason:
            raise Unavailable(reason)
        remove_orphans()
        atexit.register(self.tear_down)
        self.up = True
        try:
            self._build()
        except BaseException:
            self.tear_down()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.tear_down()

    def _build(self) -> None:
        switch = self.switch
        run("ip", "netns", "add", switch)
        run("ip", "-n", switch, "link", "add", "br0", "type", "bridge")
        run("ip", "-n", switch, "link", "set", "br0", "up")
        for role in ROLES:
            machine = self.namespace(role)
            run("ip", "netns", "add", machine)
            # The cable: its switch end is named after the machine, its machine end is eth0.
            run("ip", "-n", switch, "link", "add", role, "type", "veth", "peer", "name", "eth0", "netns", machine)
            run("ip", "-n", switch, "link", "set", role, "master", "br0", "up")
            run("ip", "-n", machine, "addr", "add", f"{ADDRESSES[role]}/24", "dev", "eth0")
            run("ip", "-n", machine, "link", "set", "eth0", "up")
            run("ip", "-n", machine, "link", "set", "lo", "up")

    def tear_down(self) -> None:
        """Kill everything started on the machines and delete them; safe to call again."""
        if not self.up:
            return
        self.up = False
        for name in our_namespaces(self.owner):
            kill_namespace(name)
        for process in self.processes:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()
        for group in self.cgroups:
            deadline = time.monotonic() + 10
            while group.exists():
                try:
                    group.rmdir()
                except OSError:  # its last processes are still exiting
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.05)
        if not os.environ.get("CARDSIM_KEEP_MACHINE_LOGS"):
            shutil.rmtree(self.folder, ignore_errors=True)
        atexit.unregister(self.tear_down)

    # ----------------------------------------------------------------------------------- processes

    def environment(self) -> dict[str, str]:
        return {**os.environ, **DASK_TIMEOUTS, "DASK_TEMPORARY_DIRECTORY": str(self.folder)}

    def start(self, role: str, *command: str, log: str | None = None) -> subprocess.Popen[bytes]:
        """``command`` on machine ``role``, in a process group of its own, its output in ``log``."""
        output = open(self.folder / (log or f"{role}.log"), "ab")  # noqa: SIM115 (the process owns it)
        process = subprocess.Popen(
            ["ip", "netns", "exec", self.namespace(role), *command],
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            cwd=ROOT,
            env=self.environment(),
        )
        output.close()
        self.processes.append(process)
        return process

    def log(self, name: str) -> str:
        path = self.folder / name
        return path.read_text(errors="replace") if path.exists() else ""

    def start_scheduler(self) -> subprocess.Popen[bytes]:
        """``dask scheduler`` on the scheduler machine, once it listens."""
        before = self.log("scheduler.log").count("Scheduler at:")
        process = self.start("scheduler", str(BIN / "dask"), "scheduler", log="scheduler.log")
        listening = lambda: self.log("scheduler.log").count("Scheduler at:") > before  # noqa: E731
        self.wait_for(listening, "the scheduler to listen", process)
        self.scheduler = process
        return process

    def kill_scheduler(self) -> None:
        """The scheduler machine's ``dask scheduler`` killed (SIGKILL), as a machine that loses power."""
        assert self.scheduler is not None, "no scheduler was started"
        os.killpg(self.scheduler.pid, signal.SIGKILL)
        self.scheduler.wait()

    def start_worker(self, role: str) -> subprocess.Popen[bytes]:
        """``dask worker ADDRESS --nworkers 1 --nthreads 1`` under the README's supervisor loop: a
        ``dask worker`` that lost its scheduler exits, and the loop starts it again, as systemd would."""
        worker = f"{BIN / 'dask'} worker {SCHEDULER} --nworkers 1 --nthreads 1"
        return self.start(role, "sh", "-c", f"while :; do {worker}; sleep 1; done")

    def slow_down(self, role: str, share: float) -> None:
        """Every process of machine ``role`` (and those they start later) limited to ``share`` of one
        core, by a cgroup (v2 cpu.max, or v1 cpu.cfs_quota_us): a much slower machine."""
        period = 100_000
        quota = max(1000, int(share * period))
        unified = Path("/sys/fs/cgroup/cgroup.controllers").exists()
        group = Path("/sys/fs/cgroup" if unified else "/sys/fs/cgroup/cpu") / f"{PREFIX}-{self.owner}-{role}"
        group.mkdir(exist_ok=True)
        self.cgroups.append(group)
        if unified:
            (group / "cpu.max").write_text(f"{quota} {period}")
        else:
            (group / "cpu.cfs_period_us").write_text(str(period))
            (group / "cpu.cfs_quota_us").write_text(str(quota))
        for pid in self.pids(role):
            try:
                (group / "cgroup.procs").write_text(str(pid))
            except ProcessLookupError:
                pass

    def throttled(self, role: str) -> int:
        """How many times machine ``role``'s processes were held back by ``slow_down``'s limit."""
        for group in self.cgroups:
            if group.name.endswith(f"-{role}"):
                stat = dict(line.split() for line in (group / "cpu.stat").read_text().splitlines())
                return int(stat.get("nr_throttled", 0))
        return 0

    def pids(self, role: str) -> list[int]:
        """The processes running on machine ``role``."""
        return [int(pid) for pid in run("ip", "netns", "pids", self.namespace(role), check=False).stdout.split()]

    def inodes(self) -> set[int]:
        """The network namespaces of the machines and the switch, as /proc/PID/ns/net names them."""
        return {os.stat(f"/run/netns/{name}").st_ino for name in our_namespaces(self.owner)}

    def start_cluster(self, workers: tuple[str, ...] = ("worker1", "worker2")) -> None:
        """``dask scheduler``, and a ``dask worker`` on each of ``workers``, until they registered."""
        self.start_scheduler()
        for role in workers:
            self.start_worker(role)
        self.wait_for(lambda: all(self.registered(role) for role in workers), "the workers to register")

    def registered(self, role: str, times: int = 1) -> bool:
        """Whether a worker of machine ``role`` registered with the scheduler ``times`` times (its log,
        over the scheduler's restarts)."""
        return self.log("scheduler.log").count(f"Register worker addr: tcp://{ADDRESSES[role]}:") >= times

    def removed(self, role: str) -> bool:
        """Whether the scheduler removed a worker of machine ``role`` (its log)."""
        return f"Remove worker addr: tcp://{ADDRESSES[role]}:" in self.log("scheduler.log")

    def wait_for(self, condition, what: str, process: subprocess.Popen[bytes] | None = None) -> None:
        deadline = time.monotonic() + START_SECONDS
        while not condition():
            if time.monotonic() > deadline or (process is not None and process.poll() is not None):
                raise RuntimeError(f"timed out waiting for {what}; logs in {self.folder}")
            time.sleep(0.1)

    def tournament(self, *arguments: str) -> subprocess.Popen[str]:
        """``cardsim tournament ARGUMENTS --backend dask --scheduler ADDRESS`` on the client machine,
        its output piped (text)."""
        command = [str(BIN / "cardsim"), "tournament", *arguments, "--backend", "dask", "--scheduler", SCHEDULER]
        process = subprocess.Popen(
            ["ip", "netns", "exec", self.namespace("client"), *command],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            cwd=ROOT,
            env=self.environment(),
        )
        self.processes.append(process)  # type: ignore[arg-type]
        return process

    # ----------------------------------------------------------------------------------- the network

    def unplug(self, role: str) -> None:
        """Machine ``role``'s cable out: its port on the switch down."""
        run("ip", "-n", self.switch, "link", "set", role, "down")

    def plug(self, role: str) -> None:
        run("ip", "-n", self.switch, "link", "set", role, "up")

    def routes(self, role: str) -> str:
        return run("ip", "-n", self.namespace(role), "route", "show").stdout


# The measurement of docs/scaling.md: heuristic against first-legal, every deal in every seating.
TOURNAMENT = ["--game", "straights", "--players", "heuristic,first-legal,heuristic,first-legal", "--duplicate"]
TOURNAMENT += ["--no-rounds", "--quiet", "--seed", "2026"]


def main(argv: list[str] | None = None) -> None:
    """A tournament's deals a second on 1 and 2 local (loky) workers and on 1 and 2 worker machines
    (start-up included: a local run starts its workers, a cluster run connects its client)."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--deals", type=int, default=400_000)
    args = parser.parse_args(argv)
    plan = [*TOURNAMENT, "--rounds", str(args.deals)]
    print(f"{args.deals:,} duplicate Straights deals (heuristic v first-legal), end to end:")
    for workers in (1, 2):
        with tempfile.TemporaryDirectory() as folder:
            command = [str(BIN / "cardsim"), "tournament", *plan, "--jobs", str(workers), "--out", folder]
            started = time.perf_counter()
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
            local = time.perf_counter() - started
        with Machines() as machines, tempfile.TemporaryDirectory() as folder:
            machines.start_cluster(("worker1", "worker2")[:workers])
            started = time.perf_counter()
            tournament = machines.tournament(*plan, "--out", folder)
            tournament.communicate()
            assert tournament.returncode == 0
            remote = time.perf_counter() - started
        print(
            f"  {workers} worker(s): loky {local:6.1f} s ({args.deals / local:9,.0f} deals/s)   "
            f"machines {remote:6.1f} s ({args.deals / remote:9,.0f} deals/s)"
        )


if __name__ == "__main__":
    main()
