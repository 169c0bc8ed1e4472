"""`pbem init`: Set up the games dir's mail: ask for (or take from the options) the GM's address and
his mail provider or server, log in to IMAP and SMTP, send the GM a test mail and read it back, then
write pbem.yaml."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from pbem.commands.common import games_dir_option
from pbem.errors import PbemError

if TYPE_CHECKING:
    from pbem.store import GamesDir


def _provider_choices() -> list[str]:
    from pbem.providers import BY_KEY

    return [*BY_KEY, "local"]


@click.command()
@click.option("--address", "--gm-address", "address", default=None, metavar="ADDRESS",
              help="The GM's mail address: players write to it, pbem sends from it [default without "
                   "--provider: gm@example.org].")
@click.option("--name", "gm_name", default=None, help="The GM's name in mail  [default: Game Master]")
@click.option("--provider", default=None, type=click.Choice(_provider_choices(), case_sensitive=False),
              help="The mail provider, whose servers pbem knows; own: your own server (give --imap-host and "
                   "--smtp-host); local (the default without asking): a Maildir in, .eml files out.")
@click.option("--imap-host", default=None, help="The IMAP server, instead of the provider's.")
@click.option("--imap-port", default=None, type=click.IntRange(1, 65535), help="Its port.")
@click.option("--imap-security", default=None, type=click.Choice(["tls", "starttls", "none"]),
              help="tls (993), starttls (143), none (localhost alone).")
@click.option("--smtp-host", default=None, help="The SMTP server, instead of the provider's.")
@click.option("--smtp-port", default=None, type=click.IntRange(1, 65535), help="Its port.")
@click.option("--smtp-security", default=None, type=click.Choice(["tls", "starttls", "none"]),
              help="starttls (587), tls (465), none (localhost alone).")
@click.option("--user", default=None, help="The login at both servers  [default: the address]")
@click.option("--folder", default=None, help="The IMAP folder players' mail arrives in  [default: INBOX]")
@click.option("--password-file", default=None, type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
              metavar="FILE", help="A file whose first line is the password (mode 0600); '-': read it from "
                                   "standard input and keep it in the games dir's .pbem-password.")
@click.option("--password-command", default=None, metavar="COMMAND",
              help="A command that prints the password, or the OAuth2 access token where the provider "
                   "takes OAuth2 alone (run by /bin/sh each time pbem logs in).")
@click.option("--ca-file", default=None, type=click.Path(dir_okay=False, path_type=Path),
              help="The CA certificate (PEM) that signed the servers' certificates (a self-signed server).")
@click.option("--no-test", is_flag=True, help="Write pbem.yaml without logging in or sending the test mail.")
@click.option("--wait", "wait_seconds", type=click.FloatRange(min=0), default=60.0, show_default=True,
              metavar="SECONDS", help="How long the test mail may take to arrive in the inbox.")
@click.option("--interactive/--no-interactive", default=None,
              help="Ask for what the options do not give  [default: when standard input is a terminal]")
@games_dir_option
def init(gd: GamesDir, address: str | None, gm_name: str | None, provider: str | None, imap_host: str | None,
         imap_port: int | None, imap_security: str | None, smtp_host: str | None, smtp_port: int | None,
         smtp_security: str | None, user: str | None, folder: str | None, password_file: Path | None,
         password_command: str | None, ca_file: Path | None, no_test: bool, wait_seconds: float,
         interactive: bool | None) -> None:
    """Set up the games dir's mail: ask for (or take from the options) the GM's address and his mail
    provider or server, log in to IMAP and SMTP, send the GM a test mail and read it back, then write
    pbem.yaml. The password goes to a file git ignores (mode 0600), or pbem.yaml names a command that
    prints it; pbem.yaml never holds it. Without --provider, and not asking: a commented pbem.yaml for
    mail on this machine."""
    from pbem import game as games
    from pbem.config import CONFIG_FILE, Config, starter_config
    from pbem import init as setup_mail

    path = gd.root / CONFIG_FILE
    if path.exists():
        raise PbemError(f"{path} already exists; edit it, or remove it first")
    if password_file is not None and password_command is not None:
        raise click.UsageError("give --password-file or --password-command, not both")
    secret = None
    if password_command is not None:
        secret = setup_mail.Secret(command=password_command)
    elif password_file is not None and str(password_file) == "-":
        typed = sys.stdin.readline().rstrip("\r\n")
        if not typed:
            raise PbemError("--password-file -: standard input gave no password")
        secret = setup_mail.Secret(text=typed)
    elif password_file is not None:
        secret = setup_mail.Secret(file=password_file.resolve())
    given = setup_mail.Given(name=gm_name, address=address, provider=provider and provider.lower(),
                             imap_host=imap_host, imap_port=imap_port, imap_security=imap_security,
                             smtp_host=smtp_host, smtp_port=smtp_port, smtp_security=smtp_security, user=user,
                             folder=folder, secret=secret, ca_file=ca_file, test=not no_test, wait=wait_seconds)
    name, address, setup = setup_mail.set_up(given, gd.root, sys.stdin.isatty() if interactive is None else interactive)
    text = setup_mail.mail_config_text(setup, gd.root) if setup is not None else starter_config(name, address)
    with gd.lock():
        if path.exists():
            raise PbemError(f"{path} already exists; edit it, or remove it first")
        before = []
        for game in gd.games():
            try:
                state = gd.load(game)
            except PbemError:
                continue  # a broken game is the GM's to mend; `pbem status` lists it
            games.check_addresses([(p["name"], p["email"]) for p in state["players"]],
                                  Config(gd.root, gm_address=address))
            before.append(game)
        gd.ensure_repo()
        said = setup_mail.write_setup(gd, text, setup)
    if setup is None:
        click.echo(f"Wrote {path}. Edit it to say where mail comes in and how it goes out.")
    else:
        for note in setup.notes:
            click.echo(f"Note: {note}.")
        click.echo(f"Wrote {path}; {'; '.join(said)}.")
        click.echo("Next: `pbem doctor` checks the whole games dir; `pbem new` or `pbem open` starts a game.")
    if before:
        click.echo(f"Warning: {', '.join(before)} began before {CONFIG_FILE}: their players' mail so far came "
                   f"from {Config(gd.root).gm_address}, which they cannot answer; their next report comes "
                   f"from the new address.", err=True)
