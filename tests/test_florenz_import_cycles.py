"""The Florenz flow and its solo game import one another in one direction."""

from __future__ import annotations

from test_import_cycles import import_graph


def test_the_florenz_flow_and_the_solo_game_import_in_one_direction() -> None:
    graph = import_graph("pbem.rules.florenz")
    assert "pbem.rules.florenz.solo" in graph["pbem.rules.florenz.flow"]
    assert "pbem.rules.florenz.flow" not in graph["pbem.rules.florenz.solo"]
