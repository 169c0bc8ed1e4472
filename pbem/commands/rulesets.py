"""`pbem rulesets`: the games pbem can host, and with `--check` whether each keeps the ruleset
contract in a game by its bot."""

from __future__ import annotations

import click

from pbem.errors import SetupError


@click.command(name="rulesets")
@click.option("--check", is_flag=True, help="Also play a game of each by its bot and check it keeps the ruleset "
                                            "contract (pbem/rules/contract.py); what it breaks is named.")
@click.argument("names", nargs=-1, metavar="[NAME]...")
def list_rulesets(check: bool, names: tuple[str, ...]) -> None:
    """The games pbem can host (NAME...: those alone). A game of the GM's own that cannot be loaded, or
    that breaks the ruleset contract, is named on stderr, exit 1."""
    from pbem.rules.base import KNOWN, get_ruleset
    from pbem.rules.base import OUTSIDE_PROBLEMS

    problems = list(OUTSIDE_PROBLEMS)
    unknown = [n for n in names if n not in KNOWN]
    if unknown:
        raise click.ClickException(f"unknown ruleset {', '.join(map(repr, unknown))} (known: {', '.join(sorted(KNOWN))})")
    for name in sorted(names or KNOWN):
        try:
            cls = type(get_ruleset(name))
        except SetupError as exc:
            problems.append(str(exc))
            continue
        opts = "; ".join(f"{k}: {'|'.join(v)}" for k, v in cls.options.items()) or "no options"
        count = f"{cls.min_players}" if cls.min_players == cls.max_players else f"{cls.min_players}-{cls.max_players}"
        click.echo(f"{name:<16} {cls.title}, {count} players ({opts})")
        if check:
            from pbem.rules.checking import Broken, check_game, table

            try:
                played = check_game(name)
            except Broken as exc:
                problems.append(f"the ruleset {name!r} breaks the contract (pbem/rules/contract.py) in a game by "
                                f"its bot: {exc}")
                continue
            click.echo(f"{'':<16} keeps the contract: {played} orders of {len(table(get_ruleset(name)))} players "
                       "by its bot")
    if problems:
        raise click.ClickException("; ".join(problems))
