"""A game's history (events.yaml, log.yaml): only ever appended, read only as far as a run needs, and
never ahead of the state file that says how much of it exists (pbem.history)."""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

import helpers
from helpers import Pbem, assert_error
from rooms import GAMES, tables
from pbem import history as history_module
from pbem import store as store_module
from pbem.game import verify
from pbem.history import History, encode, last_lines
from pbem.store import GamesDir, dump_yaml

pytestmark = pytest.mark.usefixtures("pictures_unexamined")

PLAYERS = ("anna", "ben", "cleo")


@pytest.fixture
def table(pbem: Pbem, tmp_path: Path) -> helpers.Table:
    t = helpers.Table(pbem, tmp_path)
    t.create(PLAYERS, "history-test-seed-0001")
    return t


def play(table: helpers.Table, orders: int) -> None:
    """`orders` decisions through submit and advance, each the first legal order."""
    for _ in range(orders):
        who = table.waiting()
        table.play(who, [table.show(who)["legal_orders"][0]])


def history_bytes(table: helpers.Table) -> dict[str, bytes]:
    folder = table.games / table.game
    return {name: (folder / name).read_bytes() for name in ("events.yaml", "log.yaml")}


# -- on disk ---------------------------------------------------------------------------------------------

def test_every_run_appends_to_the_history_and_rewrites_none_of_it(table: helpers.Table) -> None:
    before = history_bytes(table)
    assert before["log.yaml"] == b""  # a new game: its setup events, no orders yet
    for _ in range(8):
        play(table, 1)
        after = history_bytes(table)
        for name, old in before.items():
            assert after[name].startswith(old), name
        assert after["log.yaml"] != before["log.yaml"]
        before = after
    state = table.state()
    lines = before["log.yaml"].decode().splitlines()
    assert [yaml.safe_load(line)[0] for line in lines] == state["log"]  # each line is a YAML list item
    assert yaml.safe_load(before["events.yaml"]) == state["events"]  # and the file a YAML list
    assert table.pbem("verify", "m1").exit_code == 0


def test_the_state_file_records_how_much_history_exists_and_carries_no_history(table: helpers.Table) -> None:
    play(table, 3)
    text = (table.games / "m1" / "state.yaml").read_text()
    raw = yaml.safe_load(text)
    assert "events" not in raw and "log" not in raw and raw["format"] == 2
    sizes = {name: len(data) for name, data in history_bytes(table).items()}
    state = table.state()
    assert raw["history"] == {"events": [len(state["events"]), sizes["events.yaml"]],
                              "log": [3, sizes["log.yaml"]]}


def test_history_lines_are_canonical() -> None:
    item = {"type": "bid", "player": "anna", "amount": 7, "turn": 3, "text": "Zoë said \"hi\"\n"}
    line = encode(item)
    assert line == b'- {"type": "bid", "player": "anna", "amount": 7, "turn": 3, "text": "Zo\xc3\xab said \\"hi\\"\\n"}\n'
    assert yaml.safe_load(line) == [item]


# -- a run reads only what it needs ------------------------------------------------------------------------

def test_a_run_reads_the_history_from_its_end_only(table: helpers.Table, monkeypatch: pytest.MonkeyPatch) -> None:
    play(table, 12)
    asked: list[int] = []
    real = history_module.last_lines

    def counting(path: Path, end: int, n: int) -> list[bytes]:
        asked.append(n)
        return real(path, end, n)

    monkeypatch.setattr(history_module, "last_lines", counting)
    events = len(table.state()["events"])
    asked.clear()
    play(table, 1)
    # the reports need the events since each player's last report; nothing reads the whole history
    assert asked and max(asked) < events


def test_a_loaded_history_is_a_list_that_reads_lazily(tmp_path: Path) -> None:
    path = tmp_path / "events.yaml"
    items = [{"type": "x", "turn": i} for i in range(100)]
    path.write_bytes(b"".join(encode(i) for i in items))
    h = History(path, 100, path.stat().st_size)
    assert len(h) == 100 and h._first == 100  # nothing read yet
    assert h[-1] == items[-1] and h[97:] == items[97:]
    assert h._first >= 60  # a few more than asked, never the whole file
    assert h[5] == items[5] and h[::10] == items[::10]
    assert h == items and items == h and h != items[:99]
    twin = copy.deepcopy(h)
    twin.append({"type": "y", "turn": 100})
    assert len(h) == 100 and len(twin) == 101 and twin != h
    h += [{"type": "y", "turn": 100}]
    assert twin == h and list(h) == items + [{"type": "y", "turn": 100}]
    with pytest.raises(IndexError):
        h[101]


