"""`pbem show` prints the report kept from an earlier show while nothing it is written from changed,
and never one of a state, viewer, language, zone, pbem.yaml or pbem that is gone: each test plants a
marked text in place of the kept report, sees `show` print it (the kept one is used), changes one
input, and sees `show` print what it prints with nothing kept. The kept reports are their owner's
alone and none of them reaches git."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Callable

import pytest

from helpers import Pbem, assert_error, git, send_turn
from pbem import data_dir, game as games
from pbem.rules.base import OUTSIDE
from pbem.store import GamesDir, shown
from rooms import EXAMPLE, room

PLANTED = "a report kept for what the games dir no longer holds\n"


@pytest.fixture
def table(pbem: Pbem) -> Pbem:
    """A games dir with one game of the example ruleset, its tokens kept on the fixture."""
    pbem.tokens = pbem.new("m1")  # type: ignore[attr-defined]
    return pbem


def printed(pbem: Pbem, *args: str) -> str:
    """What `pbem show m1 ARGS` prints (it must succeed)."""
    run = pbem("show", "m1", *args)
    assert run.exit_code == 0, run.output
    return run.stdout


def fresh(pbem: Pbem, *args: str) -> str:
    """What `pbem show m1 ARGS` prints with no report kept."""
    kept = shown.shown_path(pbem.games, "m1")
    assert kept is not None
    kept.unlink(missing_ok=True)
    return printed(pbem, *args)


def viewer_and_language(args: tuple[str, ...]) -> tuple[str | None, str | None]:
    flags = dict(zip(args[::2], args[1::2]))
    return flags.get("--as"), flags.get("--language")


def plant(pbem: Pbem, *args: str) -> None:
    """Put PLANTED in place of the report kept for `pbem show m1 ARGS` as the games dir is now."""
    key = shown.report_key(pbem.games, "m1", *viewer_and_language(args))
    assert key is not None
    shown.keep_report(pbem.games, "m1", key, PLANTED)
    assert printed(pbem, *args) == PLANTED  # the kept report is what show prints


def assert_never_stale(pbem: Pbem, change: Callable[[], None], *args: str) -> tuple[str, str]:
    """`show m1 ARGS` before and after `change`, the one after as with nothing kept."""
    before = printed(pbem, *args)
    plant(pbem, *args)
    change()
    after = printed(pbem, *args)
    assert after != PLANTED, "show printed a report kept for inputs that changed"
    assert after == fresh(pbem, *args)
    return before, after


def first_to_move(pbem: Pbem) -> str:
    return pbem.show("m1")["waiting_for"][0]


def test_a_report_is_kept_and_printed_again_as_rendered(table: Pbem) -> None:
    for args in ((), ("--as", "anna"), ("--as", "ben", "--language", "de")):
        first = printed(table, *args)
        assert printed(table, *args) == first == fresh(table, *args)
    player = first_to_move(table)
    plant(table, "--as", player)


def test_a_new_state_is_shown_anew(table: Pbem, tmp_path: Path) -> None:
    player = first_to_move(table)
    order = table.show("m1", player)["legal_orders"][0]

    def move() -> None:
        send_turn(table, tmp_path / "turn.yaml", "m1", player, table.tokens[player], 1, [order])  # type: ignore[attr-defined]

    before, after = assert_never_stale(table, move, "--as", player)
    assert before != after


def test_each_viewer_and_language_has_a_report_of_its_own(table: Pbem) -> None:
    plant(table, "--as", "anna")
    for args in ((), ("--as", "ben"), ("--as", "anna", "--language", "de"), ("--as", "anna", "--language", "nl")):
        assert printed(table, *args) not in (PLANTED, "")
    assert printed(table, "--as", "anna") == PLANTED


def test_a_players_language_and_zone_set_anew(table: Pbem) -> None:
    for setting in ("--language", "anna=de"), ("--timezone", "anna=Asia/Tokyo"):
        before, after = assert_never_stale(table, lambda: _ok(table("set", "m1", *setting)), "--as", "anna")
        if setting[0] == "--language":
            assert before != after


@pytest.mark.parametrize("config", ["language: nl\n", "timezone: America/New_York\n", "reply_keys: false\n"])
def test_pbem_yaml_changed(table: Pbem, config: str) -> None:
    player = first_to_move(table)
    before, after = assert_never_stale(table, lambda: (table.games / "pbem.yaml").write_text(config),
                                       "--as", player)
    if not config.startswith("timezone"):  # the report writes no time
        assert before != after


def test_a_state_file_edited_by_hand_is_read_anew(table: Pbem) -> None:
    path = table.games / "m1" / "state.yaml"
    assert_never_stale(table, lambda: path.write_text(path.read_text("utf-8") + "# looked at\n"))
    assert shown.report_key(table.games, "m1", None, None) is None  # and none is kept of it


def pbem_file(kind: str) -> Path:
    """One file of pbem's of each kind a report is written from."""
    if kind == "template":
        return data_dir("pbem.templates") / EXAMPLE / "report.txt.j2"
    if kind == "catalog":
        return Path(games.__file__).parent / "locale" / "de" / "LC_MESSAGES" / "pbem.po"
    return Path(games.__file__).parent / "report.py"


