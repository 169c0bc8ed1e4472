"""pbem as a host installs it: a wheel built from a copy of the checkout, installed with the locked
packages into a new virtual environment that has nothing else of pbem on its path, plays a whole game
by mail there, from a folder outside the checkout; and installed by pipx. The wheel holds every package
and data folder of the source tree, found by setup.py, not listed. Neither a host's lock nor the
wheel's dependencies bring anything of the tests or the docs site."""

from __future__ import annotations

import email
import email.policy
import fnmatch
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
import tomllib
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from pbem.rules.base import KNOWN
from rooms import GAMES

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements.lock"          # what a host installs: what pbem runs with
DEV_LOCK = ROOT / "requirements-dev.lock"  # what the tests and the docs site add

# what a build must not see or write into: the copy is built, never the working tree (a build leaves
# build/ and *.egg-info behind)
_SKIP_AT_TOP = {".git", ".venv", ".venv-lock", "build", "dist", "demo-games", "bench-games", "games", "site",
                ".pytest_cache"}
# files of the source folders that are the translators' tools or Python's caches, not pbem's data
NOT_INSTALLED = ("*.pot", "babel.cfg", "*.pyc", "*.pyo", "*.mo")
# where each source folder is installed
INSTALLED_AS = {"pbem": "pbem", "schemas": "pbem/schemas", "templates": "pbem/templates"}


def locked(lock: Path) -> dict[str, str]:
    """The packages a lock pins, by canonical name, and their versions."""
    pins = {}
    for line in lock.read_text().splitlines():
        if line[:1].isalnum() and "==" in line:
            name, _, version = line.split(" ")[0].partition("==")
            pins[canonicalize_name(name)] = version
    return pins


def extras() -> dict[str, set[str]]:
    """pyproject.toml's optional dependencies (the tests', the docs site's), by extra, as canonical names."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return {extra: {canonicalize_name(Requirement(r).name) for r in reqs}
            for extra, reqs in project["optional-dependencies"].items()}


def dependencies() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return {canonicalize_name(Requirement(r).name) for r in project["dependencies"]}


def _ignore(folder: str, names: list[str]) -> set[str]:
    skip = {n for n in names if n == "__pycache__" or n.endswith(".egg-info")}
    if Path(folder).resolve() == ROOT:
        skip |= _SKIP_AT_TOP & set(names)
    return skip


def _run(argv: list[str], cwd: Path, timeout: int = 600, input: str | None = None,
         env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout, input=input, env=env)


def _clean_env() -> dict[str, str]:
    """The environment without anything that would put the checkout or the test's venv on a path."""
    drop = {"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE", "VIRTUAL_ENV", "PBEM_GAMES_DIR"}
    return {k: v for k, v in os.environ.items() if k not in drop}


