"""A small run's commits written by pbem itself as git's loose objects (pbem.store.objects): the very
commits `git fast-import` makes of the same files, the same bytes, which git reads as its own, built
on what git wrote, loose or packed (deltas too); fast-import makes those of a bigger run, and those
where pbem does not read what they build on; the branch moves only from where the run found it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import helpers
from helpers import git
from pbem.errors import StoreError
from pbem.store import CommitBatch, GamesDir, batch

IDENT = "pbem <pbem@localhost> 1795000000 +0000"
# one game's files, then another's in folders git has not seen; names whose order in a tree is git's
# own (a folder sorts as if its name ended in "/": "a-b", "a.txt", the folder "a", then "a0")
COMMITS = [
    ("g1: turn 2\n\n- anna bids 3.\n", {"g1/public.yaml": b"turn: 2\n", "g1/reports/anna/0002.txt": b"hello\n"}),
    ("g2: new game\n", {"g2/a-b": b"1\n", "g2/a/x": b"2\n", "g2/a0": b"3\n", "g2/a.txt": b"4\n",
                        "g2/reports/ben/deep/er/0001.txt": "Grüße\n".encode()}),
    ("g1: turn 3\n", {"g1/public.yaml": b"turn: 3\n"}),
    ("g1: turn 4, nothing new\n", {"g1/public.yaml": b"turn: 3\n"}),  # a commit that changes no file
]


@pytest.fixture
def games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A games dir with one committed game."""
    helpers.fixed_clock(monkeypatch)
    monkeypatch.setattr(batch, "_ident", lambda: IDENT)
    root = tmp_path / "games"
    gd = GamesDir(root, create=True)
    gd.ensure_repo()
    for path, data in {"g1/public.yaml": b"turn: 1\n", "g1/reports/anna/0001.txt": b"hi\n"}.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(data)
    assert gd.commit_paths(["g1"], "g1: new game\n")
    return root


def made_by(root: Path) -> str:
    """Who moved the branch last: pbem itself ("pbem: N commits") or fast-import ("fast-import")."""
    return git(root, "reflog", "-1", "--format=%gs").strip()


def commit_all(root: Path, commits: list[tuple[str, dict[str, bytes]]] = COMMITS) -> CommitBatch:
    """The batch's commits of `commits`, each game's files written first, as a run does; not closed."""
    made = CommitBatch(GamesDir(root))
    for message, files in commits:
        for path, data in files.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_bytes(data)
        assert made.commit(message, list(files))
    return made


def copy(root: Path, name: str) -> Path:
    other = root.parent / name
    shutil.copytree(root, other, symlinks=True)
    return other


def loose_and_packed(root: Path) -> tuple[int, int]:
    counts = dict(line.split(": ") for line in git(root, "count-objects", "-v").splitlines())
    return int(counts["count"]), int(counts["in-pack"])


def assert_sound(root: Path) -> None:
    """git finds nothing wrong, and nothing uncommitted."""
    subprocess.run(["git", "fsck", "--strict", "--no-dangling"], cwd=root, check=True, capture_output=True)
    assert git(root, "status", "--porcelain") == ""


