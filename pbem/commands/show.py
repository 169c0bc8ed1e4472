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
    if as_json:
        from pbem import game as games

        emit_json(games.show(games.load_checked(gd, game), player))
    else:
        click.echo(report_shown(gd, game, player, language), nl=False)


def report_shown(gd: GamesDir, game: str, player: str | None, language: str | None) -> str:
    """The report `pbem show` prints: the one kept for the very same game, viewer, language, pbem.yaml
    and pbem (see pbem.store.shown), else rendered now and kept."""
    from pbem.store import GAME_ID, shown

    key = shown.report_key(gd.root, game, player, language) if GAME_ID.match(game) else None
    kept = shown.kept_report(gd.root, game, key) if key is not None else None
    if kept is not None:
        return kept
    # the templates, the rules and the catalogs are loaded only for a report not kept
    from pbem import game as games
    from pbem.config import load_config
    from pbem.i18n import language_of, timezone_of
    from pbem.report import render_report
    from pbem.rules.base import OWN

    state = games.load_checked(gd, game)
    config = load_config(gd.root)
    seat = games.seat_of(state, player) if player else None
    text = render_report(state, seat or player, [], config.reply_keys,
                         lang=language or language_of(state, seat, config), zone=timezone_of(state, seat, config))
    # a game outside pbem/ has templates of its own; a key changed meanwhile is of another report
    if key is not None and state["ruleset"] in OWN and shown.report_key(gd.root, game, player, language) == key:
        shown.keep_report(gd.root, game, key, text)
    return text
