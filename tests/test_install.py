"""A normal (not editable) install works: the schemas, the templates and the rules data are installed
inside the package and found through importlib.resources, not read from the source tree."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# what a build must not see or write into: the copy is built, never the working tree (a local build
# leaves build/ and *.egg-info behind)
_SKIP_AT_TOP = {".git", ".venv", "build", "dist", "demo-games", "bench-games", "games", ".pytest_cache"}


def _ignore(folder: str, names: list[str]) -> set[str]:
    skip = {n for n in names if n == "__pycache__" or n.endswith(".egg-info")}
    if Path(folder).resolve() == ROOT:
        skip |= _SKIP_AT_TOP & set(names)
    return skip


def _pip_install(src: Path, site: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-input",
                           "--disable-pip-version-check", "--target", str(site), *extra, str(src)],
                          capture_output=True, text=True, timeout=300)


def _can_build_without_isolation() -> bool:
    code = ("import setuptools, sys\n"
            "try:\n    import setuptools.command.bdist_wheel\nexcept ImportError:\n    import wheel\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0


def install(tmp_path: Path) -> Path:
    """pip-install a copy of the project into tmp_path/site; the site folder."""
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=_ignore)
    site = tmp_path / "site"
    first = _pip_install(src, site)
    if first.returncode == 0:
        return site
    # the isolated build needs setuptools from the index; without one, build with the venv's own
    if not _can_build_without_isolation():
        pytest.skip("cannot build pbem: the isolated build failed and this venv has no setuptools with "
                    f"bdist_wheel to build without isolation:\n{first.stdout[-2000:]}{first.stderr[-2000:]}")
    shutil.rmtree(site, ignore_errors=True)
    second = _pip_install(src, site, "--no-build-isolation")
    assert second.returncode == 0, (f"isolated build:\n{first.stdout}{first.stderr}\n"
                                    f"without isolation:\n{second.stdout}{second.stderr}")
    return site


def run_installed(site: Path, cwd: Path, code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PBEM_GAMES_DIR", "PYTHONHOME")}
    env["PYTHONPATH"] = str(site)
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


CLI = "import sys\nfrom pbem.cli import main\nmain(sys.argv[1:], prog_name='pbem')\n"


def test_a_normal_install_runs_outside_the_source_tree(tmp_path: Path) -> None:
    site = install(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    games = tmp_path / "games"

    where = run_installed(site, work, "import importlib.resources as r, json, pbem\n"
                                      "print(json.dumps([pbem.__file__, str(r.files('pbem.schemas')), "
                                      "str(r.files('pbem.templates'))]))\n")
    assert where.returncode == 0, where.stderr
    for path in json.loads(where.stdout):
        assert Path(path).resolve().is_relative_to(site.resolve()), path
        assert not Path(path).resolve().is_relative_to(ROOT), path
    installed = site / "pbem"
    assert sorted(p.name for p in (installed / "schemas").glob("*.json")) == sorted(
        p.name for p in (ROOT / "schemas").glob("*.json"))
    assert (installed / "templates" / "medici" / "report.txt.j2").is_file()
    assert (installed / "templates" / "common" / "error.txt.j2").is_file()
    assert (installed / "rules" / "medici.yaml").is_file()

    new = run_installed(site, work, CLI, "new", "medici", "g1", "--player", "anna=anna@example.org",
                        "--player", "ben=ben@example.org", "--player", "cleo=cleo@example.org",
                        "--seed", "install-test", "--weak-seed", "--games-dir", str(games), "--json")
    assert new.returncode == 0, new.stderr
    created = json.loads(new.stdout)
    assert created["game"] == "g1"
    assert [p["name"] for p in created["players"]] == ["anna", "ben", "cleo"]
    assert (games / "g1" / "state.yaml").is_file()
    assert len(list((games / "g1" / "reports" / "anna").iterdir())) == 1  # rendered from a template

    show = run_installed(site, work, CLI, "show", "g1", "--as", "anna", "--games-dir", str(games))
    assert show.returncode == 0, show.stderr
    assert show.stdout.startswith("MEDICI g1 - turn 1 - report for anna\n")
    assert "THE TABLE" in show.stdout

    as_json = run_installed(site, work, CLI, "show", "g1", "--json", "--games-dir", str(games))
    assert as_json.returncode == 0, as_json.stderr
    assert json.loads(as_json.stdout)["ruleset"] == "medici"

    # a domain error still exits 1 with its message (the schemas are found for the turn file)
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: g1\n")
    refused = run_installed(site, work, CLI, "submit", str(bad), "--games-dir", str(games))
    assert refused.returncode == 1
    assert refused.stderr == ("Error: the turn file is not valid:\n"
                              "  - line 1, the top level: lacks 'player', 'token'\n"
                              "  - line 1, the top level: lacks 'orders' or 'standing' or 'reports'\n")
    assert not (work / "games").exists()