def test_last_lines_reads_backwards_in_growing_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(history_module, "_CHUNK", 7)
    path = tmp_path / "log.yaml"
    lines = [f"- {{\"n\": {i}}}".encode() for i in range(50)]
    path.write_bytes(b"\n".join(lines) + b"\n" + b"- garbage a dead run left")
    end = len(b"\n".join(lines)) + 1
    for n in (0, 1, 2, 49, 50):
        assert last_lines(path, end, n) == (lines[-n:] if n else [])


# -- what a damaged history says --------------------------------------------------------------------------

def test_a_history_file_cut_short_is_named(table: helpers.Table) -> None:
    play(table, 2)
    path = table.games / "m1" / "log.yaml"
    path.write_bytes(path.read_bytes()[:-5])
    assert_error(table.pbem("verify", "m1"), "m1: the history file log.yaml is shorter than the state file says")


def test_a_history_file_missing_is_named_with_the_way_back(table: helpers.Table) -> None:
    play(table, 2)
    (table.games / "m1" / "log.yaml").unlink()
    assert_error(table.pbem("verify", "m1"), "m1: the history file log.yaml is missing; "
                                             "`git checkout -- m1/log.yaml` restores the last committed one")


def test_a_history_line_that_is_not_one_is_named(table: helpers.Table) -> None:
    play(table, 2)
    path = table.games / "m1" / "log.yaml"
    data = path.read_bytes()
    path.write_bytes(b"- [" + data[3:])
    assert_error(table.pbem("verify", "m1"), "m1: the history file log.yaml is corrupt: "
                 f"{(b'- [' + data[3:]).splitlines()[0][:60].decode()!r} is not a history line")


# -- a run that died between appending and saving ------------------------------------------------------------

def test_bytes_beyond_what_the_state_file_records_do_not_exist_and_the_next_save_cuts_them(table: helpers.Table) -> None:
    play(table, 2)
    log = table.games / "m1" / "log.yaml"
    good = log.read_bytes()
    log.write_bytes(good + b'- {"turn": 3, "player": "x", "order": "draw", "received": "2026"}\n')
    assert len(table.state()["log"]) == 2
    assert table.pbem("verify", "m1").exit_code == 0
    play(table, 1)
    assert log.read_bytes().startswith(good) and len(log.read_bytes().splitlines()) == 3
    assert table.pbem("verify", "m1").exit_code == 0


def test_a_run_killed_after_appending_the_history_ends_as_one_run(pbem: Pbem, tmp_path: Path) -> None:
    """Killed between appending to the history files and replacing the state file: the state file
    says the orders were never applied, the queue still holds them, and the next run applies them once."""
    runs = {}
    for name in ("killed", "clean"):
        p = Pbem(tmp_path / name / "games")
        t = helpers.Table(p, tmp_path / name)
        t.create(PLAYERS, "history-test-seed-0002")
        who = t.waiting()
        assert t.submit(who, 1, ["auction"]).exit_code == 0
        if name == "killed":
            r = subprocess.run([sys.executable, "-m", "pbem", "advance", "--games-dir", str(p.games)],
                               env=dict(os.environ, PBEM_DIE_AT="history"), capture_output=True, text=True)
            assert r.returncode == 137, r.stderr
            assert len(t.state()["log"]) == 0  # the state file was not replaced
            assert len((p.games / "m1" / "log.yaml").read_bytes()) > 0  # though the log was appended
        r = p("advance")
        assert r.exit_code == 0, r.output
        state = t.state()
        state.pop("players")  # the tokens are drawn afresh for each game
        runs[name] = (state, [(p.games / "m1" / f).read_bytes() for f in ("events.yaml", "log.yaml")])
        assert helpers.git(p.games, "status", "--porcelain") == ""
    assert runs["killed"] == runs["clean"]


# -- the old format ------------------------------------------------------------------------------------------

