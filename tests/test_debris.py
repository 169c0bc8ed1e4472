"""What a killed run leaves half written: the temporary files of its atomic writes. The next command
that takes the games dir's lock finds the dead holder's mark and removes them; a living process's
temporary file stays, and a clean run leaves no mark."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import Pbem


def dead_pid() -> int:
    """The pid of a process that has ended."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_dead_holders_temporary_files_are_removed_by_the_next_lock(pbem: Pbem) -> None:
    pbem.new()
    lock = pbem.games / ".pbem.lock"
    assert lock.read_text() == ""  # `pbem new` ended cleanly: no mark
    reports = pbem.games / "m1" / "reports" / "anna"
    dead = reports / f".0002-turn-0002.txt.{dead_pid()}-1.tmp"
    living = reports / f".0002-turn-0002.txt.{os.getpid()}-1.tmp"
    other = pbem.games / "m1" / f".state.yaml.{dead_pid()}-3.tmp"
    for path in (dead, living, other):
        path.write_text("half")
    lock.write_text("12345\n")  # the mark of a holder that died holding the lock
    assert pbem("advance").exit_code == 0
    assert not dead.exists() and not other.exists()
    assert living.exists()
    assert lock.read_text() == ""


def test_without_a_dead_holders_mark_nothing_is_looked_for(pbem: Pbem) -> None:
    pbem.new()
    debris = pbem.games / "m1" / f".state.yaml.{dead_pid()}-3.tmp"
    debris.write_text("half")
    assert pbem("advance").exit_code == 0
    assert debris.exists()  # a clean last run left no mark: the walk over the games dir is not paid


def test_the_temporary_file_of_a_killed_process_not_yet_reaped_is_removed(tmp_path: Path) -> None:
    """A worker killed with its run, whose parent is gone too, may stay a zombie for a while (nobody
    reaps it): it answers kill(0) but writes nothing more, so its half-done write is debris."""
    import subprocess
    import time

    from pbem.store.gamesdir import remove_dead_temps

    child = subprocess.Popen(["true"])
    time.sleep(0.3)  # it has ended, and is not reaped until wait()
    try:
        debris = tmp_path / "g1" / f".state.yaml.{child.pid}-1.tmp"
        debris.parent.mkdir()
        debris.write_text("half")
        mine = tmp_path / "g1" / f".state.yaml.{os.getpid()}-1.tmp"
        mine.write_text("mine")
        assert remove_dead_temps(tmp_path) == [debris]
        assert not debris.exists() and mine.exists()
    finally:
        child.wait()
