"""``learned``: ``mc`` with the shipped networks (issue 47).

Each candidate is rolled out in 64 sampled worlds by the shipped policy (``policy.npz``: a network
imitating ``search``, made by ``make weights-gemstones-policy``) in both seats until our player has
made eight more decisions, and valued there by the coins so far and the shipped value network
(``value.npz``, ``make weights-gemstones``): the same player as
``mc:samples=64,rollout=(policy:path=P),leaves=V,leaf_turns=8``. docs/search.md measures it against
``search``.

The networks are named by their digests (``policy_sha256``, ``value_sha256``, defaulting to the
shipped files'), not by a path: a spec spelled out, and so a run's id, is the same wherever the package
is installed, and changes when a network is made again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from strategies import SEED_MAX, Between, register
from strategies.gemstones.mc import MAX_SAMPLES, MonteCarloLookahead
from strategies.policy import shipped_digest, shipped_networks

POLICY = Path(__file__).with_name("policy.npz")
VALUE = Path(__file__).with_name("value.npz")
SAMPLES = 64  # worlds a decision: a policy's rollouts cost about four times the heuristic's
LEAF_TURNS = 8  # as measured for the value alone (docs/training.md)


@register("gemstones", "learned", deterministic=True)
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
