import sys

from sim.straights.cli import main

sys.exit(main())
