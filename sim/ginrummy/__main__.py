import sys

from sim.launch import ginrummy

sys.exit(ginrummy())
