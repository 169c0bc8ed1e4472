"""The games dir: one folder a game, its state file, its queue of orders, its reports (see pbem.store)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import time
from pathlib import Path
from typing import Any, Iterator

import yaml

from pbem.config import CONFIG_FILE, Config
from pbem.errors import StoreError
from pbem.history import HISTORIES, History, attach, settle, write_histories
from pbem.store import parsed, seats
from pbem.store.files import _SafeLoader, _syncfs, dump_yaml, parse_yaml, read_text_file, read_yaml_file, write_atomic
from pbem.store.gitrepo import GitRepo
from pbem.store.processes import _held_locks, crash_point
from pbem.store.seen import digest
from pbem.store.public import (PRIVATE_IGNORED, PUBLIC_FILE, change_over, game_files, is_private, public_text,
                               read_public, secure_mail, stamp_of)
from pbem.store.statefile import (OLD_FORMAT, STATE_FILE, check_history, check_state_file, from_old_format,
                                  state_body, state_file_text, written_by_pbem)
from pbem.names import NAME
from pbem.patterns import Pattern

# mail in and out stays on the GM's machine (welcome mails carry tokens), and so does what a running
# game keeps secret (see pbem.store.public)
GITIGNORE = ".pbem.lock\n*/queue/\n.*.tmp\nmail/*\n" + PRIVATE_IGNORED
GAME_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}\Z")
PLAYER_NAME = NAME  # a seat's name: pbem.names holds the rule
# the names pbem uses at the top of a games dir: no game may take one (the configured mail folders too)
RESERVED = frozenset({"mail", "lobby", ".git", ".gitignore", ".pbem.lock", CONFIG_FILE})
GAME_PARTS = (STATE_FILE, PUBLIC_FILE, "events.yaml", "log.yaml", "queue", "reports", "rejected")  # a game folder's


def queue_slot(entry: dict[str, Any]) -> tuple[Any, ...]:
    """What a queued entry answers: a newer entry of the same slot replaces it. A player's choice of
    language (a mail command) is a slot of its own, so it never replaces his orders, nor they it; so is
    his absence (`away until ...`, `back`: the newer replaces the older)."""
    kind = "language" if "language" in entry else "absence" if "away" in entry or "back" in entry else None
    return entry["player"], entry.get("turn"), kind


class GamesDir(GitRepo):
    """The folder holding every game; a git repository of its own.

    `create`: the command may make the folder a games dir (`pbem new`, `pbem init`); every other
    command refuses a folder that is not one (see `check`)."""

    def __init__(self, root: Path | str, create: bool = False) -> None:
        super().__init__(root)
        self.create = create
        self.written: set[str] = set()  # the files a game's run wrote (relative paths), for its commit
        # `pbem advance`: the games' files are written without an fsync each, then one `sync` makes
        # them durable at once, before their queues are cleared (the inbox and the queues stay until then)
        self.sync_later = False
        self._reserved: frozenset[str] | None = None
        self.stamps: dict[str, str] = {}  # each game's state file as loaded or saved (see `public_behind`)
        self.syncs = 0  # calls of `sync`: what was written before the last one is durable

    # -- what a games dir is ----------------------------------------------------------------

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
        return has_pbem_gitignore(self.root)

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
        self.commit_config()  # a pbem.yaml the GM wrote before there was a repository

    def commit_config(self) -> bool:
        """Commit the GM's own changes of pbem.yaml (git keeps it; edited by hand it would stay modified
        in git for good), under the lock, before the command's own work: where pbem.yaml is valid and
        holds no password (git would keep that for every reader of the repository; `pbem doctor` says
        so). Costs a stat and a small read where pbem.yaml has not changed since it was last seen, and
        no git either where only its inode or times changed (a copy or a backup of the games dir put
        back, an editor that saved it unchanged): the mark keeps the digest of what was seen; returns
        whether it committed."""
        path = self.root / CONFIG_FILE
        mark = self.root / ".git" / CONFIG_MARK
        try:
            st = path.stat()
        except OSError:
            return False
        stamp = f"{st.st_ino} {st.st_size} {st.st_mtime_ns}"
        try:
            if not (self.root / ".git").is_dir():
                return False
            seen = mark.read_text("utf-8").split()
        except OSError:
            seen = []
        if seen[:3] == stamp.split():
            return False
        try:
            from pbem import digests

            content = digests.sha256(path.read_bytes()).hexdigest()
        except OSError:
            return False
        committed = False
        # the same bytes as when last seen: committed then, or refused then for what they hold
        if seen[3:] != [content] and self.status_of([CONFIG_FILE]) and config_may_be_committed(path):
            committed = self.commit_paths([CONFIG_FILE], f"{CONFIG_FILE}: the GM's changes\n")
        with contextlib.suppress(OSError):
            mark.write_text(f"{stamp} {content}\n", "utf-8")
        return committed

    # -- games ------------------------------------------------------------------------------

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
        reserved = self.reserved()
        with os.scandir(self.root) as entries:  # what is_game_folder asks, without a Path a name
            found = {d.name for d in entries if GAME_ID.match(d.name) and d.name not in reserved and d.is_dir()
                     and any(os.path.exists(f"{d.path}/{part}") for part in GAME_PARTS)}
        # a game older than the pbem.yaml that gave its name to a mail folder: listed, and `load` says why
        found |= {name for name in self.reserved() - RESERVED
                  if GAME_ID.match(name) and (self.root / name / STATE_FILE).is_file()}
        if status is not None:
            # " D", "MD", "D ": in HEAD (the index did not add it), not on disk
            gone = [line[3:] for line in status if "D" in line[:2] and line[0] != "A"]
            missing = [path.split("/", 1)[0] for path in gone
                       if path.endswith((f"/{STATE_FILE}", f"/{PUBLIC_FILE}")) and path.count("/") == 1]
        elif (self.root / ".git").exists():
            r = self._git("ls-tree", "-d", "--name-only", "-z", "HEAD", check=False)
            missing = [name for name in (r.stdout.split("\0") if r.returncode == 0 else [])
                       if name and name not in found and (self._in_head(f"{name}/{PUBLIC_FILE}")
                                                          or self._in_head(f"{name}/{STATE_FILE}"))]
        else:
            missing = []
        found.update(name for name in missing if GAME_ID.match(name) and name not in reserved)
        return sorted(found)

    # -- state ------------------------------------------------------------------------------

    def load(self, game: str) -> dict[str, Any]:
        path = self.game_dir(game) / STATE_FILE
        try:
            text = read_text_file(path, f"{game}: the state file")
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
            committed = self._in_head(f"{game}/{STATE_FILE}")
            # a running game: git holds its public file alone, never its state (see pbem.store.public)
            backup = "; while a game runs git does not hold it (its seed and what is hidden stay out of git): " \
                     "restore it from a backup of the games dir"
            if self.is_game_folder(game):
                restore = f"; `git -C {self.root} checkout -- {game}/{STATE_FILE}` restores the last committed one"
                running = (path.parent / PUBLIC_FILE).is_file()
                raise StoreError(f"{game}: the state file {path} is missing"
                                 f"{restore if committed else backup if running else ''}") from None
            if committed:
                raise StoreError(f"{game}: the game folder {path.parent} is missing; "
                                 f"`git -C {self.root} checkout -- {game}` restores the last committed one") from None
            if self._in_head(f"{game}/{PUBLIC_FILE}"):
                raise StoreError(f"{game}: the game folder {path.parent} is missing{backup}") from None
            raise StoreError(f"there is no game {game!r} in {self.root}") from None
        self.stamps[game] = stamp_of(text)
        state = self._parsed(game, text)
        if state is None:
            state = parse_yaml(text, f"{game}: the state file")
            if isinstance(state, dict) and state.get("format") == OLD_FORMAT:
                return from_old_format(state, game)
            if isinstance(state, dict):
                state.pop("checksum", None)
            if not written_by_pbem(text):
                if isinstance(state, dict):  # a hand edit: checked as the game it says it is, seats and all
                    seats.put_back(self.root, game, state)
                check_state_file(state, game)
            elif isinstance(state, dict):
                self._keep_parsed(game, state, text)  # a game that waits is loaded by every run
        seats.put_back(self.root, game, state)  # a finished game's addresses, kept out of git
        attach(state, path.parent, state.pop("history"))
        return state

    def _parsed(self, game: str, text: str) -> dict[str, Any] | None:
        """The state `text` holds, from the cache of parsed state files (see pbem.store.parsed)."""
        return parsed.cached(self.root, game, text)

    def _keep_parsed(self, game: str, body: dict[str, Any], text: str) -> None:
        parsed.keep(self.root, game, body, text)

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
        if state["status"] == "finished":  # git takes the file now: the seats' addresses stay here
            body = seats.keep_apart(self.root, game, body, durable)
        text = state_file_text(body)
        write_atomic(folder / STATE_FILE, text, durable)
        self._keep_parsed(game, body, text)
        self.stamps[game] = stamp_of(text)
        crash_point("public")
        self._write_public(game, state, recorded, durable)
        settle(state, recorded)
        self.written.update(f"{game}/{name}" for name in (STATE_FILE, *(f"{key}.yaml" for key in HISTORIES)))

    # -- what git holds of a game (see pbem.store.public) -------------------------------------

    def _write_public(self, game: str, state: dict[str, Any], recorded: dict[str, list[int]],
                      durable: bool = True) -> None:
        write_atomic(self.game_dir(game) / PUBLIC_FILE, public_text(state, recorded, self.stamps[game]), durable)
        self.written.add(f"{game}/{PUBLIC_FILE}")

    def write_public(self, game: str, state: dict[str, Any]) -> None:
        """Write a loaded game's public file anew (it is behind its state file: a run died between the two)."""
        recorded = {key: [len(state[key]), 0] for key in HISTORIES}
        if game not in self.stamps:
            self.stamps[game] = stamp_of((self.game_dir(game) / STATE_FILE).read_text("utf-8"))
        self._write_public(game, state, recorded, durable=not self.sync_later)

    def public_behind(self, game: str) -> bool:
        """Whether a loaded game's public file was written for another state file than the one loaded
        (a run died after saving the state, before writing the public file; git saw no change)."""
        try:
            text = (self.game_dir(game) / PUBLIC_FILE).read_text("utf-8")
        except OSError:
            return True
        last = text.rstrip("\n").rpartition("\n")[2]
        return last != f"state: {self.stamps.get(game)}"

    def is_over(self, game: str) -> bool:
        """Whether a game is finished, as its state file on disk says (git then holds all its files)."""
        try:
            state = self.load(game)
        except StoreError:
            return False
        return state["status"] == "finished"

    def tracked_paths(self, game: str, written: list[str] | set[str]) -> list[str]:
        """Of the files a game's run wrote, those git is to hold: while it runs, all but its private
        ones; once it is over, every file of its folder."""
        if self.is_over(game):
            return game_files(self.root, game)
        return sorted(p for p in written if not is_private(p))

    def commit(self, game: str, message: str) -> bool:
        """Commit what changed of one game that git is to hold (see `tracked_paths`); False when nothing did."""
        if self.is_over(game):
            return self.commit_paths([game], message, force=game_files(self.root, game))
        return self.commit_paths([game], message)

    def committed_state(self, game: str) -> tuple[str, int, int] | None:
        """A game's public file as last committed to git, with the turn and the number of events it
        records (None when it never was committed, or cannot be read); for a game of an older pbem,
        its state file so committed."""
        r = self._git("show", f"HEAD:{game}/{PUBLIC_FILE}", check=False)
        if r.returncode != 0:
            return self._committed_state_file(game)
        last = read_public(r.stdout)
        if last is None:
            return None
        turn, events = last.get("turn"), last["history"].get("events")
        if not isinstance(events, int):
            return None
        return r.stdout, turn if isinstance(turn, int) else 1, events

    def sync(self) -> None:
        """Make everything written so far durable, in one call for the file system of the games dir."""
        self.syncs += 1
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

    def committed_text(self, game: str) -> str | None:
        """A game's state file as last committed to git (None when it never was)."""
        r = self._git("show", f"HEAD:{game}/{STATE_FILE}", check=False)
        return r.stdout if r.returncode == 0 else None

    def _committed_state_file(self, game: str) -> tuple[str, int, int] | None:
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

    # -- the queue of submitted orders ------------------------------------------------------

    def queue_dir(self, game: str) -> Path:
        return self.game_dir(game) / "queue"

    def enqueue(self, game: str, entry: dict[str, Any]) -> tuple[Path, list[Path]]:
        """Queue orders; a newer file from the same player for the same turn replaces the older one
        (should the process die before the older one is gone, `pbem advance` drops it)."""
        qdir = self.queue_dir(game)
        source = entry.get("source")
        if isinstance(source, str) and source.startswith("mail "):
            # named by its hash, as mail/seen.log names it: the Message-ID a player's mail client made
            # may carry his address, and refused orders go to git with the game once it is over
            entry = dict(entry, source=f"mail {digest(source[len('mail '):])}")
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
        from pbem.turnfile import fits

        out = []
        for path in sorted(qdir.glob("*.yaml")):
            what = f"{game}: the queued file {game}/queue/{path.name}"
            entry = read_yaml_file(path, what)
            if not isinstance(entry, dict) or not fits(entry, "queue"):
                raise StoreError(f"{what} is corrupt: it is not a queue entry (player, turn, orders)")
            out.append((path, entry))
        return out

    # -- reports ----------------------------------------------------------------------------

    def write_report(self, game: str, player: str, name: str, text: str) -> Path:
        path = self.game_dir(game) / "reports" / player / name
        write_atomic(path, text, durable=not self.sync_later)
        self.written.add(f"{game}/reports/{player}/{name}")
        return path

    # -- locking ----------------------------------------------------------------------------

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
        with open(self.root / ".pbem.lock", "a+") as f:  # not truncated: another holder's mark stays
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
                f.seek(0)
                if f.read().strip():  # the last holder died holding it: its half-written files are debris
                    remove_dead_temps(self.root)
                f.seek(0)
                f.truncate()
                f.write(f"{os.getpid()}\n")
                f.flush()
                self.remove_stale_git_locks()
                self.warnings += change_over(self)
                self.commit_config()
                mail = self.root / "mail"
                with contextlib.suppress(OSError):
                    if mail.is_dir() and mail.stat().st_mode & 0o077:  # players' mail and tokens: the GM's alone
                        secure_mail(self.root)
                yield
                if self.commits_made:
                    self.index_history()
                    self.commits_made = 0
            finally:
                self.end_index_history()  # a graph write begun is not left to outlive the lock
                self.holds_lock = False
                _held_locks.remove(f.fileno())
                with contextlib.suppress(OSError):
                    f.truncate(0)  # a clean end: the next holder finds no mark
                    f.flush()
                fcntl.flock(f, fcntl.LOCK_UN)


