"""`pbem replace`: Hand OLD's seat in GAME to a new player: a new token, a welcome mail, the clock
restarted."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from pbem.commands.common import emit_json, games_dir_option, parse_player, parsed_by

if TYPE_CHECKING:
    from pbem.store import GamesDir


@click.command()
@click.argument("game")
@click.argument("old")
@click.argument("new", metavar="NEW=EMAIL", callback=parsed_by(parse_player))
@click.option("--json", "as_json", is_flag=True, help="Print the new token as JSON.")
@games_dir_option
def replace(gd: GamesDir, game: str, old: str, new: tuple[str, str], as_json: bool) -> None:
    """Hand OLD's seat in GAME to a new player: a new token, a welcome mail, the clock restarted."""
    from pbem import game as games
    from pbem.config import load_config
    from pbem import gm

    from pbem import advance as batch
    from pbem.mail.boxes import Postman
    from pbem.i18n import language_of, timezone_of
    from pbem.mail.post import post_report, welcome_text
    from pbem.report import render_report, visible

    person, email = new
    with gd.lock():
        state = games.load_checked(gd, game)
        config = load_config(gd.root)
        games.check_addresses([new], config)
        state, token = gm.replace(state, old, f"{person}={email}")
        seat = games.seat_of(state, person) or old
        post = Postman(config)
        # the newcomer's welcome comes first: it carries his token and the whole game so far
        lang = language_of(state, seat, config)
        report = render_report(state, seat, visible(state["events"], seat), config.reply_keys, lang,
                               timezone_of(state, seat, config))
        seq = state["reports_sent"][seat] + 1
        gd.write_report(game, seat, f"{seq:04d}-welcome-turn-{state['engine']['turn']:04d}.txt", report)
        post_report(post, state, seat, seq, welcome_text(state, seat, token, report, config.reply_keys, lang),
                    "welcome")
        state["reports_sent"][seat] = seq
        state["reported"][seat] = len(state["events"])
        batch.write_reports(gd, state, post)  # the others hear who took the seat
        gd.save(game, state)
        gd.commit(game, f"{game}: {person} takes over the seat of {old}\n")
        post.deliver()
    if as_json:
        emit_json({"game": game, "seat": seat, "player": person, "token": token})
        return
    click.echo(f"{person} now plays seat {seat!r} in {game}; the secret token (shown only now): {token}")
