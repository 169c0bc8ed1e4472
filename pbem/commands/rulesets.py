"""`pbem rulesets`: The games pbem can host (a game of the GM's own that cannot be loaded is named on
stderr, exit 1)."""

from __future__ import annotations

import click

from pbem.errors import SetupError


@click.command(name="rulesets")
def list_rulesets() -> None:
    """The games pbem can host (a game of the GM's own that cannot be loaded is named on stderr, exit 1)."""
    from pbem.rules.base import KNOWN, get_ruleset
    from pbem.rules.base import OUTSIDE_PROBLEMS

    problems = list(OUTSIDE_PROBLEMS)
    for name in sorted(KNOWN):
        try:
            cls = type(get_ruleset(name))
        except SetupError as exc:
            problems.append(str(exc))
            continue
        opts = "; ".join(f"{k}: {'|'.join(v)}" for k, v in cls.options.items()) or "no options"
        count = f"{cls.min_players}" if cls.min_players == cls.max_players else f"{cls.min_players}-{cls.max_players}"
        click.echo(f"{name:<16} {cls.title}, {count} players ({opts})")
    if problems:
        raise click.ClickException("; ".join(problems))
