"""The commits of a run, made without the index: those of a small run written by pbem itself as git's
loose objects, those of a bigger one by one `git fast-import`."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from pbem.errors import StoreError
from pbem.store.gitrepo import _clean_message, _first_line, _git_env, _ident, _scratch_file, bounded_message
from pbem.store.processes import crash_point, dies_with_pbem

# A run of at most LOOSE_COMMITS commits (LOOSE_BYTES of files) is written by pbem: some objects each,
# each a small file, where fast-import costs some milliseconds to start (and unpacks a pack of fewer
# than 100 objects into loose ones itself). A bigger run goes to fast-import whole, which packs it.
LOOSE_COMMITS = 8
LOOSE_BYTES = 1 << 20
# what sends git elsewhere, or makes it write objects otherwise than pbem would: then git writes them all
_ELSEWHERE = ("GIT_DIR", "GIT_WORK_TREE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
              "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT")
_CONFIG_OTHERWISE = (b"sharedrepository", b"objectformat", b"compression", b"grafts", b"replace")

if TYPE_CHECKING:
    import subprocess

    from pbem.store.gamesdir import GamesDir
    from pbem.store.objects import Objects, Tree

Held = tuple[str, bytes, list[tuple[str, bytes]]]  # a commit not yet written: who and when, message, files


class CommitBatch:
    """The commits of one run, made without the index: no index for parallel workers to fight over,
    and no git process a commit. Each commit holds the files a game's run wrote (read when it is
    committed), on top of the previous one. They are held until the run has more than LOOSE_COMMITS:
    then they go to one `git fast-import`, and the rest after them as they come; a run that ends with
    fewer has them written by pbem itself (`finish`), as git's loose objects, on the objects git wrote,
    loose or packed (where pbem does not read those, fast-import takes them). `close` moves the branch
    (nothing is committed before: a run that dies leaves the files for the next run to commit), with
    git's own lock and only from where the run found it, and brings the index up to date, so `git
    status` is clean. The commits are those `GamesDir.commit` would make, with the same messages, in
    the same order."""

    def __init__(self, gd: GamesDir) -> None:
        self.gd = gd
        self.proc: subprocess.Popen[bytes] | None = None
        self.branch = ""
        self.paths: list[str] = []
        self.count = 0
        self._errors: Any = None
        self._begun = False
        self._held: list[Held] = []
        self._held_bytes = 0
        self._sent = 0  # commits given to fast-import
        self._base = ""  # the branch when pbem wrote its own commits (hex), which `close` moves from
        self._tip = ""  # the last commit pbem wrote itself (hex)
        self._synced = -1  # GamesDir.syncs when pbem wrote its objects
        self._failed: StoreError | None = None  # objects pbem could not write: no commit stands

    def _begin(self) -> None:
        """Before the first commit: the branch, and no git at work on the index."""
        gd = self.gd
        self.branch = self._branch()
        # a git at work (the GM's?) holds the index, which the run brings up to date last: it is given
        # a few seconds, then the commits are left to the next run, as `git commit` would
        if gd.holds_lock:  # and a killed git's lock on the branch would stop the branch's move at the end
            gd.remove_stale_git_locks()
        lock = gd.root / ".git" / "index.lock"
        if lock.exists():
            raise StoreError(f"git commit failed: Unable to create '{lock}': File exists "
                             f"(a git is at work in the games dir)")
        self._begun = True

    def _objects(self) -> tuple[Objects, Tree] | None:
        """The object folder and the tree of the branch's commit, where pbem may write the commits
        itself: a plain repository of SHA-1 objects in .git, its branch a commit whose tree pbem reads.
        Otherwise None: git does."""
        from pbem.store.objects import SHA_HEX, LeftToGit, Objects, Tree  # a run that commits nothing needs none

        git_dir = self.gd.root / ".git"
        if any(key in os.environ for key in _ELSEWHERE) or not self.gd._git_folder_here():
            return None
        try:
            config = (git_dir / "config").read_bytes().lower()
        except OSError:
            return None
        if any(key in config for key in _CONFIG_OTHERWISE) or (git_dir / "info" / "grafts").exists() \
                or (git_dir / "shallow").exists():
            return None
        base = self._ref_value()
        if base is None:
            return None
        objects = Objects(str(git_dir / "objects"))
        try:
            commit = objects.read(base, b"commit")
            if not commit.startswith(b"tree ") or commit[5 + SHA_HEX:6 + SHA_HEX] != b"\n":
                raise LeftToGit(base)
            root = Tree.load(objects, commit[5:5 + SHA_HEX].decode("ascii"))
        except (LeftToGit, ValueError):
            objects.close()
            return None
        self._base = base
        return objects, root

    def _ref_value(self) -> str | None:
        """The commit the branch is at (hex), read as git keeps it: its own file, else packed-refs."""
        from pbem.store.objects import SHA_HEX

        git_dir = self.gd.root / ".git"
        try:
            value = (git_dir / self.branch).read_bytes().strip()
        except FileNotFoundError:
            value = b""
            try:
                with open(git_dir / "packed-refs", "rb") as f:
                    wanted = b" " + self.branch.encode("utf-8")
                    value = next((line[:SHA_HEX] for line in f if line.rstrip(b"\n").endswith(wanted)
                                  and line[SHA_HEX:SHA_HEX + 1] == b" "), b"")
            except OSError:
                return None
        except OSError:
            return None
        try:
            if len(value) == SHA_HEX and bytes.fromhex(value.decode("ascii")):
                return value.decode("ascii")
        except ValueError:
            pass
        return None

    def _start(self) -> None:
        gd = self.gd
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
        if not self._begun:
            self._begin()
        held: Held = (_ident(), _clean_message(bounded_message(message)).encode("utf-8", "surrogateescape"),
                      [(path, (self.gd.root / path).read_bytes()) for path in present])
        crash_point("git-commit")
        size = sum(len(data) for _, data in held[2])
        if self.proc is None and len(self._held) < LOOSE_COMMITS and self._held_bytes + size <= LOOSE_BYTES:
            self._held.append(held)
            self._held_bytes += size
        else:
            self._to_fast_import(held)
        self.paths += present
        self.count += 1
        return True

    def _to_fast_import(self, *commits: Held) -> None:
        """Give fast-import the commits held, then `commits`; it is started for the first."""
        if self.proc is None:
            self._start()
        assert self.proc is not None and self.proc.stdin is not None
        held, self._held, self._held_bytes = self._held, [], 0
        out = []
        for ident, text, files in (*held, *commits):
            out += [f"commit {self.branch}\n".encode(), f"author {ident}\ncommitter {ident}\n".encode(),
                    b"data %d\n%s\n" % (len(text), text)]
            if self._sent == 0:  # on the branch as it is now (fast-import's own spelling of that)
                out.append(f"from {self.branch}^0\n".encode())
            for path, data in files:
                out.append(b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode("utf-8"), len(data), data))
            self._sent += 1
        try:
            self.proc.stdin.write(b"".join(out))
        except BrokenPipeError:
            raise StoreError(f"{self.gd.root}: git fast-import failed: {self._error_text()}") from None

    def _write_held(self) -> bool:
        """Write the commits held as loose objects; False (nothing written) where pbem leaves them to
        git, as it does when it does not read a tree it builds on."""
        from pbem.store.objects import LeftToGit

        found = self._objects()
        if found is None:
            return False
        objects, root = found
        try:
            try:  # every tree on the way read before anything is written
                for _, _, files in self._held:
                    for path, _ in files:
                        root.reach(objects, path.encode("utf-8").split(b"/"))
            except LeftToGit:
                return False
            tip = self._base
            try:
                for ident, text, files in self._held:
                    for path, data in files:
                        root.put(objects, path.encode("utf-8").split(b"/"), bytes.fromhex(objects.write(b"blob", data)))
                    body = b"tree %s\nparent %s\nauthor %s\ncommitter %s\n\n%s" % (
                        root.write(objects).hex().encode(), tip.encode(), ident.encode("utf-8"), ident.encode("utf-8"),
                        text)
                    tip = objects.write(b"commit", body)
            except OSError as exc:  # a full disk...: the commits are left to the next run, as a dead git's
                self._failed = StoreError(f"{self.gd.root}: git's objects could not be written: "
                                          f"{exc.strerror or exc}")
                tip = ""
        finally:
            objects.close()
        self._held, self._held_bytes, self._tip = [], 0, tip
        self._synced = self.gd.syncs
        return True

    def release(self) -> None:
        """An unfinished fast-import is stopped before `done`: git then moves no branch; the commits
        held are dropped."""
        self._held, self._held_bytes = [], 0
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
        """The commits are all there: those held are written (by pbem, or given to fast-import), and
        fast-import is told it has them all; it writes them out while the run does its last work
        (clearing the queues). `close` waits for it."""
        if self._held:
            crash_point("git-commit")
            if not self._write_held():
                self._to_fast_import()
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
        self.finish()
        if self._failed is not None:
            raise self._failed
        if self.proc is not None:
            if self.proc.wait() != 0:
                raise StoreError(f"{self.gd.root}: git fast-import failed: {self._error_text()}")
            self._errors.close()
            self.proc = None
        elif self._tip:
            if self._synced == self.gd.syncs:  # the objects durable before a branch points at them
                self.gd.sync()
            # git's lock on the branch, and only from where the run found it (a GM's commit meanwhile
            # is not lost: the run's commits are then left to the next run)
            self.gd._git("update-ref", "-m", f"pbem: {self.count} commit{'s' * (self.count != 1)}",
                         self.branch, self._tip, self._base, what=f"git update-ref {self.branch}")
        else:
            return
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
