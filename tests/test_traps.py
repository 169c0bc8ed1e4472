"""What trips a GM who runs pbem as the README says: git showing pbem.yaml modified for good after he
edits it, a command run inside the games dir looking for ./games below it, a games dir of another user
(git's "dubious ownership" as root, files pbem may not write), and the systemd unit disagreeing with
`pbem init` on the user, the folders and the password file. Each with its exact message and exit code."""

from __future__ import annotations

import configparser
import os
import pwd
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from helpers import assert_error, commit_count, game_files, git, player_args, seed_args
from pbem.cli import main as pbem_main

ROOT = Path(__file__).resolve().parent.parent
GM = "gm@pbem.test"


def run(*args: str, input: str | None = None) -> Any:
    """pbem in-process, with no --games-dir: it finds the games dir from the current folder."""
    return CliRunner().invoke(pbem_main, list(args), input=input)


@pytest.fixture
def games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A games dir with pbem.yaml and a game, made from the folder above it; the current folder."""
    monkeypatch.chdir(tmp_path)
    assert run("init", "--address", GM).exit_code == 0
    r = run("new", "medici", "m1", *player_args("anna", "ben", "cleo"), *seed_args("traps"))
    assert r.exit_code == 0, r.output
    root = (tmp_path / "games").resolve()
    monkeypatch.chdir(root)
    return root


def clean(root: Path) -> str:
    return git(root, "status", "--porcelain", "--untracked-files=all")


# -- what git tracks stays clean ----------------------------------------------------------------------

def test_the_gms_edit_of_pbem_yaml_is_committed_by_the_next_command(games: Path) -> None:
    path = games / "pbem.yaml"
    path.write_text(path.read_text().replace("pictures: true", "pictures: false"))
    assert clean(games) == " M pbem.yaml\n"
    r = run("advance")
    assert r.exit_code == 0, r.output
    assert clean(games) == ""
    assert git(games, "log", "-2", "--format=%s") == "pbem.yaml: the GM's changes\nm1: new medici game for anna, " \
                                                      "ben, cleo\n"
    assert git(games, "show", "HEAD:pbem.yaml") == path.read_text()
    before = commit_count(games)
    assert run("advance").exit_code == 0  # nothing changed since: no commit, no git call for it
    assert commit_count(games) == before


def test_a_pbem_yaml_written_by_hand_before_the_first_game_is_committed_with_the_repository(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "games"
    root.mkdir()
    (root / "pbem.yaml").write_text(f"gm:\n  address: {GM}\npictures: false\n")
    monkeypatch.chdir(root)
    r = run("new", "medici", "m1", *player_args("anna", "ben", "cleo"), *seed_args("traps"))
    assert r.exit_code == 0, r.output
    assert clean(root) == ""
    assert git(root, "log", "--format=%s").splitlines() == [
        "m1: new medici game for anna, ben, cleo", "pbem.yaml: the GM's changes", "pbem games repository"]


def test_a_password_in_pbem_yaml_stays_out_of_git(games: Path) -> None:
    """git would keep the password for whoever reads the repository: the change stays uncommitted
    (pbem doctor is the one to say so), and the commands still run."""
    path = games / "pbem.yaml"
    value = yaml.safe_load(path.read_text())
    value["outbox"] = {"type": "smtp", "host": "smtp.pbem.test", "user": "gm", "password": "hunter2-secret"}
    path.write_text(yaml.safe_dump(value))
    before = commit_count(games)
    r = run("status")
    assert r.exit_code == 0
    r = run("set", "m1", "--deadline", "48h")
    assert r.exit_code == 0, r.output
    assert commit_count(games) == before + 1  # the deadline's commit alone
    assert clean(games) == " M pbem.yaml\n"
    assert "hunter2-secret" not in git(games, "log", "-p", "--all")


def test_a_broken_pbem_yaml_is_not_committed(games: Path) -> None:
    path = games / "pbem.yaml"
    path.write_text(path.read_text() + "pictures: maybe\n")
    r = run("advance")
    assert r.exit_code == 1
    assert clean(games) == " M pbem.yaml\n"
    assert "pictures: maybe" not in git(games, "show", "HEAD:pbem.yaml")


def test_every_command_leaves_git_clean(games: Path, tmp_path: Path) -> None:
    for args in (["status"], ["show", "m1"], ["advance"], ["doctor"], ["verify", "m1"], ["standings"],
                 ["archive", "--out", str(tmp_path / "site")], ["set", "m1", "--deadline", "2d"], ["pause", "m1"],
                 ["resume", "m1"], ["open", "medici", "o1", "--seats", "3"], ["watch", "--once", "--interval", "0.001"]):
        r = run(*args)
        assert r.exit_code in (0, 1), (args, r.output)  # doctor fails on the disk of a test machine at worst
        assert clean(games) == "", args


# -- every command finds the games dir it runs in -------------------------------------------------------

@pytest.mark.parametrize("where", [".", "m1", "m1/reports/anna", "mail"])
def test_a_command_inside_the_games_dir_finds_it(games: Path, monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    monkeypatch.chdir(games / where)
    r = run("status", "--json")
    assert r.exit_code == 0, r.output
    assert [row["game"] for row in yaml.safe_load(r.stdout)] == ["m1"]
    r = run("doctor")
    assert "ok   gm: gm@pbem.test is no player's address (1 game)" in r.stdout.splitlines(), r.output
    assert run("verify", "m1").exit_code == 0
    r = run("new", "medici", "m2", *player_args("dora", "emil", "fritz"), *seed_args("traps"))
    assert r.exit_code == 0, r.output
    assert (games / "m2" / "state.yaml").is_file() and not (games / where / "games").exists()
    r = run("advance")
    assert r.exit_code == 0, r.output


def test_outside_a_games_dir_the_default_is_still_games_below(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert_error(run("status"), f"{tmp_path.resolve()}/games is not a pbem games dir (no such folder); `pbem new` "
                                f"or `pbem init` creates one")


def test_games_dir_and_the_environment_win_over_the_current_folder(games: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "other"
    assert run("init", "--games-dir", str(other)).exit_code == 0
    r = run("status", "--json", "--games-dir", str(other))
    assert yaml.safe_load(r.stdout) == []
    monkeypatch.setenv("PBEM_GAMES_DIR", str(other))
    assert yaml.safe_load(run("status", "--json").stdout) == []


# -- a games dir of another user ------------------------------------------------------------------------

def owned_by(root: Path, user: str) -> None:
    entry = pwd.getpwnam(user)
    for path in [root, *root.rglob("*")]:
        os.lchown(path, entry.pw_uid, entry.pw_gid)


def files_and_owners(root: Path) -> dict[str, Any]:
    return {**game_files(root), **{f"{p.relative_to(root)}@": p.lstat().st_uid for p in root.rglob("*")}}


@pytest.fixture
def foreign(games: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The games dir, owned by the user nobody, with git's own settings of this test (no safe.directory)."""
    if os.geteuid() != 0:
        pytest.skip("needs root to give the games dir to another user")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    owned_by(games, "nobody")
    return games


