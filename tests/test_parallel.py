"""`pbem advance --jobs N` and `--shard K/N`: many games in parallel processes, their commits made by
one `git fast-import`, the same commits whatever N is; a host's share of the games."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import helpers
from helpers import Pbem, assert_usage_error, git
from pbem.advance import advance_game, in_shard
from pbem.config import load_config
from pbem.mail.boxes import Postman
from pbem.store import GamesDir

pytestmark = pytest.mark.usefixtures("pictures_unexamined")

GAMES = [f"g{i}" for i in range(10)]
PLAYERS = ("anna", "ben", "cleo")


@pytest.fixture(scope="module")
def ready(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Ten Medici games, each with the order of the player to move queued, committed."""
    with pytest.MonkeyPatch.context() as mp:
        helpers.fixed_clock(mp)
        root = tmp_path_factory.mktemp("parallel") / "games"
        pbem = Pbem(root)
        tables = [helpers.Table(pbem, root.parent, game, name=f"{game}-{{n}}.yaml") for game in GAMES]
        for t in tables:
            t.create(PLAYERS, f"parallel-seed-{t.game}-0001")
        for _ in range(3):  # a little way into the games
            for t in tables:
                who = t.waiting()
                assert t.submit(who, t.turn(), [t.show(who)["legal_orders"][0]]).exit_code == 0
            assert pbem("advance").exit_code == 0
        for t in tables:
            who = t.waiting()
            assert t.submit(who, t.turn(), [t.show(who)["legal_orders"][-1]]).exit_code == 0
        return root


def copy_of(ready: Path, tmp_path: Path, name: str) -> Path:
    root = tmp_path / name / "games"
    shutil.copytree(ready, root, symlinks=True)
    return root


