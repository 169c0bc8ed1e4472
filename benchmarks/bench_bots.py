"""`make bench`'s bots: how each game's bot plays, in whole games of the engine alone.

Against random play: the bot in one seat (each seat in turn), every other seat choosing a legal
order at random (from an Rng stream of its own); its wins and average place against what chance
gives. Against itself: every seat a bot; the wins of each seat and the average score, which says
whether the bot favours a seat. A figure to watch, not a goal: it never fails.
"""

from __future__ import annotations

import time
from typing import Any

import click

from pbem import bots
from pbem.rng import Rng
from pbem.rules.base import KNOWN, get_ruleset

GAMES = 20  # games against random play, and as many against itself (a quick run: 6)


def tables() -> list[tuple[str, str, int]]:
    """Every game pbem hosts, at a table of three where it takes three (else its nearest): its title,
    name and number of players."""
    out = []
    for name in sorted(KNOWN):
        rules = get_ruleset(name)
        players = max(rules.min_players, min(3, rules.max_players), 2)
        out.append((f"{rules.title}, {players} players", name, players))
    return out


def play(ruleset: str, players: int, seed: str, bot_seats: set[int], turn: int = 0) -> list[dict[str, Any]]:
    """One whole game in the engine: the seats in `bot_seats` played by the bot from their views,
    the others at random; its standings. `turn` turns the names round the table (a bot's temperament
    comes from its name), so that each name plays each seat."""
    r = get_ruleset(ruleset)
    names = [f"p{(i + turn) % players}" for i in range(players)]
    rng, pick = Rng(seed), Rng(f"random-{seed}")
    state, _ = r.setup(names, r.check_options({}), rng)
    while (d := r.decision(state)) is not None:
        p = d.players[0]
        legal = r.legal_orders(state, p)
        if names.index(p) in bot_seats:
            order = bots.choose(ruleset, r.bot_view(state, p), p, legal)
        else:
            order = pick.choice(legal, "random")
        r.apply(state, p, order, rng)
    return r.result(state)


def against_random(ruleset: str, players: int, games: int) -> tuple[int, float]:
    """The bot's wins and average place in `games` games, its seat going round the table."""
    wins, places = 0, 0
    for g in range(games):
        seat = g % players
        result = [row["rank"] for row in _by_seat(play(ruleset, players, f"bench-bots-{g}", {seat}, g), players, g)]
        wins += result[seat] == 1
        places += result[seat]
    return wins, places / games


def against_itself(ruleset: str, players: int, games: int) -> tuple[list[int], float]:
    """Each seat's wins and the average score in `games` games of bots alone."""
    wins = [0] * players
    scores = 0.0
    for g in range(games):
        result = _by_seat(play(ruleset, players, f"bench-bots-self-{g}", set(range(players)), g), players, g)
        for seat, row in enumerate(result):
            wins[seat] += row["rank"] == 1
            scores += float(row["score"])
    return wins, scores / (games * players)


def _by_seat(result: list[dict[str, Any]], players: int, turn: int) -> list[dict[str, Any]]:
    """A game's standings in seating order."""
    rows = {row["player"]: row for row in result}
    return [rows[f"p{(i + turn) % players}"] for i in range(players)]


def bots_section(quick: bool = False) -> None:
    """Print each game's bot against random play and against itself."""
    for label, ruleset, players in tables():
        games = 6 if quick else GAMES
        t0 = time.perf_counter()
        wins, place = against_random(ruleset, players, games)
        seats, score = against_itself(ruleset, players, games)
        spent = time.perf_counter() - t0
        click.echo(f"bots: {label} ({games} games each, {spent:.1f} s)")
        click.echo(f"  the bot against random play: wins {wins} of {games} ({100 * wins / games:.0f}%; "
                   f"chance {100 / players:.0f}%), average place {place:.2f} (chance {(players + 1) / 2:.2f})")
        click.echo(f"  the bot against itself: wins by seat {', '.join(map(str, seats))}; "
                   f"average score {score:.1f}")