def source_files() -> set[str]:
    """Every file of the source folders a wheel must hold, as its path inside the wheel."""
    wanted: set[str] = set()
    for folder, inside in INSTALLED_AS.items():
        for path in (ROOT / folder).rglob("*"):
            rel = path.relative_to(ROOT / folder)
            if not path.is_file() or "__pycache__" in rel.parts or any(p.endswith(".egg-info") for p in rel.parts):
                continue
            if any(fnmatch.fnmatch(path.name, pattern) for pattern in NOT_INSTALLED):
                continue
            if folder == "pbem" and rel.parts[0] in ("schemas", "templates"):
                continue  # not in the source tree; nothing there to install
            wanted.add(f"{inside}/{rel.as_posix()}")
    return wanted


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """pbem's wheel, built from a copy of the checkout with the locked setuptools of this venv."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    shutil.copytree(ROOT, src, ignore=_ignore)
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                  "--disable-pip-version-check", "--wheel-dir", str(tmp / "dist"), str(src)], cwd=tmp)
    assert built.returncode == 0, built.stdout + built.stderr
    wheels = list((tmp / "dist").glob("pbem-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Path:
    """A new virtual environment (no system site-packages) with the locked packages and the wheel."""
    where = tmp_path_factory.mktemp("host") / "venv"
    made = _run([sys.executable, "-m", "venv", str(where)], cwd=where.parent, env=_clean_env())
    assert made.returncode == 0, made.stderr
    python = str(where / "bin" / "python")
    locked = _run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--require-hashes",
                   "-r", str(LOCK)], cwd=where.parent, env=_clean_env(), timeout=900)
    if locked.returncode != 0 and "No matching distribution" in locked.stderr + locked.stdout:
        pytest.skip(f"the locked packages cannot be had here (no package index?):\n{locked.stderr[-2000:]}")
    assert locked.returncode == 0, locked.stdout + locked.stderr
    # the wheel's own requirements must be met by the locked packages alone: no index to fetch others
    own = _run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-index", str(wheel)],
               cwd=where.parent, env=_clean_env())
    assert own.returncode == 0, own.stdout + own.stderr
    check = _run([python, "-m", "pip", "check"], cwd=where.parent, env=_clean_env())
    assert check.returncode == 0, check.stdout + check.stderr
    return where


def test_the_wheel_holds_every_package_and_data_folder_of_the_source_tree(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    files = {n for n in names if not n.startswith("pbem-") and not n.endswith("/")}
    wanted = source_files()
    assert wanted - files == set(), "missing from the wheel"
    assert files - wanted == set(), "in the wheel but not in the source tree"
    folders = {n.rsplit("/", 1)[0] for n in files}
    for needed in ("pbem/store", "pbem/mail", "pbem/schemas", "pbem/templates/common", "pbem/templates/archive",
                   "pbem/locale/de/LC_MESSAGES", "pbem/locale/nl/LC_MESSAGES", "pbem/locale/words"):
        assert needed in folders, needed
    for game in [g for g in GAMES if KNOWN[g].startswith("pbem.")]:  # each game pbem ships: rules, templates
        rules = KNOWN[game].replace(".", "/")
        assert rules in folders or f"{rules}.py" in files, rules
        assert f"pbem/templates/{game}" in folders, game
    metadata = zipfile.ZipFile(wheel).read("pbem-0.1.0.dist-info/entry_points.txt").decode()
    assert "pbem = pbem.cli:run" in metadata


def test_the_wheel_holds_no_benchmark_code(wheel: Path) -> None:
    """The benchmarks live in benchmarks/ beside the tests: the wheel holds none of their modules, and no
    module of the wheel imports them (a host has no benchmarks/ to import)."""
    archive = zipfile.ZipFile(wheel)
    names = [n for n in archive.namelist() if not n.endswith("/")]
    assert (ROOT / "benchmarks" / "bench.py").is_file()  # what `make bench` runs is still in the checkout
    assert [n for n in names if n.startswith("benchmarks/") or n.rsplit("/", 1)[-1].startswith("bench")] == []
    importing = [n for n in names if n.endswith(".py")
                 and ("import benchmarks" in (text := archive.read(n).decode("utf-8"))
                      or "from benchmarks" in text)]
    assert importing == []


def test_the_wheels_dependencies_name_no_test_or_docs_package(wheel: Path) -> None:
    """What installing the wheel brings is pyproject.toml's dependencies; pytest, the mail servers of
    the tests and MkDocs come only with the extras `test` and `docs`, which a host does not ask for."""
    archive = zipfile.ZipFile(wheel)
    metadata = archive.read("pbem-0.1.0.dist-info/METADATA").decode()
    required, optional = set(), set()
    for line in metadata.splitlines():
        if line.startswith("Requires-Dist: "):
            requirement = Requirement(line.removeprefix("Requires-Dist: "))
            name = canonicalize_name(requirement.name)
            (optional if requirement.marker and "extra" in str(requirement.marker) else required).add(name)
    assert required == dependencies()
    everything_extra = set().union(*extras().values())
    assert {"pytest", "pytest-xdist", "aiosmtpd", "trustme", "mkdocs"} <= everything_extra
    assert required & everything_extra == set()
    assert optional == everything_extra


def test_a_hosts_lock_holds_what_pbem_runs_with_and_nothing_of_the_tests() -> None:
    """requirements.lock pins every dependency pbem has, and pip and setuptools; requirements-dev.lock
    pins every package the extras add that the host's lock lacks, and none that it holds (so installing
    both never pins one package twice)."""
    runs, dev = locked(LOCK), locked(DEV_LOCK)
    assert dependencies() | {"pip", "setuptools"} <= set(runs)
    assert set(runs) & set(dev) == set()
    assert set().union(*extras().values()) <= set(dev)
    for name in ("pytest", "pytest-xdist", "aiosmtpd", "trustme", "execnet", "pluggy", "iniconfig",
                 "mkdocs", "mkdocs-material", "pipx"):
        assert name not in runs, name
    for lock in (LOCK, DEV_LOCK):  # hash-checked: every pin carries its files' hashes
        text = lock.read_text()
        blocks = [b for b in text.split("\n") if b[:1].isalnum()]
        assert blocks and all(b.rstrip().endswith("\\") for b in blocks), lock.name
        assert text.count("==") == len(blocks) and "--hash=sha256:" in text


def test_the_installed_pbem_is_the_wheels_alone(venv: Path, tmp_path: Path) -> None:
    code = ("import json, sys, importlib.resources as r, pbem\n"
            "print(json.dumps({'file': pbem.__file__, 'path': sys.path, 'schemas': str(r.files('pbem.schemas')),\n"
            "                  'templates': str(r.files('pbem.templates'))}))\n")
    where = _run([str(venv / "bin" / "python"), "-c", code], cwd=tmp_path, env=_clean_env())
    assert where.returncode == 0, where.stderr
    found = json.loads(where.stdout)
    for key in ("file", "schemas", "templates"):
        assert Path(found[key]).resolve().is_relative_to(venv.resolve()), found[key]
    for entry in found["path"]:
        assert not (entry and Path(entry).resolve().is_relative_to(ROOT)), entry
    site = next((venv / "lib").glob("python3*/site-packages"))
    assert not list(site.glob("__editable__*")) and not list(site.glob("*pbem*.pth"))
    listed = _run([str(venv / "bin" / "python"), "-m", "pip", "list", "--format", "json"], cwd=tmp_path,
                  env=_clean_env())
    installed = {canonicalize_name(p["name"]) for p in json.loads(listed.stdout)}
    assert installed == set(locked(LOCK)) | {"pbem"}  # the host's lock and pbem, nothing of the tests


def test_pipx_installs_a_working_pbem_with_nothing_of_the_tests(wheel: Path, tmp_path: Path) -> None:
    """The GM's guide's other route: `pipx install` of the wheel puts `pbem` on the PATH in a venv
    of its own, which starts a game (its report mail drawn, picture and all) and holds pbem's
    dependencies alone."""
    env = _clean_env() | {"PIPX_HOME": str(tmp_path / "pipx"), "PIPX_BIN_DIR": str(tmp_path / "bin"),
                          "PIPX_MAN_DIR": str(tmp_path / "man"), "HOME": str(tmp_path)}
    made = _run([sys.executable, "-m", "pipx", "install", str(wheel)], cwd=tmp_path, env=env, timeout=900)
    if made.returncode != 0 and "No matching distribution" in made.stdout + made.stderr:
        pytest.skip(f"pbem's dependencies cannot be had here (no package index?):\n{made.stderr[-2000:]}")
    assert made.returncode == 0, made.stdout + made.stderr
    pbem_command = tmp_path / "bin" / "pbem"
    version = _run([str(pbem_command), "--version"], cwd=tmp_path, env=env)
    assert (version.returncode, version.stdout) == (0, "pbem, version 0.1.0\n")
    games = tmp_path / "games"
    started = _run([str(pbem_command), "new", "medici", "m1", "--player", "anna=anna@pbem.test",
                    "--player", "ben=ben@pbem.test", "--player", "cleo=cleo@pbem.test",
                    "--seed", "pipx-install-seed-01", "--games-dir", str(games)], cwd=tmp_path, env=env)
    assert started.returncode == 0, started.stdout + started.stderr
    welcome = email.message_from_bytes(sorted((games / "mail" / "outbox").glob("m1.anna.*.eml"))[0].read_bytes(),
                                       policy=email.policy.default)
    assert any(part.get_content_type() == "image/png" for part in welcome.walk())
    listed = _run([sys.executable, "-m", "pipx", "runpip", "pbem", "list", "--format", "json"], cwd=tmp_path, env=env)
    assert listed.returncode == 0, listed.stderr
    installed = {canonicalize_name(p["name"]) for p in json.loads(listed.stdout)}
    assert installed & set().union(*extras().values()) == set()
    assert dependencies() | {"pbem"} <= installed


def test_a_whole_game_by_mail_with_the_installed_pbem(venv: Path, tmp_path: Path) -> None:
    """pbem init, pbem new, then each order a player's one-line reply in the Maildir inbox and
    pbem advance: the first 12 decisions and the last (the bots play those between, saved as a run
    saves, and the installed pbem's next run commits them and mails the reports); pbem archive,
    pbem verify and pbem --version, each the installed `pbem` command, run from a folder outside the
    checkout."""
    import mailbox

    from benchmarks.bench import phone_reply, play_by_replies, spoken
    from helpers import bot_move
    from pbem.game import waiting_for
    from pbem.store import GamesDir

    pbem_command = str(venv / "bin" / "pbem")
    work = tmp_path / "work"
    work.mkdir()
    games = tmp_path / "games"

    def pbem(args: list[str], input: str | None = None) -> str:
        r = _run([pbem_command, *args], cwd=work, input=input, env=_clean_env(), timeout=120)
        assert r.returncode == 0, f"pbem {' '.join(args)} exited {r.returncode}:\n{r.stdout}{r.stderr}"
        return r.stdout

    version = _run([pbem_command, "--version"], cwd=work, env=_clean_env())
    assert (version.returncode, version.stdout) == (0, "pbem, version 0.1.0\n")

    assert pbem(["init", "--address", "gm@pbem.test", "--games-dir", str(games)]) == \
        f"Wrote {games / 'pbem.yaml'}. Edit it to say where mail comes in and how it goes out.\n"
    play = play_by_replies(games, players=3, seed="install-test-seed-0001", command=pbem, limit=12)
    assert (play.refusals, play.fallbacks) == (0, 0)
    assert play.orders == play.sent == play.runs == 12  # each reply one order, each run one reply

    def last_reports() -> dict[str, Any]:
        """Each player's last report (the answers to his replies are reply-*.eml)."""
        last = {}
        for path in sorted((games / "mail" / "outbox").glob("m1.*.eml")):
            msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            last[msg["To"].addresses[0].username] = msg
        return last

    gd = GamesDir(games)
    ahead = gd.load("m1")
    while (after := bot_move(ahead))["status"] == "active":
        ahead = after
    gd.save("m1", ahead)
    # the last decision's player asks for his report (the run commits what the bots played), and
    # replies to it with his order
    mover = waiting_for(ahead)[0]
    order = next(e["order"] for e in after["log"][len(ahead["log"]):])
    inbox, outbox = mailbox.Maildir(games / "mail" / "inbox"), games / "mail" / "outbox"
    answered = last_reports()[mover]
    for serial, line in ((98, "status"), (99, spoken(order))):
        inbox.add(phone_reply(answered, f"{mover}@example.org", line, serial))
        written = set(outbox.glob("*.eml"))
        out = pbem(["advance", "--games-dir", str(games)])
        answered = next(msg for msg in (email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
                                        for path in sorted(set(outbox.glob("*.eml")) - written))
                        if msg["To"].addresses[0].username == mover)
    assert f"mail from {mover}@example.org: m1 turn " in out and ": queued " in out, out
    state = gd.load("m1")
    assert state["status"] == "finished"
    orders = len(state["log"])
    assert not list((games / "mail" / "inbox" / "new").iterdir())  # every reply was read
    last = last_reports()
    assert sorted(last) == ["p0", "p1", "p2"]
    for msg in last.values():  # the final report, with the board's picture drawn by the installed pbem
        assert msg["Subject"] == "[pbem] m1 the game is over"
        assert "The game is over. 1. " in msg.get_body(("plain",)).get_content()
        assert any(part.get_content_type() == "image/png" for part in msg.walk())

    assert pbem(["verify", "m1", "--games-dir", str(games)]) == \
        f"m1: verified: {orders} orders replay to the identical game.\n"

    site = tmp_path / "site"
    assert pbem(["archive", "--out", str(site), "--games-dir", str(games)]) == (
        f"m1: {orders + 1} turn pages (finished: everything, the seed and the order log)\n"
        f"Wrote {site / 'index.html'}\n")
    assert (site / "style.css").is_file() and (site / "m1" / "index.html").is_file()
    for turn in range(orders + 1):  # the start and one page per order, each with its board
        assert (site / "m1" / f"turn-{turn:04d}.html").is_file() and (site / "m1" / f"turn-{turn:04d}.svg").is_file()
    checked = pbem(["verify", "--log", str(site / "m1" / "game.yaml")])
    assert checked.startswith(f"m1 (Medici): {orders} orders replay from the seed to the end of the game.\n")
    assert checked.endswith("They are the standings the log file claims.\n")

    # a domain error still exits 1 with its message (the schemas are found for the turn file)
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: m1\n")
    refused = _run([pbem_command, "submit", str(bad), "--games-dir", str(games)], cwd=work, env=_clean_env())
    assert refused.returncode == 1
    assert refused.stderr == ("Error: the turn file is not valid:\n"
                              "  - line 1, the top level: lacks 'player', 'token'\n"
                              "  - line 1, the top level: lacks 'orders' or 'standing' or 'reports'\n")
    assert not (work / "games").exists()
