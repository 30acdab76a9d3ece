"""``cardsim train``: networks trained on the compiled engines (``sim.vecenv``), with JAX and optax
(the optional ``train`` extra), written as policy files that every engine plays without them.

``network`` is the network and its loss, ``checkpoint`` what a run keeps on disk to resume,
``imitation`` the training run: positions of a teacher strategy's play, labelled with its choices,
and a policy network fitted to them.
"""
