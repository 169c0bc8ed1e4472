"""The tests' registry of games keeps its word: every game has a room, and a test that holds for every
game learns the games from the registry, never from a list of its own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import rooms
from rooms import EXAMPLE, GAMES, room, room_file

TESTS = Path(__file__).parent

def owner(path: Path) -> str | None:
    """The game whose own test file `path` is (test_<game>_*.py, its - written _), or None."""
    games = sorted(GAMES, key=len, reverse=True)  # medici_strozzi before medici
    return next((g for g in games if path.name.startswith(f"test_{g.replace('-', '_')}_")), None)


def named(text: str, games: list[str]) -> list[str]:
    """The games of `games` that `text` names (as a word, in any case, with - or _)."""
    out = []
    for game in games:
        spellings = {game, game.replace("-", "_")}
        if any(re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", text, re.IGNORECASE) for s in spellings):
            out.append(game)
    return out


#: the one line outside a game's own files that may name the test games: conftest.py registers them, as
#: `NAME=MODULE` entries separated by commas, each a package of tests/
REGISTRATION = ("conftest.py", re.compile(r'os\.environ\["PBEM_RULESETS"\] = "([a-z0-9_]+=[a-z0-9_]+(?:,[a-z0-9_]+=[a-z0-9_]+)*)"\n'))


def others_named(path: Path) -> list[str]:
    """The games a test file names that it may not: any game but its own and the example game (and
    the test game in conftest.py's line that registers it, that line alone, once)."""
    allowed = {owner(path), EXAMPLE}
    text = path.read_text("utf-8")
    if path.name == REGISTRATION[0]:
        text = REGISTRATION[1].sub("", text, 1)
    return named(text, [g for g in GAMES if g not in allowed])


def shared_test_files() -> list[Path]:
    return sorted(p for p in TESTS.glob("*.py") if p.name != Path(__file__).name)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_room(game: str) -> None:
    assert room_file(game).exists(), f"{game} has no room: add tests/rooms/{room_file(game).name}"
    module = room(game)
    assert module.PLAYERS and module.TABLES
    assert all(1 <= count <= len(rooms.NAMES) for count, _ in module.TABLES)


def test_no_test_names_a_game_but_through_the_registry() -> None:
    offenders = {p.name: others_named(p) for p in shared_test_files()}
    assert {name: games for name, games in offenders.items() if games} == {}, \
        "name the games through tests/rooms (GAMES, room(game), EXAMPLE), or move the test to the game's own files"


def test_the_guard_knows_a_games_own_files_and_its_spellings() -> None:
    assert owner(TESTS / "test_medici_strozzi_rules.py") == "medici-strozzi"
    assert owner(TESTS / "test_medici_rules.py") == "medici"
    assert owner(TESTS / "test_rooms.py") is None
    assert named("new medici_strozzi game", ["medici", "medici-strozzi"]) == ["medici-strozzi"]
    assert named("join medici-1 now", ["medici"]) == []  # a game's id, not the game
    assert named("Medina's walls", ["medina"]) == ["medina"]


def test_the_guard_lets_conftest_name_the_test_games_in_their_registration_line_alone(tmp_path: Path) -> None:
    conftest = TESTS / REGISTRATION[0]
    text = conftest.read_text("utf-8")
    line = REGISTRATION[1].search(text)
    assert line and others_named(conftest) == []
    entries = [entry.split("=") for entry in line.group(1).split(",")]
    games = [game for game, _module in entries]
    assert all(game in GAMES and (TESTS / module / "__init__.py").is_file() for game, module in entries)
    copy = tmp_path / REGISTRATION[0]
    for game in games:
        copy.write_text(text + f"# {game} again\n", "utf-8")
        assert others_named(copy) == [game]  # another word of it anywhere else is caught
    copy.write_text(line.group(0) * 2, "utf-8")
    assert others_named(copy) == sorted(games)  # the line once


def test_a_game_without_a_room_fails_naming_the_file_to_add() -> None:
    with pytest.raises(pytest.fail.Exception, match=r"the game 'chess' has no room: add tests/rooms/chess\.py"):
        room("chess")


def test_a_room_without_an_optional_attribute_skips_saying_which(monkeypatch: pytest.MonkeyPatch) -> None:
    module = room(EXAMPLE)
    monkeypatch.delattr(module, "BOARD_ENGLISH")
    with pytest.raises(pytest.skip.Exception, match=rf"tests/rooms/{EXAMPLE}\.py has no BOARD_ENGLISH"):
        rooms.need(EXAMPLE, "BOARD_ENGLISH")
    assert rooms.need(EXAMPLE, "PLAYERS") == module.PLAYERS


def test_a_list_a_room_lacks_gives_one_parameter_that_skips_saying_which(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(room(EXAMPLE), "PICTURE_TABLES")
    params = [p for p in rooms.each("PICTURE_TABLES") if p.values[0] == EXAMPLE]
    assert len(params) == 1
    (mark,) = params[0].marks
    assert mark.name == "skip" and mark.kwargs["reason"] == f"tests/rooms/{EXAMPLE}.py has no PICTURE_TABLES"
    others = [p for p in rooms.each("PICTURE_TABLES") if p.values[0] != EXAMPLE]
    assert others and not any(p.marks for p in others)
    assert all(len(p.values) == 1 + rooms.ARITY["PICTURE_TABLES"] for p in others)
