"""`pbem archive`: Write a static web site of GAME."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from pbem.commands.common import games_dir_option
from pbem.errors import PbemError

if TYPE_CHECKING:
    from pbem.store import GamesDir


@click.command()
@click.argument("games_", metavar="[GAME]...", nargs=-1)
@click.option("--out", "out", required=True, type=click.Path(path_type=Path), metavar="DIR",
              help="The folder to write the web site to (made if missing; its archive files are rewritten).")
@click.option("--commit-url", default=None, metavar="URL",
              help="Link each turn to its commit: a URL with {commit} for the commit id.")
@click.option("--language", "language", default="en", show_default=True, metavar="LANG",
              help="The language of the pages, the boards and what happened (en, de, nl).")
@games_dir_option
def archive(gd: GamesDir, games_: tuple[str, ...], out: Path, commit_url: str | None, language: str) -> None:
    """Write a static web site of GAME... (default: every game) to DIR: a page per turn with the board,
    what happened and the git commit. Active games show what every player may see; finished games
    everything, with the seed and the order log for `pbem verify --log`."""
    from pbem.archive import write_archive

    if commit_url is not None and "{commit}" not in commit_url:
        raise click.BadParameter("must contain {commit}, where the commit id goes", param_hint="'--commit-url'")
    from pbem.i18n import check_language

    check_language(language)
    done, problems = write_archive(gd, list(dict.fromkeys(games_)) or None, out, commit_url, language)
    for a in done:
        what = "finished: everything, the seed and the order log" if a.finished else \
            "only what every player may see"
        click.echo(f"{a.game}: {a.pages} turn page{'s' if a.pages != 1 else ''} ({what})")
    if not done and not problems:
        click.echo(f"No games in {gd.root}.")
    click.echo(f"Wrote {out / 'index.html'}")
    if problems:
        raise PbemError(f"{len(problems)} game{'s' if len(problems) > 1 else ''} not archived:\n"
                        + "\n".join(f"  - {p}" for p in problems))
