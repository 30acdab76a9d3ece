import sys

from sim.launch import gemstones

sys.exit(gemstones())
