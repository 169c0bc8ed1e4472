"""The git repository of a games dir: git run as a child that dies with pbem, the lock files a killed
git leaves (removed under pbem's lock, a live git's waited for), the working tree's status, commits
of some paths."""

from __future__ import annotations

import contextlib
import os
import stat
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.errors import StoreError
from pbem.patterns import Pattern
from pbem.store.processes import crash_point, dies_with_pbem, git_at_work, process_start

if TYPE_CHECKING:  # git is started only by the commands that commit: `show` and `submit` run none
    import subprocess

# lock files a killed git leaves behind (besides refs/**/*.lock), relative to .git
GIT_LOCKS = ("index.lock", "HEAD.lock", "ORIG_HEAD.lock", "config.lock", "packed-refs.lock",
             "objects/info/commit-graph.lock", "objects/info/commit-graphs/commit-graph-chain.lock")
GIT_WAIT = 5.0  # seconds a command waits in all for a git at work to let go of its lock files
_DUBIOUS = Pattern(r"dubious ownership in repository at '([^'\n]+)'")  # git 2.35.2 and later
_LOCK_TAKEN = Pattern(r"\.lock': File exists")  # what git says when another git holds a lock it needs

# What keeps a games dir of many games and a long history fast (README, "Many games, a long history"):
# git's settings, made once (SETTINGS_MARK in .git says they are), and its commit-graph, written anew
# after a command that committed once GRAPH_LAG commits or more are not in it. The untracked cache lets `git status --untracked-files=all` (each
# run asks it) look only into the folders that changed; git uses it for that option only when it is
# the configured one.
REPO_SETTINGS = (("core.untrackedCache", "true"), ("status.showUntrackedFiles", "all"))
SETTINGS_MARK = "pbem-git-settings"
# The changed-path Bloom filters of the commit-graph let `git log -- GAME` skip the commits of other
# games without reading their trees (each a list of every game). git's 10 bits a path leave 1 to 8 in
# 100 of them to be read anyway, by how a game's name hashes; 64 bits, a few hundred in 100,000. git
# sets the size only through this variable (read by `git commit-graph write` since 2.27) and keeps it
# in the graph, where every git reading it takes it from; a graph that has filters keeps their size.
BLOOM_BITS = {"GIT_TEST_BLOOM_SETTINGS_BITS_PER_ENTRY": "64"}
GRAPH_WRITE = ("commit-graph", "write", "--reachable", "--changed-paths", "--split", "--no-progress")
# The commits the graph may lack: git reads each of those as it does without a graph (its two top trees
# compared, some 500 microseconds at 10,000 games), while a write is a process of some milliseconds,
# which a run of one order would pay for one commit. GRAPH_MARK in .git counts them (none: no lag).
GRAPH_LAG = 16
GRAPH_MARK = "pbem-graph-lag"
GRAPH_FILES = ("objects/info/commit-graphs/commit-graph-chain", "objects/info/commit-graph")


