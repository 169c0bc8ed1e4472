"""The docs a GM, a player and a contributor read (README.md and docs/): every internal link and anchor
leads somewhere, every shell example marked runnable runs as written and prints what the page shows,
every other shell example says why it is not run, every pbem.yaml example is valid, and the docs site
builds with MkDocs in strict mode, the German and Dutch players' pages in their own language."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from docs_pages import DOCS, ROOT, SHELL, Block, anchors, blocks, links, name, pages

VENV_BIN = Path(sys.executable).parent
NOW = "2026-11-21T12:00:00Z"  # the clock of every example (PBEM_NOW), so that their output stays the same


def test_every_internal_link_and_anchor_leads_somewhere() -> None:
    """A link to a file of the checkout must find it; a link with #anchor must find a heading of that
    page with that anchor, as GitHub makes them (and, for a page of the docs site, as MkDocs does)."""
    broken = []
    for page in pages():
        in_site = page.is_relative_to(DOCS)
        for line, target in links(page):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
                continue
            path, _, anchor = target.partition("#")
            where = (page.parent / path).resolve() if path else page
            if not where.exists():
                broken.append(f"{name(page)}:{line}: {target}: no such file")
                continue
            if in_site and not where.is_relative_to(DOCS):
                broken.append(f"{name(page)}:{line}: {target}: a page of the site may link only inside docs/")
                continue
            if anchor:
                if where.suffix != ".md":
                    broken.append(f"{name(page)}:{line}: {target}: an anchor into a file that is no page")
                    continue
                wanted = [anchors(where, github=True)] + ([anchors(where, github=False)] if in_site else [])
                if not all(anchor in found for found in wanted):
                    broken.append(f"{name(page)}:{line}: {target}: no heading with that anchor")
    assert broken == []


def test_every_page_of_the_docs_is_in_the_sites_navigation() -> None:
    import yaml

    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"]
    listed: set[str] = set()

    def walk(entry: object) -> None:
        if isinstance(entry, str):
            listed.add(entry)
        elif isinstance(entry, list):
            for item in entry:
                walk(item)
        elif isinstance(entry, dict):
            for value in entry.values():
                walk(value)
    walk(nav)
    translated = re.compile(r"\.(de|nl)\.md$")
    wanted = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md") if not translated.search(p.name)}
    assert wanted - listed == set(), "pages the site's navigation does not list"
    assert listed - wanted == set(), "navigation entries without a page"
    for page in DOCS.rglob("*.md"):  # every translation has its English page
        if translated.search(page.name):
            assert (page.parent / translated.sub(".md", page.name)).is_file(), name(page)


def all_blocks() -> list[Block]:
    return [b for page in pages() for b in blocks(page)]


def test_every_shell_example_is_run_or_says_why_not() -> None:
    """Each fenced sh/console block has `<!-- run -->` or `<!-- not run: why -->` on the line before."""
    unmarked = [b.where() for b in all_blocks()
                if b.language in SHELL and not (b.marker == "run" or (b.marker == "not run" and b.argument))]
    assert unmarked == []
    wrongly = [b.where() for b in all_blocks() if b.marker in ("run", "not run") and b.language not in SHELL]
    assert wrongly == [], "run markers before blocks that are no shell examples"


def expected_matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the output matches the page's: a line `...` stands for any lines (none too), and `...`
    inside a line for any text."""
    if not expected:
        return not actual
    head = expected[0]
    if head == "...":
        return any(expected_matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    if not actual:
        return False
    pattern = ".*".join(re.escape(part) for part in head.split("..."))
    return re.fullmatch(pattern, actual[0]) is not None and expected_matches(expected[1:], actual[1:])


def console_steps(block: Block) -> list[tuple[str, list[str]]]:
    """The commands of a console block (`$ ` lines; a trailing `\\` continues one on the next line,
    which may begin with the shell's `> `), each with the output the page shows under it."""
    steps: list[tuple[str, list[str]]] = []
    lines = block.text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("$ "):
            command = line[2:]
            while command.endswith("\\") and i + 1 < len(lines):
                i += 1
                command = command[:-1] + " " + lines[i].removeprefix("> ").lstrip()
            steps.append((command, []))
        elif steps:
            steps[-1][1].append(line)
        i += 1
    return steps


def scratch_env(home: Path) -> dict[str, str]:
    """The environment of an example: the checkout's pbem first on the PATH, a home of its own, the
    clock fixed, no games dir set from outside."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PBEM_", "GIT_"))}
    env.update(PATH=f"{VENV_BIN}{os.pathsep}{env.get('PATH', '/usr/bin:/bin')}", HOME=str(home), PBEM_NOW=NOW)
    if "PBEM_RULESETS" in os.environ:  # the test game the suite registers stays registered
        env["PBEM_RULESETS"] = os.environ["PBEM_RULESETS"]
    return env


def pages_with_examples() -> list[Path]:
    return [p for p in pages() if any(b.marker == "run" for b in blocks(p))]


@pytest.mark.parametrize("page", pages_with_examples(), ids=name)
def test_the_shell_examples_of_a_page_run_as_written(page: Path, tmp_path: Path) -> None:
    """The runnable examples of one page, in order, in one scratch folder of their own: a console
    block's commands each print what the page shows (stdout and stderr), an sh block runs to its end
    with exit 0 (`set -eu`). A block marked `<!-- run: exits N -->` has its last command exit N."""
    home = tmp_path / "home"
    home.mkdir()
    env = scratch_env(home)
    work = tmp_path / "work"
    work.mkdir()
    for block in (b for b in blocks(page) if b.marker == "run"):
        exits = int(m.group(1)) if (m := re.match(r"exits (\d+)$", block.argument)) else 0
        if block.language == "console":
            steps = console_steps(block)
            assert steps, f"{block.where()}: a console block without a '$ ' command"
            for n, (command, expected) in enumerate(steps):
                done = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True,
                                      text=True, timeout=300, stdin=subprocess.DEVNULL)
                output = (done.stdout + done.stderr).splitlines()
                wanted_exit = exits if n == len(steps) - 1 else 0
                assert done.returncode == wanted_exit, (
                    f"{block.where()}: `{command}` exited {done.returncode}:\n" + "\n".join(output))
                assert expected_matches(expected, output), (
                    f"{block.where()}: `{command}` printed\n" + "\n".join(output)
                    + "\n--- where the page shows ---\n" + "\n".join(expected))
        else:
            done = subprocess.run(["bash", "-euc", block.text], cwd=work, env=env, capture_output=True,
                                  text=True, timeout=300, stdin=subprocess.DEVNULL)
            assert done.returncode == exits, f"{block.where()} exited {done.returncode}:\n{done.stdout}{done.stderr}"


def test_every_pbem_yaml_example_is_valid() -> None:
    """A yaml block marked `<!-- pbem.yaml -->` is checked as pbem checks the file it reads."""
    from pbem.config import check_config_text

    examples = [b for b in all_blocks() if b.marker == "pbem.yaml"]
    assert len(examples) >= 5
    for block in examples:
        check_config_text(block.text, block.where())


def test_the_docs_site_builds_strictly_with_every_language(tmp_path: Path) -> None:
    """`mkdocs build --strict` (what `make docs` runs) succeeds: no broken link, anchor or page. The
    players' guide exists in German and Dutch, each page in its own words; the command reference
    holds every command's help."""
    mkdocs = shutil.which("mkdocs", path=str(VENV_BIN))
    assert mkdocs, "mkdocs is in requirements-dev.lock; `make install` installs it"
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run([mkdocs, "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml"),
                            "--site-dir", str(site)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                           env=env)
    assert built.returncode == 0, built.stderr[-4000:]
    for lang, words in (("de", "Spieler"), ("nl", "Spelers")):
        page = (site / lang / "players" / "index.html").read_text(encoding="utf-8")
        assert f'lang="{lang}"' in page and words in page, lang
    commands = (site / "reference" / "commands" / "index.html").read_text(encoding="utf-8")
    from click import Group

    from pbem.cli import main

    assert isinstance(main, Group)
    for command in main.commands:
        assert f"pbem {command} [OPTIONS]" in commands, command
