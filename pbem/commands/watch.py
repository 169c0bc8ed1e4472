"""`pbem watch`: Run `pbem advance` as mail arrives (IMAP IDLE, a Maildir or mbox looked at every few
seconds), when a deadline comes, and at least every --interval; a line per run that did something."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click

from pbem.commands.common import games_dir_option

if TYPE_CHECKING:
    from pbem.store import GamesDir


@click.command()
@click.option("--interval", type=click.FloatRange(min=0, min_open=True), default=5.0, show_default=True,
              metavar="MINUTES", help="A run at least this often, mail or not.")
@click.option("--poll", type=click.FloatRange(min=0.1), default=2.0, show_default=True, metavar="SECONDS",
              help="How often a Maildir or mbox inbox, the clock and pbem.yaml are looked at.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Games advanced in parallel processes  [default: the number of cores]")
@click.option("--once", is_flag=True, help="No run at the start: wait for one reason to run, run, exit.")
@games_dir_option
def watch(gd: GamesDir, interval: float, poll: float, jobs: int | None, once: bool) -> None:
    """Run `pbem advance` as mail arrives (IMAP IDLE, a Maildir or mbox looked at every few seconds),
    when a deadline comes, and at least every --interval; a line per run that did something. SIGTERM or
    SIGINT: the run at work finishes, then exit 0."""
    from pbem.watch import watch as watch_games

    watch_games(gd.root, interval * 60, poll, jobs or os.cpu_count() or 1, once)
