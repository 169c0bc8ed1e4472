"""A games dir of many games and a long history: git's commit-graph with changed-path Bloom filters,
written after a command that commits once GRAPH_LAG commits are not in it, and the settings pbem gives
the repository; the bench's
games dir built straight into a git pack (`benchmarks.bench_scale`), which git must read as its own. The big
measurements are the bench's (`python -m benchmarks.bench --only scale`); these are small."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

import helpers
from helpers import git
from benchmarks import bench_scale
from pbem.store import GamesDir
from pbem.store import gitrepo
from pbem.store.gitrepo import GRAPH_MARK, REPO_SETTINGS, SETTINGS_MARK

PLAYERS = ("anna", "ben", "cleo")
SEED = "scale-seed-0001"
CHAIN = Path(".git/objects/info/commit-graphs/commit-graph-chain")


def graph_layers(games: Path) -> list[Path]:
    chain = (games / CHAIN).read_text().split()
    return [games / CHAIN.parent / f"graph-{name}.graph" for name in chain]


def bloom_settings(graph: Path) -> tuple[int, int] | None:
    """(hashes, bits per path) of a commit-graph file's changed-path Bloom filters; None without."""
    data = graph.read_bytes()
    assert data[:4] == b"CGPH"
    chunks = data[6]
    table = [(data[8 + 12 * i: 12 + 12 * i], int.from_bytes(data[12 + 12 * i: 20 + 12 * i], "big"))
             for i in range(chunks + 1)]
    for name, at in table:
        if name == b"BDAT":
            return int.from_bytes(data[at + 4: at + 8], "big"), int.from_bytes(data[at + 8: at + 12], "big")
    return None


def bloom_statistics(games: Path, *args: str) -> dict[str, int]:
    """What git says of its Bloom filters while it runs `git log ARGS` (trace2)."""
    trace = games.parent / "trace2.txt"
    trace.unlink(missing_ok=True)
    subprocess.run(["git", "log", "--format=%H", *args], cwd=games, capture_output=True, check=True,
                   env=dict(os.environ, GIT_TRACE2_PERF=str(trace)))
    line = next(line for line in trace.read_text().splitlines() if "statistics:" in line)
    return json.loads(line.split("statistics:", 1)[1])


@pytest.fixture
def table(pbem: helpers.Pbem, tmp_path: Path) -> helpers.Table:
    t = helpers.Table(pbem, tmp_path)
    t.create(PLAYERS, SEED)
    return t


