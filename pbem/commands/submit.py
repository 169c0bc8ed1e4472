"""`pbem submit`: Queue a player's TURNFILE ('-' for standard input) for the next `pbem advance`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from pbem.commands.common import games_dir_option
from pbem.errors import PbemError

if TYPE_CHECKING:
    from pbem.store import GamesDir


@click.command()
@click.argument("turnfile", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path))
@games_dir_option
def submit(gd: GamesDir, turnfile: Path) -> None:
    """Queue a player's TURNFILE ('-' for standard input) for the next `pbem advance`."""
    from pbem import game as games

    if str(turnfile) == "-":
        data = sys.stdin.buffer.read()
    else:
        try:
            data = turnfile.read_bytes()
        except OSError as exc:
            raise PbemError(f"cannot read the turn file {str(turnfile)!r}: {exc.strerror}") from None
    with gd.lock():
        done = games.submit(gd, data)
    orders = "; ".join(games.order_text(o) for o in done.orders)
    note = " (it replaces the orders queued before)" if done.replaced else ""
    if done.orders:
        when = "for his next decision" if done.turn == games.NEXT else f"turn {done.turn}"
        click.echo(f"Queued {done.player}'s orders for {done.game}, {when}: {orders}{note}.")
    if done.standing is not None:
        standing = "; ".join(games.order_text(o) for o in done.standing) or "none (this clears them)"
        click.echo(f"Queued {done.player}'s standing orders for {done.game}: {standing}.")
    if done.reports is not None:
        click.echo(f"Queued {done.player}'s choice of reports for {done.game}: {done.reports}.")
    if done.paused:
        click.echo(f"{done.game} is paused by the GM: they are applied when it resumes.")
