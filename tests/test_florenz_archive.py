"""Florenz in the archive: what is told to one family stays off the pages of an active game."""

from __future__ import annotations

from pathlib import Path

from pbem import archive
from pbem.report import event_lines
from pbem.store import GamesDir
from test_archive import escape, files, play, start


def test_florenz_private_events_reach_no_page_of_an_active_game(tmp_path: Path) -> None:
    """The plan cards dealt and the scandal cards drawn are addressed to one family: the archive of an
    active game has none of them (the finished game shows them, marked)."""
    gd = GamesDir(tmp_path / "games", create=True)
    state, _ = start(gd, "florenz", "Private-florenz-seed-0123456789")
    state = play(GamesDir(tmp_path / "games"), state, 40)
    private = [e for e in state["events"] if isinstance(e.get("to"), list)]
    assert {e["type"] for e in private} >= {"plan_card", "draw_card"}
    archive.write_archive(GamesDir(tmp_path / "games"), ["florenz"], tmp_path / "site")
    text = "".join(files(tmp_path / "site").values())
    assert "secret plan card" not in text
    for e in private:
        assert escape(event_lines("florenz", [e])[0]) not in text
