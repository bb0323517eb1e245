"""The package's shape: no import cycles between its modules, and the plain-Python
reference (the oracle of the parity tests) imported by none of them."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "seqsolve"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runtime_nodes(tree: ast.AST):
    """Every node of ``tree`` but those under ``if TYPE_CHECKING:``: an import that
    only a type checker runs makes no cycle when the program runs."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))


def _imports(path: Path, modules: set[str]) -> set[str]:
    """Every package module ``path`` imports, at the top or inside a function."""
    name = _module_name(path)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
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
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {_module_name(p) for p in paths}
    return {_module_name(p): _imports(p, modules) for p in paths}


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
    assert "seqsolve.cli.position" in graph["seqsolve.cli"]
    # move_checks names State for its type checker only; state imports move_checks
    assert "seqsolve.games.sequence.state" not in graph["seqsolve.games.sequence.move_checks"]
    assert "seqsolve.games.sequence.move_checks" in graph["seqsolve.games.sequence.state"]


def test_no_import_cycles():
    assert _cycle(_graph()) is None


def test_a_cycle_is_found():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]


def _is_reference(module: str) -> bool:
    return module == "seqsolve.reference" or module.startswith("seqsolve.reference.")


def test_nothing_in_the_package_imports_the_reference():
    graph = _graph()
    assert "seqsolve.reference.sequences" in graph["seqsolve.reference.game"]  # the graph sees it
    importers = [m for m, deps in graph.items() if not _is_reference(m) and any(map(_is_reference, deps))]
    assert importers == []


RUNNERS = ("seqsolve.play", "seqsolve.analysis", "seqsolve.balance", "seqsolve.cli")


def _is_sequence(module: str) -> bool:
    return module == "seqsolve.games.sequence" or module.startswith("seqsolve.games.sequence.")


def test_the_runners_reach_sequence_only_through_the_game_interface():
    """Issue 12: match, tournament, replay, balance, analyze, annotate and the position
    commands talk to seqsolve.games (the registry and base's protocols), so that a
    second game plugs in by adding its folder; none of their modules imports Sequence's."""
    graph = _graph()
    runners = [m for m in graph if any(m == r or m.startswith(r + ".") for r in RUNNERS)]
    assert "seqsolve.cli.position" in runners and "seqsolve.analysis.search" in runners
    assert "seqsolve.games.sequence.state" in graph["seqsolve.bots.simple"]  # the graph sees such imports,
    assert "seqsolve.benchmark" in graph["seqsolve.cli.position"]  # also those inside a function
    importers = {m: sorted(filter(_is_sequence, graph[m])) for m in runners}
    assert {m: deps for m, deps in importers.items() if deps} == {}



def _game_of(module: str) -> str | None:
    """The game folder a module belongs to (``sequence``, ``stacks``), or None."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["seqsolve", "games"] and _is_game_folder(parts[2]) else None


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
    assert _used_before_imported("from x import E\ndef f(a):\n    if a:\n        raise E()\n    from x import E\n")
    found = {
        str(path.relative_to(PACKAGE)): hits
        for path in PACKAGE.rglob("*.py")
        if (hits := _used_before_imported(path.read_text()))
    }
    assert not found
