"""`pbem show`: What GAME looks like now: to the GM, or `--as` a player (in his language), with the
orders he may give."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from pbem.commands.common import emit_json, games_dir_option, parse_language, parsed_by

if TYPE_CHECKING:
    from pbem.store import GamesDir


@click.command()
@click.argument("game")
@click.option("--as", "player", default=None, metavar="NAME", help="Show what this player sees.")
@click.option("--language", "language", default=None, metavar="LANG", callback=parsed_by(parse_language),
              help="Write it in this language (en, de, nl; default: the player's, else pbem.yaml's).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@games_dir_option
def show(gd: GamesDir, game: str, player: str | None, language: str | None, as_json: bool) -> None:
    """What GAME looks like now: to the GM, or `--as` a player (in his language), with the orders he
    may give."""
    from pbem import game as games
    from pbem.config import load_config

    state = games.load_checked(gd, game)
    shown = games.show(state, player)
    if as_json:
        emit_json(shown)
    else:
        from pbem.i18n import language_of, timezone_of
        from pbem.report import render_report

        config = load_config(gd.root)
        seat = games.seat_of(state, player) if player else None
        click.echo(render_report(state, seat or player, [], config.reply_keys,
                                 lang=language or language_of(state, seat, config),
                                 zone=timezone_of(state, seat, config)), nl=False)
