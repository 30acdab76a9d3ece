"""``learned``: ``mc`` with the shipped networks, Straights' ``best`` (issue 47).

Each candidate is rolled out in 128 sampled worlds by the shipped policy (``policy.npz``: two rounds
of expert iteration on a policy imitating ``mc``, each round a network imitating ``mc`` at its 32
worlds rolling the previous round's policy out to the same leaves; ``make weights-straights-policy``) in
every seat until our player has been to move four times, and valued there by the shipped value
network (``value.npz``, ``make weights-straights``): the same player as
``mc:samples=128,rollout=(policy:path=P),leaves=V,leaf_turns=4``. At one table with ``search`` and
two ``heuristic`` seats it lost 0.70 [0.40, 1.00] points a round fewer than ``search`` over every
duplicate seating of 900 fresh deals (docs/search.md).

The networks are named by their digests (``policy_sha256``, ``value_sha256``, defaulting to the
shipped files'), not by a path: a spec spelled out, and so a run's id, is the same wherever the package
is installed, and changes when a network is made again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from strategies import SEED_MAX, Between, register
from strategies.policy import shipped_digest, shipped_networks
from strategies.straights.mc import MAX_SAMPLES, MonteCarloLookahead

POLICY = Path(__file__).with_name("policy.npz")
VALUE = Path(__file__).with_name("value.npz")
LEAF_TURNS = 4  # as measured: the value asked at our player's fourth turn (three: 0.21 worse, two: 0.16 worse still)
SAMPLES = 128  # worlds a decision: four times mc's 32 gained 0.11 points a round at about 20 ms a decision


@register("straights", "learned", deterministic=True)
def learned(
    samples: Annotated[int, Between(2, MAX_SAMPLES)] = SAMPLES,
    seed: Annotated[int, Between(0, SEED_MAX)] = 0,
    confidence: Annotated[float, Between(0.0, 100.0)] = 1.0,
    policy_sha256: str = shipped_digest(POLICY),
    value_sha256: str = shipped_digest(VALUE),
) -> MonteCarloLookahead:
    """mc rolling out the shipped policy to the shipped value's leaves (see the module)."""
    return MonteCarloLookahead(
        samples=samples,
        seed=seed,
        confidence=confidence,
        leaf_turns=LEAF_TURNS,
        **shipped_networks(POLICY.parent, policy_sha256, value_sha256),
    )
