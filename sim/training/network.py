"""The networks: multilayer perceptrons over a game's encoded observation (``Game.encode``), ReLU
between layers; a policy gives one score per action, a value one number. They are the networks
``strategies.policy`` reads from its files, so a trained policy is seated as ``policy:path=FILE``
and a value read by ``mc``'s leaves with nothing but numpy.

Parameters are a list of (weight (inputs, outputs), bias (outputs,)) layers of float32 JAX arrays.
"""

from __future__ import annotations

from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np

Params = list[tuple[jax.Array, jax.Array]]


def initial(key: jax.Array, widths: Sequence[int]) -> Params:
    """A network whose layers take ``widths[0]`` inputs through ``widths[1:-1]`` hidden units to
    ``widths[-1]`` scores: He-initialised weights (the scale ReLU layers keep), zero biases."""
    layers = []
    for key_of_layer, (inputs, outputs) in zip(jax.random.split(key, len(widths) - 1), zip(widths, widths[1:])):
        weight = jax.random.normal(key_of_layer, (inputs, outputs), dtype=jnp.float32) * np.sqrt(2.0 / inputs)
        layers.append((weight, jnp.zeros(outputs, dtype=jnp.float32)))
    return layers


def scores(params: Params, encoded: jax.Array) -> jax.Array:
    """(n, actions) each action's score for (n, observation_size) encoded observations."""
    values = encoded
    for layer, (weight, bias) in enumerate(params):
        values = values @ weight + bias
        if layer < len(params) - 1:
            values = jax.nn.relu(values)
    return values


def imitation_loss(params: Params, encoded: jax.Array, masks: jax.Array, targets: jax.Array) -> jax.Array:
    """The mean cross-entropy of the ``targets`` actions under the network's softmax over each row's
    legal actions (``masks``, nonzero where legal): the loss of learning to choose as the teacher chose."""
    legal_scores = jnp.where(masks > 0, scores(params, encoded), -jnp.inf)
    log_probabilities = jax.nn.log_softmax(legal_scores, axis=1)
    return -jnp.take_along_axis(log_probabilities, targets[:, None], axis=1).mean()


def value_loss(params: Params, encoded: jax.Array, targets: jax.Array) -> jax.Array:
    """The mean squared error of the network's one output against ``targets``."""
    return jnp.mean((scores(params, encoded)[:, 0] - targets) ** 2)


def value_and_auxiliary_loss(
    params: Params, encoded: jax.Array, targets: jax.Array, auxiliary: jax.Array, weight: float = 1.0
) -> jax.Array:
    """The mean squared error of the network's first output against ``targets`` plus ``weight`` times
    its second's against ``auxiliary``: a second target the hidden layers learn from, whose output is not kept."""
    values = scores(params, encoded)
    return jnp.mean((values[:, 0] - targets) ** 2) + weight * jnp.mean((values[:, 1] - auxiliary) ** 2)


def agreement(params: Params, encoded: jax.Array, masks: jax.Array, targets: jax.Array) -> jax.Array:
    """The share of rows whose best legal action by the network is the target."""
    legal_scores = jnp.where(masks > 0, scores(params, encoded), -jnp.inf)
    return (legal_scores.argmax(axis=1) == targets).mean()


def layers_of(params: Params) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The weights and biases as float32 numpy arrays, as ``strategies.policy.save_network`` takes them."""
    return [np.asarray(weight, dtype=np.float32) for weight, _ in params], [
        np.asarray(bias, dtype=np.float32) for _, bias in params
    ]
