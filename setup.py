"""Build the compiled modules of ``seqsolve`` (``_core``, ``_eval``, ``_choose``, ``_worlds``,
``_rollout``, ``_search``, ``_loop``, ``_stacks``, ``_stacks_bots``, ``_proof``)
from ``ext/seqsolve/``.

Metadata lives in pyproject.toml; this file only declares the extension and
turns a failed compile into one sentence that says what to install.
"""

import os
import platform
import sys

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class BuildCore(build_ext):
    def run(self):
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - compiler missing or failing: say what to do, once
            sys.stderr.write(
                "\nseqsolve: building the compiled core failed "
                f"({exc}); install a C compiler and the Python headers "
                "(Debian/Ubuntu: apt-get install gcc python3-dev) and run "
                "'pip install -e .' again.\n"
            )
            raise SystemExit(1) from None


def _has_popcnt() -> bool:
    """Whether the building machine's x86-64 CPU has the POPCNT instruction (Linux reads
    /proc/cpuinfo; elsewhere, and on other architectures, the answer is no).

    Bitboards count chips in windows on every ply; without POPCNT the compiler emits a
    dozen instructions per count (ss_popcount64 in _core.pxd).  The flag is only added
    when this machine has the instruction, so a build runs where it was made; every
    x86-64 CPU since 2008 has it.  SEQSOLVE_PORTABLE=1 leaves it out (a build to be
    copied to another machine)."""
    if os.environ.get("SEQSOLVE_PORTABLE") or sys.platform == "win32":
        return False
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            return any(line.startswith("flags") and " popcnt" in line for line in fh)
    except OSError:
        return False


COMPILE_ARGS = [] if sys.platform == "win32" else ["-O3", *(["-mpopcnt"] if _has_popcnt() else [])]


def _extension(name: str) -> Extension:
    """One compiled module of the package, built from ext/seqsolve/<name>.pyx."""
    return Extension(
        f"seqsolve.{name}",
        [f"ext/seqsolve/{name}.pyx"],
        include_dirs=[numpy.get_include(), "ext"],
        extra_compile_args=COMPILE_ARGS,
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )


# _core: the rules engine; _eval: action scores and the static evaluation; _choose: the
# greedy, heuristic and decisive choosers; _worlds: the worlds a search deals and the
# evidence that weighs them; _rollout: flat Monte Carlo over them; _search: MCTS (its
# Searcher builds on both); _loop: whole games between built-in bots.  Each cimports the
# C contracts (.pxd) of the ones before it.
# _stacks: the Sequence Stacks engine; _stacks_bots: its random, greedy and MCTS bots.
# _proof: the proof search of forced wins the analysis reports.
extensions = [
    _extension(name)
    for name in (
        "_core",
        "_eval",
        "_choose",
        "_worlds",
        "_rollout",
        "_search",
        "_loop",
        "_stacks",
        "_stacks_bots",
        "_proof",
    )
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
        include_path=["ext"],
    ),
    cmdclass={"build_ext": BuildCore},
)
