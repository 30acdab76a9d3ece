"""The numba cache of ``sim.jit`` never serves a kernel compiled from an older copy of a file it imports."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from sim import jit

KERNEL = """
from sim import jit
from cachecheck.helper import bonus

@jit.njit(cache=True)
def total(x):
    return x + bonus(x)
"""

HELPER = """
from sim import jit

@jit.njit(cache=True, inline="always")
def bonus(x):
    return {}
"""


def _run(folder: Path) -> str:
    """What the kernel module prints, in a fresh process whose cache is ``folder``'s ``__pycache__``."""
    code = "import sim.jit; sim.jit.PACKAGES.add('cachecheck'); from cachecheck.kernel import total; print(total(1))"
    environment = {**os.environ, "PYTHONPATH": f"{folder}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    environment.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_editing_an_inlined_helper_in_another_file_compiles_the_kernel_again(tmp_path: Path) -> None:
    package = tmp_path / "cachecheck"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "kernel.py").write_text(textwrap.dedent(KERNEL))
    helper = package / "helper.py"
    helper.write_text(textwrap.dedent(HELPER).format(10))
    assert _run(tmp_path) == "11"
    assert list((package / "__pycache__").glob("kernel.total-*.nbi")), "the kernel was cached"
    helper.write_text(textwrap.dedent(HELPER).format(100))  # same size would not matter: contents are hashed
    assert _run(tmp_path) == "101"
    assert _run(tmp_path) == "101"


def test_a_module_is_stamped_by_the_files_it_imports_at_module_level() -> None:
    root = Path(jit.__file__).resolve().parents[1]
    files = {str(path.relative_to(root)) for path in jit.source_files(root, "strategies.straights.heuristic")}
    assert {
        "strategies/straights/heuristic.py",
        "strategies/__init__.py",
        "sim/straights/rules.py",
        "sim/cards.py",
    } <= files
    assert "sim/cli.py" not in files  # nothing imports a program
