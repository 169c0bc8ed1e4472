"""No module of a game's rules package or of the store imports one that imports it back, not even inside
a function: each package's modules import one another in one direction (read from their source)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pbem
from pbem.rules.base import KNOWN
from rooms import GAMES

ROOT = Path(pbem.__file__).parent


def import_graph(package: str) -> dict[str, set[str]]:
    """Each module of `package` and the modules of the package it imports (`if TYPE_CHECKING:` aside)."""
    folder = ROOT.joinpath(*package.split(".")[1:])
    files = {(f"{package}." + ".".join(f.relative_to(folder).with_suffix("").parts)).removesuffix(".__init__"): f
             for f in folder.rglob("*.py")}
    graph = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
                node.body = []
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                found |= {f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in files else node.module
                          for a in node.names}
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
        graph[name] = {m for m in found if m in files and m != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found = []

    def visit(module: str, path: list[str], done: set[str]) -> None:
        if module in path:
            found.append(path[path.index(module):] + [module])
            return
        if module in done:
            return
        done.add(module)
        for other in sorted(graph[module]):
            visit(other, path + [module], done)

    for module in sorted(graph):
        visit(module, [], set())
    return found


def packages() -> list[str]:
    """The store, and each game's rules that pbem ships as a package of modules."""
    games = [KNOWN[g] for g in GAMES if KNOWN[g].startswith("pbem.")
             and ROOT.joinpath(*KNOWN[g].split(".")[1:], "__init__.py").is_file()]
    return ["pbem.store", *games]


@pytest.mark.parametrize("package", packages())
def test_no_module_imports_one_that_imports_it_back(package: str) -> None:
    graph = import_graph(package)
    assert len(graph) > 2
    assert cycles(graph) == []
