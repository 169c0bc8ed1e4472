"""The games dir itself: what makes a folder one (only `new` and `init` create it; every other command
refuses a folder that is not one, and leaves nothing in it), the names pbem keeps for its own folders,
and games that need the GM because a file of theirs is missing or corrupt."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from helpers import Pbem, assert_error, commit_count, git, player_args, snapshot_at_head
from pbem.cli import main
from pbem.store import GamesDir

PLAYERS = ("anna", "ben", "cleo")
NO_FOLDER = "{root} is not a pbem games dir (no such folder); `pbem new` or `pbem init` creates one"
NOT_PBEMS = ("{root} is not a pbem games dir (it holds no pbem.yaml, no game and no pbem .gitignore); "
             "`pbem new` or `pbem init` makes it one")
FOREIGN_REPO = ("{root} is not a pbem games dir (it is a git repository of something else); "
                "choose the games dir with --games-dir or $PBEM_GAMES_DIR")
RESERVED = "{name!r} is a name pbem uses for its own folder in the games dir; choose another game id"

# every command but `new` and `init`, with arguments that would do something in a games dir
COMMANDS = [
    ("status",), ("status", "--json"), ("advance",), ("advance", "--dry-run"), ("show", "m1"), ("verify", "m1"),
    ("submit", "-"), ("set", "m1", "--deadline", "48h"), ("pause", "m1"), ("resume", "m1"),
    ("rollback", "m1", "--to", "1"), ("replace", "m1", "ben", "dora=dora@example.org"),
]


def checkout(tmp_path: Path) -> Path:
    """A project's own git checkout: files and a commit, no pbem in it."""
    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    (root / "README.md").write_text("a project\n")
    (root / ".gitignore").write_text(".venv/\n")
    (root / "src" / "main.py").write_text("print('hi')\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "the project")
    return root


def everything(root: Path) -> dict[str, bytes]:
    """Every file under `root`, .git included but for git's own bookkeeping of reads."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != "index"}


# -- only `new` and `init` create a games dir -------------------------------------------------------------

@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a))
def test_every_other_command_refuses_a_folder_that_does_not_exist(tmp_path: Path, args: tuple[str, ...]) -> None:
    pbem = Pbem(tmp_path / "nowhere")
    assert_error(pbem(*args, input=""), NO_FOLDER.format(root=tmp_path / "nowhere"))
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a))
def test_every_other_command_refuses_a_checkout_and_leaves_nothing_in_it(tmp_path: Path, args: tuple[str, ...]) -> None:
    root = checkout(tmp_path)
    before = everything(root)
    assert_error(Pbem(root)(*args, input=""), FOREIGN_REPO.format(root=root))
    assert everything(root) == before
    assert not (root / ".pbem.lock").exists()


def test_a_plain_folder_is_no_games_dir(tmp_path: Path) -> None:
    root = tmp_path / "papers"
    root.mkdir()
    (root / "notes.txt").write_text("notes\n")
    for args in (("status",), ("advance",)):
        assert_error(Pbem(root)(*args), NOT_PBEMS.format(root=root))
    assert sorted(p.name for p in root.iterdir()) == ["notes.txt"]


def test_the_default_games_dir_of_a_checkout_is_refused_until_new(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = checkout(tmp_path)
    (root / "games").mkdir()
    (root / "games" / "README.md").write_text("the games live here\n")
    monkeypatch.chdir(root)  # the commands without --games-dir: ./games
    result = CliRunner().invoke(main, ["advance"])
    assert_error(result, NOT_PBEMS.format(root=root / "games"))
    assert not (root / "games" / ".pbem.lock").exists()
    result = CliRunner().invoke(main, ["new", "medici", "m1", *player_args(*PLAYERS), "--seed", "s" * 16])
    assert result.exit_code == 0, result.output
    assert git(root / "games", "rev-parse", "--show-toplevel").strip() == str((root / "games").resolve())
    assert CliRunner().invoke(main, ["status"]).exit_code == 0


def test_new_and_init_create_the_games_dir(tmp_path: Path) -> None:
    for command in (["init"], ["new", "medici", "m1", *player_args(*PLAYERS), "--seed", "s" * 16]):
        root = tmp_path / command[0] / "deep" / "games"
        r = Pbem(root)(*command)
        assert r.exit_code == 0, r.output
        assert GamesDir(root).is_games_dir()
        assert git(root, "status", "--porcelain") == ""
        assert Pbem(root)("status").exit_code == 0


def test_new_refuses_another_projects_repository(tmp_path: Path) -> None:
    root = checkout(tmp_path)
    before = everything(root)
    r = Pbem(root)("new", "medici", "m1", *player_args(*PLAYERS), "--seed", "s" * 16)
    assert_error(r, f"{root} is a git repository of something else (it holds no pbem.yaml, no game and no pbem "
                    f".gitignore); choose another folder for the games")
    assert everything(root) == before
    assert not (root / ".pbem.lock").exists()


def test_new_adopts_an_empty_repository(tmp_path: Path) -> None:
    root = tmp_path / "games"
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    assert Pbem(root).new("m1")
    assert git(root, "status", "--porcelain") == ""
    assert ".pbem.lock" in (root / ".gitignore").read_text().splitlines()


@pytest.mark.parametrize("marker", ["pbem.yaml", ".gitignore", "game"])
def test_what_marks_a_games_dir(tmp_path: Path, marker: str) -> None:
    made = tmp_path / "made"
    Pbem(made).new("m1")
    root = tmp_path / "games"
    root.mkdir()
    if marker == "pbem.yaml":
        (root / "pbem.yaml").write_text("gm:\n  name: GM\n  address: gm@example.org\n")
    elif marker == ".gitignore":
        (root / ".gitignore").write_bytes((made / ".gitignore").read_bytes())
    else:  # a game made by the library, without git or pbem.yaml
        (root / "m1").mkdir()
        for name in ("state.yaml", "events.yaml", "log.yaml"):
            (root / "m1" / name).write_bytes((made / "m1" / name).read_bytes())
    assert GamesDir(root).is_games_dir()
    r = Pbem(root)("status", "--json")
    assert r.exit_code == 0, r.output
    assert [row["game"] for row in json.loads(r.stdout)] == (["m1"] if marker == "game" else [])


# -- names pbem keeps for itself ------------------------------------------------------------------------

def test_new_refuses_the_name_of_pbems_mail_folder(tmp_path: Path) -> None:
    pbem = Pbem(tmp_path / "games")
    r = pbem("new", "medici", "mail", *player_args(*PLAYERS), "--seed", "s" * 16)
    assert_error(r, RESERVED.format(name="mail"))
    assert not pbem.games.exists()
    pbem.new("m1")
    before = snapshot_at_head(pbem.games)
    assert_error(pbem("new", "medici", "mail", *player_args(*PLAYERS), "--seed", "s" * 16), RESERVED.format(name="mail"))
    assert_error(pbem("show", "mail"), RESERVED.format(name="mail"))
    assert snapshot_at_head(pbem.games) == before


def test_new_refuses_the_name_of_a_mail_folder_set_in_pbem_yaml(tmp_path: Path) -> None:
    pbem = Pbem(tmp_path / "games")
    pbem.games.mkdir()
    (pbem.games / "pbem.yaml").write_text(
        "gm:\n  name: GM\n  address: gm@example.org\ninbox:\n  type: maildir\n  path: orders/in\n"
        "outbox:\n  type: files\n  path: sent-mail\n")
    for name in ("orders", "sent-mail"):
        assert_error(pbem("new", "medici", name, *player_args(*PLAYERS), "--seed", "s" * 16),
                     RESERVED.format(name=name))
    assert sorted(p.name for p in pbem.games.iterdir()) == ["pbem.yaml"]


def test_the_mail_folder_is_never_listed_as_a_game(tmp_path: Path) -> None:
    pbem = Pbem(tmp_path / "games")
    pbem.new("m1")
    (pbem.games / "mail" / "reports").mkdir(parents=True)  # looks like a game folder, but is pbem's own
    (pbem.games / "mail" / "state.yaml").write_text("x\n")
    assert GamesDir(pbem.games).games() == ["m1"]


# -- games that need the GM -----------------------------------------------------------------------------

@pytest.fixture
def two(tmp_path: Path) -> tuple[Pbem, dict[str, dict[str, str]], Path]:
    """Games m1 and m2, each with one order queued by its player to move; the folder for turn files."""
    pbem = Pbem(tmp_path / "games")
    folder = tmp_path / "turns"
    folder.mkdir()
    tokens = {g: pbem.new(g) for g in ("m1", "m2")}
    for g in ("m1", "m2"):
        who = pbem.show(g)["waiting_for"][0]
        path = folder / f"{g}.yaml"
        path.write_text(yaml.safe_dump({"game": g, "player": who, "token": tokens[g][who], "turn": 1,
                                        "orders": ["auction"]}))
        assert pbem("submit", path).exit_code == 0
    return pbem, tokens, folder


def needs_the_gm(pbem: Pbem, game: str, message: str) -> None:
    """`status` and `status --json` list the game as needing the GM, with `message`."""
    r = pbem("status")
    assert r.exit_code == 0, r.output
    assert f"{game:<16} NEEDS THE GM: {message}" in r.stdout.splitlines()
    assert r.stdout.endswith(f"\nNeeds the GM:\n  {game}: {message}\n")
    rows = {row["game"]: row for row in json.loads(pbem("status", "--json").stdout)}
    assert rows[game] == {"game": game, "error": message}


def skipped(pbem: Pbem, game: str, message: str, other: str) -> None:
    """`advance --dry-run` and `advance` skip the game with `message`; `other` advances."""
    r = pbem("advance", "--dry-run")
    assert f"(dry run) {game}: SKIPPED: {message.removeprefix(f'{game}: ')}" in r.stdout.splitlines()
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    r = pbem("advance")
    assert r.exit_code == 1, r.output
    assert f"{game}: SKIPPED: {message.removeprefix(f'{game}: ')}" in r.stderr.splitlines()
    assert r.stderr.endswith(f"Error: 1 game skipped: {game}\n")
    assert pbem.show(other)["turn"] == 2


def test_a_deleted_state_file(two: tuple[Pbem, Any, Path]) -> None:
    """A running game's state file is not in git (its seed is secret): the GM restores it from a backup."""
    pbem, _, _ = two
    root = pbem.games.resolve()
    backup = (pbem.games / "m1" / "state.yaml").read_bytes()
    (pbem.games / "m1" / "state.yaml").unlink()
    message = (f"m1: the state file {root}/m1/state.yaml is missing; while a game runs git does not hold it "
               f"(its seed and what is hidden stay out of git): restore it from a backup of the games dir")
    needs_the_gm(pbem, "m1", message)
    skipped(pbem, "m1", message, "m2")
    assert len(list((pbem.games / "m1" / "queue").iterdir())) == 1  # its orders wait
    assert git(pbem.games, "status", "--porcelain") == ""  # git never had it
    (pbem.games / "m1" / "state.yaml").write_bytes(backup)
    r = pbem("advance")
    assert r.exit_code == 0, r.output
    assert pbem.show("m1")["turn"] == 2


def test_a_deleted_game_folder(two: tuple[Pbem, Any, Path]) -> None:
    pbem, _, _ = two
    root = pbem.games.resolve()
    subprocess.run(["rm", "-rf", str(pbem.games / "m1")], check=True)
    message = (f"m1: the game folder {root}/m1 is missing; while a game runs git does not hold it (its seed and "
               f"what is hidden stay out of git): restore it from a backup of the games dir")
    needs_the_gm(pbem, "m1", message)
    skipped(pbem, "m1", message, "m2")


@pytest.mark.parametrize("text, problem", [
    ("player: [anna\n", "is corrupt at line 2: did not find expected ',' or ']'"),
    ("player: anna\nturn: 1\norders: [dr\x00aw]\n",
     "is corrupt at line 3: a control character (U+0000) that YAML does not allow; delete it"),
    ("- just\n- a list\n", "is corrupt: it is not a queue entry (player, turn, orders)"),
    ("player: anna\nturn: one\norders: [draw]\n", "is corrupt: it is not a queue entry (player, turn, orders)"),
    (b"\xff\xfe", "is corrupt: not UTF-8 text"),
])
def test_a_corrupt_queued_file(two: tuple[Pbem, Any, Path], text: str | bytes, problem: str) -> None:
    pbem, _, _ = two
    bad = pbem.games / "m1" / "queue" / "00000000000000000001-anna.yaml"
    bad.write_bytes(text if isinstance(text, bytes) else text.encode())
    state = (pbem.games / "m1" / "state.yaml").read_bytes()
    count = commit_count(pbem.games)
    message = f"m1: the queued file m1/queue/{bad.name} {problem}"
    needs_the_gm(pbem, "m1", message)
    skipped(pbem, "m1", message, "m2")
    assert (pbem.games / "m1" / "state.yaml").read_bytes() == state
    assert commit_count(pbem.games) == count + 1  # m2's turn alone
    bad.unlink()
    assert pbem("advance").exit_code == 0
    assert pbem.show("m1")["turn"] == 2


def test_a_game_named_like_a_mail_folder_set_later_needs_the_gm(tmp_path: Path) -> None:
    pbem = Pbem(tmp_path / "games")
    pbem.new("orders")
    (pbem.games / "pbem.yaml").write_text(
        "gm:\n  name: GM\n  address: gm@example.org\ninbox:\n  type: maildir\n  path: orders/in\n")
    needs_the_gm(pbem, "orders", RESERVED.format(name="orders"))


def test_the_games_a_run_finds_in_gits_status_are_the_games_git_has(tmp_path: Path) -> None:
    """`pbem advance` lists the games from the `git status` it reads anyway (no `git ls-tree`): a game
    whose state file or whole folder is missing but in HEAD is listed, one only ever added is not."""
    from pbem.game import new_game

    gd = GamesDir(tmp_path / "games", create=True)
    gd.ensure_repo()
    people = [("ann", "ann@example.org"), ("bob", "bob@example.org"), ("cy", "cy@example.org")]
    for game in ("g1", "g2", "g3", "g4", "g5", "g6"):
        gd.save(game, new_game(gd, "medici", game, people, {}, f"seed-{game}")[0])
    gd.commit_paths(["g1", "g2", "g3", "g4", "g5"], "games\n")
    git(gd.root, "add", "g6")  # added, never committed

    def same() -> list[str]:
        status = gd.status()
        assert gd.games(status) == gd.games()
        return gd.games(status)
    assert same() == ["g1", "g2", "g3", "g4", "g5", "g6"]
    (gd.root / "g2" / "state.yaml").unlink()  # " D"
    subprocess.run(["rm", "-r", str(gd.root / "g3")], check=True)  # the whole folder
    git(gd.root, "rm", "-q", "-r", "--cached", "g4")  # "D " and untracked
    subprocess.run(["rm", "-r", str(gd.root / "g4")], check=True)
    subprocess.run(["rm", "-r", str(gd.root / "g6")], check=True)  # "AD": git never had it in HEAD
    assert same() == ["g1", "g2", "g3", "g4", "g5"]


def test_a_commit_stages_and_commits_in_two_git_calls_and_nothing_changed_commits_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A change is staged and committed (`git add` says what it staged: no third call asks); a run that
    died between its `git add` and its commit, whose change is undone since, leaves nothing to commit,
    and the next commit of the same paths says so instead of failing."""
    gd = GamesDir(tmp_path)
    gd.ensure_repo()
    (tmp_path / "g1").mkdir()
    kept = tmp_path / "g1" / "public.yaml"
    kept.write_text("turn: 1\n", "utf-8")
    calls: list[str] = []
    real = gd._git
    monkeypatch.setattr(gd, "_git", lambda *args, **kw: calls.append(args[0]) or real(*args, **kw))
    assert gd.commit_paths(["g1"], "turn 1\n") is True
    assert calls == ["add", "commit"]
    calls.clear()
    assert gd.commit_paths(["g1"], "nothing\n") is False
    assert calls == ["add", "diff"]
    kept.write_text("turn: 2\n", "utf-8")
    git(tmp_path, "add", "-A", "g1")  # staged, and the run died before its commit
    kept.write_text("turn: 1\n", "utf-8")  # the next run wrote the file as it was
    before = commit_count(tmp_path)
    assert gd.commit_paths(["g1"], "turn 1 again\n") is False
    assert commit_count(tmp_path) == before
    assert git(tmp_path, "status", "--porcelain") == ""
