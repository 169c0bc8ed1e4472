"""`pbem verify`: Replay GAME from its seed and order log; exit 0 only if the result is identical."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from pbem.commands.common import games_dir_option
from pbem.errors import PbemError

if TYPE_CHECKING:
    from pbem.store import GamesDir


@games_dir_option
def _verify_game(gd: GamesDir, game: str) -> None:
    from pbem import game as games

    state = games.load_checked(gd, game)
    problems = games.verify(state)
    if problems:
        raise PbemError(f"{game}: the replay does not match:\n" + "\n".join(f"  - {p}" for p in problems))
    click.echo(f"{game}: verified: {len(state['log'])} orders replay to the identical game.")


def _verify_log(path: Path) -> None:
    """`pbem verify --log FILE`: a finished game from its published log, without a games dir."""
    from pbem import archive

    try:
        check = archive.verify_log(path)
    except PbemError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"{check.game} ({check.title}): {check.orders} orders replay from the seed to the end of the game.")
    click.echo(f"The seed matches its commitment, sha256 {check.seed_sha256}.")
    click.echo("Final standings:")
    for r in check.standings:
        click.echo(f"  {r['rank']}. {r['player']:<12} {r['score']}")
    if not check.matches:
        raise click.ClickException(f"the replayed standings ({archive.standings_text(check.standings)}) are not "
                                   f"the ones the log file claims ({archive.standings_text(check.claimed)})")
    click.echo("They are the standings the log file claims.")


@click.command()
@click.argument("game", required=False)
@click.option("--log", "log_file", type=click.Path(dir_okay=False, path_type=Path), default=None, metavar="FILE",
              help="Check a finished game from its published log (game.yaml of `pbem archive`); no games dir needed.")
@click.option("--games-dir", "games_dir", envvar="PBEM_GAMES_DIR", default="games",
              type=click.Path(file_okay=False, path_type=Path),
              help="The folder holding the games (a git repository of its own)  [default: the games dir the "
                   "current folder is in, else ./games]")
def verify(game: str | None, log_file: Path | None, games_dir: Path) -> None:
    """Replay GAME from its seed and order log; exit 0 only if the result is identical. With --log FILE:
    replay a published finished game and compare its standings with those the file claims."""
    if log_file is not None:
        if game is not None:
            raise click.UsageError("give GAME or --log FILE, not both")
        _verify_log(log_file)
        return
    if game is None:
        raise click.UsageError("Missing argument 'GAME' (or --log FILE).")
    _verify_game(game=game, games_dir=games_dir)
