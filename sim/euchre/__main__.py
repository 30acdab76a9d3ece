import sys

from sim.euchre.cli import main

sys.exit(main())
