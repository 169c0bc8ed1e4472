"""A command starts at once: each command imports what it uses and nothing else. Each is run as a
process of its own over a games dir with a Medici game, a Maildir inbox and a folder outbox, and the
modules it had loaded when it exited are listed; the mail stack, the templates, Pillow, Babel, the
schema library, the catalogs and the rules of the other games come back into none that does not use
them, and it starts no child process but the ones its work needs (git where it reads the repository;
never one to ask setpriv what it can do, whose answer the user's cache folder keeps). A run of
`pbem advance` that applies one order and mails its reports with a picture is held to its own list:
each heavy module it loads is named with what it is for, and nothing named goes unloaded. Of a library
a command uses, it loads no part it does not: no template is compiled where the cache holds it, so
no Jinja2 extension is loaded."""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

import pbem
from pbem.rules.base import KNOWN

# runs `pbem ARGS...` in this process and writes the names of the modules it loaded to $MODULES_OUT; with
# $CHILDREN_OUT, also each process it started (its argv, one a line) and each catalog (.mo file) it opened
LISTING = """
import atexit, json, os, sys
atexit.register(lambda: open(os.environ["MODULES_OUT"], "w").write("\\n".join(sorted(sys.modules))))
started, opened = [], []
def audit(event, args):  # Python's audit events: seen without importing subprocess or gettext
    if event == "subprocess.Popen":
        started.append([args[1]] if isinstance(args[1], (str, bytes)) else [str(a) for a in args[1]])
    elif event == "open" and isinstance(args[0], str) and args[0].endswith(".mo"):
        opened.append(args[0])
if os.environ.get("CHILDREN_OUT"):
    sys.addaudithook(audit)
    atexit.register(lambda: open(os.environ["CHILDREN_OUT"], "w").write(json.dumps([started, opened])))
sys.argv = ["pbem", *sys.argv[1:]]
from pbem.cli import main
main()
"""

GAME = "medici"
# what is heavy to load, and what it is (a module is heavy when its name is one of these or below one)
HEAVY = {
    "jinja2": "Jinja2", "markupsafe": "Jinja2", "PIL": "Pillow", "resvg_py": "resvg", "babel": "Babel",
    "jsonschema": "jsonschema", "openskill": "OpenSkill", "smtplib": "the mail stack", "imaplib": "the mail stack",
    "email": "the mail stack", "pbem.mail": "pbem's mail", "gettext": "the catalogs",
    "pbem.game": "the game pipeline", "pbem.turnfile": "the turn-file reader", "pbem.report": "the reports",
    "pbem.pictures": "the pictures", "pbem.raster": "the pictures", "pbem.archive": "the web site",
    "pbem.standings": "the standings", "pbem.rules.medici_bot": "Medici's bot",
    "pbem.lobby": "the lobby", "pbem.starting": "the start of games",
    "html": "the stdlib's table of HTML entities", "xml": "an XML parser", "ctypes": "libc through ctypes",
    "logging": "the logging package", "concurrent": "a pool of worker processes",
    "multiprocessing": "a pool of worker processes", "importlib.metadata": "the installed packages' metadata",
    "zoneinfo": "the time zone database", "hashlib": "OpenSSL's digests (pbem.digests makes them without it)",
    "_hashlib": "OpenSSL's digests", "hmac": "OpenSSL's digests (hmac loads them)",
    "secrets": "OpenSSL's digests (secrets loads hmac)",
    **{module: f"the rules of {game}" for game, module in KNOWN.items() if game != GAME},
}
# what a command may load of them, because it uses it, and why: a library by its name (and all of it),
# pbem's own modules one by one
CATALOGS = {"gettext": "click says its own words through gettext (pbem's catalogs stay unread)"}
JINJA_DIGESTS = {"hashlib": "Jinja2's loaders name compiled templates by SHA-1", "_hashlib": "hashlib's"}
GAME_READ = {"pbem.game": "it plays the queue of the game", "pbem.turnfile": "pbem.game checks the queued orders as turn files"}
USES: dict[str, dict[str, str]] = {
    "--help": CATALOGS,
    "--version": CATALOGS,
    "status": {**CATALOGS, "pbem.lobby": "it lists the games not begun"},
    # a report kept from an earlier show is printed as it was: neither rendered nor its game loaded
    "show": CATALOGS,
    "show, a report not kept": {**CATALOGS, **GAME_READ, "jinja2": "the report is rendered from its template",
                                "markupsafe": "Jinja2's", "pbem.report": "the report", **JINJA_DIGESTS},
    "submit": {**CATALOGS, **GAME_READ},  # it reads the turn file and checks it against the game
    # it checks pbem.yaml (read as a turn file is: line numbers, no duplicate keys), opens the mailboxes
    # and reads the lobby's files
    "doctor": {**CATALOGS, "pbem.turnfile": "pbem.yaml is read as a turn file is", "pbem.mail": "the mailboxes",
               "pbem.mail.boxes": "the mailboxes", "pbem.mail.ids": "the reply keys' secret", "pbem.lobby": "its files"},
    # it looks into the empty inbox (and into no lobby: the games dir has none)
    "advance": {**CATALOGS, **GAME_READ, "pbem.mail": "the inbox", "pbem.mail.boxes": "it looks into the empty inbox"},
    # one order applied and its reports mailed to the outbox's files, with a picture of the board: no mail
    # read (the inbox is empty), no observer (nobody watches), no bot, no lobby
    "advance, one order": {
        **CATALOGS, **GAME_READ,
        "pbem.mail": "the inbox and the outbox", "pbem.mail.boxes": "the inbox looked into, the outbox written",
        "jinja2": "the reports are rendered from their templates", "markupsafe": "Jinja2's", **JINJA_DIGESTS,
        "pbem.report": "the players' reports", "email": "each report goes as a mail (email.message, .policy, "
                                                        ".generator: the mail's bytes)",
        "pbem.mail.post": "the reports posted", "pbem.mail.compose": "each mail written",
        "pbem.mail.headers": "the kinds of a mail's headers", "pbem.mail.ids": "each mail's Message-ID and the player's reply key",
        "pbem.mail.phone": "the HTML part beside the picture", "PIL": "the picture of the board drawn as PNG",
        "pbem.pictures": "the picture of the board", "pbem.raster": "the picture drawn from its SVG",
        "xml": "the raster reads the picture's SVG", "ctypes": "syncfs(2): the games dir's file system synced once",
        "logging": "Pillow's ImageFile, which Image.tobytes imports for its buffer size",
    },
}
# parts of a library that no command loads, though it uses the library: the fixtures' first commands
# compile the templates, and the ones measured read them compiled from the user's cache (jinja2.ext's
# i18n extension reads `{% trans %}` where a template is compiled; pbem.i18n gives the words)
UNUSED_PARTS = {"jinja2.ext": "Jinja2's extensions, for templates compiled already"}
# the child processes each command starts (the program and its first argument; a git through setpriv
# counts as the git): only what its work needs
CHILDREN = {
    "--help": [],
    "--version": [],
    "status": [["git", "ls-tree"]],  # a game whose folder is gone, which git still has
    "show": [],
    "show, a report not kept": [],
    "submit": [],
    "doctor": None,  # it tries git, each of its checks
    "advance": [["git", "status"]],  # what a run that died left uncommitted
    # what a run that died left uncommitted; the run's commit written by pbem (git's objects), the branch
    # moved to it, its files into the index (the commit-graph is not written for the one commit it lacks)
    "advance, one order": [["git", "status"], ["git", "update-ref"], ["git", "update-index"]],
}


