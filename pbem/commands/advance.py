"""`pbem advance`: Read new mail, apply every queued order of every game, act on deadlines, write the
reports, commit to git, send."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

import click

from pbem.commands.common import SHARD, games_dir_option

if TYPE_CHECKING:
    from pbem.store import GamesDir


def _advance_help() -> str:
    from pbem.hostfail import exit_codes_help

    return ("Read new mail, apply every queued order of every game, act on deadlines, write the reports, "
            "commit to git, send.\n\n" + exit_codes_help())


@click.command(help=_advance_help())
@click.option("--dry-run", is_flag=True, help="Say what a run would do; change nothing, read and send no mail.")
@click.option("--quiet", "-q", is_flag=True, help="Print only what needs the GM (for cron).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Games advanced in parallel processes  [default: the number of cores]")
@click.option("--shard", type=SHARD, default=None, metavar="K/N",
              help="Only the games of shard K of N (by a hash of the game id), for N hosts sharing one remote.")
@games_dir_option
def advance(gd: GamesDir, dry_run: bool, quiet: bool, jobs: int | None, shard: tuple[int, int] | None) -> None:
    # the help is _advance_help's: the exit codes come from their table in pbem.hostfail
    from pbem import advance as batch

    if dry_run:
        for line in batch.dry_run(gd, shard):
            click.echo(line)
        return
    bar: Any = None

    def progress(total: int, game: str) -> None:  # a bar at a terminal, never under cron or --quiet
        nonlocal bar
        if bar is None:
            bar = click.progressbar(length=total, label="advancing", file=sys.stderr)
            bar.__enter__()
        bar.update(1)
    try:
        run = batch.advance(gd, progress=progress if sys.stderr.isatty() and not quiet else None,
                            jobs=jobs or os.cpu_count() or 1, shard=shard)
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)

    def say(text: str, err: bool = False, needed: bool = False) -> None:  # --quiet: only what needs the GM
        if err or needed or not quiet:
            click.echo(text, err=err)

    for warning in gd.warnings:  # first: what pbem mended before the run
        say(f"Warning: {warning}", err=True)
    gd.warnings.clear()
    outcomes = run.outcomes
    for line in run.mail:
        say(line, err=line.startswith("Warning: "))
    busy = [o for o in outcomes if o.error or o.summary() != f"{o.game}: nothing to do"]
    for o in busy if len(outcomes) > 1 else outcomes:  # from cron over many games: only what happened
        say(o.summary(), err=bool(o.error), needed=bool(o.overdue))
    if len(outcomes) > 1 and not busy:
        say(f"nothing to do in {len(outcomes)} games")
    if run.sent:
        say(f"{run.sent} mail{'s' if run.sent != 1 else ''} {run.delivery}.")
    for error in run.send_errors:
        say(f"Not sent (retried by the next run): {error}", err=True)
    if not outcomes:
        say(f"No games in {gd.root}.")
    if run.alerted:
        say(f"The host has failed since {run.failing_since}: the GM is mailed about it (once).", needed=True)
    broken = [o.game for o in outcomes if o.error]
    problems = ([f"{len(broken)} game{'s' if len(broken) > 1 else ''} skipped: {', '.join(broken)}"]
                if broken else []) + run.errors
    for failure in run.host_failures:  # one line each, under --quiet too: cron mails it to the GM
        click.echo(f"Error: {failure}", err=True)
    if problems and run.host_failures:
        click.echo(f"Error: {'; '.join(problems)}", err=True)
    elif problems:
        raise click.ClickException("; ".join(problems))
    if run.exit_code:
        raise click.exceptions.Exit(run.exit_code)
