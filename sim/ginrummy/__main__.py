import sys

from sim.ginrummy.cli import main

sys.exit(main())
