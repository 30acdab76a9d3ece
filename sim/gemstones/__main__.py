import sys

from sim.gemstones.cli import main

sys.exit(main())
