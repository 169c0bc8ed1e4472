"""Git lock files and the gits that hold them.

A git killed half way (with the `pbem advance` that started it, or alone) leaves its lock file; the
next run must not take it for a git at work: under pbem's own lock, a git lock file no living git
holds is stale whatever its age, and is removed with a warning. A lock a live git holds is waited for
a few seconds, then the game is SKIPPED as before. Every git pbem starts dies with pbem.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Iterator

import pytest

import helpers
from helpers import git
from pbem import store
from pbem.store import process_start

SEED = "git-locks-seed-0001"
PLAYERS = ("anna", "ben", "cleo")
LOCKS = ["index.lock", "HEAD.lock", "refs/heads/main.lock", "packed-refs.lock"]
REAL_GIT = shutil.which("git") or "git"

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="Linux: /proc tells the gits at work")


@pytest.fixture
def table(pbem: helpers.Pbem, tmp_path: Path) -> helpers.Table:
    """Game m1 in progress, with an order queued for the next run."""
    t = helpers.Table(pbem, tmp_path)
    t.create(PLAYERS, SEED)
    assert t.submit(t.waiting(), 1, ["auction"]).exit_code == 0
    return t


def warning(name: str) -> str:
    return f"Warning: removed a stale .git/{name} left by a killed git\n"


def assert_committed(table: helpers.Table, who: str) -> None:
    assert git(table.games, "status", "--porcelain") == ""
    assert git(table.games, "log", "-1", "--format=%s") == f"m1: turn 1: orders of {who}\n"
    assert [e["player"] for e in table.state()["log"]] == [who]


def gone(pid: int) -> bool:
    """The process has ended (a zombie nobody reaped yet holds nothing and runs nothing)."""
    try:
        return Path(f"/proc/{pid}/stat").read_bytes().rpartition(b") ")[2][:1] in (b"Z", b"X")
    except FileNotFoundError:
        return True


def wait_until(done: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


@pytest.fixture
def live_git(table: helpers.Table) -> Iterator[subprocess.Popen[bytes]]:
    """A git at work in the games dir, as long as the test runs (it holds no lock of its own)."""
    proc = subprocess.Popen(["git", "cat-file", "--batch"], cwd=table.games, stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL)
    try:
        yield proc
    finally:
        proc.kill()
        proc.wait()


# -- a lock no living git holds ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", LOCKS)
def test_a_fresh_lock_no_living_git_holds_is_removed_at_once(table: helpers.Table, name: str) -> None:
    """Newer than the running pbem, as a git killed with the run before it leaves it: still stale."""
    who = table.waiting()
    lock = table.games / ".git" / name
    lock.write_bytes(b"")
    assert lock.stat().st_mtime > process_start()  # the old rule would take it for a git at work
    r = table.pbem("advance")
    assert r.exit_code == 0, r.output
    assert r.stderr == warning(name)
    assert r.stdout.splitlines()[0] == f"m1: applied {who} auction"
    assert not lock.exists()
    assert_committed(table, who)


def hold_and_kill(games: Path, name: str) -> None:
    """Start a real git that takes the lock `name` (and whatever it takes with it) and waits, then
    SIGKILL its process group, as systemd stops a service."""
    head = git(games, "rev-parse", "HEAD").strip()
    stdin = b""
    if name == "index.lock":  # `git commit -a` holds the index while the editor runs
        ready = games.parent / "editor-ready"
        argv = ["git", "commit", "-a", "--allow-empty"]
        env = dict(os.environ, GIT_EDITOR=f"touch {ready} && sleep 60 #")
    else:  # a transaction prepared holds its locks until it is committed or aborted
        ready = None
        if name == "HEAD.lock":
            argv, line = ["git", "update-ref", "--no-deref", "--stdin"], f"update HEAD {head}"
        elif name == "refs/heads/main.lock":
            argv, line = ["git", "update-ref", "--stdin"], f"update refs/heads/main {head}"
        else:  # deleting a packed ref locks packed-refs
            git(games, "tag", "packed")
            git(games, "pack-refs")
            argv, line = ["git", "update-ref", "--stdin"], "delete refs/tags/packed"
        stdin = f"start\n{line}\nprepare\n".encode()
        env = dict(os.environ)
    proc = subprocess.Popen(argv, cwd=games, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        assert proc.stdin is not None and proc.stdout is not None
        if ready is None:
            proc.stdin.write(stdin)
            proc.stdin.flush()
            assert proc.stdout.readline() == b"start: ok\n" and proc.stdout.readline() == b"prepare: ok\n"
        else:
            wait_until(ready.exists, "the editor")
        assert (games / ".git" / name).is_file()
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


# what each git leaves when killed, in the order pbem looks for them
LEFT = {"index.lock": ["index.lock"],
        "HEAD.lock": ["HEAD.lock"],
        "refs/heads/main.lock": ["HEAD.lock", "refs/heads/main.lock"],
        "packed-refs.lock": ["packed-refs.lock", "refs/tags/packed.lock"]}


@pytest.mark.parametrize("name", LOCKS)
def test_the_locks_of_a_git_killed_with_its_process_group_are_removed_by_the_next_run(
        table: helpers.Table, name: str) -> None:
    who = table.waiting()
    hold_and_kill(table.games, name)
    git_dir = table.games / ".git"
    left = sorted(str(p.relative_to(git_dir)) for p in git_dir.rglob("*.lock"))
    assert left == sorted(LEFT[name])
    r = table.pbem("advance")  # at once
    assert r.exit_code == 0, r.output
    assert r.stderr == "".join(warning(lock) for lock in LEFT[name])
    assert r.stdout.splitlines()[0] == f"m1: applied {who} auction"
    assert list(git_dir.rglob("*.lock")) == []
    assert_committed(table, who)


# -- a lock a live git holds ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["index.lock", "refs/heads/main.lock"])
def test_a_lock_a_live_git_holds_is_waited_for_then_the_game_is_skipped(
        table: helpers.Table, live_git: subprocess.Popen[bytes], monkeypatch: pytest.MonkeyPatch,
        name: str) -> None:
    monkeypatch.setattr(store.gitrepo, "GIT_WAIT", 0.5)
    who = table.waiting()
    head = git(table.games, "rev-parse", "HEAD")
    lock = table.games / ".git" / name
    lock.write_bytes(b"")
    started = time.monotonic()
    r = table.pbem("advance")
    assert time.monotonic() - started >= 0.5  # it waited
    assert r.exit_code == 1
    root = table.games.resolve()
    if name == "index.lock":
        assert r.stderr == (f"m1: SKIPPED: git commit failed: Unable to create '{root}/.git/index.lock': File "
                            f"exists (a git is at work in the games dir); the new state is saved in "
                            f"m1/state.yaml but not committed (the next `pbem advance` commits it)\n"
                            f"Error: 1 game skipped: m1\n")
    else:
        first, error = r.stderr.splitlines()
        assert first.startswith("m1: SKIPPED: ") and f"{root}/.git/refs/heads/main" in first, r.stderr
        assert first.endswith("the new state is saved in m1/state.yaml but not committed "
                              "(the next `pbem advance` commits it)")
        assert error == "Error: 1 game skipped: m1"
    assert lock.exists() and git(table.games, "rev-parse", "HEAD") == head
    live_git.kill()  # that git is killed: its lock is left, and the next run removes it and commits
    live_git.wait()
    r = table.pbem("advance")
    assert r.exit_code == 0, r.output
    assert r.stderr == warning(name)
    assert r.stdout == "m1: nothing to do\n"
    assert git(table.games, "status", "--porcelain") == ""
    message = git(table.games, "log", "-1", "--format=%B")
    assert message.startswith("m1: turn 1\n\n")
    assert "(committed by the next run: the run that made it did not commit)" in message
    assert [e["player"] for e in table.state()["log"]] == [who]


def test_a_lock_is_waited_for_until_the_live_git_lets_go(table: helpers.Table, live_git: subprocess.Popen[bytes],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store.gitrepo, "GIT_WAIT", 10.0)
    who = table.waiting()
    lock = table.games / ".git" / "index.lock"
    lock.write_bytes(b"")
    done = threading.Timer(0.3, lock.unlink)  # the git at work finishes
    started = time.monotonic()
    done.start()
    try:
        r = table.pbem("advance")
    finally:
        done.join()
    took = time.monotonic() - started
    assert 0.3 <= took < 5, took
    assert r.exit_code == 0, r.output
    assert r.stderr == ""  # nothing removed: the git took its own lock away
    assert_committed(table, who)


def test_a_git_in_a_folder_of_the_games_dir_is_at_work_there(tmp_path: Path) -> None:
    games = tmp_path / "games"
    (games / "m1").mkdir(parents=True)
    assert store.git_at_work(games) is False
    for cwd, expected in ((tmp_path, False), (games / "m1", True)):
        # reads its stdin to the end, in a repository or not
        proc = subprocess.Popen(["git", "hash-object", "--stdin"], cwd=cwd, stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL)
        try:
            wait_until(lambda: Path(f"/proc/{proc.pid}/comm").read_text() == "git\n", "git to start")
            assert store.git_at_work(games) is expected
        finally:
            proc.kill()
            proc.wait()
        assert store.git_at_work(games) is False


# -- every git pbem starts dies with it --------------------------------------------------------------------

PARENT = """
import subprocess, sys, time
from pbem.store import dies_with_pbem
argv, child = dies_with_pbem(["git", "hash-object", "--stdin"])  # reads its stdin to the end
proc = subprocess.Popen(argv, cwd=sys.argv[1], stdout=subprocess.DEVNULL, **child)  # our stdin: the test's pipe
print(proc.pid, argv[0].rsplit("/", 1)[-1], sorted(child), flush=True)
time.sleep(60)
"""


@pytest.mark.parametrize("way", ["setpriv", "prctl"])
def test_a_git_started_by_pbem_is_killed_when_pbem_dies(tmp_path: Path, way: str) -> None:
    """Its stdin stays open (the test holds the pipe): only the death signal ends it."""
    env = dict(os.environ)
    if way == "prctl":  # no setpriv on the PATH: the preexec_fn sets the signal
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        (bin_dir / "git").symlink_to(REAL_GIT)
        env["PATH"] = str(bin_dir)
    elif store._setpriv() is None:
        pytest.skip("no setpriv that sets the death signal")
    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(tmp_path)], env=env, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    child = 0
    try:
        assert parent.stdout is not None
        pid, program, kwargs = parent.stdout.readline().split(" ", 2)
        child = int(pid)
        assert (program, kwargs) == (("setpriv", "[]\n") if way == "setpriv" else ("git", "['preexec_fn']\n"))
        wait_until(lambda: Path(f"/proc/{child}/comm").read_text() == "git\n", "git to start")
        time.sleep(0.1)
        assert not gone(child)  # at work, waiting for its input
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        wait_until(lambda: gone(child), "the git child to die", timeout=5)
    finally:
        if child and not gone(child):
            os.kill(child, signal.SIGKILL)
        parent.kill()
        parent.wait()


SHIM = """#!{python}
import ctypes, os, sys
sig = ctypes.c_int()
ctypes.CDLL(None).prctl(2, ctypes.byref(sig))  # PR_GET_PDEATHSIG
with open({log!r}, "a") as f:
    f.write(f"{{sig.value}} {{sys.argv[1]}}\\n")
