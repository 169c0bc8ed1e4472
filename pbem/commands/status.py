"""`pbem status`: Every game: ruleset, turn, whose move, since when."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from pbem import deadlines
from pbem.commands.common import emit_json, games_dir_option
from pbem.errors import PbemError

if TYPE_CHECKING:
    from pbem.store import GamesDir


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@games_dir_option
def status(gd: GamesDir, as_json: bool) -> None:
    """Every game: ruleset, turn, whose move, since when."""
    from pbem import gm
    from pbem.absence import away_now
    from pbem.gamestate import waiting_for

    rows = []
    for game in gd.games():
        try:  # a missing or corrupt state file, a corrupt queued file: the game needs the GM
            state = gd.load(game)
            queued = len(gd.queued(game))
        except PbemError as exc:
            rows.append({"game": game, "error": str(exc)})
            continue
        when = deadlines.due(state)
        away = away_now(state, gm.parse_now())
        rows.append({"game": game, "ruleset": state["ruleset"], "turn": state["engine"]["turn"],
                     "status": state["status"], "waiting_for": waiting_for(state),
                     "since": state["waiting_since"], "queued": queued,
                     "deadline": deadlines.describe(state), "due": deadlines.stamp(when) if when else None,
                     "needs_gm": gm.needs_gm(state, gm.parse_now()), **({"away": away} if away else {})})
    from pbem import lobby

    waiting = lobby.entries(gd)
    if as_json:
        emit_json(rows)
        return
    from pbem.hostfail import host_lines, last_run

    health = last_run(gd.root)
    failing, problems = host_lines(health)
    for line in failing:  # first: while the host fails, the games cannot hear their players
        click.echo(line)
    if failing:
        click.echo("")
    if not rows and not waiting:
        click.echo(f"No games in {gd.root}.")
        return
    click.echo(f"{'game':<16} {'ruleset':<16} {'turn':>5}  {'status':<9} {'waiting for':<24} {'since':<21} "
               f"{'due':<21} queued")
    for r in rows:
        if "error" in r:
            click.echo(f"{r['game']:<16} NEEDS THE GM: {r['error']}")
            continue
        click.echo(f"{r['game']:<16} {r['ruleset']:<16} {r['turn']:>5}  {r['status']:<9} "
                   f"{', '.join(r['waiting_for']) or '-':<24} {r['since']:<21} {r['due'] or '-':<21} {r['queued']}")
    if waiting:
        click.echo(f"\nNot begun ({len(waiting)}):")
        for entry in waiting:
            click.echo(f"  {entry['game']:<16} {entry['ruleset']:<16} {lobby.describe(entry)}")
    absent = [(r["game"], p, until) for r in rows for p, until in sorted(r.get("away", {}).items())]
    if absent:
        click.echo("\nAway (the clock of their decisions waits):")
        for game, player, until in absent:
            click.echo(f"  {game}: {player} until {until}")
    attention = [r for r in rows if r.get("error") or r.get("needs_gm")]
    if attention:
        click.echo("\nNeeds the GM:")
        for r in attention:
            click.echo(f"  {r['game']}: {r.get('needs_gm') or r.get('error')}")
    for line in problems:
        click.echo(line)
