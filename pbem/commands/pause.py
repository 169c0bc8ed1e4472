"""`pbem pause`: Pause GAME: orders wait in the queue and no deadline runs."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from pbem.commands.common import games_dir_option, gm_change

if TYPE_CHECKING:
    from pbem.store import GamesDir


@click.command()
@click.argument("game")
@games_dir_option
def pause(gd: GamesDir, game: str) -> None:
    """Pause GAME: orders wait in the queue and no deadline runs."""
    from pbem import gm

    gm_change(gd, game, gm.pause, "paused by the GM")
    click.echo(f"{game}: paused.")