def run(root: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`pbem advance` as its own process, as cron runs it."""
    return subprocess.run([sys.executable, "-m", "pbem", "advance", "--games-dir", str(root), *args],
                          env=dict(os.environ, **env), capture_output=True, text=True, timeout=120)


def history(root: Path) -> dict[str, Any]:
    """What the runs committed: the messages, oldest first, and the final tree; and every game file."""
    return {"messages": git(root, "log", "--reverse", "--format=%an <%ae>%n%B").split("\x00"),
            "tree": git(root, "rev-parse", "HEAD^{tree}"),
            "files": {k: v for k, v in helpers.game_files(root).items() if not k.startswith("mail/")},
            "status": git(root, "status", "--porcelain")}


def test_jobs_make_the_same_commits_as_one_process_and_as_git_commit(ready: Path, tmp_path: Path) -> None:
    results = {}
    for jobs in ("1", "2", "3"):
        root = copy_of(ready, tmp_path, f"jobs{jobs}")
        r = run(root, "--jobs", jobs)
        assert r.returncode == 0, r.stderr
        assert r.stderr == ""
        assert len([line for line in r.stdout.splitlines() if ": applied " in line]) == len(GAMES)
        results[jobs] = history(root)
    # and the same as each game committed by `git commit`, the way a run commits a game git had dirty
    root = copy_of(ready, tmp_path, "classic")
    gd = GamesDir(root)
    postman = Postman(load_config(root))
    for game in GAMES:
        outcome = advance_game(gd, game, postman, dirty=False)
        assert outcome.committed and outcome.pending is None
    results["classic"] = history(root)
    assert results["1"]["status"] == ""
    for other in ("2", "3", "classic"):
        assert results[other] == results["1"], other
    assert git(root, "log", "-1", "--format=%s", "--", "g4") .startswith("g4: turn 4: ")


def test_a_parallel_run_killed_half_way_ends_as_one_run(ready: Path, tmp_path: Path) -> None:
    clean = copy_of(ready, tmp_path, "clean")
    assert run(clean, "--jobs", "2").returncode == 0
    for step in ("save:4", "git-commit:3", "dequeue:3"):  # a count per worker process
        root = copy_of(ready, tmp_path, step.replace(":", "-"))
        r = run(root, "--jobs", "2", PBEM_DIE_AT=step)
        assert r.returncode in (-9, 137), (step, r.returncode, r.stderr)
        r = run(root, "--jobs", "2")  # at once: no worker of the dead run holds the lock
        assert r.returncode == 0, (step, r.stderr)
        after, expected = history(root), history(clean)
        assert after["files"] == expected["files"], step
        assert after["tree"] == expected["tree"] and after["status"] == "", step
        for game in GAMES:
            assert Pbem(root)("verify", game).exit_code == 0


def test_shards_split_the_games_and_together_do_what_one_run_does(ready: Path, tmp_path: Path) -> None:
    one = copy_of(ready, tmp_path, "one")
    assert run(one).returncode == 0
    split = copy_of(ready, tmp_path, "split")
    seen = []
    for k in (1, 2, 3):
        r = run(split, "--shard", f"{k}/3")
        assert r.returncode == 0, r.stderr
        mine = sorted(g for g in GAMES if in_shard(g, (k, 3)))
        assert sorted(line.split(":")[0] for line in r.stdout.splitlines() if ": applied " in line) == mine
        seen += mine
    assert sorted(seen) == sorted(GAMES)  # each game in exactly one shard
    assert history(split)["files"] == history(one)["files"]


def test_every_shard_gets_some_games() -> None:
    games = [f"game-{i}" for i in range(200)]
    for n in (2, 3, 5):
        sizes = [sum(in_shard(g, (k, n)) for g in games) for k in range(1, n + 1)]
        assert sum(sizes) == 200 and min(sizes) > 200 / n / 2
    assert in_shard(None, (1, 3)) and not in_shard(None, (2, 3))  # mail naming no game: the first shard's


@pytest.mark.parametrize("value", ["0/2", "3/2", "1/0", "x", "1/", "-1/2", "1/2/3"])
def test_a_shard_that_is_not_one_is_a_usage_error(pbem: Pbem, value: str) -> None:
    pbem.new()
    assert_usage_error(pbem("advance", "--shard", value),
                       f"Invalid value for '--shard': {value!r} is not K/N with 1 <= K <= N (e.g. 1/2)")


@pytest.mark.parametrize("value, message", [("0", "0 is not in the range x>=1."),
                                            ("two", "'two' is not a valid integer range.")])
def test_jobs_must_be_a_number_of_processes(pbem: Pbem, value: str, message: str) -> None:
    pbem.new()
    assert_usage_error(pbem("advance", "--jobs", value), f"Invalid value for '--jobs' / '-j': {message}")


def test_a_run_on_a_detached_head_commits_nothing_and_says_why(ready: Path, tmp_path: Path) -> None:
    root = copy_of(ready, tmp_path, "detached")
    git(root, "checkout", "-q", "--detach")
    r = run(root, "--jobs", "1")
    assert r.returncode == 1
    assert f"g0: SKIPPED: {root.resolve()}: HEAD is not a branch with a commit; pbem commits on a branch; " \
           f"the new state is saved in g0/state.yaml but not committed (the next `pbem advance` commits it)" \
           in r.stderr.splitlines()
    git(root, "checkout", "-q", "main")
    r = run(root)
    assert r.returncode == 0, r.stderr
    assert git(root, "status", "--porcelain") == ""
    assert "(committed by the next run: the run that made it did not commit)" in git(root, "log", "-1", "--format=%B")


def test_a_shard_leaves_the_mail_of_another_shards_games_in_the_inbox(pbem: Pbem) -> None:
    from conftest_mail import FilesOut, MaildirDrop, MailGames, address, player_mail, turn_file

    games = {1: next(g for g in (f"s{i}" for i in range(50)) if in_shard(g, (1, 2))),
             2: next(g for g in (f"s{i}" for i in range(50)) if in_shard(g, (2, 2)))}
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    tokens = {k: g.new(game, seed=f"shard-mail-seed-{k}-0001") for k, game in games.items()}
    for k, game in games.items():
        who = pbem.show(game)["waiting_for"][0]
        g.inbox.deliver(player_mail(address(who), "orders\n", message_id=f"<orders.{game}@players.test>",
                                    attachments=[("turn.yaml", turn_file(game, who, tokens[k][who], 1, ["auction"]))]))
    r = pbem("advance", "--shard", "2/2")
    assert r.exit_code == 0, r.output
    assert pbem.show(games[2])["turn"] == 2 and pbem.show(games[1])["turn"] == 1
    assert [b"<orders." + games[1].encode() in raw for raw in g.inbox.waiting()] == [True]  # left for its host
    r = pbem("advance", "--shard", "1/2")
    assert r.exit_code == 0, r.output
    assert pbem.show(games[1])["turn"] == 2 and g.inbox.waiting() == []


def test_a_dry_run_of_a_shard_tells_of_that_shards_games_alone(ready: Path, tmp_path: Path) -> None:
    root = copy_of(ready, tmp_path, "dry")
    before = history(root)
    r = run(root, "--dry-run", "--shard", "2/3")
    assert r.returncode == 0, r.stderr
    mine = sorted(g for g in GAMES if in_shard(g, (2, 3)))
    assert sorted(line.split()[2].rstrip(":") for line in r.stdout.splitlines()) == mine
    assert all(line.startswith(f"(dry run) {line.split()[2]} applied ") for line in r.stdout.splitlines()), r.stdout
    assert history(root) == before


def test_a_worker_killed_alone_stops_no_game_for_good(ready: Path, tmp_path: Path) -> None:
    """A worker killed by the kernel (out of memory): the run says which games it could not finish,
    commits the others, and the next run takes up the rest; nothing is applied twice."""
    clean = copy_of(ready, tmp_path, "clean")
    assert run(clean, "--jobs", "2").returncode == 0
    root = copy_of(ready, tmp_path, "killed")
    r = run(root, "--jobs", "2", PBEM_DIE_AT="worker:3")
    assert r.returncode == 1, r.stderr
    skipped = [line for line in r.stderr.splitlines() if ": SKIPPED: " in line]
    assert skipped and all(line.endswith("SKIPPED: the process advancing it died (killed?); what it saved, the "
                                         "next `pbem advance` commits, and its queue is applied then")
                           for line in skipped), r.stderr
    r = run(root, "--jobs", "2")
    assert r.returncode == 0, r.stderr
    after, expected = history(root), history(clean)
    assert after["files"] == expected["files"] and after["status"] == ""
    for game in GAMES:
        state = helpers.load_game(root, game)
        assert len(state["log"]) == len(helpers.load_game(clean, game)["log"])
