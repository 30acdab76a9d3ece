import sys

from sim.launch import euchre

sys.exit(euchre())
