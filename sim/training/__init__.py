"""``cardsim train``: networks trained on the compiled engines (``sim.vecenv``), with JAX and optax
(the optional ``train`` extra), written as files that every engine reads without them.

``network`` is the networks and their losses, ``checkpoint`` what a run keeps on disk to resume,
``supervised`` the training run: positions of a teacher strategy's play, labelled with its choices
(a policy network is fitted to them) or with the margin its play reached (a value network).
"""
