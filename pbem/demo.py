"""`make demo`: four bots play a whole game of Medici through the real pipeline.

Each bot reads only what `pbem show --as` gives its player, writes a turn file, and hands it to
`pbem submit`; `pbem advance` applies it, writes everyone's reports and commits the turn to git.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import click
from click.testing import CliRunner

from pbem import bots
from pbem.cli import main as pbem
from pbem.store import dump_yaml

PLAYERS = ["anna", "ben", "cleo", "dario"]


def run(runner: CliRunner, games: Path, *args: str) -> str:
    """One `pbem` command, exactly as a GM would type it."""
    result = runner.invoke(pbem, [*args, "--games-dir", str(games)], catch_exceptions=False)
    if result.exit_code != 0:
        raise SystemExit(f"pbem {' '.join(args)} failed ({result.exit_code}): {result.output}")
    return result.output


@click.command()
@click.option("--dir", "folder", default="demo-games", type=click.Path(path_type=Path), show_default=True)
@click.option("--ruleset", default="medici", show_default=True)
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE")
@click.option("--seed", default="demo", show_default=True)
@click.option("--players", "count", default=4, show_default=True)
def demo(folder: Path, ruleset: str, options: tuple[str, ...], seed: str, count: int) -> None:
    """Play a whole game by bots through turn files, `pbem advance` and reports."""
    if folder.exists():
        shutil.rmtree(folder)
    games, inbox = folder / "games", folder / "inbox"
    inbox.mkdir(parents=True)
    runner = CliRunner()
    names = (PLAYERS + [f"player{i}" for i in range(5, 9)])[:count]
    if ruleset == "medici-strozzi":
        names = ["lorenzo", "filippo"][:count]
    args = ["new", ruleset, "demo1", "--seed", seed, "--weak-seed", "--json"]
    for name in names:
        args += ["--player", f"{name}={name}@example.org"]
    for opt in options:
        args += ["--option", opt]
    created = json.loads(run(runner, games, *args))
    tokens = {p["name"]: p["token"] for p in created["players"]}
    click.echo(f"pbem new {ruleset} demo1 with {', '.join(names)} (seed {seed!r})")
    files = 0
    while True:
        gm = json.loads(run(runner, games, "show", "demo1", "--json"))
        if gm["status"] == "finished":
            break
        player = gm["waiting_for"][0]
        seen = json.loads(run(runner, games, "show", "demo1", "--as", player, "--json"))
        order = bots.choose(ruleset, seen["view"], player, seen["legal_orders"])
        files += 1
        turnfile = inbox / f"{files:04d}-{player}.yaml"
        turnfile.write_text(dump_yaml({"game": "demo1", "player": player, "token": tokens[player],
                                       "turn": seen["turn"], "orders": [order]}))
        run(runner, games, "submit", str(turnfile))
        run(runner, games, "advance")
        stage = "day" if "day" in gm["view"] else "round"
        if gm["view"].get(stage) != json.loads(run(runner, games, "show", "demo1", "--json"))["view"].get(stage):
            click.echo(f"  {stage} {gm['view'][stage]} scored after {files} turn files")
    run(runner, games, "verify", "demo1")
    site = games.parent / "site"
    run(runner, games, "archive", "--out", str(site))
    click.echo(f"\nThe game is over after {files} turn files. Final standings:")
    for row in gm["result"]["standings"]:
        click.echo(f"  {row['rank']}. {row['player']:<8} {row['score']}")
    click.echo(f"\nTurn files:  {inbox}/")
    click.echo(f"Reports:     {games}/demo1/reports/<player>/ (e.g. {sorted((games / 'demo1' / 'reports' / names[0]).iterdir())[-1]})")
    click.echo(f"History:     git -C {games} log --oneline -- demo1")
    click.echo(f"Replay:      .venv/bin/pbem verify demo1 --games-dir {games}   (verified: identical)")
    click.echo(f"Mail:        {games}/mail/outbox/ (.eml files: the text report, and the board as a picture)")
    click.echo(f"Archive:     {site}/index.html (a web page per turn; pbem verify --log {site}/demo1/game.yaml)")


if __name__ == "__main__":
    sys.exit(demo())
