"""`pbem resume`: Resume a paused GAME; the deadline starts again."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from pbem.commands.common import games_dir_option, gm_change

if TYPE_CHECKING:
    from pbem.store import GamesDir


@click.command()
@click.argument("game")
@games_dir_option
def resume(gd: GamesDir, game: str) -> None:
    """Resume a paused GAME; the deadline starts again."""
    from pbem import gm

    gm_change(gd, game, gm.resume, "resumed by the GM")
    click.echo(f"{game}: resumed.")
