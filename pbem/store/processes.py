"""The processes of a pbem command: crash points for the tests, the workers of `pbem advance --jobs`,
children (git) that die with pbem, and the gits at work in a games dir."""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any, Callable

_IMPORTED = time.time()
_crash_counts: dict[str, int] = {}


def crash_point(name: str, whole_run: bool = True) -> None:
    """For tests only: with PBEM_DIE_AT=<name> (or <name>:<n>, the n-th time) the process dies here at
    once, as if killed: no cleanup, no flush, no exit handlers. In a worker of `--jobs`, the whole run
    dies with it, but for a point that is not `whole_run` (a worker killed alone, as by the kernel)."""
    wanted = os.environ.get("PBEM_DIE_AT")
    if not wanted:
        return
    step, _, nth = wanted.partition(":")
    if step != name:
        return
    _crash_counts[name] = _crash_counts.get(name, 0) + 1
    if _crash_counts[name] >= int(nth or 1):
        if _kill_parent and whole_run:
            os.kill(os.getppid(), signal.SIGKILL)
        os._exit(137)


def become_worker() -> None:
    """In a worker process of `pbem advance --jobs`, forked from the run: it dies with the run (and a
    crash point kills the whole run, as a kill would), and does not hold the games dir's lock, which
    the run holds alone (a worker left alive must not lock out the next run)."""
    global _kill_parent
    _kill_parent = True
    for fd in _held_locks:
        with contextlib.suppress(OSError):
            os.close(fd)
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


_kill_parent = False
_held_locks: list[int] = []  # the fds of the games dir locks this process holds


def process_start() -> float:
    """When this process started (seconds since the epoch); the time pbem was imported where /proc
    does not say."""
    try:
        stat = Path("/proc/self/stat").read_text()
        ticks = int(stat.rsplit(")", 1)[1].split()[19])  # field 22, starttime, in clock ticks after boot
        btime = next(int(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines()
                     if line.startswith("btime "))
        return btime + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return _IMPORTED


def dies_with_pbem(argv: list[str]) -> tuple[list[str], dict[str, Any]]:
    """The argv and the subprocess arguments that start `argv` as a child the kernel SIGKILLs when this
    process dies (Linux; elsewhere it is started as it is): a git that outlived a killed pbem would hold
    its lock files against the next run. A missing program raises FileNotFoundError, as subprocess does."""
    if not sys.platform.startswith("linux"):
        return argv, {}
    setpriv = _setpriv()
    if setpriv is not None:
        program = _which(argv[0])
        if program is None:
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), argv[0])
        return [setpriv, "--pdeathsig", "KILL", "--", program, *argv[1:]], {}
    setup = _death_signal_setup()
    return argv, ({"preexec_fn": setup} if setup is not None else {})


def _which(program: str) -> str | None:
    """The file $PATH runs for `program` (shutil.which's answer, without loading shutil and the
    compression modules it brings)."""
    if os.sep in program:
        return program if os.access(program, os.X_OK) and not os.path.isdir(program) else None
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        path = os.path.join(folder or os.curdir, program)
        if os.access(path, os.X_OK) and not os.path.isdir(path):
            return path
    return None


#: what a setpriv answered when asked whether it sets the death signal, kept for the next command
SETPRIV_ANSWER = "setpriv-pdeathsig"


@functools.cache
def _setpriv() -> str | None:
    """util-linux's setpriv where it sets the death signal (2.33 and later). It sets the signal and
    execs the program, so subprocess keeps its vfork path: a `preexec_fn` makes it fork, and run Python
    in the child, which costs more the more memory pbem holds. Asked once for each setpriv (its path,
    size and time): the answer is kept in the user's cache folder, so a command does not start a
    child process of its own to ask again."""
    found = _which("setpriv")
    if found is None:
        return None
    try:
        st = os.stat(found)
    except OSError:
        return None
    asked = f"{found} {st.st_size} {st.st_mtime_ns} {st.st_ino}"
    from pbem.usercache import user_cache

    kept = os.path.join(user_cache(), SETPRIV_ANSWER)
    try:
        with open(kept, encoding="utf-8") as f:
            said, _, answer = f.read().rpartition("\n")
        if said == asked and answer in ("yes", "no"):
            return found if answer == "yes" else None
    except (OSError, UnicodeDecodeError):
        pass
    import subprocess

    try:  # an older setpriv refuses the option before it reads --help
        ok = subprocess.run([found, "--pdeathsig", "KILL", "--help"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
    except OSError:
        return None
    with contextlib.suppress(OSError):  # no cache folder: the next command asks again
        os.makedirs(os.path.dirname(kept), mode=0o700, exist_ok=True)
        temporary = f"{kept}.{os.getpid()}.tmp"
        with open(temporary, "w", encoding="utf-8") as f:
            f.write(f"{asked}\n{'yes' if ok else 'no'}")
        os.replace(temporary, kept)
    return found if ok else None


def _death_signal_setup() -> Callable[[], None] | None:
    """A `preexec_fn` that sets the death signal with prctl(2), where there is no setpriv that does."""
    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def setup() -> None:
        prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # pbem died before the signal was set: nobody would send it
            os.kill(os.getpid(), signal.SIGKILL)
    return setup


def git_at_work(root: Path, owners: frozenset[int] | None = None) -> bool | None:
    """Whether a live git process works in `root` (its working directory there or below, its .git
    too): what holds a git lock file there, when one does. None where /proc cannot tell: no /proc, or
    a git whose working directory this user may not see, run by one of `owners` (the users the lock
    files belong to: a git makes its lock as the user it runs as; None: any user)."""
    try:
        pids = [name for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return None
    if not pids:
        return None
    top = str(root)
    unsure = False
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat_line = f.read()
        except OSError:  # it ended meanwhile
            continue
        name, _, rest = stat_line.partition(b" (")[2].rpartition(b") ")
        if not (name == b"git" or name.startswith(b"git-")) or rest[:1] in (b"Z", b"X"):
            continue  # a killed git not yet reaped holds nothing
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except PermissionError:  # another user's git
            with contextlib.suppress(OSError):
                unsure = unsure or owners is None or os.stat(f"/proc/{pid}").st_uid in owners
            continue
        except OSError:
            continue
        if cwd == top or cwd.startswith(top + "/"):
            return True
    return None if unsure else False
