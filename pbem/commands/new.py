"""`pbem new`: Start a new game of RULESET called GAME."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pbem.commands.common import (SeatedCommand, deadline_options, emit_json, games_dir_option, parse_bot_name,
                                  parse_player, parse_seat_language, parse_seat_timezone, parsed_by, read_deck,
                                  rules_options, seat_settings, seating, table_options)
from pbem.rng import STRONG_SEED

if TYPE_CHECKING:
    from pbem.store import GamesDir


@click.command(cls=SeatedCommand)
@click.argument("ruleset")
@click.argument("game")
@click.option("--player", "players", multiple=True, required=True, metavar="NAME=EMAIL",
              callback=parsed_by(parse_player), help="A player, in seating order; repeat for each.")
@click.option("--bot", "bots", multiple=True, metavar="NAME", callback=parsed_by(parse_bot_name),
              help="A seat the game's bot plays, in seating order among the players; repeatable.")
@rules_options
@click.option("--seed", default=None, help=f"The secret seed of the game's chance (default: a random one; "
                                            f"at least {STRONG_SEED} characters, unless --weak-seed).")
@click.option("--weak-seed", is_flag=True, help="Accept a short, guessable seed (tests, demos, replays).")
@click.option("--deck", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="A YAML file fixing the card order.")
@deadline_options
@click.option("--language", "languages", multiple=True, metavar="PLAYER=LANG", callback=parsed_by(parse_seat_language),
              help="A player's language (en, de, nl; default: pbem.yaml's language, else en); repeatable.")
@click.option("--timezone", "zones", multiple=True, metavar="PLAYER=ZONE", callback=parsed_by(parse_seat_timezone),
              help="A player's time zone, e.g. anna=Europe/Berlin (default: pbem.yaml's); repeatable.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@table_options
@games_dir_option
def new(gd: GamesDir, ruleset: str, game: str, players: list[tuple[str, str]], options: list[tuple[str, str]],
        seed: str | None, weak_seed: bool, deck: Path | None, deadline: str | None, grace: str | None,
        policy: str | None, languages: list[tuple[str, str | None]], zones: list[tuple[str, str | None]],
        as_json: bool, bots: list[str], talk: str | None, observers: str | None) -> None:
    """Start a new game of RULESET called GAME."""
    from pbem import game as games
    from pbem.config import load_config
    from pbem.rules.base import get_ruleset
    from pbem import gm
    from pbem.mail.boxes import Postman  # the mail stack and the templates: only for commands that mail
    from pbem.starting import start_game

    rules = get_ruleset(ruleset)
    opts = dict(options)
    seats = seating(click.get_current_context(), list(players), list(bots or []))
    people = [(n, e) for n, e in seats if n not in (bots or ())]
    if deadline is None and (grace is not None or policy is not None):
        raise click.UsageError("set a deadline (such as --deadline 48h) before a grace period or a policy")
    games.check_seed(seed, weak_seed)
    fixed = read_deck(deck, rules.name) if deck is not None else None
    rule = gm.deadline_rule(deadline, grace, policy) if (deadline or grace or policy) else None
    config = load_config(gd.root)
    games.check_addresses(people, config)
    postman = Postman(config)
    delivered: list[Any] = []  # the errors of the welcome mails not sent
    names = ", ".join(n + (" (bot)" if n in (bots or ()) else "") for n, _ in seats)
    state, tokens = start_game(gd, rules.name, game, seats, opts, f"{game}: new {rules.name} game for {names}", postman,
                               seed, fixed, rule, bots=list(bots or []),
                               settings=lambda state: seat_settings(state, languages or [], zones or []),
                               talk=talk, observers=observers, lock=True,
                               then=lambda: delivered.extend(postman.deliver()[1]))
    errors = delivered
    for error in errors:
        click.echo(f"Warning: a welcome mail was not sent (pbem advance retries): {error}", err=True)
    if as_json:
        emit_json({"game": game, "ruleset": rules.name,
                   "players": [{"name": n, "email": e, "token": tokens[n]} if n in tokens else {"name": n, "bot": True}
                               for n, e in seats]})
        return
    click.echo(f"New {rules.title} game {game!r} in {gd.root / game}")
    click.echo(f"Seed commitment: sha256 {state['seed_sha256']}")
    click.echo("Players and their secret tokens (shown only now; pbem keeps only a hash):")
    for n, e in seats:
        click.echo(f"  {n:<12} {e:<32} {tokens[n]}" if n in tokens else f"  {n:<12} (the bot plays this seat)")
    if state["status"] == "finished":
        click.echo("The bots played the game to its end.")
        return
    click.echo(f"Waiting for {', '.join(games.waiting_for(state))} (turn {state['engine']['turn']}).")
