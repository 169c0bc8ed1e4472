"""No module of pbem imports one that imports it back, not even inside a function (read from their
source; `if TYPE_CHECKING:` imports aside, as they never run): the package is built in layers, each
importing only the layers below it.

The layers, from the bottom:
  clock, errors, rng, history, schemacheck, visible     nothing of pbem but the errors
  i18n                                                  the players' languages
  rules (rules.base, each game's rules and bot), bots   the games themselves
  gamestate, turnfile, absence, deadlines, config       read on a game's state and files
  store                                                 the games dir
  game < gm, talk, tablebots                            one game's pipeline; the GM's tools
  report < pictures                                     what a player reads
  lobby                                                 games not begun (it sends no mail)
  mail (ids, incoming, own_text < html, seats, orders,  what a mail is; what pbem sends (post) and
        commands, compose, phone, boxes, lobby_keys,    answers (replies)
        readers, proof, post, observers, replies,
        absence, standings, stop, talk)
  reporting                                             each player's reports, written and posted
  starting                                              a game started: `pbem new`, the lobby, bots
  mail.tablebots < mail.lobby < mail.run                the lobby's commands by mail; the inbox read
  advance                                               the run over every game
  watch, doctor, archive, demo < commands < cli         the commands (pbem.commands: one module each)
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

import pbem
from pbem.rules.base import KNOWN
from rooms import GAMES

ROOT = Path(pbem.__file__).parent


@cache
def import_graph(package: str) -> dict[str, set[str]]:
    """Each module of `package` and the modules of the package it imports (`if TYPE_CHECKING:` aside);
    read once a test run (not to be changed)."""
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
    """The import cycles of `graph`, each as the modules that import one another, the first again last."""
    found = []

    def visit(module: str, path: list[str], done: set[str]) -> None:
        if module in path:
            loop = path[path.index(module):]
            first = loop.index(min(loop))  # each cycle once, from its first module by name
            named = loop[first:] + loop[:first] + [min(loop)]
            if named not in found:
                found.append(named)
            return
        if module in done:
            return
        done.add(module)
        for other in sorted(graph[module]):
            visit(other, path + [module], done)

    for module in sorted(graph):
        visit(module, [], set())
    return found


def reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    """Whether `start` imports `goal`, itself or through other modules."""
    seen, todo = set(), [start]
    while todo:
        module = todo.pop()
        if module == goal:
            return True
        if module not in seen:
            seen.add(module)
            todo += graph[module]
    return False


def test_cycles_are_found_and_named() -> None:
    graph = {"pbem.a": {"pbem.b"}, "pbem.b": {"pbem.c"}, "pbem.c": {"pbem.a"}, "pbem.d": {"pbem.a"}}
    assert cycles(graph)[0] == ["pbem.a", "pbem.b", "pbem.c", "pbem.a"]
    assert cycles({"pbem.a": {"pbem.b"}, "pbem.b": set()}) == []


def packages() -> list[str]:
    """The whole package, the store, the mail, and each game's rules that pbem ships as a package of
    modules."""
    games = [KNOWN[g] for g in GAMES if KNOWN[g].startswith("pbem.")
             and ROOT.joinpath(*KNOWN[g].split(".")[1:], "__init__.py").is_file()]
    return ["pbem", "pbem.store", "pbem.mail", *games]


@pytest.mark.parametrize("package", packages())
def test_no_module_imports_one_that_imports_it_back(package: str) -> None:
    graph = import_graph(package)
    assert len(graph) > 2
    found = cycles(graph)
    assert not found, "modules that import one another back: " + "; ".join(" -> ".join(c) for c in found)


def test_the_whole_package_is_read_functions_and_all() -> None:
    graph = import_graph("pbem")
    assert len(graph) > 100
    assert "pbem.mail.run" in graph["pbem.advance"]  # imported inside a function only
    assert "pbem.store" not in graph["pbem.gamestate"]  # imported for its type alone, under TYPE_CHECKING


@pytest.mark.parametrize(("low", "high"), [
    ("pbem.i18n", "pbem.deadlines"),
    ("pbem.store", "pbem.game"),
    ("pbem.game", "pbem.report"),
    ("pbem.lobby", "pbem.mail.run"),
    ("pbem.lobby", "pbem.advance"),
    ("pbem.mail.own_text", "pbem.mail.html"),
    ("pbem.mail.ids", "pbem.mail.incoming"),
    ("pbem.reporting", "pbem.mail.run"),
    ("pbem.starting", "pbem.advance"),
    ("pbem.starting", "pbem.mail.lobby"),
    ("pbem.mail.run", "pbem.advance"),
    ("pbem.advance", "pbem.commands.advance"),  # pbem.cli imports each command by its name, when it is run
])
def test_a_lower_layer_never_imports_a_higher_one(low: str, high: str) -> None:
    assert not reaches(import_graph("pbem"), low, high), f"{low} imports {high}, of a layer above it"
    assert reaches(import_graph("pbem"), high, low)


@pytest.mark.parametrize("caller", ["pbem.commands.new", "pbem.commands.start", "pbem.mail.lobby", "pbem.mail.tablebots",
                                    "pbem.advance"])
def test_every_start_of_a_game_goes_through_one_module(caller: str) -> None:
    graph = import_graph("pbem")
    assert "pbem.starting" in graph[caller]
    assert not any("pbem.starting" in graph[m] for m in graph if m.startswith("pbem.lobby"))
