"""The package's shape (docs/layout.md, "Layers"): no import cycles between its modules,
no import that runs up the layers, and the plain-Python reference (the oracle of the
parity tests) imported by none of them.

The graph is read from the source with ``ast``: every import, at the top, inside a
function or under ``if TYPE_CHECKING:`` (a type checker follows those too, and a
module that names another for its types leans on it as much as one that runs it).
``python tests/test_layout.py`` prints the circles and the upward imports it finds.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "seqsolve"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """Every package module ``path`` imports, at the top, inside a function or for its types."""
    return _imports_of(ast.parse(path.read_text(encoding="utf-8")), path, modules)


def _imports_of(tree: ast.AST, path: Path, modules: set[str]) -> set[str]:
    name = _module_name(path)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                target = f"{module}.{alias.name}"
                found.add(target if target in modules else module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m in modules and m != name}


def _graph() -> dict[str, set[str]]:
    """Each module of the package and the package modules it imports; the compiled
    modules (seen by their ``.pyi`` stubs) are leaves."""
    paths = sorted(PACKAGE.rglob("*.py"))
    compiled = {_module_name(p) for p in PACKAGE.rglob("*.pyi")}
    modules = {_module_name(p) for p in paths} | compiled
    return {_module_name(p): _imports(p, modules) for p in paths} | {m: set() for m in compiled}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, as the modules around it, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for other in sorted(graph[module]):
            if state.get(other) == 1:
                return path[path.index(other) :] + [other]
            if other not in state and (found := visit(other)):
                return found
        state[module] = 2
        path.pop()
        return None

    for module in sorted(graph):
        if module not in state and (found := visit(module)):
            return found
    return None


def test_the_graph_sees_the_package():
    graph = _graph()
    assert "seqsolve.games.sequence.state" in graph
    assert "seqsolve.games.sequence.board" in graph["seqsolve.games.sequence.state"]
    assert "seqsolve.cli.errors" in graph["seqsolve.cli"]  # from a package's __init__
    assert "seqsolve.games.sequence.move_checks" in graph["seqsolve.games.sequence.state"]
    assert (
        "seqsolve.games.sequence.rules" in graph["seqsolve.games.sequence.move_checks"]
    )  # a TYPE_CHECKING import


def test_no_import_cycles():
    assert _cycle(_graph()) is None


def test_an_import_under_type_checking_is_seen():
    """move_checks and state made a circle through an import only a type checker runs."""
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .state import State\n")
    path = PACKAGE / "games" / "sequence" / "move_checks.py"
    modules = {"seqsolve.games.sequence.state", "seqsolve.games.sequence.move_checks"}
    assert _imports_of(tree, path, modules) == {"seqsolve.games.sequence.state"}


def test_a_cycle_is_found():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]


def _is_reference(module: str) -> bool:
    return module == "seqsolve.reference" or module.startswith("seqsolve.reference.")


def test_nothing_in_the_package_imports_the_reference():
    graph = _graph()
    assert "seqsolve.reference.sequences" in graph["seqsolve.reference.game"]  # the graph sees it
    importers = [m for m, deps in graph.items() if not _is_reference(m) and any(map(_is_reference, deps))]
    assert importers == []


RUNNERS = ("seqsolve.play", "seqsolve.analysis", "seqsolve.balance", "seqsolve.cli", "seqsolve.serve")


def _is_sequence(module: str) -> bool:
    return module == "seqsolve.games.sequence" or module.startswith("seqsolve.games.sequence.")


def test_the_runners_reach_sequence_only_through_the_game_interface():
    """Issue 12: match, tournament, replay, balance, analyze, annotate and the position
    commands talk to seqsolve.games (the registry and base's protocols), so that a
    second game plugs in by adding its folder; none of their modules imports Sequence's."""
    graph = _graph()
    runners = [m for m in graph if any(m == r or m.startswith(r + ".") for r in RUNNERS)]
    assert "seqsolve.cli.position" in runners and "seqsolve.analysis.search" in runners
    assert (
        "seqsolve.games.sequence.state" in graph["seqsolve.games.sequence.bots.simple"]
    )  # the graph sees such imports,
    assert "seqsolve.benchmark" in graph["seqsolve.cli.position"]  # also those inside a function
    importers = {m: sorted(filter(_is_sequence, graph[m])) for m in runners}
    assert {m: deps for m, deps in importers.items() if deps} == {}


def _game_of(module: str) -> str | None:
    """The game folder a module belongs to (``sequence``, ``stacks``), or None."""
    parts = module.split(".")
    return (
        parts[2]
        if len(parts) > 2 and parts[:2] == ["seqsolve", "games"] and _is_game_folder(parts[2])
        else None
    )


def _is_game_folder(name: str) -> bool:
    return (PACKAGE / "games" / name / "__init__.py").is_file()


def test_no_game_imports_another_games_folder():
    """What two games share lives in seqsolve.games (the position-text helpers, the
    errors), so that each game's folder stands on its own beside the others."""
    graph = _graph()
    assert {"sequence", "stacks"} <= {_game_of(m) for m in graph}  # the games are seen
    assert "seqsolve.games.position_syntax" in graph["seqsolve.games.stacks.position_syntax"]
    crossing = {
        m: sorted(d for d in deps if _game_of(d) not in (None, _game_of(m)))
        for m, deps in graph.items()
        if _game_of(m)
    }
    assert {m: deps for m, deps in crossing.items() if deps} == {}


def _used_before_imported(source: str) -> list[tuple[str, str, int]]:
    """(function, name, line) where a function uses a name before its own local import of
    it: the import makes the name local to the whole function, so that use raises
    UnboundLocalError, even when the module imports the name too."""
    found = []
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        imported: dict[str, int] = {}
        for node in ast.walk(function):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    imported.setdefault((alias.asname or alias.name).split(".")[0], node.lineno)
        for node in ast.walk(function):
            if isinstance(node, ast.Name) and node.id in imported and node.lineno < imported[node.id]:
                found.append((function.name, node.id, node.lineno))
    return found


def test_no_function_uses_a_name_before_importing_it():
    assert _used_before_imported(
        "from x import E\ndef f(a):\n    if a:\n        raise E()\n    from x import E\n"
    )
    found = {
        str(path.relative_to(PACKAGE)): hits
        for path in PACKAGE.rglob("*.py")
        if (hits := _used_before_imported(path.read_text()))
    }
    assert not found


# The layers, lowest first (docs/layout.md, "Layers"): a module imports from its own
# layer or the ones below, never from above.  The bot contract (seqsolve.games.bot) and
# each game's bots sit in the games' layer, so that a game registers its bots without
# reaching up; the reference reads the games' plain data and nothing else.
LAYERS = (
    (
        "seqsolve.errors",
        "seqsolve.arguments",
        "seqsolve.stats",
        *(f"seqsolve.{p.stem}" for p in PACKAGE.glob("_*.pyi")),
    ),
    ("seqsolve.games",),
    ("seqsolve.reference", "seqsolve.bots"),
    ("seqsolve.play", "seqsolve.analysis", "seqsolve.balance", "seqsolve.serve"),
    ("seqsolve", "seqsolve.api", "seqsolve.cli", "seqsolve.benchmark", "seqsolve.__main__"),
)


def _layer(module: str) -> int:
    """The layer of ``module``: that of the longest prefix LAYERS names."""
    best = (-1, -1)
    for i, names in enumerate(LAYERS):
        for name in names:
            if (module == name or module.startswith(name + ".")) and len(name) > best[0]:
                best = (len(name), i)
    assert best[1] >= 0, f"{module} is in no layer of LAYERS"
    return best[1]


def _upward(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Every import that runs up the layers, as (importer, imported)."""
    return sorted((m, d) for m, deps in graph.items() for d in deps if _layer(d) > _layer(m))


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every circle of the graph: its strongly connected parts of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in graph[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            part = []
            while True:
                top = stack.pop()
                part.append(top)
                if top == module:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(found)


def test_every_module_has_a_layer():
    assert {m: _layer(m) for m in _graph()}  # _layer fails on a module of no layer


def test_no_import_runs_up_the_layers():
    assert _upward(_graph()) == []


def test_an_upward_import_is_found():
    graph = {"seqsolve.games.sequence.game": {"seqsolve.bots"}, "seqsolve.bots": {"seqsolve.games"}}
    graph["seqsolve.games"] = set()
    assert _upward(graph) == [("seqsolve.games.sequence.game", "seqsolve.bots")]
    assert _upward({"seqsolve.reference.game": {"seqsolve.play.match"}, "seqsolve.play.match": set()}) == [
        ("seqsolve.reference.game", "seqsolve.play.match")
    ]


def test_the_bot_contract_sits_with_the_games():
    graph = _graph()
    assert "seqsolve.games.bot" in graph["seqsolve.games.stacks.bots"]
    assert "seqsolve.games.sequence.bots" in graph["seqsolve.games.sequence.game"]
    assert _layer("seqsolve.games.bot") < _layer("seqsolve.bots") < _layer("seqsolve.play")


def test_every_circle_is_found():
    graph = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"e"}, "e": {"c"}, "f": {"a"}}
    assert _cycles(graph) == [["a", "b"], ["c", "d", "e"]]


if __name__ == "__main__":  # the numbers of docs/layout.md: python tests/test_layout.py
    graph = _graph()
    circles, upward = _cycles(graph), _upward(graph)
    print(f"{len(graph)} modules, {sum(map(len, graph.values()))} imports")
    print(f"{len(circles)} circles" + "".join(f"\n  {' <-> '.join(c)}" for c in circles))
    print(f"{len(upward)} upward imports" + "".join(f"\n  {m} -> {d}" for m, d in upward))
