"""`pbem rollback`: Rebuild GAME from its order log up to decision TURN; the undone orders are kept for
the record."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from pbem.commands.common import games_dir_option, gm_change

if TYPE_CHECKING:
    from pbem.store import GamesDir


@click.command()
@click.argument("game")
@click.option("--to", "to_turn", type=int, required=True, help="The decision to go back to.")
@games_dir_option
def rollback(gd: GamesDir, game: str, to_turn: int) -> None:
    """Rebuild GAME from its order log up to decision TURN; the undone orders are kept for the record."""
    from pbem import gm

    holder: dict[str, Any] = {}

    def change(state: dict[str, Any]) -> dict[str, Any]:
        changed, holder["undone"] = gm.rollback(state, to_turn)
        return changed
    gm_change(gd, game, change, f"rolled back to turn {to_turn}")
    click.echo(f"{game}: back at turn {to_turn}; {len(holder['undone'])} order(s) undone and kept for the record.")
