"""`pbem start`: Start the open game GAME now, with the players who have joined (at least the ruleset's
minimum): its seed is drawn and the welcome mails go out."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from pbem.commands.common import games_dir_option

if TYPE_CHECKING:
    from pbem.store import GamesDir


@click.command()
@click.argument("game")
@games_dir_option
def start(gd: GamesDir, game: str) -> None:
    """Start the open game GAME now, with the players who have joined (at least the ruleset's
    minimum): its seed is drawn and the welcome mails go out."""
    from pbem import game as games
    from pbem.config import load_config
    from pbem import lobby
    from pbem.mail.boxes import Postman
    from pbem.starting import start_entry

    config = load_config(gd.root)
    with gd.lock():
        entry = lobby.load(gd, game)
        postman = Postman(config)
        state, _ = start_entry(gd, config, entry, postman, at_least=True)
        sent, errors = postman.deliver()
    for error in errors:
        click.echo(f"Warning: a welcome mail was not sent (pbem advance retries): {error}", err=True)
    click.echo(f"Started {games.ruleset_of(state).title} game {game!r} for "
               f"{', '.join(games.player_names(state))}; waiting for {', '.join(games.waiting_for(state))} "
               f"(turn {state['engine']['turn']}).")
