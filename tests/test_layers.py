"""The layers of the package, read from its source (`ast`, every import, those inside functions too): the
client of other engines imports nothing of the engine process (engine.server), and no two of the
package's parts import each other, directly or around a circle.

A part is a subpackage (engine.client, engine.server, engine.match, ...) or a module at the package's top
(engine.position, engine.score, ...); imports within one part are its own business. An engine hosted in
process by the client is named by a string (engine.client's entry points), which is not an import.
"""
from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from support import ROOT

PACKAGE = ROOT / "engine"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> set[str]:
    """The modules `path` imports: absolute names, `from X import name` counted as X.name when that is a
    module of the package, else as X."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                candidate = f"{module}.{alias.name}"
                found.add(candidate if _is_module(candidate) else module)
    return {module for module in found if module == "engine" or module.startswith("engine.")}


def _is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def part(module: str) -> str:
    """engine.client.cecp -> engine.client; engine.position -> engine.position; engine -> engine."""
    return ".".join(module.split(".")[:2])


def import_graph() -> dict[str, dict[str, set[str]]]:
    """{part: {imported part: {the modules of the first part that import it}}}, between different parts."""
    graph: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for path in sorted(PACKAGE.rglob("*.py")):
        source = module_name(path)
        for target in imported_modules(path):
            if part(target) != part(source):
                graph[part(source)][part(target)].add(source)
    return graph


def circles(graph: dict[str, dict[str, set[str]]]) -> list[list[str]]:
    """The strongly connected components of more than one part (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in graph.get(node, {}):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in list(graph):
        if node not in index:
            visit(node)
    return found


def test_the_client_imports_nothing_of_the_engine_process():
    graph = import_graph()
    assert "engine.server" not in graph["engine.client"], sorted(graph["engine.client"]["engine.server"])


def test_no_two_parts_import_each_other():
    graph = import_graph()
    found = circles(graph)
    described = [" <-> ".join(component) + ": " + "; ".join(
        f"{a} -> {b} in {', '.join(sorted(graph[a][b]))}" for a in component for b in component if b in graph[a])
        for component in found]
    assert found == [], "\n".join(described)
