"""The frameworks are an optional extra: seqsolve itself never imports them."""

from __future__ import annotations

import subprocess
import sys


def test_seqsolve_imports_and_plays_without_the_frameworks():
    """Importing seqsolve, playing a game and loading the command line leave OpenSpiel,
    PettingZoo and gymnasium unimported (a process of its own: this one may hold them)."""
    code = (
        "import sys, seqsolve, seqsolve.cli\n"
        "s = seqsolve.State.new(seqsolve.parse_rules('classic', players=2), seed=1)\n"
        "s.apply(s.legal_actions()[0])\n"
        "print(sorted(m for m in ('pyspiel', 'open_spiel', 'pettingzoo', 'gymnasium') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_missing_framework_is_one_line_naming_the_extra():
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "import importlib.util; real = importlib.util.find_spec\n"
        "importlib.util.find_spec = lambda name, *a: None if name == 'pyspiel' else real(name, *a)\n"
        "import seqsolve.frameworks.openspiel\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode != 0
    assert (
        "ImportError: seqsolve.frameworks needs open-spiel: pip install 'seqsolve[frameworks]'" in done.stderr
    )
