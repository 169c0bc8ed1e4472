"""`pbem doctor`: Check the games dir and pbem.yaml, one line per check: the inbox opens, SMTP logs in
(no mail sent), the GM's address is no player's, git works, the disk has room, the reply-key secret is
private."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from pbem.commands.common import games_dir_option

if TYPE_CHECKING:
    from pbem.store import GamesDir


@click.command()
@click.option("--send", is_flag=True, help="Also mail the GM a test message through the outbox and wait for it "
                                           "in the inbox (to gm+doctor.<random>@ where replies use plus-addressing).")
@click.option("--wait", "wait_seconds", type=click.FloatRange(min=0), default=30.0, show_default=True,
              metavar="SECONDS", help="How long --send waits for the test message to arrive.")
@games_dir_option
def doctor(gd: GamesDir, send: bool, wait_seconds: float) -> None:
    """Check the games dir and pbem.yaml, one line per check: the inbox opens, SMTP logs in (no mail
    sent), the GM's address is no player's, git works, the disk has room, the reply-key secret is
    private. Exit 1 if any check fails."""
    from pbem.doctor import checks

    failed = []
    for check in checks(gd, send, wait_seconds):
        click.echo(check.line())
        if check.failed:
            failed.append(check.name)
    if failed:
        raise click.ClickException(f"{len(failed)} check{'s' if len(failed) > 1 else ''} failed: {', '.join(failed)}")
