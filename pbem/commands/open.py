"""`pbem open`: Open a game of RULESET called GAME that players join by mail ('join GAME'); it starts
when its seats are full, or with `pbem start`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from pbem import deadlines
from pbem.commands.common import (deadline_options, games_dir_option, parse_duration, parsed_by, rules_options,
                                  table_options)

if TYPE_CHECKING:
    from pbem.store import GamesDir


@click.command("open")
@click.argument("ruleset")
@click.argument("game")
@click.option("--seats", type=click.IntRange(1, 99), required=True, help="How many players the game takes.")
@rules_options
@deadline_options
@click.option("--fill-with-bots-after", "fill_after", default=None, metavar="DURATION",
              callback=parsed_by(parse_duration("time before bots fill the seats", ())),
              help="Bots take the seats still free this long after now (e.g. 48h), and the game starts.")
@table_options
@games_dir_option
def open_(gd: GamesDir, ruleset: str, game: str, seats: int, options: list[tuple[str, str]],
          deadline: str | None, grace: str | None, policy: str | None, fill_after: str | None,
          talk: str | None, observers: str | None) -> None:
    """Open a game of RULESET called GAME that players join by mail ('join GAME'); it starts when its
    seats are full, or with `pbem start`."""
    from pbem.config import load_config
    from pbem.rules.base import get_ruleset
    from pbem import gm, lobby

    rules = get_ruleset(ruleset)
    if deadline is None and (grace is not None or policy is not None):
        raise click.UsageError("set a deadline (such as --deadline 48h) before a grace period or a policy")
    rule = gm.deadline_rule(deadline, grace, policy) if (deadline or grace or policy) else None
    with gd.lock():
        gd.ensure_repo()
        entry = lobby.open_game(gd, rules.name, game, seats, dict(options), rule, gm.parse_now())
        if talk or observers:
            entry["table"] = {k: v for k, v in (("talk", talk), ("observers", observers)) if v}
        if fill_after is not None:
            from pbem.tablebots import set_fill

            set_fill(entry, deadlines.parse_duration(fill_after, "time before bots fill the seats"), gm.parse_now())
        path = lobby.save(gd, entry)
        gd.commit_paths([path], f"{game}: open {rules.name} game, {seats} seats\n")
    fill = f"; bots take the seats still free at {entry['bots_at']}" if fill_after is not None else ""
    click.echo(f"Opened {rules.title} game {game!r} with {seats} seats; players join by mailing "
               f"'join {game}' to {load_config(gd.root).gm_address}{fill}.")
