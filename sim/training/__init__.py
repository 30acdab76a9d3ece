"""``cardsim train``: networks trained on the compiled engines (``sim.vecenv``), with JAX and optax
(the optional ``train`` extra), written as files that every engine reads without them.

``network`` is the networks and their losses, ``checkpoint`` what a run keeps on disk to resume,
``plan`` what a run is, ``positions`` its first phase (a teacher strategy's play on the tables, each
position labelled with its choice and the margin its play reached, stored to resume), and
``supervised`` the training run: a policy network fitted to the choices or a value network to the
margins.
"""
