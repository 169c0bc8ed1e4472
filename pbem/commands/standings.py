"""`pbem standings`: The results of the games finished here, per ruleset and player: games, rated
games, wins, average place and an OpenSkill rating."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from pbem.commands.common import emit_json, games_dir_option

if TYPE_CHECKING:
    from pbem.store import GamesDir


@click.command()
@click.argument("ruleset", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@games_dir_option
def standings(gd: GamesDir, ruleset: str | None, as_json: bool) -> None:
    """The results of the games finished here, per ruleset and player: games, rated games, wins,
    average place and an OpenSkill rating. A game with a bot, or with two seats of one address, moves no
    rating and is listed as not rated. Players are shown by their seat names, never by their addresses."""
    from pbem.rules.base import get_ruleset
    from pbem import standings as table

    if ruleset is not None:
        ruleset = get_ruleset(ruleset).name
    tables = table.standings(gd, ruleset)
    if as_json:
        emit_json(table.as_json(tables))
        return
    if not tables:
        what = f"{get_ruleset(ruleset).title} games" if ruleset else "games"
        click.echo(f"No finished {what} in {gd.root}.")
        return
    click.echo(table.standings_text(tables), nl=False)
