"""A command starts at once: each command imports what it uses and nothing else. Each is run as a
process of its own over a games dir with a Medici game, a Maildir inbox and a folder outbox, and the
modules it had loaded when it exited are listed; the mail stack, the templates, Pillow, Babel, the
schema library and the rules of the other games come back into none that does not use them."""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import pbem
from pbem.rules.base import KNOWN

# runs `pbem ARGS...` in this process and writes the names of the modules it loaded to $MODULES_OUT
LISTING = """
import atexit, os, sys
atexit.register(lambda: open(os.environ["MODULES_OUT"], "w").write("\\n".join(sorted(sys.modules))))
sys.argv = ["pbem", *sys.argv[1:]]
from pbem.cli import main
main()
"""

GAME = "medici"
# what is heavy to load, and what it is (a module is heavy when its name is one of these or below one)
HEAVY = {
    "jinja2": "Jinja2", "markupsafe": "Jinja2", "PIL": "Pillow", "resvg_py": "resvg", "babel": "Babel",
    "jsonschema": "jsonschema", "openskill": "OpenSkill", "smtplib": "the mail stack", "imaplib": "the mail stack",
    "email.mime": "the mail stack", "pbem.mail": "pbem's mail", "pbem.report": "the reports",
    "pbem.pictures": "the pictures", "pbem.raster": "the pictures", "pbem.archive": "the web site",
    "pbem.standings": "the standings", "pbem.rules.medici_bot": "Medici's bot",
    **{module: f"the rules of {game}" for game, module in KNOWN.items() if game != GAME},
}
# what a command may load of them, because it uses it: a library by its name (and all of it), pbem's
# own modules one by one
USES = {
    "--help": set(),
    "--version": set(),
    "status": set(),
    "show": {"jinja2", "markupsafe", "pbem.report"},  # it renders the player's report
    "submit": set(),
    "doctor": {"pbem.mail", "pbem.mail.boxes", "pbem.mail.ids"},  # it opens the mailboxes
    "advance": {"pbem.mail", "pbem.mail.boxes"},  # it looks into the inbox, which is empty
}


def heavy(module: str) -> str | None:
    """What heavy thing `module` is part of, or None."""
    for name, what in HEAVY.items():
        if module == name or module.startswith(name + "."):
            return what
    return None


def used(module: str, uses: set[str]) -> bool:
    return module in uses or (not module.startswith("pbem.") and module.split(".")[0] in uses)


def loaded(root: Path, *args: str) -> tuple[set[str], str]:
    """The modules `pbem ARGS` had loaded when it exited (it must exit 0), and what it printed."""
    out = root.parent / "modules.txt"
    env = dict(os.environ, PBEM_GAMES_DIR=str(root), MODULES_OUT=str(out))
    run = subprocess.run([sys.executable, "-c", LISTING, *args], cwd=root.parent, env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    return set(out.read_text().split()), run.stdout


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A games dir with one Medici game, its inbox empty, and a turn file of its player to move."""
    root = tmp_path_factory.mktemp("cmds") / "games"
    root.mkdir()
    (root / "pbem.yaml").write_text('gm: {name: "Game Master", address: "gm@pbem.test"}\n'
                                    "inbox: {type: maildir, path: mail/inbox}\n"
                                    "outbox: {type: files, path: mail/outbox}\n")
    for folder in ("new", "cur", "tmp"):
        (root / "mail" / "inbox" / folder).mkdir(parents=True)
    made = subprocess.run([sys.executable, "-m", "pbem", "new", GAME, "m1", "--player", "anna=anna@pbem.test",
                           "--player", "ben=ben@pbem.test", "--player", "cleo=cleo@pbem.test",
                           "--seed", "command-imports-seed-01", "--json"],
                          env=dict(os.environ, PBEM_GAMES_DIR=str(root)), capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stdout + made.stderr
    tokens = {p["name"]: p["token"] for p in json.loads(made.stdout)["players"]}
    state = json.loads(subprocess.run([sys.executable, "-m", "pbem", "status", "--json"], capture_output=True,
                                      text=True, env=dict(os.environ, PBEM_GAMES_DIR=str(root))).stdout)
    player = state[0]["waiting_for"][0]
    (root.parent / "turn.yaml").write_text(f"game: m1\nplayer: {player}\ntoken: {tokens[player]}\nturn: 1\n"
                                           "orders:\n  - draw\n")
    return root


COMMANDS = {
    "--help": ["--help"],
    "--version": ["--version"],
    "status": ["status"],
    "show": ["show", "m1"],
    "submit": ["submit", "turn.yaml"],
    "doctor": ["doctor"],
    "advance": ["advance"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_command_loads_nothing_heavy_it_does_not_use(games: Path, command: str, tmp_path: Path) -> None:
    if command == "submit":  # into a copy: the other commands see a game with nothing to do
        shutil.copytree(games, tmp_path / "games")
        shutil.copy(games.parent / "turn.yaml", tmp_path)
        games = tmp_path / "games"
    modules, printed = loaded(games, *COMMANDS[command])
    if command == "advance":
        assert printed == "m1: nothing to do\n"
    if command == "submit":
        assert printed.startswith("Queued ")
    unused = sorted(f"{m} ({heavy(m)})" for m in modules if heavy(m) and not used(m, USES[command]))
    assert unused == [], f"pbem {' '.join(COMMANDS[command])} loads what it does not use"


def test_help_and_version_load_no_games_dir_and_no_game() -> None:
    """`pbem --help` and `pbem --version` read nothing of a game: neither the store nor the rules nor YAML."""
    for args in (["--help"], ["--version"]):
        run = subprocess.run([sys.executable, "-c", LISTING.replace('os.environ["MODULES_OUT"]', "'/dev/stderr'"),
                              *args], capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr
        modules = set(run.stderr.split())
        assert modules & {"yaml", "pbem.store", "pbem.game", "pbem.rules.base", "importlib.metadata"} == set(), args


def test_the_version_pbem_prints_is_the_installed_one() -> None:
    """--version says pbem.__version__ (read without the installed metadata): it is the version installed."""
    run = subprocess.run([sys.executable, "-m", "pbem", "--version"], capture_output=True, text=True, timeout=60)
    assert (run.returncode, run.stdout) == (0, f"python -m pbem, version {importlib.metadata.version('pbem')}\n")
    assert pbem.__version__ == importlib.metadata.version("pbem")


def test_every_command_is_named_once_and_loads_as_itself() -> None:
    """pbem.cli names each module of pbem.commands (but the shared one) as one command, which loads as
    the command of that name; `pbem --help` lists every one."""
    from click.testing import CliRunner

    from pbem.cli import COMMANDS, main

    modules = {p.stem for p in (Path(pbem.__file__).parent / "commands").glob("*.py")} - {"__init__", "common"}
    assert {where.split(":")[0].rsplit(".", 1)[1] for where in COMMANDS.values()} == modules
    assert [c.name for c in main.commands.values()] == list(COMMANDS)
    listed = CliRunner().invoke(main, ["--help"]).output.split("Commands:\n", 1)[1]
    assert [line.split()[0] for line in listed.splitlines() if line.startswith("  ") and not line.startswith("   ")] \
        == sorted(COMMANDS)