CONFIG_MARK = "pbem-config-seen"  # in .git: pbem.yaml's inode, size, mtime and digest when last looked at


def config_may_be_committed(path: Path) -> bool:
    """Whether pbem.yaml may go into git: it is valid (a command that reads it says what is wrong), and
    it holds no password."""
    from pbem.config import check_config_text
    from pbem.errors import PbemError

    try:
        value = check_config_text(path.read_bytes(), str(path))
    except (OSError, PbemError):
        return False
    return not any(isinstance(value.get(key), dict) and "password" in value[key] for key in ("inbox", "outbox"))


def has_pbem_gitignore(folder: Path) -> bool:
    """Whether a folder holds the .gitignore pbem writes into a games dir."""
    try:
        lines = (folder / ".gitignore").read_text("utf-8", errors="replace").splitlines()
    except OSError:
        return False
    return ".pbem.lock" in lines and "*/queue/" in lines


def enclosing_games_dir(start: Path) -> Path | None:
    """The games dir a folder lies in: the folder itself, or the nearest one above it that holds
    pbem.yaml or pbem's .gitignore (None: there is none)."""
    for folder in (start, *start.parents):
        try:
            if (folder / CONFIG_FILE).is_file() or has_pbem_gitignore(folder):
                return folder
        except OSError:  # a folder this user may not look into
            continue
    return None


TEMP_FILE = Pattern(r"^\..+\.(\d+)-\d+\.tmp\Z")  # what write_atomic writes first: .NAME.PID-N.tmp


def remove_dead_temps(root: Path) -> list[Path]:
    """Remove the temporary files of atomic writes whose process is gone (a run killed half way left
    them; git ignores them, but they are debris in the games' folders). Those of a living process stay."""
    removed = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in files:
            m = TEMP_FILE.match(name)
            if m and not _alive(int(m.group(1))):
                path = Path(folder) / name
                with contextlib.suppress(OSError):
                    path.unlink()
                    removed.append(path)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    try:  # a killed process nobody has reaped yet (a zombie) still answers kill(0), but writes nothing
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except (OSError, IndexError):
        return True
