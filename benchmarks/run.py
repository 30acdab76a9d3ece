"""How fast every game's engines play: ``python -m benchmarks.run`` (``make bench``).

Prints one table per registered game (or the one ``--game`` names), measured by ``sim.bench``, then
every game's dealing speed (``benchmarks.dealing``). ``benchmarks/README.md`` explains the numbers.
"""

from __future__ import annotations

import argparse

from sim import bench, games


def argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=games.names(), help="the game to measure (default: every game)")
    bench.add_arguments(parser)
    return parser


def main() -> None:
    parser = argument_parser()
    options = parser.parse_args()
    try:
        bench.benchmark([options.game] if options.game else games.names(), options.sizes, options.cores, options.json)
    except bench.BenchRequestError as error:
        parser.error(str(error))
    # Imported only now: it loads the tournament runner (pandas), which would swell the engines' peak memory.
    from benchmarks import dealing

    print()
    dealing.benchmark()


if __name__ == "__main__":
    main()