def test_a_command_that_commits_writes_the_commit_graph_with_its_bloom_filters(table: helpers.Table,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    games = table.games
    layers = graph_layers(games)
    assert layers and all(bloom_settings(layer) == (7, 64) for layer in layers)
    assert not (games / ".git" / GRAPH_MARK).exists()  # the first command wrote the whole history
    monkeypatch.setattr(gitrepo, "GRAPH_LAG", 3)
    table.play(table.waiting(), ["auction"])
    # one commit the graph lacks (no layer written for it): git reads it as it would without a graph,
    # and the mark counts it
    assert (games / ".git" / GRAPH_MARK).read_text() == "1\n"
    assert graph_layers(games) == layers
    assert git(games, "log", "--format=%s", "--", "m1/").splitlines()[0] == f"m1: turn 1: orders of {PLAYERS[0]}"
    table.play(table.waiting(), ["pass"])
    assert (games / ".git" / GRAPH_MARK).read_text() == "2\n"
    table.play(table.waiting(), ["pass"])  # the third: the graph is written anew, with every commit
    assert not (games / ".git" / GRAPH_MARK).exists()
    assert all(bloom_settings(layer) == (7, 64) for layer in graph_layers(games))
    stats = bloom_statistics(games, "--", "m1/")
    assert stats["filter_not_present"] == 0
    assert len(git(games, "log", "--format=%s", "--", "m1/").splitlines()) == 4
    subprocess.run(["git", "commit-graph", "verify"], cwd=games, check=True, capture_output=True)


def test_a_games_dir_of_an_older_pbem_gets_the_settings_and_the_graph_at_its_next_commit(
        table: helpers.Table) -> None:
    games = table.games
    for key, _ in REPO_SETTINGS:
        git(games, "config", "--unset", key)
    (games / ".git" / SETTINGS_MARK).unlink()
    for layer in graph_layers(games):
        layer.chmod(0o644)
        layer.unlink()
    (games / CHAIN).unlink()
    r = table.submit(table.waiting(), 1, ["auction"])
    assert r.exit_code == 0, r.output
    assert not (games / CHAIN).exists()  # a command that commits nothing writes nothing
    r = table.pbem("advance")
    assert r.exit_code == 0, r.output
    assert r.stderr == ""
    for key, value in REPO_SETTINGS:
        assert git(games, "config", key).strip() == value
    assert bloom_statistics(games, "--", "m1/")["filter_not_present"] == 0


def test_the_lock_of_a_killed_graph_write_is_removed_by_the_next_run(table: helpers.Table) -> None:
    lock = table.games / ".git/objects/info/commit-graphs/commit-graph-chain.lock"
    assert table.submit(table.waiting(), 1, ["auction"]).exit_code == 0
    lock.write_bytes(b"")
    r = table.pbem("advance")
    assert r.exit_code == 0, r.output
    assert r.stderr == ("Warning: removed a stale .git/objects/info/commit-graphs/commit-graph-chain.lock "
                        "left by a killed git\n")
    assert not lock.exists()
    assert bloom_statistics(table.games, "--", "m1/")["filter_not_present"] == 0


def test_a_failed_graph_write_is_a_warning_and_the_commits_stand(table: helpers.Table) -> None:
    games = table.games
    gd = GamesDir(games)
    head = git(games, "rev-parse", "HEAD")
    folder = games / CHAIN.parent
    folder.rename(folder.with_name("away"))
    folder.write_text("not a folder\n")  # where git would write the graph's layers
    with gd.lock():
        gd.index_history()
    assert len(gd.warnings) == 1 and gd.warnings[0].startswith("git commit-graph write failed: ")
    assert gd.warnings[0].endswith(" (git reads the history without it, slower)")
    assert git(games, "rev-parse", "HEAD") == head
    assert git(games, "log", "--format=%s", "--", "m1/").startswith("m1: new medici game")


# -- the bench's games dir -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> bench_scale.Built:
    base = tmp_path_factory.mktemp("scale")
    seeds = bench_scale.make_seeds(base / "seeds", 2, 8)
    depth = bench_scale.DEPTH
    bench_scale.DEPTH = 4  # full top trees and chains of deltas both
    try:
        return bench_scale.build(base / "games", 12, 40, seeds)
    finally:
        bench_scale.DEPTH = depth


def test_the_bench_writes_a_history_git_takes_for_its_own(built: bench_scale.Built) -> None:
    games = built.root
    subprocess.run(["git", "fsck", "--strict", "--no-dangling"], cwd=games, check=True, capture_output=True)
    assert git(games, "status", "--porcelain") == ""
    assert int(git(games, "rev-list", "--count", "HEAD")) == built.commits == 41
    # 40 commits over 12 games: the first 4 have 4 each, the others 3; the newest writes the files
    assert git(games, "log", "--format=%s", "--", "g00003/").splitlines() == [
        "g00003: turn 15: orders of p3", "g00003: turn 10: orders of p2", "g00003: turn 5: orders of p1",
        "g00003: new medici game for p0, p1, p2, p3"]
    assert len(git(games, "log", "--format=%H", "--", "g00011/").split()) == 3
    # the games run: git holds each one's public file, naming the state file on disk, and no more
    assert git(games, "show", "HEAD:g00005/public.yaml") == (games / "g00005" / "public.yaml").read_text()
    gd = GamesDir(games)
    gd.load("g00005")
    assert not gd.public_behind("g00005")
    assert git(games, "ls-tree", "--name-only", "HEAD", "g00005/") == "g00005/public.yaml\n"


def test_the_bench_games_are_games_pbem_plays(built: bench_scale.Built, tmp_path: Path) -> None:
    games = tmp_path / "games"
    subprocess.run(["cp", "-a", str(built.root), str(games)], check=True)
    pbem = helpers.Pbem(games)
    r = pbem("status", "--json")
    assert r.exit_code == 0, r.output
    assert [row["game"] for row in json.loads(r.stdout)] == built.games
    bench_scale.queue_orders(bench_scale.Built(games, built.games, built.tokens, built.commits), ["g00007"])
    r = pbem("advance", "--quiet")
    assert r.exit_code == 0, r.output
    assert git(games, "log", "-1", "--format=%s", "--", "g00007/").startswith("g00007: turn 8")
    # with the graph written, every game's history reads the same as git reads it without one
    for game in built.games:
        plain = git(games, "-c", "core.commitGraph=false", "log", "--format=%H", "--", f"{game}/")
        assert git(games, "log", "--format=%H", "--", f"{game}/") == plain
    assert bloom_statistics(games, "--", "g00007/")["definitely_not"] > 0
