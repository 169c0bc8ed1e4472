"""The commits of a run, made by one `git fast-import` without the index."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.errors import StoreError
from pbem.store.gitrepo import _clean_message, _first_line, _git_env, _ident, _scratch_file, bounded_message
from pbem.store.processes import crash_point, dies_with_pbem

if TYPE_CHECKING:
    import subprocess

    from pbem.store.gamesdir import GamesDir


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
        text = _clean_message(bounded_message(message)).encode("utf-8", "surrogateescape")
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
        self.gd.commits_made += self.count
        if r.returncode != 0:  # the commits are made; only git's cache of the files is behind
            self.gd.warnings.append(f"git update-index after the commits failed: "
                                    f"{_first_line(r.stderr.decode('utf-8', 'replace'))}")