os.execv({git!r}, [{git!r}, *sys.argv[1:]])
"""


def test_every_git_pbem_starts_has_the_death_signal(table: helpers.Table, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A run with a game committed on its own (git add, diff, commit) and one by the batch (its objects
    written by pbem, the branch moved by update-ref, the index by update-index), then the archive (git
    log): every git is started with SIGKILL as its death signal."""
    pbem = table.pbem
    r = pbem("new", "medici", "m2", *helpers.player_args(*PLAYERS), "--seed", SEED)
    assert r.exit_code == 0, r.output
    public = table.games / "m2" / "public.yaml"  # m2: uncommitted, as a run that died leaves it
    public.write_text("# left by a run that died\n" + public.read_text())
    bin_dir = tmp_path / "shim"
    bin_dir.mkdir()
    log = tmp_path / "git-calls.txt"
    shim = bin_dir / "git"
    shim.write_text(SHIM.format(python=sys.executable, log=str(log), git=REAL_GIT))
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    r = pbem("advance")
    assert r.exit_code == 0, r.output
    r = pbem("archive", "m1", "--out", str(tmp_path / "site"))
    assert r.exit_code == 0, r.output
    calls = [line.split(" ", 1) for line in log.read_text().splitlines()]
    assert {"add", "commit", "update-ref", "update-index", "log"} <= {command for _, command in calls}, calls
    assert [sig for sig, _ in calls] == [str(int(signal.SIGKILL))] * len(calls), calls
    assert git(table.games, "status", "--porcelain") == ""
