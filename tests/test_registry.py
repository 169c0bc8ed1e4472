"""A game lives in one place: its rules module (with its bot beside it), its templates, its schemas and
one line of `pbem.rules.base.KNOWN`. pbem's shared modules name no game, so a fifth game touches none of
them (the demo, which picks games to play, aside)."""

from __future__ import annotations

import ast
import importlib.resources
import importlib.util
from pathlib import Path

import pytest

import pbem
from pbem.bots import bot_module
from pbem.rules.base import KNOWN, RULESETS, files_of, get_ruleset

SHARED = sorted(p for p in Path(pbem.__file__).parent.glob("*.py") if p.name != "demo.py")


@pytest.mark.parametrize("path", SHARED, ids=lambda p: p.name)
def test_no_shared_module_names_a_game(path: Path) -> None:
    names = set(KNOWN)
    found = [node.value for node in ast.walk(ast.parse(path.read_text("utf-8")))
             if isinstance(node, ast.Constant) and node.value in names]
    assert not found, f"{path.name} names {found}: say it in the game's own module"


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_each_game_has_its_files_where_the_registry_says(name: str) -> None:
    ruleset = get_ruleset(name)
    assert RULESETS[name] is type(ruleset) and ruleset.example_order
    assert importlib.util.find_spec(bot_module(name)) is not None
    # a game of pbem's own in pbem's folders, one that lives outside pbem/ in its own
    templates = files_of(name, "templates") or importlib.resources.files("pbem.templates").joinpath(name)
    assert templates.joinpath("board.svg.j2").is_file()
    schemas = files_of(name, "schemas") or importlib.resources.files("pbem.schemas")
    assert schemas.joinpath(f"{name}.state.schema.json").is_file()
    assert schemas.joinpath(f"{name}.orders.schema.json").is_file()
