"""Medina's supply is counted as German and Dutch count it."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.game import new_game
from pbem.report import render_report
from pbem.store import GamesDir


@pytest.mark.parametrize("lang,supply", [("de", "2 Ställe, 1 Händler, 1 Mauer, 1 Dach"),
                                         ("nl", "2 stallen, 1 koopman, 1 muur, 1 dak"),
                                         ("en", "2 stables, 1 merchant, 1 wall, 1 roof")])
def test_medinas_supply_is_counted(tmp_path: Path, lang: str, supply: str) -> None:
    state, _ = new_game(GamesDir(tmp_path / "games"), "medina", "n2",
                        [(p, f"{p}@example.org") for p in ("anna", "ben", "cleo")], {}, "supply")
    state["engine"]["supply"]["anna"].update(stable=2, merchant=1, wall=1, roof=1)
    text = render_report(state, "anna", [], lang=lang)
    assert supply in " ".join(text.split())
