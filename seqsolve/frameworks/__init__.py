"""seqsolve's games in the frameworks game-AI research works in: OpenSpiel and PettingZoo.

Each framework is a module of its own, imported only when asked for
(``import seqsolve.frameworks.openspiel``), so that ``import seqsolve`` never needs
either package: they are the optional extra ``frameworks``
(``pip install seqsolve[frameworks]``).  A missing package is one ImportError that
says what to install.
"""

from __future__ import annotations


def require(package: str, module: str) -> None:
    """An ImportError naming the extra when ``module`` (a framework's import name)
    is not installed.

    >>> require("pettingzoo", "no_such_module_here")
    Traceback (most recent call last):
    ImportError: seqsolve.frameworks needs pettingzoo: pip install 'seqsolve[frameworks]' (or pip install pettingzoo)
    """
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise ImportError(
            f"seqsolve.frameworks needs {package}: pip install 'seqsolve[frameworks]' (or pip install {package})"
        )
