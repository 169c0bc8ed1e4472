"""`pbem set`: Change GAME's deadline, grace period or deadline policy, when players get mail, or a
player's language or time zone."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from pbem import deadlines
from pbem.commands.common import (games_dir_option, gm_change, parse_duration, parse_reports, parse_seat_language,
                                  parse_seat_timezone, parsed_by, seat_settings)
from pbem.deadlines import POLICIES
from pbem.errors import PbemError

if TYPE_CHECKING:
    from pbem.store import GamesDir


@click.command(name="set")
@click.argument("game")
@click.option("--deadline", default=None, metavar="DURATION", callback=parsed_by(parse_duration("deadline", ("none", "off"))),
              help="Time for each decision (48h, 2d; 'none' removes it).")
@click.option("--grace", default=None, metavar="DURATION", callback=parsed_by(parse_duration("grace period", ("0", "none"))),
              help="Grace period after the deadline.")
@click.option("--policy", default=None, type=click.Choice(POLICIES), help="What happens at the deadline.")
@click.option("--reports", "reports", multiple=True, metavar="PLAYER=moves|all", callback=parsed_by(parse_reports),
              help="When a player gets mail: moves (when he must act, may bid, scorings, the end) or all.")
@click.option("--language", "languages", multiple=True, metavar="PLAYER=LANG", callback=parsed_by(parse_seat_language),
              help="A player's language: en, de, nl, or default (pbem.yaml's).")
@click.option("--timezone", "zones", multiple=True, metavar="PLAYER=ZONE", callback=parsed_by(parse_seat_timezone),
              help="A player's time zone (Europe/Berlin...), or default (pbem.yaml's).")
@games_dir_option
def set_(gd: GamesDir, game: str, deadline: str | None, grace: str | None, policy: str | None,
         reports: list[tuple[str, str]], languages: list[tuple[str, str | None]],
         zones: list[tuple[str, str | None]]) -> None:
    """Change GAME's deadline, grace period or deadline policy, when players get mail, or a player's
    language or time zone."""
    from pbem import game as games
    from pbem import gm

    if deadline is None and grace is None and policy is None and not reports and not languages and not zones:
        raise click.UsageError("say what to set: --deadline, --grace, --policy, --reports, --language or --timezone")
    state = games.load_checked(gd, game)
    for name, _ in reports:
        if games.seat_of(state, name) is None:
            raise PbemError(f"game {game!r} has no player {name!r}")
    seat_settings(state, languages or [], zones or [])  # every name checked before anything changes
    if deadline is not None or grace is not None or policy is not None:
        rule = gm.deadline_rule(deadline, grace, policy, state.get("deadline"))
        new_state = gm_change(gd, game, lambda s: gm.set_deadline(s, rule), f"deadline {deadlines.describe(dict(state, deadline=rule)) if rule else 'removed'}")
        click.echo(f"{game}: deadline {deadlines.describe(new_state)}.")
    if reports:
        def change(s: dict[str, Any]) -> dict[str, Any]:
            for name, choice in reports:
                s = games.set_reports(s, games.seat_of(s, name) or name, choice)
            return s
        said = ", ".join(f"{n} {c}" for n, c in reports)
        gm_change(gd, game, change, f"reports: {said}")
        click.echo(f"{game}: reports {said}.")
    if languages or zones:
        said = ", ".join([f"{n} language {v or 'default'}" for n, v in languages or []]
                         + [f"{n} time zone {v or 'default'}" for n, v in zones or []])
        gm_change(gd, game, lambda s: seat_settings(s, languages or [], zones or []), said)
        click.echo(f"{game}: {said}.")
