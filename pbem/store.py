"""A games dir on disk: one directory per game, its state file, its queue of orders, its reports.

    games/
      .pbem.lock                 held by every command that writes
      m1/
        state.yaml               the game: format version, players, seed, engine state, events, order log
        queue/<n>-<player>.yaml  orders accepted by `pbem submit`, not yet applied (no tokens)
        reports/<player>/...     every report and error report a player was sent
        rejected/...             the orders `pbem advance` refused, for the GM's record

The state file is one file on purpose: the engine state, the events and the order log are written in
one atomic rename, so a crash can never leave a log that disagrees with the state. It is validated
against schemas/ when read and before every write.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

import yaml

from pbem.errors import StoreError
from pbem.turnfile import validator

FORMAT = 1
# mail in and out stays on the GM's machine (welcome mails carry tokens); what pbem has read is history
GITIGNORE = ".pbem.lock\n*/queue/\n.*.tmp\nmail/*\n!mail/seen.txt\n"
STATE_FILE = "state.yaml"
GAME_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
PLAYER_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,23}$")
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def dump_yaml(value: Any) -> str:
    """Canonical YAML: the same data always gives the same bytes."""
    return yaml.dump(value, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=False,
                     width=100)


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write a file so that readers see the old or the new content, never a mix: temp, fsync, rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    dirfd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dirfd)
    finally:
        os.close(dirfd)


def check_state(state: dict[str, Any], where: str) -> None:
    """Validate a state file's content against schemas/state and its game's engine schema."""
    if not isinstance(state, dict) or state.get("format") != FORMAT:
        found = state.get("format") if isinstance(state, dict) else None
        raise StoreError(f"{where}: state file format {found!r} is not {FORMAT}")
    problems = _errors(state, "state")
    if not problems:
        problems = _errors(state["engine"], f"{state['ruleset']}.state", prefix="engine")
    if problems:
        raise StoreError(f"{where}: the state file is not valid: " + "; ".join(problems[:5]))


def _errors(value: Any, name: str, prefix: str = "") -> list[str]:
    try:
        check = validator(name)
    except FileNotFoundError:
        return [f"there is no schema {name!r}"]
    out = []
    for err in check.iter_errors(value):
        path = ".".join(str(p) for p in ([prefix] if prefix else []) + list(err.absolute_path))
        out.append(f"{path or 'top level'}: {err.message}")
    return out


class GamesDir:
    """The folder holding every game; a git repository of its own."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root).resolve()

    def game_dir(self, game: str) -> Path:
        if not GAME_ID.match(game):
            raise StoreError(f"{game!r} is not a game id (lower-case letters, digits, '-' and '_', "
                             f"at most 40, starting with a letter or digit)")
        return self.root / game

    def exists(self, game: str) -> bool:
        return (self.game_dir(game) / STATE_FILE).is_file()

    def games(self) -> list[str]:
        if not self.root.is_dir():
            return []
        return sorted(d.name for d in self.root.iterdir()
                      if GAME_ID.match(d.name) and (d / STATE_FILE).is_file())

    # -- state ------------------------------------------------------------------------------------

    def load(self, game: str) -> dict[str, Any]:
        path = self.game_dir(game) / STATE_FILE
        if not path.is_file():
            raise StoreError(f"there is no game {game!r} in {self.root}")
        try:
            state = yaml.load(path.read_text("utf-8"), Loader=_SafeLoader)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f" at line {mark.line + 1}" if mark else ""
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            raise StoreError(f"{game}: the state file is corrupt{where}: {problem}") from None
        except UnicodeDecodeError:
            raise StoreError(f"{game}: the state file is corrupt: not UTF-8 text") from None
        check_state(state, game)
        return state

    def save(self, game: str, state: dict[str, Any]) -> None:
        check_state(state, game)
        write_atomic(self.game_dir(game) / STATE_FILE, dump_yaml(state))

    # -- the queue of submitted orders --------------------------------------------------------------

    def queue_dir(self, game: str) -> Path:
        return self.game_dir(game) / "queue"

    def enqueue(self, game: str, entry: dict[str, Any]) -> tuple[Path, list[Path]]:
        """Queue orders; a newer file from the same player for the same turn replaces the older one."""
        qdir = self.queue_dir(game)
        replaced = [p for p, e in self.queued(game) if e["player"] == entry["player"] and e["turn"] == entry["turn"]]
        path = qdir / f"{time.time_ns():020d}-{entry['player']}.yaml"
        write_atomic(path, dump_yaml(entry))
        for old in replaced:
            old.unlink()
        return path, replaced

    def queued(self, game: str) -> list[tuple[Path, dict[str, Any]]]:
        qdir = self.queue_dir(game)
        if not qdir.is_dir():
            return []
        out = []
        for path in sorted(qdir.glob("*.yaml")):
            out.append((path, yaml.load(path.read_text("utf-8"), Loader=_SafeLoader)))
        return out

    # -- reports ----------------------------------------------------------------------------------

    def write_report(self, game: str, player: str, name: str, text: str) -> Path:
        path = self.game_dir(game) / "reports" / player / name
        write_atomic(path, text)
        return path

    # -- locking ----------------------------------------------------------------------------------

    @contextlib.contextmanager
    def lock(self, timeout: float = 60.0) -> Iterator[None]:
        """One writer at a time (a cron run and a GM at the keyboard)."""
        self.root.mkdir(parents=True, exist_ok=True)
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
            try:
                yield
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    # -- git --------------------------------------------------------------------------------------

    def _git(self, *args: str) -> subprocess.CompletedProcess[str]:
        env = dict(os.environ)
        for key, default in (("GIT_AUTHOR_NAME", "pbem"), ("GIT_AUTHOR_EMAIL", "pbem@localhost"),
                             ("GIT_COMMITTER_NAME", "pbem"), ("GIT_COMMITTER_EMAIL", "pbem@localhost")):
            env.setdefault(key, default)
        return subprocess.run(["git", *args], cwd=self.root, capture_output=True, text=True, env=env)

    def ensure_repo(self) -> None:
        """Make the games dir the top of a git repository of its own (never commit into an enclosing
        checkout, such as the project's own when a developer runs the demo)."""
        self.root.mkdir(parents=True, exist_ok=True)
        top = self._git("rev-parse", "--show-toplevel")
        if top.returncode == 0 and Path(top.stdout.strip()).resolve() == self.root:
            return
        r = self._git("init", "-q", "-b", "main")
        if r.returncode != 0:
            raise StoreError(f"cannot make {self.root} a git repository: {r.stderr.strip()}")
        write_atomic(self.root / ".gitignore", GITIGNORE)
        self._git("add", ".gitignore")
        self._git("commit", "-q", "-m", "pbem games repository")

    def uncommitted(self) -> set[str]:
        """The top-level folders (games) with changes git has not committed."""
        r = self._git("status", "--porcelain", "--untracked-files=all")
        return {line[3:].strip('"').split("/", 1)[0] for line in r.stdout.splitlines() if len(line) > 3}

    def committed(self, game: str) -> dict[str, Any] | None:
        """A game's state as last committed to git (None when it never was, or cannot be read)."""
        r = self._git("show", f"HEAD:{game}/{STATE_FILE}")
        if r.returncode != 0:
            return None
        try:
            return yaml.load(r.stdout, Loader=_SafeLoader)
        except yaml.YAMLError:
            return None

    def commit(self, game: str, message: str) -> bool:
        """Commit what changed in one game's directory; False when nothing did."""
        return self.commit_paths([game], message)

    def commit_paths(self, paths: list[str], message: str) -> bool:
        """Commit what changed under `paths` (relative to the games dir); False when nothing did."""
        self._git("add", "-A", "--", *paths)
        if self._git("diff", "--cached", "--quiet", "--", *paths).returncode == 0:
            return False
        r = self._git("commit", "-q", "-m", message, "--", *paths)
        if r.returncode != 0:
            raise StoreError(f"{', '.join(paths)}: git commit failed: {r.stderr.strip()}")
        return True