def test_pbems_own_commits_are_those_fast_import_makes(games: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    by_git = copy(games, "by-git")
    loose_before = loose_and_packed(games)
    commit_all(games).close()
    with monkeypatch.context() as m:
        m.setattr(batch, "LOOSE_COMMITS", 0)  # every commit through fast-import
        made = commit_all(by_git)
        assert made.proc is not None
        made.close()
    assert git(games, "rev-parse", "HEAD") == git(by_git, "rev-parse", "HEAD")
    assert git(games, "log", "--format=%B", "-1") == "g1: turn 4, nothing new\n\n"
    assert git(games, "show", "HEAD:g2/reports/ben/deep/er/0001.txt") == "Grüße\n"
    # none of it packed (the branch itself was a loose object): no git process wrote it
    loose, packed = loose_and_packed(games)
    assert packed == 0 and loose > loose_before[0]
    assert not list((games / ".git" / "objects").rglob("tmp_obj_*"))
    for root in (games, by_git):
        assert_sound(root)
    assert (made_by(games), made_by(by_git)) == ("pbem: 4 commits", "fast-import")


def test_a_run_of_more_commits_goes_to_fast_import_whole(games: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    by_pbem = copy(games, "by-pbem")
    monkeypatch.setattr(batch, "LOOSE_COMMITS", 2)
    made = commit_all(games)
    assert made.proc is not None  # started at the third, with the two held
    made.close()
    assert made_by(games) == "fast-import"
    monkeypatch.setattr(batch, "LOOSE_COMMITS", 8)
    commit_all(by_pbem).close()
    assert made_by(by_pbem) == "pbem: 4 commits"
    assert git(games, "rev-parse", "HEAD") == git(by_pbem, "rev-parse", "HEAD")
    assert git(games, "log", "--format=%s").splitlines() == [m.splitlines()[0] for m, _ in reversed(COMMITS)] \
        + ["g1: new game", "pbem games repository"]
    assert_sound(games)


@pytest.mark.parametrize("offsets", ["true", "false"])  # a delta's base named by where it is, or by its SHA-1
def test_a_branch_git_has_packed_is_built_on_as_fast_import_would(games: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   offsets: str) -> None:
    """After `git gc` the branch, its commits and trees are in a pack, most trees as deltas of others."""
    gd = GamesDir(games)
    for n in range(2, 60):  # a game a commit: versions of a top tree, which git stores as deltas
        name = f"g{n % 40 + 2}"
        (games / name).mkdir(exist_ok=True)
        (games / name / "public.yaml").write_text(f"turn: {n}\n")
        assert gd.commit_paths([name], f"{name}: turn {n}\n")
    by_git = copy(games, "by-git")
    for root in (games, by_git):
        git(root, "-c", f"repack.useDeltaBaseOffset={offsets}", "gc", "-q", "--aggressive")
    assert not (games / ".git" / "refs" / "heads" / "main").exists() and loose_and_packed(games)[0] == 0
    pack = next((games / ".git" / "objects" / "pack").glob("*.idx"))
    deltas = [line for line in git(games, "verify-pack", "-v", str(pack)).splitlines() if " tree " in line
              and len(line.split()) > 5]
    assert len(deltas) > 20  # trees git stored as deltas, some of deltas
    commit_all(games).close()
    assert made_by(games) == "pbem: 4 commits"
    monkeypatch.setattr(batch, "LOOSE_COMMITS", 0)
    commit_all(by_git).close()
    assert git(games, "rev-parse", "HEAD") == git(by_git, "rev-parse", "HEAD")
    assert_sound(games)


def test_what_pbem_does_not_read_is_left_to_fast_import(games: Path) -> None:
    """The branch's objects in another repository's folder (objects/info/alternates, as `git clone
    --shared` makes): pbem does not look there, git does, and commits."""
    by_pbem = copy(games, "by-pbem")
    lender = copy(games, "lender")
    objects = games / ".git" / "objects"
    shutil.rmtree(objects)
    (objects / "info").mkdir(parents=True)
    (objects / "pack").mkdir()
    (objects / "info" / "alternates").write_text(f"{lender / '.git' / 'objects'}\n")
    commit_all(games).close()
    assert made_by(games) == "fast-import"
    commit_all(by_pbem).close()
    assert git(games, "rev-parse", "HEAD") == git(by_pbem, "rev-parse", "HEAD")


def test_a_pack_index_pbem_does_not_know_is_not_read(games: Path) -> None:
    from pbem.store.objects import LeftToGit, Objects

    git(games, "repack", "-a", "-d", "-q")
    git(games, "prune-packed")
    head = git(games, "rev-parse", "HEAD").strip()
    assert Objects(str(games / ".git" / "objects")).read(head, b"commit").startswith(b"tree ")
    for index in (games / ".git" / "objects" / "pack").glob("*.idx"):
        index.chmod(0o644)
        data = bytearray(index.read_bytes())
        data[7] = 3  # a version of the index pbem does not read
        index.write_bytes(bytes(data))
    with pytest.raises(LeftToGit):
        Objects(str(games / ".git" / "objects")).read(head, b"commit")


def test_the_branch_moves_only_from_where_the_run_found_it(games: Path) -> None:
    """A commit the GM made after the run wrote its own stands; the run's commits are not made (the
    next run commits its files as a run's that died). One made before they were written is built on."""
    made = commit_all(games, COMMITS[:1])
    (games / "notes.txt").write_text("the GM's\n")
    git(games, "add", "notes.txt")
    git(games, "commit", "-q", "-m", "the GM's notes")
    made.finish()  # written now, on the GM's commit
    git(games, "commit", "-q", "--allow-empty", "-m", "the GM's second thought")
    theirs = git(games, "rev-parse", "HEAD")
    with pytest.raises(StoreError, match="update-ref"):
        made.close()
    assert git(games, "rev-parse", "HEAD") == theirs
    assert GamesDir(games).uncommitted() == {"g1"}
    again = CommitBatch(GamesDir(games))
    assert again.commit(COMMITS[0][0], list(COMMITS[0][1]))
    again.close()
    assert git(games, "log", "--format=%s", "-3").splitlines() == [
        "g1: turn 2", "the GM's second thought", "the GM's notes"]
    assert_sound(games)


def test_objects_that_cannot_be_written_stop_the_batch(games: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk: none of the run's commits stands, the branch stays (the next run commits the files)."""
    import errno

    from pbem.store import objects

    head = git(games, "rev-parse", "HEAD")

    def full(self: objects.Objects, kind: bytes, body: bytes) -> str:
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(objects.Objects, "write", full)
    made = commit_all(games)
    with pytest.raises(StoreError, match="git's objects could not be written: No space left on device"):
        made.close()
    assert made.proc is None and git(games, "rev-parse", "HEAD") == head
    assert GamesDir(games).uncommitted() == {"g1", "g2"}