def refusal(root: Path, command: str) -> str:
    return (f"{root} belongs to the user nobody, not to root who runs pbem (git refuses another user's folder, and "
            f"the files pbem writes would be root's): run `sudo -u nobody pbem {command} ...`, or "
            f"`git config --global --add safe.directory {root}` to let root work in it")


@pytest.mark.parametrize("args", [["status"], ["advance"], ["advance", "--quiet"], ["doctor"], ["show", "m1"],
                                  ["set", "m1", "--deadline", "2d"], ["watch", "--once"], ["verify", "m1"],
                                  ["init", "--address", GM]])
def test_another_users_games_dir_is_refused_in_one_line(foreign: Path, args: list[str]) -> None:
    before = files_and_owners(foreign)
    assert_error(run(*args), refusal(foreign, args[0]))
    assert files_and_owners(foreign) == before


def test_a_git_folder_of_another_user_is_refused_too(games: Path, monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    owned_by(games / ".git", "nobody")
    assert_error(run("advance"), refusal(games, "advance"))


def test_safe_directory_lets_the_user_work_in_it(foreign: Path, tmp_path: Path) -> None:
    """The way out the message gives, taken: git's safe.directory names the games dir."""
    subprocess.run(["git", "config", "--global", "--add", "safe.directory", str(foreign)], check=True)
    r = run("status", "--json")
    assert r.exit_code == 0, r.output
    assert [row["game"] for row in yaml.safe_load(r.stdout)] == ["m1"]


def test_a_file_pbem_may_not_write_is_said_in_one_line(games: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run of pbem as another user (with safe.directory) left a file of its own in the games dir: the
    owner's next command fails on it. Root may write anything, so the refusal is made here where the
    lock file is opened, as the kernel would for the games dir's owner."""
    from pbem.store import gamesdir

    stray = games / ".pbem.lock"
    owned_by(stray, "nobody")
    opened = gamesdir.GamesDir.lock

    def lock(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise PermissionError(13, "Permission denied", str(stray))
    monkeypatch.setattr(gamesdir.GamesDir, "lock", lock)
    assert_error(run("advance"), f"{stray}: permission denied: it belongs to nobody, not to root who owns the games "
                                 f"dir (did someone run pbem as another user?); `sudo chown -R root: {games}` gives "
                                 f"the games dir back to root")
    monkeypatch.setattr(gamesdir.GamesDir, "lock", opened)


# -- the systemd unit, pbem init and the GM's guide agree -------------------------------------------------

SERVICE_USER = "pbem"
SERVICE_GAMES_DIR = "/srv/games"
SERVICE_PBEM = "/opt/pbem/bin/pbem"  # the venv of the GM's guide


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(ROOT / "docs" / "pbem-watch.service")
    return parser


def test_the_unit_runs_pbem_as_its_user_in_its_games_dir() -> None:
    service = unit()["Service"]
    assert (service["User"], service["Group"], service["WorkingDirectory"]) == \
        (SERVICE_USER, SERVICE_USER, SERVICE_GAMES_DIR)
    argv = shlex.split(service["ExecStart"])
    assert argv[:4] == [SERVICE_PBEM, "watch", "--games-dir", SERVICE_GAMES_DIR]
    ctx = pbem_main.make_context("pbem", argv[1:2], resilient_parsing=True)  # a command pbem has
    watch = pbem_main.get_command(ctx, argv[1])
    assert watch is not None
    watch.make_context("watch", argv[2:])  # options it takes


def test_the_units_comments_say_what_pbem_init_writes() -> None:
    from pbem.init import PASSWORD_FILE

    text = (ROOT / "docs" / "pbem-watch.service").read_text()
    assert f"{SERVICE_GAMES_DIR}/{PASSWORD_FILE} (mode 0600, owned by {SERVICE_USER}, ignored by git)" in text
    assert f"sudo -u {SERVICE_USER} {SERVICE_PBEM} init --games-dir {SERVICE_GAMES_DIR}" in text
    assert f"sudo -u {SERVICE_USER} {SERVICE_PBEM} doctor --games-dir {SERVICE_GAMES_DIR} --send" in text
    assert f"install -d -o {SERVICE_USER} -g {SERVICE_USER} -m 0700 {SERVICE_GAMES_DIR}" in text