def child(argv: list[str]) -> list[str]:
    """The program `argv` starts and its first argument, past setpriv's `--pdeathsig KILL --`."""
    if Path(argv[0]).name == "setpriv" and "--" in argv:
        argv = argv[argv.index("--") + 1:]
    return [Path(argv[0]).name, *argv[1:2]]


def heavy(module: str) -> str | None:
    """What heavy thing `module` is part of, or None."""
    for name, what in HEAVY.items():
        if module == name or module.startswith(name + "."):
            return what
    return None


def used(module: str, uses: dict[str, str]) -> bool:
    return module in uses or (not module.startswith("pbem.") and module.split(".")[0] in uses)


def loaded(root: Path, *args: str) -> tuple[set[str], str]:
    """The modules `pbem ARGS` had loaded when it exited (it must exit 0), and what it printed."""
    modules, printed, _, _ = watched(root, *args)
    return modules, printed


def watched(root: Path, *args: str) -> tuple[set[str], str, list[list[str]], list[str]]:
    """What `pbem ARGS` (it must exit 0) had loaded when it exited, what it printed, the processes it
    started (each its argv) and the catalogs it opened."""
    out, children = root.parent / "modules.txt", root.parent / "children.json"
    env = dict(os.environ, PBEM_GAMES_DIR=str(root), MODULES_OUT=str(out), CHILDREN_OUT=str(children))
    run = subprocess.run([sys.executable, "-c", LISTING, *args], cwd=root.parent, env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    started, opened = json.loads(children.read_text())
    return set(out.read_text().split()), run.stdout, started, opened


@pytest.fixture(scope="module", autouse=True)
def user_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A cache folder of the tests' own (what setpriv can do is asked once, then read from it)."""
    folder = tmp_path_factory.mktemp("user-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PBEM_CACHE", str(folder))
        yield folder


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A games dir with one Medici game, its inbox empty, and a turn file of its player to move."""
    return games_dir(tmp_path_factory.mktemp("cmds") / "games")


@pytest.fixture(scope="module")
def games_with_one_order(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Another such games dir, with pictures in the mail, and one order submitted (its game's welcome
    mails are in the outbox already): a run applies it and mails the reports. A twin of it is advanced
    first, so that the run reads its templates compiled, as a host's every run but its first does."""
    twin = one_order_dir(tmp_path_factory.mktemp("one-order-twin") / "games")
    advanced = subprocess.run([sys.executable, "-m", "pbem", "advance"], env=dict(os.environ, PBEM_GAMES_DIR=str(twin)),
                              capture_output=True, text=True, timeout=120)
    assert advanced.returncode == 0 and advanced.stdout.startswith("m1: applied "), advanced.stdout + advanced.stderr
    return one_order_dir(tmp_path_factory.mktemp("one-order") / "games")


def one_order_dir(root: Path) -> Path:
    """`games_dir` at `root` with pictures in the mail and the turn file beside it submitted."""
    games_dir(root)
    with (root / "pbem.yaml").open("a") as config:
        config.write("pictures: true\n")
    submitted = subprocess.run([sys.executable, "-m", "pbem", "submit", "turn.yaml"], cwd=root.parent,
                               env=dict(os.environ, PBEM_GAMES_DIR=str(root)), capture_output=True, text=True,
                               timeout=120)
    assert submitted.returncode == 0 and submitted.stdout.startswith("Queued "), submitted.stdout + submitted.stderr
    return root


@pytest.fixture(scope="module")
def games_to_submit_to(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Another such games dir (made as the first was: a copy of it would be a pbem.yaml changed since
    pbem last saw it, which the command checks with git)."""
    return games_dir(tmp_path_factory.mktemp("submit") / "games")


def games_dir(root: Path) -> Path:
    """A games dir at `root` with one Medici game, its inbox empty, and beside it a turn file of the
    player to move."""
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
    "show, a report not kept": ["show", "m1", "--as", "anna"],
    "submit": ["submit", "turn.yaml"],
    "doctor": ["doctor"],
    "advance": ["advance"],
    "advance, one order": ["advance"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_command_loads_nothing_heavy_it_does_not_use(games: Path, games_to_submit_to: Path,
                                                       games_with_one_order: Path, command: str) -> None:
    if command == "submit":  # into a games dir of its own: the other commands see a game with nothing to do
        games = games_to_submit_to
    if command == "advance, one order":
        games = games_with_one_order
        mails = set((games / "mail" / "outbox").iterdir())
    if command == "show":  # shown once before: the report kept is printed
        first = watched(games, *COMMANDS[command])[1]
    modules, printed, started, opened = watched(games, *COMMANDS[command])
    if command == "show":
        assert printed == first and "\nMEDICI m1 - turn 1 - GM view\n" in printed
    if command == "advance":
        assert printed == "m1: nothing to do\n"
    if command == "submit":
        assert printed.startswith("Queued ")
    if command == "advance, one order":  # the order applied, and a mail with the picture for who moves next
        assert printed.startswith("m1: applied ") and " mail" in printed, printed
        written = [path.read_bytes() for path in set((games / "mail" / "outbox").iterdir()) - mails]
        assert written and any(b"Content-Type: image/png" in mail for mail in written)
    unused = sorted(f"{m} ({heavy(m)})" for m in modules if heavy(m) and not used(m, USES[command]))
    assert unused == [], f"pbem {' '.join(COMMANDS[command])} loads what it does not use"
    named = sorted(use for use in USES[command] if not any(m == use or m.startswith(use + ".") for m in modules))
    assert named == [], f"pbem {' '.join(COMMANDS[command])} is said to use what it does not load"
    parts = sorted(f"{m} ({UNUSED_PARTS[m]})" for m in set(UNUSED_PARTS) & modules)
    assert parts == [], f"pbem {' '.join(COMMANDS[command])} loads parts of a library it does not use"
    assert opened == [], f"pbem {' '.join(COMMANDS[command])} reads catalogs, and writes no player's text"
    children = [child(argv) for argv in started]
    assert ["setpriv", "--pdeathsig"] not in children, "setpriv is asked again, though the cache holds its answer"
    if CHILDREN[command] is None:
        assert {program for program, *_ in children} <= {"git"}, children
    else:
        assert children == CHILDREN[command], f"pbem {' '.join(COMMANDS[command])} starts processes it does not need"


@pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("setpriv") is None, reason="no setpriv")
def test_setpriv_is_asked_once_and_its_answer_kept(games: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """With an empty cache folder, the first command that starts a git asks setpriv whether it sets the
    death signal; the next reads the answer from the cache and starts its git alone."""
    monkeypatch.setenv("PBEM_CACHE", str(tmp_path / "cache"))
    first = [child(argv) for argv in watched(games, "status")[2]]
    second = [child(argv) for argv in watched(games, "status")[2]]
    assert first[0] == ["setpriv", "--pdeathsig"] and first[1:] == second == [["git", "ls-tree"]]
    assert (tmp_path / "cache" / "setpriv-pdeathsig").read_text().endswith("\nyes")


def test_advance_looks_for_the_lobby_where_the_lobby_keeps_its_games() -> None:
    """A run looks for the lobby's folder without loading pbem.lobby: by the very name the lobby uses."""
    from pbem import advance, lobby

    assert advance.LOBBY_FOLDER == lobby.LOBBY_DIR


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
