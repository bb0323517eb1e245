"""Loading a script that is not a package module (benchmarks/, examples/) so a
test can call its functions."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def load_script(path: Path, name: str, register: bool = False):
    """The script at ``path`` as a module called ``name``, able to import its
    neighbours as it can when run (its folder joins the end of sys.path, where it
    shadows nothing).  ``register`` puts it in
    sys.modules, which a script's dataclasses need (they look their module up
    there); left out, joblib's workers get its functions by value, not by a
    module name they could not import."""
    if str(path.parent) not in sys.path:
        sys.path.append(str(path.parent))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    if register:
        sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