def test_a_format_1_state_file_is_read_and_the_next_save_writes_format_2(table: helpers.Table) -> None:
    play(table, 3)
    state = table.state()
    folder = table.games / "m1"
    old = dict(state, format=1)
    old.pop("checksum", None)
    (folder / "state.yaml").write_text(dump_yaml(old))
    (folder / "events.yaml").unlink()
    (folder / "log.yaml").unlink()
    assert table.pbem("verify", "m1").exit_code == 0
    assert table.state() == state
    play(table, 1)
    assert yaml.safe_load((folder / "state.yaml").read_text())["format"] == 2
    assert len(table.state()["log"]) == 4 and table.state()["log"][:3] == state["log"]
    assert table.pbem("verify", "m1").exit_code == 0


def test_a_format_1_state_file_without_its_log_is_named(table: helpers.Table) -> None:
    state = table.state()
    old = {k: v for k, v in state.items() if k != "log"}
    (table.games / "m1" / "state.yaml").write_text(dump_yaml(dict(old, format=1)))
    assert_error(table.pbem("show", "m1"), "m1: the state file is not valid: log: missing, or not a list")


# -- the checksum: a state file pbem wrote is not walked through the schema again -----------------------------

def test_a_state_file_pbem_wrote_is_loaded_without_the_schema_walk(table: helpers.Table,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    play(table, 2)
    walks: list[str] = []
    real = store_module.gamesdir.check_state_file
    monkeypatch.setattr(store_module.gamesdir, "check_state_file", lambda s, where: (walks.append(where), real(s, where)))
    GamesDir(table.games).load("m1")
    assert walks == []
    path = table.games / "m1" / "state.yaml"
    path.write_text(path.read_text().replace("waiting_since: '", "waiting_since:  '", 1))  # a hand edit
    GamesDir(table.games).load("m1")
    assert walks == ["m1"]


def test_a_hand_edit_that_breaks_the_state_is_caught(table: helpers.Table) -> None:
    path = table.games / "m1" / "state.yaml"
    path.write_text(path.read_text().replace("status: active", "status: sleeping", 1))
    before = helpers.snapshot(table.games)
    assert_error(table.pbem("show", "m1"), "m1: the state file is not valid: status: 'sleeping' is not one of "
                                           "['active', 'paused', 'finished']")
    assert helpers.snapshot(table.games) == before


# -- rollback rewrites the history ---------------------------------------------------------------------------

def test_a_rollback_rewrites_the_history_and_the_game_replays(table: helpers.Table) -> None:
    play(table, 6)
    r = table.pbem("rollback", "m1", "--to", "3")
    assert r.exit_code == 0, r.output
    state = table.state()
    assert [e["turn"] for e in state["log"]] == [1, 2]
    assert verify(GamesDir(table.games).load("m1")) == []
    play(table, 2)
    assert table.pbem("verify", "m1").exit_code == 0


def test_whole_bot_games_save_and_load_at_every_step(tmp_path: Path) -> None:
    """Every ruleset: the state saved and loaded after every order equals the state in memory."""
    for ruleset in GAMES:
        names, options = tables(ruleset)[0]
        gd, state, _ = helpers.play_pipeline_game(tmp_path / ruleset, ruleset, names, options,
                                                  f"history-{ruleset}-seed-0003", first_legal, check_every=25)
        loaded = gd.load("g1")
        assert loaded == state and verify(loaded) == []
        assert len(loaded["log"]) == len(state["log"]) > 10


def first_legal(state: dict[str, Any], player: str, shown: dict[str, Any]) -> list[Any]:
    return [shown["legal_orders"][0]]


def test_a_history_file_whose_end_moved_is_named(table: helpers.Table) -> None:
    play(table, 2)
    path = table.games / "m1" / "log.yaml"
    path.write_bytes(b"x" + path.read_bytes())  # one byte more at the front: the recorded end is mid-line
    assert_error(table.pbem("verify", "m1"),
                 "m1: the history file log.yaml does not end where the state file says")


def test_a_game_whose_history_file_is_gone_needs_the_gm(table: helpers.Table) -> None:
    play(table, 2)
    (table.games / "m1" / "events.yaml").unlink()
    r = table.pbem("status")
    assert "m1: the history file events.yaml is missing" in r.output and "NEEDS THE GM" in r.output, r.output
    assert_error(table.pbem("show", "m1"), "m1: the history file events.yaml is missing; "
                                           "`git checkout -- m1/events.yaml` restores the last committed one")
