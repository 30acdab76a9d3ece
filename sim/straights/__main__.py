import sys

from sim.launch import straights

sys.exit(straights())