class GitRepo:
    """A folder that is the top of a git repository of its own, as pbem runs git in it."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root).resolve()
        self.warnings: list[str] = []  # what the command should tell the GM (a stale git lock removed)
        self.holds_lock = False  # inside the games dir's lock: the git lock files are this process's to judge
        self._git_wait_left = GIT_WAIT
        self.commits_made = 0  # by this command: its end writes git's commit-graph anew (`index_history`)
        self._graph: tuple[subprocess.Popen[bytes], int] | None = None  # a graph write begun, and for how many
        self._graph_counted = 0  # the commits `begin_index_history` counted as lacking in the graph (none due)

    def check_owner(self, command: str = "pbem ...") -> None:
        """Refuse a games dir (or its .git) that belongs to another user than the one running pbem:
        git refuses to work in it ("dubious ownership"), and what pbem wrote would belong to the wrong
        user (a root-owned file the service user cannot change). Allowed where git's safe.directory
        names it (the GM chose so). `command` is how the GM ran pbem, for the way out."""
        me = os.geteuid()
        for path in (self.root, self.root / ".git"):
            try:
                owner = path.stat().st_uid
            except OSError:
                continue
            if owner != me and not self._safe_directory():
                raise StoreError(ownership_message(self.root, owner, me, command))

    def _safe_directory(self) -> bool:
        """Whether git's safe.directory (system or global) lets any user's git work in the games dir."""
        import subprocess

        try:
            r = subprocess.run(["git", "config", "--get-all", "safe.directory"], capture_output=True, text=True,
                               env=_git_env(), cwd="/")
        except OSError:
            return False
        names = [line.strip() for line in r.stdout.splitlines()]
        return "*" in names or any(name and Path(name.removesuffix("/*")).resolve() == self.root for name in names)

    def _has_commits(self) -> bool:
        return self._git("rev-parse", "--verify", "-q", "HEAD", check=False).returncode == 0

    def _in_head(self, path: str) -> bool:
        if not (self.root / ".git").exists():
            return False
        return self._git("cat-file", "-e", f"HEAD:{path}", check=False).returncode == 0

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

    def _git(self, *args: str, check: bool = True, what: str = "",
             env: dict[str, str] | None = None, input: str | None = None) -> subprocess.CompletedProcess[str]:
        """Run git in the games dir (with `env` added to its environment, `input` on its standard
        input). With `check`, a failure raises StoreError naming the cause (git's own first line);
        `what` says what it was for."""
        try:
            import subprocess

            argv, child = dies_with_pbem(["git", *args])
            environ = {**_git_env(), **(env or {})}
            r = subprocess.run(argv, cwd=self.root, capture_output=True, text=True, env=environ, input=input, **child)
            if r.returncode != 0 and self._try_git_again(r.stderr):
                r = subprocess.run(argv, cwd=self.root, capture_output=True, text=True, env=environ, input=input,
                                   **child)
        except OSError as exc:
            raise StoreError(f"{what or self.root}: cannot run git ({exc.strerror}); pbem needs git") from None
        foreign = _DUBIOUS.search(r.stderr) if r.returncode != 0 else None
        if foreign and Path(foreign.group(1)).resolve() == self.root:  # never taken for "not there"
            self.check_owner()
            raise StoreError(f"{what or self.root}: git {args[0]} failed: {_first_line(r.stderr)}")
        if check and r.returncode != 0:
            cause = _first_line(r.stderr) or f"exit status {r.returncode}"
            raise StoreError(f"{what or self.root}: git {args[0]} failed: {cause}")
        return r

    def status(self) -> list[str]:
        """What git has not committed, as the lines of `git status --porcelain`."""
        # no renames: a file git takes for moved is told as gone from one game and new in the other
        return self._git("status", "--porcelain", "--untracked-files=all", "--no-renames",
                         what="the games dir").stdout.splitlines()

    def status_of(self, paths: list[str]) -> list[str]:
        """What git has not committed of some paths (the lines of `git status --porcelain`)."""
        return self._git("status", "--porcelain", "--untracked-files=all", "--no-renames", "--", *paths,
                         what="the games dir").stdout.splitlines()

    def uncommitted(self, status: list[str] | None = None) -> set[str]:
        """The top-level folders (games) with changes git has not committed (from `status`, when given)."""
        return {line[3:].strip('"').split("/", 1)[0] for line in (self.status() if status is None else status)
                if len(line) > 3}

    def commit(self, game: str, message: str) -> bool:
        """Commit what changed in one game's directory; False when nothing did."""
        return self.commit_paths([game], message)

    def commit_paths(self, paths: list[str], message: str, force: list[str] | None = None) -> bool:
        """Commit what changed under `paths` (relative to the games dir); False when nothing did. `force`:
        files to add although .gitignore names them (a game's private files, once it is over). A git
        call that fails raises StoreError naming the cause (a lock file, a full disk...). The paths go
        to git on its standard input and the message in a file: neither is an argument of a process,
        whose length has a limit."""
        what = ", ".join(paths)
        present = [p for p in paths if (self.root / p).exists()]
        staged = False  # whether `git add` said it staged a change
        if present:
            staged = bool(self._git("add", "-A", "-v", *_pathspecs(present), what=what, input=_nul(present)).stdout.strip())
        if force:
            self._git("add", "-f", *_pathspecs(force), what=what, input=_nul(force))
        gone = [p for p in paths if p not in present]
        if gone:  # a deletion git knows of is staged too
            self._git("rm", "-r", "-q", "--cached", "--ignore-unmatch", *_pathspecs(gone), what=what, input=_nul(gone))
        crash_point("git-commit")
        said = staged and not force and not gone  # git add's word is all that was staged
        if not said and not self._staged_changes(paths, what):
            return False
        try:
            self._commit_message(message, *_pathspecs(paths), what=what, input=_nul(paths))
        except StoreError as failed:
            # what `git add` staged may be HEAD's own again (a run that died between its add and its
            # commit staged another change of the same file): then there is nothing to commit
            try:
                nothing = said and not self._staged_changes(paths, what)
            except StoreError:
                raise failed from None
            if nothing:
                return False
            raise
        return True

    def _staged_changes(self, paths: list[str], what: str) -> bool:
        """Whether git's index differs from HEAD under `paths`."""
        diff = self._git("diff", "--cached", "--quiet", "--", *paths, check=False) if len(paths) < 100 \
            else self._git("diff", "--cached", "--quiet", check=False)
        if diff.returncode not in (0, 1):
            raise StoreError(f"{what}: git diff failed: {_first_line(diff.stderr) or f'exit status {diff.returncode}'}")
        return diff.returncode == 1

    def _commit_message(self, message: str, *args: str, what: str, input: str | None = None) -> None:
        """`git commit` with `message`, bounded, from a file."""
        note = self.root / ".git" / "PBEM_COMMIT_MSG"
        fd = os.open(note, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with open(fd, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(bounded_message(message))
        self._git("commit", "-q", "-F", str(note), *args, what=what, input=input)
        self.commits_made += 1

    def commit_staged(self, paths: list[str], message: str) -> bool:
        """Stage what changed under `paths` (files that left the index stay out of it) and commit the
        index; False when nothing changed. (`git commit PATHS` would take such files back in from
        the working tree.)"""
        what = ", ".join(paths)
        present = [p for p in paths if (self.root / p).exists()]
        if present:
            self._git("add", "-A", *_pathspecs(present), what=what, input=_nul(present))
        gone = [p for p in paths if p not in present]
        if gone:
            self._git("rm", "-r", "-q", "--cached", "--ignore-unmatch", *_pathspecs(gone), what=what, input=_nul(gone))
        if self._git("diff", "--cached", "--quiet", check=False).returncode == 0:
            return False
        self._commit_message(message, what=what)
        return True

    def untrack(self, paths: list[str]) -> None:
        """Take paths out of git's index (the files stay); the next commit of them records it."""
        self._git("rm", "-r", "-q", "--cached", "--ignore-unmatch", *_pathspecs(paths), what="the games dir",
                  input=_nul(paths))

    # -- a long history -------------------------------------------------------------------------------

    def tune(self) -> None:
        """Give the repository pbem's settings (REPO_SETTINGS), once: a games dir made by an older pbem
        gets them at its first command that commits."""
        mark = self.root / ".git" / SETTINGS_MARK
        wanted = "".join(f"{key}={value}\n" for key, value in REPO_SETTINGS)
        try:
            if mark.read_text("utf-8") == wanted:
                return
        except OSError:
            pass
        for key, value in REPO_SETTINGS:
            self._git("config", key, value, what="the games dir's git settings")
        with contextlib.suppress(OSError):
            mark.write_text(wanted, "utf-8")

    def _graph_lag(self, new: int) -> int | None:
        """The commits not in the commit-graph once `new` more are counted; None: there is no graph
        (git's own file or pbem's), or its mark cannot be read."""
        git_dir = self.root / ".git"
        if not any((git_dir / name).is_file() for name in GRAPH_FILES):
            return None
        try:
            before = int((git_dir / GRAPH_MARK).read_text("ascii"))
        except FileNotFoundError:
            before = 0  # written after every command by an older pbem
        except (OSError, ValueError):
            return None
        return before + new

    def _graph_due(self, new: int) -> bool:
        """Whether the commit-graph is to be written now, with `new` commits made that it lacks
        (GRAPH_LAG); if not, the mark counts them."""
        lag = self._graph_lag(new)
        if lag is None or lag >= GRAPH_LAG:
            return True
        if new:
            with contextlib.suppress(OSError):  # unwritten, the next command counts fewer: a few more lag
                (self.root / ".git" / GRAPH_MARK).write_text(f"{lag}\n", "ascii")
        return False

    def _graph_written(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            (self.root / ".git" / GRAPH_MARK).unlink()

    def begin_index_history(self) -> None:
        """Start `index_history`'s write for the commits made so far, when it is due, while the command
        does its last work (a run's delivery of its mail, which has its own wait on the disk);
        `index_history` waits for it, and writes again what was committed since, or what it failed to
        write."""
        if self._graph is not None or not self.commits_made or not (self.root / ".git").is_dir():
            return
        self.tune()
        if not self._graph_due(self.commits_made):
            self._graph_counted = self.commits_made
            return
        import subprocess

        argv, child = dies_with_pbem(["git", *GRAPH_WRITE])
        try:
            proc = subprocess.Popen(argv, cwd=self.root, env={**_git_env(), **BLOOM_BITS}, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **child)
        except OSError:
            return  # `index_history` says why
        self._graph = (proc, self.commits_made)

    def end_index_history(self) -> bool:
        """Wait for a graph write `begin_index_history` started; whether it wrote every commit made."""
        graph, self._graph = self._graph, None
        if graph is None:
            return False
        proc, made = graph
        return proc.wait() == 0 and made == self.commits_made

    def index_history(self) -> None:
        """Write git's commit-graph anew after commits, once GRAPH_LAG commits are not in it: a layer
        for the commits it lacks (`--split`; git merges the small layers), with their changed-path
        Bloom filters, so that `git log -- GAME` and `pbem archive` walk a long history without
        reading the other games' trees. The first time it indexes the whole history (a minute for
        100,000 commits of 10,000 games), then what the commands since added. Where it fails, a
        warning: git reads the history without it."""
        begun, counted = self._graph is not None, self._graph_counted
        self._graph_counted = 0
        if self.end_index_history():
            self._graph_written()
            return
        if not (self.root / ".git").is_dir():
            return
        self.tune()
        if not begun and not self._graph_due(self.commits_made - counted):
            return
        r = self._git(*GRAPH_WRITE, check=False, env=BLOOM_BITS)
        if r.returncode == 0:
            self._graph_written()
        else:
            self.warnings.append(f"git commit-graph write failed: {_first_line(r.stderr) or f'exit status {r.returncode}'}"
                                 f" (git reads the history without it, slower)")


def user_name(uid: int) -> str:
    import pwd

    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def ownership_message(root: Path, owner: int, me: int, command: str) -> str:
    """The one line that says a games dir is another user's, and the way out."""
    who, whose = user_name(me), user_name(owner)
    return (f"{root} belongs to the user {whose}, not to {who} who runs pbem (git refuses another user's folder, "
            f"and the files pbem writes would be {who}'s): run `sudo -u {whose} {command}`, or "
            f"`git config --global --add safe.directory {root}` to let {who} work in it")


def _pathspecs(paths: list[str]) -> tuple[str, ...]:
    """git's options that read the paths, as `_nul` writes them, from its standard input."""
    return ("--pathspec-from-file=-", "--pathspec-file-nul")


def _nul(paths: list[str]) -> str:
    return "".join(f"{p}\0" for p in paths)


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "").rstrip(".")


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


MESSAGE_LINE = 300  # characters of one line of a commit message; a longer one is cut
MESSAGE_LINES = 200  # lines of a commit message; those beyond are counted, not listed


def bounded_message(message: str) -> str:
    """A commit message of at most MESSAGE_LINES lines of MESSAGE_LINE characters (some 60 KB at
    most): a longer line is cut, and the lines beyond are summed up in one, so that what a mail
    brings in (a 150 KB address, 5,000 mails in a run) never makes a message git cannot take or a
    history that grows by what strangers send."""
    lines = message.splitlines()
    if len(lines) > MESSAGE_LINES:
        left = len(lines) - (MESSAGE_LINES - 1)
        lines = lines[:MESSAGE_LINES - 1] + [f"... and {left:,} more line{'s' * (left != 1)}"]
    cut = [line if len(line) <= MESSAGE_LINE
           else f"{line[:MESSAGE_LINE - 40]}... ({len(line) - (MESSAGE_LINE - 40):,} more characters)"
           for line in lines]
    return "\n".join(cut) + "\n"


def _clean_message(message: str) -> str:
    """A commit message as `git commit -m` stores it: no trailing blanks, no runs of empty lines, one
    final newline."""
    lines = [line.rstrip() for line in message.splitlines()]
    kept = [line for i, line in enumerate(lines) if line or (i and lines[i - 1])]
    return "\n".join(kept).strip("\n") + "\n"