@pytest.mark.parametrize("kind", ["template", "catalog", "module"])
def test_pbem_changed(table: Pbem, kind: str) -> None:
    """A template, catalog or module of pbem's written anew (its time of change is what tells)."""
    path = pbem_file(kind)
    was = path.stat()
    try:
        assert_never_stale(table, lambda: os.utime(path, ns=(was.st_atime_ns, was.st_mtime_ns + 1_000_000_000)),
                           "--as", "anna", "--language", "de")
    finally:
        os.utime(path, ns=(was.st_atime_ns, was.st_mtime_ns))


def test_a_history_file_cut_short_is_named_as_before(table: Pbem) -> None:
    printed(table)
    events = table.games / "m1" / "events.yaml"
    events.write_bytes(events.read_bytes()[:-1])
    assert_error(table("show", "m1"), "m1: the history file events.yaml is shorter than the state file says")


def test_the_report_does_not_read_the_clock(table: Pbem, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game with a deadline shows the same report at any time, so the clock is no part of the key."""
    _ok(table("set", "m1", "--deadline", "2d"))
    player = first_to_move(table)
    at_first = fresh(table, "--as", player)
    monkeypatch.setenv("PBEM_NOW", "2026-11-25T09:30:00Z")  # past the deadline
    assert fresh(table, "--as", player) == at_first


def test_the_kept_reports_are_the_owners_alone_and_out_of_git(table: Pbem, tmp_path: Path) -> None:
    was = os.umask(0)
    try:
        printed(table, "--as", "anna")
    finally:
        os.umask(was)
    kept = shown.shown_path(table.games, "m1")
    assert kept is not None and kept.is_file()
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and stat.S_IMODE(kept.parent.stat().st_mode) == 0o700
    player = first_to_move(table)
    order = table.show("m1", player)["legal_orders"][0]
    send_turn(table, tmp_path / "turn.yaml", "m1", player, table.tokens[player], 1, [order])  # type: ignore[attr-defined]
    printed(table, "--as", player)
    assert git(table.games, "status", "--porcelain") == ""
    assert shown.FOLDER not in git(table.games, "status", "--porcelain", "--ignored")
    assert shown.FOLDER not in git(table.games, "log", "--all", "--name-only", "--format=")
    assert shown.FOLDER not in git(table.games, "ls-files")


def test_show_json_is_as_before(table: Pbem) -> None:
    plant(table, "--as", "anna")
    state = GamesDir(table.games).load("m1")
    assert table.show("m1", "anna") == json.loads(json.dumps(games.show(state, "anna")))


def test_an_unknown_player_is_refused_and_nothing_kept(table: Pbem) -> None:
    assert_error(table("show", "m1", "--as", "zed"), "game 'm1' has no player 'zed'")
    kept = shown.shown_path(table.games, "m1")
    assert kept is not None and not kept.exists()


@pytest.mark.skipif(not OUTSIDE, reason="no game outside pbem/ registered")
def test_a_game_outside_pbem_keeps_no_report(pbem: Pbem) -> None:
    game = next(iter(OUTSIDE))
    players = [f"--player={p}={p}@example.org" for p in room(game).PLAYERS]
    _ok(pbem("new", game, "m1", "--seed", "kept-reports-outside-0001", *players))
    assert printed(pbem) == printed(pbem)
    kept = shown.shown_path(pbem.games, "m1")
    assert kept is not None and not kept.exists()


def _ok(run: object) -> None:
    assert getattr(run, "exit_code") == 0, getattr(run, "output")
