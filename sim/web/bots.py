"""What the web table seats, and where its bots think.

Whoever reaches the server's address may name a strategy spec, so a spec is checked before a bot is
built from it (``Seating``): its cost, the worlds its Monte-Carlo lookaheads deal per decision, is
capped, and a setting that names a file (``policy``'s ``path``) may name one only inside the folder
the server was started with. Bots think on a few threads of their own (``BotThreads``), never on the
threads that answer requests, so pages, pictures and other tables answer while they think.
"""

from __future__ import annotations

import math
import queue
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import strategies
from strategies import SpecNode, StrategyError

# A spec's cost is the worlds its lookaheads deal per decision (``cost``); each game's own mc costs
# 16 (gemstones) to 12,288 (gin rummy: 96 samples x 128). Measured on this project's machine, a nested
# gemstones mc:samples=8,rollout=(mc:samples=8), costing 4,096, takes 1.1 s a decision: the cap
# allows 16 times that, under ``THINK_SECONDS``.
MAX_COST = 2**16
# A lookahead nested in another's rollouts decides at every step of every one of them: a nested
# straights mc:samples=8,rollout=(mc:samples=8) takes 0.37 s where mc:samples=1000 takes 0.05 s.
NESTING_WEIGHT = 64
WORK_SETTINGS = ("samples", "oversample")  # worlds dealt per decision; oversample: drawn per world kept
THINK_SECONDS = 30.0  # a bot's decision, by default: far past any spec under the cap, short for a person
BOT_THREADS = 2  # bots' decisions run in compiled code that releases the GIL: a core each


@dataclass(frozen=True)
class Seating:
    """What the web table seats: specs costing at most ``max_cost``, and files (policies) only from
    ``policy_folder`` (none: no strategy that reads a file)."""

    policy_folder: Path | None = None
    max_cost: int = MAX_COST

    def check(self, game: str, spec: str) -> None:
        """``StrategyError`` (one line) for a spec the web table does not seat."""
        nodes = strategies.spec_tree(game, spec)
        spent = cost(nodes)
        if spent > self.max_cost:
            raise StrategyError(
                f"{strategies.clipped(spec.strip())} deals {spent:,} worlds per decision; "
                f"the web table seats at most {self.max_cost:,} (samples x oversample, x{NESTING_WEIGHT} per nesting)"
            )
        for path in file_settings(nodes):
            self.check_file(path)

    def check_file(self, path: str) -> None:
        """``StrategyError`` unless ``path``, as a strategy opens it (symbolic links followed), is in
        the policy folder; the message is the same whether or not such a file exists elsewhere."""
        if self.policy_folder is None:
            raise StrategyError(
                "this server seats no file-based strategy: start it with cardsim serve --policies FOLDER"
            )
        if not Path(path).resolve().is_relative_to(self.policy_folder.resolve()):
            raise StrategyError("a file-based strategy must name a file in the server's policy folder (--policies)")


def cost(nodes: Sequence[SpecNode]) -> int:
    """The worlds a spec's lookaheads deal per decision: every sampling node's ``samples`` (times its
    ``oversample``) multiplied together, each lookahead nested under another weighed by ``NESTING_WEIGHT``."""
    samplers = [node for node in nodes if "samples" in node.settings]
    work = math.prod(int(node.settings.get(name, 1)) for node in samplers for name in WORK_SETTINGS)
    return work * NESTING_WEIGHT ** max(0, len(samplers) - 1)


def file_settings(nodes: Sequence[SpecNode]) -> list[str]:
    """The values of every setting that names a file (one a ``DigestOf`` setting vouches for), where
    one is named (an optional file, such as a lookahead's ``leaves``, may be left empty)."""
    named = [str(node.settings[digest.setting]) for node in nodes for digest in node.registration.digests.values()]
    return [path for path in named if path]


class BotThreads:
    """A few daemon threads that run the bots' decisions, one at a time each, in the order asked.

    Daemon threads: a Python thread cannot be stopped, and a bot still thinking must never keep the
    server from stopping at Ctrl-C."""

    def __init__(self, threads: int = BOT_THREADS) -> None:
        self.jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        for number in range(threads):
            threading.Thread(target=self._work, name=f"cardsim-bot-{number}", daemon=True).start()

    def submit(self, job: Callable[[], None]) -> None:
        """Run ``job`` on a bot thread once one is free; it must handle its own failures."""
        self.jobs.put(job)

    def _work(self) -> None:
        while True:
            self.jobs.get()()
