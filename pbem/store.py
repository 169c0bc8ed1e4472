"""A games dir on disk: one directory per game, its state file, its queue of orders, its reports.

    games/
      .pbem.lock                 held by every command that writes (an flock: the kernel drops it when
                                 the process dies, so it is never stale)
      .gitignore, pbem.yaml      pbem's own; with a game folder, what marks a games dir
      mail/                      the mail pbem read and sends (see pbem.mail.run)
      m1/
        state.yaml               the game: format version, players, seed, engine state, what it reported
        events.yaml, log.yaml    its history: every event and every accepted order, only ever appended
        queue/<n>-<player>.yaml  orders accepted by `pbem submit`, not yet applied (no tokens)
        reports/<player>/...     every report and error report a player was sent
        rejected/...             the orders `pbem advance` refused, for the GM's record

The state file decides alone what the game is, in one atomic rename: it records how much of each
history file exists (see pbem.history), so a crash can never leave a log that disagrees with the state.
The history is appended before the state file is replaced; a run reads only the part it needs. The
state file is validated against schemas/ before every write (the history lines when written) and ends
in a checksum line: when read, a file whose checksum is right is one pbem wrote and validated, and is
not walked again; any other (edited by hand) is validated in full. Format 1 (the history inside the
state file) is read, and the next save writes format 2.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import functools
import hashlib
import itertools
import marshal
import os
import re
import signal
import stat
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

import yaml

if TYPE_CHECKING:  # git is started only by the commands that commit: `show` and `submit` run none
    import subprocess

from pbem.config import CONFIG_FILE, Config
from pbem.errors import StoreError
from pbem.history import HISTORIES, History, attach, settle, write_histories
from pbem.turnfile import fits, state_validator, yaml_problem

FORMAT = 2
OLD_FORMAT = 1  # the events and the order log inside the state file
# mail in and out stays on the GM's machine (welcome mails carry tokens); what pbem has read is history
GITIGNORE = ".pbem.lock\n*/queue/\n.*.tmp\nmail/*\n!mail/seen.txt\n"
STATE_FILE = "state.yaml"
GAME_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}\Z")
PLAYER_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,23}\Z")
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
# the names pbem uses at the top of a games dir: no game may take one (the configured mail folders too)
RESERVED = frozenset({"mail", "lobby", ".git", ".gitignore", ".pbem.lock", CONFIG_FILE})
GAME_PARTS = (STATE_FILE, "events.yaml", "log.yaml", "queue", "reports", "rejected")  # what a game folder holds
# lock files a killed git leaves behind (besides refs/**/*.lock), relative to .git
GIT_LOCKS = ("index.lock", "HEAD.lock", "ORIG_HEAD.lock", "config.lock", "packed-refs.lock")
GIT_WAIT = 5.0  # seconds a command waits in all for a git at work to let go of its lock files
_LOCK_TAKEN = re.compile(r"\.lock': File exists")  # what git says when another git holds a lock it needs
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


@functools.cache
def _syncfs() -> Any:
    """libc's syncfs(2): one file system, not all of them as os.sync (None where there is none)."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):
        return None


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
        import shutil

        program = shutil.which(argv[0])
        if program is None:
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), argv[0])
        return [setpriv, "--pdeathsig", "KILL", "--", program, *argv[1:]], {}
    setup = _death_signal_setup()
    return argv, ({"preexec_fn": setup} if setup is not None else {})


@functools.cache
def _setpriv() -> str | None:
    """util-linux's setpriv where it sets the death signal (2.33 and later), asked once. It sets the
    signal and execs the program, so subprocess keeps its vfork path: a `preexec_fn` makes it fork,
    and run Python in the child, which costs more the more memory pbem holds."""
    import shutil
    import subprocess

    found = shutil.which("setpriv")
    if found is None:
        return None
    try:  # an older setpriv refuses the option before it reads --help
        ok = subprocess.run([found, "--pdeathsig", "KILL", "--help"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
    except OSError:
        return None
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


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "").rstrip(".")


_Dumper.add_representer(History, lambda dumper, history: dumper.represent_list(list(history)))


def dump_yaml(value: Any) -> str:
    """Canonical YAML: the same data always gives the same bytes."""
    return yaml.dump(value, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=False,
                     width=100)


def write_atomic(path: Path, text: str | bytes, durable: bool = True) -> None:
    """Write a file so that readers see the old or the new content, never a mix: temp, fsync, rename.
    Without `durable`, no fsync: the caller syncs the whole file system later (see GamesDir.sync)."""
    try:
        fd, tmp = _temp_beside(path)
    except FileNotFoundError:  # the folder is made when it is first written to, not asked after each time
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = _temp_beside(path)
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    if not durable:
        return
    dirfd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dirfd)
    finally:
        os.close(dirfd)


_TEMP_NUMBER = itertools.count()


def _temp_beside(path: Path) -> tuple[int, str]:
    """A new file `.<name>.<pid>-<n>.tmp` in `path`'s folder (ignored by git), open for writing, as
    tempfile.mkstemp makes (mode 0600, never an existing file), without importing tempfile."""
    while True:
        tmp = str(path.parent / f".{path.name}.{os.getpid()}-{next(_TEMP_NUMBER)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600), tmp
        except FileExistsError:  # left by a killed process that had the same pid
            continue


#: bytes of SHA-256 that end a file of the parsed-state cache
_SEAL = 16


def _write_over(path: Path, data: bytes) -> None:
    """Replace a file's bytes where it is (its folder made when missing); not atomic, not synced."""
    try:
        f = open(path, "wb")
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        f = open(path, "wb")
    with f:
        f.write(data)


def read_yaml_file(path: Path, what: str) -> Any:
    """A YAML file pbem wrote itself; one that cannot be read is a StoreError naming `what` and where."""
    return parse_yaml(read_text_file(path, what), what)


def read_text_file(path: Path, what: str) -> str:
    try:
        return path.read_text("utf-8")
    except UnicodeDecodeError:
        raise StoreError(f"{what} is corrupt: not UTF-8 text") from None


def parse_yaml(text: str, what: str) -> Any:
    try:
        return yaml.load(text, Loader=_SafeLoader)
    except yaml.YAMLError as exc:
        line, problem = yaml_problem(text, exc)
        raise StoreError(f"{what} is corrupt{f' at line {line}' if line else ''}: {problem}") from None


def check_state(state: dict[str, Any], where: str) -> None:
    """Validate a game state in memory: the state file it would be and every line of its history."""
    check_state_file(state_body(state, {key: [len(state[key]), 0] for key in HISTORIES}), where)
    for key in HISTORIES:
        check_history(key, list(state[key]), where)


def check_state_file(state: dict[str, Any], where: str) -> None:
    """Validate a state file's content (format 2, `history` recording the history files) against
    schemas/state and its game's engine schema."""
    if not isinstance(state, dict) or state.get("format") != FORMAT:
        found = state.get("format") if isinstance(state, dict) else None
        raise StoreError(f"{where}: state file format {found!r} is not one this pbem reads ({OLD_FORMAT} or {FORMAT})")
    problems = _errors(state, "state")
    if not problems:
        problems = _errors(state["engine"], f"{state['ruleset']}.state", prefix="engine")
    if problems:
        raise StoreError(f"{where}: the state file is not valid: " + "; ".join(problems[:5]))


SCHEMA_OF = {"events": "event", "log": "log-entry"}  # the schema of each history file's lines


def check_history(key: str, items: list[Any], where: str, first: int = 0) -> None:
    """Validate history lines about to be written (items `first`... of `key`)."""
    name = SCHEMA_OF[key]
    for i, item in enumerate(items, start=first):
        if fits(item, name):
            continue
        for err in state_validator(name).iter_errors(item):
            path = ".".join(str(p) for p in [key, i] + list(err.absolute_path))
            raise StoreError(f"{where}: the state file is not valid: {path}: {err.message}")


def from_old_format(state: dict[str, Any], where: str) -> dict[str, Any]:
    """A format-1 state (the history inside it) checked and turned into a format-2 state in memory;
    the next save writes the history files."""
    history = {}
    for key in HISTORIES:
        if not isinstance(state.get(key), list):
            raise StoreError(f"{where}: the state file is not valid: {key}: missing, or not a list")
        history[key] = state.pop(key)
        check_history(key, history[key], where)
    rest = {k: v for k, v in state.items() if k != "format"}
    check_state_file({"format": FORMAT, **rest, "history": {key: [0, 0] for key in HISTORIES}}, where)
    return {"format": FORMAT, **rest, **history}


def state_body(state: dict[str, Any], recorded: dict[str, list[int]]) -> dict[str, Any]:
    """What the state file holds for `state`: everything but the history, which it records."""
    body: dict[str, Any] = {}
    for key, value in state.items():
        if key == "events":
            body["history"] = recorded
        elif key not in HISTORIES:
            body[key] = value
    return body


def state_file_text(body: dict[str, Any]) -> str:
    """The state file's text: the body, and last a checksum of it (see `checksum`)."""
    text = dump_yaml(body)
    return f"{text}{CHECKSUM}{checksum(text)}\n"


CHECKSUM = "checksum: "


def checksum(text: str) -> str:
    """What the last line of a state file says of the lines before it. A state file whose checksum is
    right is one pbem validated and wrote itself, unchanged since: its load skips the schema walk. One
    edited by hand (or by another tool) is validated in full."""
    return hashlib.sha256(f"pbem state format {FORMAT}\n{text}".encode("utf-8")).hexdigest()


def written_by_pbem(text: str) -> bool:
    body, _, last = text.rstrip("\n").rpartition("\n")
    return last.startswith(CHECKSUM) and last[len(CHECKSUM):] == checksum(body + "\n")


def _errors(value: Any, name: str, prefix: str = "") -> list[str]:
    try:
        if fits(value, name):  # the usual case, answered without jsonschema
            return []
    except FileNotFoundError:
        return [f"there is no schema {name!r}"]
    out = []
    for err in state_validator(name).iter_errors(value):
        path = ".".join(str(p) for p in ([prefix] if prefix else []) + list(err.absolute_path))
        out.append(f"{path or 'top level'}: {err.message}")
    return out


def queue_slot(entry: dict[str, Any]) -> tuple[Any, ...]:
    """What a queued entry answers: a newer entry of the same slot replaces it. A player's choice of
    language (a mail command) is a slot of its own, so it never replaces his orders, nor they it."""
    return entry["player"], entry.get("turn"), "language" in entry


class GamesDir:
    """The folder holding every game; a git repository of its own.

    `create`: the command may make the folder a games dir (`pbem new`, `pbem init`); every other
    command refuses a folder that is not one (see `check`)."""

    def __init__(self, root: Path | str, create: bool = False) -> None:
        self.root = Path(root).resolve()
        self.create = create
        self.warnings: list[str] = []  # what the command should tell the GM (a stale git lock removed)
        self.written: set[str] = set()  # the files a game's run wrote (relative paths), for its commit
        # `pbem advance`: the games' files are written without an fsync each, then one `sync` makes
        # them durable at once, before their queues are cleared (the inbox and the queues stay until then)
        self.sync_later = False
        self._reserved: frozenset[str] | None = None
        self.holds_lock = False  # inside `lock`: the git lock files are this process's to judge
        self._git_wait_left = GIT_WAIT

    # -- what a games dir is ----------------------------------------------------------------------

    def reserved(self) -> frozenset[str]:
        """The top-level names pbem uses: RESERVED and the first folder of each mail path in pbem.yaml
        that lies inside the games dir."""
        if self._reserved is None:
            names = set(RESERVED)
            for section in self._mail_sections():
                if section.get("type") in ("maildir", "mbox", "files") and isinstance(section.get("path"), str) \
                        and section["path"]:
                    path = (self.root / section["path"]).resolve()
                    if path != self.root and path.is_relative_to(self.root):
                        names.add(path.relative_to(self.root).parts[0])
            self._reserved = frozenset(names)
        return self._reserved

    def _mail_sections(self) -> list[dict[str, Any]]:
        """The inbox and outbox sections of pbem.yaml, read but not validated (a command that only
        needs the folder names need not import the validator); a broken pbem.yaml is reported by the
        commands that use the mail."""
        try:
            value = yaml.load((self.root / CONFIG_FILE).read_bytes(), Loader=_SafeLoader)
        except (OSError, yaml.YAMLError, UnicodeDecodeError):
            value = None
        if not isinstance(value, dict):
            return [Config(root=self.root).inbox, Config(root=self.root).outbox]
        default = Config(root=self.root)
        sections = [value.get("inbox", default.inbox), value.get("outbox", default.outbox)]
        return [section for section in sections if isinstance(section, dict)]

    def _git_folder_here(self) -> bool:
        """Whether the games dir is plainly the top of its own repository, known without asking git:
        its own .git folder is there, and no GIT_DIR or GIT_WORK_TREE sends git elsewhere."""
        return not {"GIT_DIR", "GIT_WORK_TREE"} & os.environ.keys() and (self.root / ".git" / "HEAD").is_file()

    def _has_pbem_gitignore(self) -> bool:
        try:
            lines = (self.root / ".gitignore").read_text("utf-8", errors="replace").splitlines()
        except OSError:
            return False
        return ".pbem.lock" in lines and "*/queue/" in lines

    def _has_commits(self) -> bool:
        return self._git("rev-parse", "--verify", "-q", "HEAD", check=False).returncode == 0

    def is_games_dir(self) -> bool:
        """A folder holding pbem.yaml, pbem's .gitignore or a game."""
        if not self.root.is_dir():
            return False
        if (self.root / CONFIG_FILE).is_file() or self._has_pbem_gitignore():
            return True
        return any((d / STATE_FILE).is_file() for d in self.root.iterdir() if GAME_ID.match(d.name))

    def check(self) -> None:
        """Refuse a folder that is not a games dir; every command but `new` and `init` calls this first."""
        if self.is_games_dir():
            return
        how = "`pbem new` or `pbem init` creates one"
        if not self.root.exists():
            why = "no such folder"
        elif not self.root.is_dir():
            why, how = "it is a file", "choose the games dir with --games-dir or $PBEM_GAMES_DIR"
        elif (self.root / ".git").exists():
            why, how = "it is a git repository of something else", \
                "choose the games dir with --games-dir or $PBEM_GAMES_DIR"
        else:
            why, how = "it holds no pbem.yaml, no game and no pbem .gitignore", "`pbem new` or `pbem init` makes it one"
        raise StoreError(f"{self.root} is not a pbem games dir ({why}); {how}")

    def check_can_create(self) -> None:
        """Refuse to make a games dir of a file or of another project's git repository."""
        if self.root.exists() and not self.root.is_dir():
            raise StoreError(f"{self.root} is not a pbem games dir (it is a file); choose another folder for the games")
        if self.root.is_dir() and (self.root / ".git").exists() and not self.is_games_dir() and self._has_commits():
            raise StoreError(f"{self.root} is a git repository of something else (it holds no pbem.yaml, no game "
                             f"and no pbem .gitignore); choose another folder for the games")

    # -- games ------------------------------------------------------------------------------------

    def game_dir(self, game: str) -> Path:
        if not GAME_ID.match(game):
            raise StoreError(f"{game!r} is not a game id (lower-case letters, digits, '-' and '_', "
                             f"at most 40, starting with a letter or digit)")
        if game in self.reserved():
            raise StoreError(f"{game!r} is a name pbem uses for its own folder in the games dir; "
                             f"choose another game id")
        return self.root / game

    def exists(self, game: str) -> bool:
        return (self.game_dir(game) / STATE_FILE).is_file()

    def is_game_folder(self, name: str) -> bool:
        """A folder of the games dir that holds a game, or what is left of one (its state file may be
        missing)."""
        if not GAME_ID.match(name) or name in self.reserved():
            return False
        folder = self.root / name
        return folder.is_dir() and any((folder / part).exists() for part in GAME_PARTS)

    def games(self, status: list[str] | None = None) -> list[str]:
        """Every game, also one whose state file or whole folder is missing (git has it): those need
        the GM, and `load` says why. With `status` (the lines of `status()`, just read), the missing
        ones are found in it: a state file git has in HEAD and the folder has not."""
        if not self.root.is_dir():
            return []
        found = {d.name for d in self.root.iterdir() if self.is_game_folder(d.name)}
        # a game older than the pbem.yaml that gave its name to a mail folder: listed, and `load` says why
        found |= {name for name in self.reserved() - RESERVED
                  if GAME_ID.match(name) and (self.root / name / STATE_FILE).is_file()}
        if status is not None:
            # " D", "MD", "D ": in HEAD (the index did not add it), not on disk
            gone = [line[3:] for line in status if "D" in line[:2] and line[0] != "A"]
            missing = [path.split("/", 1)[0] for path in gone if path.endswith(f"/{STATE_FILE}") and path.count("/") == 1]
        elif (self.root / ".git").exists():
            r = self._git("ls-tree", "-d", "--name-only", "-z", "HEAD", check=False)
            missing = [name for name in (r.stdout.split("\0") if r.returncode == 0 else [])
                       if name and name not in found and self._in_head(f"{name}/{STATE_FILE}")]
        else:
            missing = []
        reserved = self.reserved()
        found.update(name for name in missing if GAME_ID.match(name) and name not in reserved)
        return sorted(found)

    def _in_head(self, path: str) -> bool:
        if not (self.root / ".git").exists():
            return False
        return self._git("cat-file", "-e", f"HEAD:{path}", check=False).returncode == 0

    # -- state ------------------------------------------------------------------------------------

    def load(self, game: str) -> dict[str, Any]:
        path = self.game_dir(game) / STATE_FILE
        if not path.is_file():
            committed = self._in_head(f"{game}/{STATE_FILE}")
            if self.is_game_folder(game):
                restore = f"; `git -C {self.root} checkout -- {game}/{STATE_FILE}` restores the last committed one"
                raise StoreError(f"{game}: the state file {path} is missing{restore if committed else ''}")
            if committed:
                raise StoreError(f"{game}: the game folder {path.parent} is missing; "
                                 f"`git -C {self.root} checkout -- {game}` restores the last committed one")
            raise StoreError(f"there is no game {game!r} in {self.root}")
        text = read_text_file(path, f"{game}: the state file")
        state = self._parsed(game, text)
        if state is None:
            state = parse_yaml(text, f"{game}: the state file")
            if isinstance(state, dict) and state.get("format") == OLD_FORMAT:
                return from_old_format(state, game)
            if isinstance(state, dict):
                state.pop("checksum", None)
            if not written_by_pbem(text):
                check_state_file(state, game)
            elif isinstance(state, dict):
                self._keep_parsed(game, state, text)  # a game that waits is loaded by every run
        attach(state, path.parent, state.pop("history"))
        return state

    # A state file as pbem parsed it when it wrote it, kept in .git (where git does not look) and
    # used only for the very text it was written with: building a state from YAML costs more than
    # the rest of loading it (an idle run over many games does little else).
    def _parsed_path(self, game: str) -> Path | None:
        git = self.root / ".git"
        return git / "pbem-parsed" / f"{game}.marshal" if git.is_dir() else None

    def _parsed(self, game: str, text: str) -> dict[str, Any] | None:
        """The state `text` holds, from the cache; None when the cache does not hold this very text."""
        where = self._parsed_path(game)
        stamp = text.rstrip("\n").rpartition("\n")[2]
        if where is None or not stamp.startswith(CHECKSUM):
            return None
        try:
            raw = where.read_bytes()
            blob, seal = raw[:-_SEAL], raw[-_SEAL:]
            if hashlib.sha256(blob).digest()[:_SEAL] != seal:  # cut short or overwritten by a run that died
                return None
            kept, state = marshal.loads(blob)
        except (OSError, ValueError, EOFError, TypeError):
            return None
        if kept != stamp[len(CHECKSUM):] or not isinstance(state, dict) or not written_by_pbem(text):
            return None
        return state

    def _keep_parsed(self, game: str, body: dict[str, Any], text: str) -> None:
        where = self._parsed_path(game)
        if where is None:
            return
        try:
            blob = marshal.dumps((text.rstrip("\n").rpartition("\n")[2][len(CHECKSUM):], body))
            # written over in place, not by a new file and a rename (two metadata writes a save): the
            # seal tells a whole file from one a run that died left half written
            _write_over(where, blob + hashlib.sha256(blob).digest()[:_SEAL])
        except (OSError, ValueError):
            with contextlib.suppress(OSError):
                where.unlink()  # never a cache of another text: the next load parses the file

    def save(self, game: str, state: dict[str, Any]) -> None:
        """Append the history a run added, then replace the state file (which says how much of the
        history exists). Everything is validated before anything is written."""
        folder = self.game_dir(game)
        placeholder = {key: [len(state[key]), 0] for key in HISTORIES}
        check_state_file(state_body(state, placeholder), game)
        durable = not self.sync_later
        recorded = write_histories(state, folder, lambda key, items: check_history(key, items, game),
                                   lambda path, data: write_atomic(path, data, durable), durable)
        crash_point("history")
        body = state_body(state, recorded)
        text = state_file_text(body)
        write_atomic(folder / STATE_FILE, text, durable)
        self._keep_parsed(game, body, text)
        settle(state, recorded)
        self.written.update(f"{game}/{name}" for name in (STATE_FILE, *(f"{key}.yaml" for key in HISTORIES)))

    def sync(self) -> None:
        """Make everything written so far durable, in one call for the file system of the games dir."""
        fd = os.open(self.root, os.O_RDONLY)
        try:
            syncfs = _syncfs()
            if syncfs is None or syncfs(fd) != 0:
                os.sync()
        finally:
            os.close(fd)

    def trim_history(self, game: str, state: dict[str, Any]) -> None:
        """Cut off what a run that died between appending and saving left at the end of the history
        files (it does not exist for the state file; git need not see it)."""
        for key in HISTORIES:
            value = state[key]
            if isinstance(value, History) and value.path.is_file() and value.path.stat().st_size > value.size:
                os.truncate(value.path, value.size)

    # -- the queue of submitted orders --------------------------------------------------------------

    def queue_dir(self, game: str) -> Path:
        return self.game_dir(game) / "queue"

    def enqueue(self, game: str, entry: dict[str, Any]) -> tuple[Path, list[Path]]:
        """Queue orders; a newer file from the same player for the same turn replaces the older one
        (should the process die before the older one is gone, `pbem advance` drops it)."""
        qdir = self.queue_dir(game)
        replaced = [p for p, e in self.queued(game) if queue_slot(e) == queue_slot(entry)]
        path = qdir / f"{time.time_ns():020d}-{entry['player']}.yaml"
        write_atomic(path, dump_yaml(entry))
        for old in replaced:
            old.unlink()
        return path, replaced

    def queued(self, game: str) -> list[tuple[Path, dict[str, Any]]]:
        """The queued entries, oldest first; a file that cannot be read stops the game for the GM."""
        qdir = self.queue_dir(game)
        if not qdir.is_dir():
            return []
        out = []
        for path in sorted(qdir.glob("*.yaml")):
            what = f"{game}: the queued file {game}/queue/{path.name}"
            entry = read_yaml_file(path, what)
            if not isinstance(entry, dict) or not fits(entry, "queue"):
                raise StoreError(f"{what} is corrupt: it is not a queue entry (player, turn, orders)")
            out.append((path, entry))
        return out

    # -- reports ----------------------------------------------------------------------------------

    def write_report(self, game: str, player: str, name: str, text: str) -> Path:
        path = self.game_dir(game) / "reports" / player / name
        write_atomic(path, text, durable=not self.sync_later)
        self.written.add(f"{game}/reports/{player}/{name}")
        return path

    # -- locking ----------------------------------------------------------------------------------

    @contextlib.contextmanager
    def lock(self, timeout: float = 60.0) -> Iterator[None]:
        """One writer at a time (a cron run and a GM at the keyboard). Only a GamesDir made with
        `create` makes the folder; the lock file is never left in a folder that is not a games dir.
        Under the lock, lock files a killed git left behind are removed, and a git at work is waited
        for a few seconds (see `remove_stale_git_locks`)."""
        if self.create:
            self.check_can_create()
            self.root.mkdir(parents=True, exist_ok=True)
        else:
            self.check()
        with open(self.root / ".pbem.lock", "w") as f:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise StoreError(f"another pbem command has held {self.root} for {timeout:.0f}s; "
                                         f"try again later") from None
                    time.sleep(0.1)
            _held_locks.append(f.fileno())
            self.holds_lock = True
            try:
                self.remove_stale_git_locks()
                yield
            finally:
                self.holds_lock = False
                _held_locks.remove(f.fileno())
                fcntl.flock(f, fcntl.LOCK_UN)

    def remove_stale_git_locks(self) -> list[str]:
        """Remove the lock files of a git that was killed (they make every later git call fail). Under
        pbem's own lock no other pbem's git runs, and every git pbem starts dies with it (see
        `dies_with_pbem`): on Linux, a lock file is stale, whatever its age, when no live git works in
        the games dir (`git_at_work`); where that cannot be told, when it is older than this process.
        A lock a live git holds is waited for, GIT_WAIT seconds in all for the command, then left
        (the git call that needs it fails, and says why). Each removal is added to `warnings`;
        returns them."""
        git_dir = self.root / ".git"
        if not git_dir.is_dir():
            return []
        locks: dict[Path, tuple[int, int, int]] = {}
        held: set[Path] = set()
        started = None
        begun = time.monotonic()
        while True:
            locks = self._git_lock_files()  # listed before asking after the gits: see below
            if not locks:
                break
            at_work = git_at_work(self.root, frozenset(uid for _, _, uid in locks.values()))
            if at_work is None:
                started = started or process_start()
                held = {path for path, (_, mtime, _) in locks.items() if mtime / 1e9 >= started}
            else:
                held = set(locks) if at_work else set()
            if not held or time.monotonic() - begun >= self._git_wait_left:
                break
            time.sleep(0.05)
        self._git_wait_left = max(0.0, self._git_wait_left - (time.monotonic() - begun))
        removed = []
        for path, made in locks.items():
            if path in held:
                continue
            try:
                # the very file seen before no git was found at work: a git started since cannot
                # have made it (git makes its lock with O_EXCL), one someone removed meanwhile stays
                now = path.stat()
                if (now.st_ino, now.st_mtime_ns, now.st_uid) != made:
                    continue
                path.unlink()
            except FileNotFoundError:
                continue
            removed.append(f"removed a stale .git/{path.relative_to(git_dir)} left by a killed git")
        self.warnings += removed
        return removed

    def _git_lock_files(self) -> dict[Path, tuple[int, int, int]]:
        """The lock files in .git a killed git may leave, each with its inode, mtime (ns) and owner."""
        git_dir = self.root / ".git"
        candidates = [git_dir / name for name in GIT_LOCKS]
        if (git_dir / "refs").is_dir():
            candidates += sorted((git_dir / "refs").rglob("*.lock"))
        found = {}
        for path in candidates:
            try:
                st = path.stat()
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                found[path] = (st.st_ino, st.st_mtime_ns, st.st_uid)
        return found

    def _try_git_again(self, stderr: str) -> bool:
        """After a git call failed on a lock file another git holds, under pbem's lock: wait for a
        git at work (within what is left of GIT_WAIT), remove a killed one's lock; whether no lock
        file is left, so that the call is worth trying once more."""
        if not self.holds_lock or not _LOCK_TAKEN.search(stderr):
            return False
        self.remove_stale_git_locks()
        return not self._git_lock_files()

    # -- git --------------------------------------------------------------------------------------

    def _git(self, *args: str, check: bool = True, what: str = "") -> subprocess.CompletedProcess[str]:
        """Run git in the games dir. With `check`, a failure raises StoreError naming the cause (git's
        own first line); `what` says what it was for."""
        try:
            import subprocess

            argv, child = dies_with_pbem(["git", *args])
            r = subprocess.run(argv, cwd=self.root, capture_output=True, text=True, env=_git_env(), **child)
            if r.returncode != 0 and self._try_git_again(r.stderr):
                r = subprocess.run(argv, cwd=self.root, capture_output=True, text=True, env=_git_env(), **child)
        except OSError as exc:
            raise StoreError(f"{what or self.root}: cannot run git ({exc.strerror}); pbem needs git") from None
        if check and r.returncode != 0:
            cause = _first_line(r.stderr) or f"exit status {r.returncode}"
            raise StoreError(f"{what or self.root}: git {args[0]} failed: {cause}")
        return r

    def ensure_repo(self) -> None:
        """Make the games dir the top of a git repository of its own (never commit into an enclosing
        checkout, such as the project's own when a developer runs the demo, nor into another project's
        repository)."""
        self.check_can_create()
        self.root.mkdir(parents=True, exist_ok=True)
        if self._git_folder_here():
            at_top = True
        else:
            top = self._git("rev-parse", "--show-toplevel", check=False)
            at_top = top.returncode == 0 and Path(top.stdout.strip()).resolve() == self.root
        if at_top:
            if self._has_pbem_gitignore():
                return
        else:
            self._git("init", "-q", "-b", "main", what=f"cannot make {self.root} a git repository")
        gitignore = self.root / ".gitignore"
        old = gitignore.read_text("utf-8") if gitignore.is_file() else ""
        write_atomic(gitignore, old + ("\n" if old and not old.endswith("\n") else "") + GITIGNORE)
        self.commit_paths([".gitignore"], "pbem games repository\n")

    def status(self) -> list[str]:
        """What git has not committed, as the lines of `git status --porcelain`."""
        # no renames: a file git takes for moved is told as gone from one game and new in the other
        return self._git("status", "--porcelain", "--untracked-files=all", "--no-renames",
                         what="the games dir").stdout.splitlines()

    def uncommitted(self, status: list[str] | None = None) -> set[str]:
        """The top-level folders (games) with changes git has not committed (from `status`, when given)."""
        return {line[3:].strip('"').split("/", 1)[0] for line in (self.status() if status is None else status)
                if len(line) > 3}

    def committed_text(self, game: str) -> str | None:
        """A game's state file as last committed to git (None when it never was)."""
        r = self._git("show", f"HEAD:{game}/{STATE_FILE}", check=False)
        return r.stdout if r.returncode == 0 else None

    def committed_state(self, game: str) -> tuple[str, int, int] | None:
        """A game's state file as last committed to git, with the turn and the number of events it
        records (None when it never was committed, or cannot be read)."""
        r = self._git("show", f"HEAD:{game}/{STATE_FILE}", check=False)
        if r.returncode != 0:
            return None
        try:
            last = yaml.load(r.stdout, Loader=_SafeLoader)
        except yaml.YAMLError:
            return None
        if not isinstance(last, dict) or not isinstance(last.get("engine"), dict):
            return None
        if isinstance(last.get("events"), list):  # format 1
            events = len(last["events"])
        else:
            count = last["history"].get("events") if isinstance(last.get("history"), dict) else None
            if not (isinstance(count, list) and count and isinstance(count[0], int)):
                return None
            events = count[0]
        turn = last["engine"].get("turn", 1)
        return r.stdout, turn if isinstance(turn, int) else 1, events

    def commit(self, game: str, message: str) -> bool:
        """Commit what changed in one game's directory; False when nothing did."""
        return self.commit_paths([game], message)

    def commit_paths(self, paths: list[str], message: str) -> bool:
        """Commit what changed under `paths` (relative to the games dir); False when nothing did. A git
        call that fails raises StoreError naming the cause (a lock file, a full disk...)."""
        what = ", ".join(paths)
        present = [p for p in paths if (self.root / p).exists()]
        if present:
            self._git("add", "-A", "--", *present, what=what)
        for gone in (p for p in paths if p not in present):  # a deletion git knows of is staged too
            self._git("rm", "-r", "-q", "--cached", "--ignore-unmatch", "--", gone, what=what)
        crash_point("git-commit")
        diff = self._git("diff", "--cached", "--quiet", "--", *paths, check=False)
        if diff.returncode == 0:
            return False
        if diff.returncode != 1:
            raise StoreError(f"{what}: git diff failed: {_first_line(diff.stderr) or f'exit status {diff.returncode}'}")
        self._git("commit", "-q", "-m", message, "--", *paths, what=what)
        return True


class CommitBatch:
    """The commits of one run, made without the index by one `git fast-import`: one process for the
    run instead of three git calls a game, and no index for parallel workers to fight over. Each
    commit holds the files a game's run wrote, on top of the previous one; `close` moves the branch
    (nothing is committed before: a run that dies leaves the files for the next run to commit) and
    brings the index up to date, so `git status` is clean. The commits are those `GamesDir.commit`
    would make, with the same messages, in the same order."""

    def __init__(self, gd: GamesDir) -> None:
        self.gd = gd
        self.proc: subprocess.Popen[bytes] | None = None
        self.branch = ""
        self.paths: list[str] = []
        self.count = 0
        self._errors: Any = None

    def _start(self) -> None:
        gd = self.gd
        self.branch = self._branch()
        # a git at work (the GM's?) holds the index, which the run brings up to date last: it is given
        # a few seconds, then the commits are left to the next run, as `git commit` would
        if gd.holds_lock:  # and a killed git's lock on the branch would stop fast-import at the end
            gd.remove_stale_git_locks()
        lock = gd.root / ".git" / "index.lock"
        if lock.exists():
            raise StoreError(f"git commit failed: Unable to create '{lock}': File exists "
                             f"(a git is at work in the games dir)")
        self._errors = _scratch_file()
        env = _git_env()
        # fast-import allocates and frees zlib's buffers for every object; glibc's default hands them
        # back to the kernel each time, which cost as much as the rest of its work (page faults)
        env.setdefault("GLIBC_TUNABLES", "glibc.malloc.mmap_threshold=8388608:glibc.malloc.trim_threshold=134217728")
        import subprocess

        argv, child = dies_with_pbem(["git", "fast-import", "--quiet", "--done"])
        self.proc = subprocess.Popen(argv, cwd=gd.root, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                     stderr=self._errors, **child)

    def _branch(self) -> str:
        """The branch HEAD is on (read from .git/HEAD: no git process for it), which must have a commit."""
        head = self.gd.root / ".git" / "HEAD"
        try:
            ref = head.read_text("utf-8").strip() if head.is_file() else ""
        except OSError:
            ref = ""
        if ref.startswith("ref: refs/heads/"):
            branch = ref[len("ref: "):]
            loose = self.gd.root / ".git" / branch  # else a packed ref, or none: git knows
            if loose.is_file() or self.gd._git("rev-parse", "--verify", "-q", branch, check=False).returncode == 0:
                return branch
        raise StoreError(f"{self.gd.root}: HEAD is not a branch with a commit; pbem commits on a branch")

    def commit(self, message: str, paths: list[str]) -> bool:
        """Commit `paths` (relative to the games dir, as they are on disk now) with `message`; False
        when there is nothing to commit."""
        present = [p for p in paths if (self.gd.root / p).is_file()]
        if not present:
            return False
        if self.proc is None:
            self._start()
        assert self.proc is not None and self.proc.stdin is not None
        ident = _ident()
        out = [f"commit {self.branch}\n".encode(), f"author {ident}\ncommitter {ident}\n".encode()]
        text = _clean_message(message).encode("utf-8")
        out.append(b"data %d\n%s\n" % (len(text), text))
        if self.count == 0:  # on the branch as it is now (fast-import's own spelling of that)
            out.append(f"from {self.branch}^0\n".encode())
        for path in present:
            data = (self.gd.root / path).read_bytes()
            out.append(b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode("utf-8"), len(data), data))
        crash_point("git-commit")
        try:
            self.proc.stdin.write(b"".join(out))
        except BrokenPipeError:
            raise StoreError(f"{self.gd.root}: git fast-import failed: {self._error_text()}") from None
        self.paths += present
        self.count += 1
        return True

    def release(self) -> None:
        """An unfinished fast-import is stopped before `done`: git then moves no branch."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def _error_text(self) -> str:
        if self.proc is not None:
            self.proc.wait()
        self._errors.seek(0)
        return _first_line(self._errors.read().decode("utf-8", "replace")) or "it stopped"

    def finish(self) -> None:
        """Tell git the commits are all there: it writes them out while the run does its last work
        (clearing the queues); `close` waits for it."""
        if self.proc is None or self.proc.stdin is None or self.proc.stdin.closed:
            return
        crash_point("git-commit")
        try:
            self.proc.stdin.write(b"done\n")
            self.proc.stdin.close()
        except BrokenPipeError:
            pass

    def close(self) -> None:
        """Finish the commits: the branch moves to the last one, and the index follows."""
        if self.proc is None:
            return
        self.finish()
        if self.proc.wait() != 0:
            raise StoreError(f"{self.gd.root}: git fast-import failed: {self._error_text()}")
        self._errors.close()
        self.proc = None
        # the index learns the files' ids and stat data; fast-import wrote the objects already
        import subprocess

        argv, child = dies_with_pbem(["git", "update-index", "--add", "--info-only", "-z", "--stdin"])
        paths = "".join(f"{p}\0" for p in self.paths).encode("utf-8")
        r = subprocess.run(argv, cwd=self.gd.root, input=paths, capture_output=True, env=_git_env(), **child)
        if r.returncode != 0 and self.gd._try_git_again(r.stderr.decode("utf-8", "replace")):
            r = subprocess.run(argv, cwd=self.gd.root, input=paths, capture_output=True, env=_git_env(), **child)
        if r.returncode != 0:  # the commits are made; only git's cache of the files is behind
            self.gd.warnings.append(f"git update-index after the commits failed: "
                                    f"{_first_line(r.stderr.decode('utf-8', 'replace'))}")


def _scratch_file() -> Any:
    """An unnamed file to hold a child's error output (a pipe could fill up and stop it)."""
    if hasattr(os, "memfd_create"):
        return os.fdopen(os.memfd_create("pbem-git-errors", getattr(os, "MFD_CLOEXEC", 0)), "w+b")
    import tempfile

    return tempfile.TemporaryFile()


def _git_env() -> dict[str, str]:
    env = dict(os.environ)
    for key, default in (("GIT_AUTHOR_NAME", "pbem"), ("GIT_AUTHOR_EMAIL", "pbem@localhost"),
                         ("GIT_COMMITTER_NAME", "pbem"), ("GIT_COMMITTER_EMAIL", "pbem@localhost")):
        env.setdefault(key, default)
    return env


def _ident() -> str:
    """Who commits, as `git commit` with pbem's environment would say it."""
    env = _git_env()
    return f"{env['GIT_COMMITTER_NAME']} <{env['GIT_COMMITTER_EMAIL']}> {int(time.time())} +0000"


def _clean_message(message: str) -> str:
    """A commit message as `git commit -m` stores it: no trailing blanks, no runs of empty lines, one
    final newline."""
    lines = [line.rstrip() for line in message.splitlines()]
    kept = [line for i, line in enumerate(lines) if line or (i and lines[i - 1])]
    return "\n".join(kept).strip("\n") + "\n"
