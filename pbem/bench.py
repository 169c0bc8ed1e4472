"""`make bench`: how fast the parts of a run are. Measurements, not tests: nothing here fails.

    python -m pbem.bench [--games N] [--quick]
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

import click

from pbem import bots
from pbem.advance import advance
from pbem.game import new_game, show, submit
from pbem.rng import Rng
from pbem.rules.base import get_ruleset
from pbem.store import GamesDir, dump_yaml
from pbem.turnfile import parse_turnfile


def timed(label: str, fn: Callable[[], int], repeat: int = 3) -> None:
    """Best and median of `repeat` runs; `fn` returns how many units it did."""
    times, units = [], 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        units = fn()
        times.append(time.perf_counter() - t0)
    best, med = min(times), statistics.median(times)
    click.echo(f"{label:<52} {units:>7} units  best {best * 1000:9.1f} ms  median {med * 1000:9.1f} ms"
               f"  ({units / best:,.0f}/s)")


def engine_games(players: int, games: int, ruleset: str = "medici", options: dict[str, str] | None = None) -> int:
    """Whole bot games in the engine alone; returns the number of orders applied."""
    r = get_ruleset(ruleset)
    names = [f"p{i}" for i in range(players)]
    orders = 0
    for g in range(games):
        rng = Rng(f"bench-{g}")
        state, _ = r.setup(names, r.check_options(options or {}), rng)
        while (d := r.decision(state)) is not None:
            p = d.players[0]
            r.apply(state, p, bots.choose(ruleset, r.view(state, p), p, r.legal_orders(state, p)), rng)
            orders += 1
    return orders


def florenz_legal(n: int) -> int:
    """Legal orders of a Florenz family in mid-game (candidates filtered by the rules), n times."""
    r = get_ruleset("florenz")
    rng = Rng("bench-legal")
    state, _ = r.setup(["p0", "p1", "p2", "p3"], r.check_options({}), rng)
    for _ in range(20):   # into round 1 with some pieces on the board
        p = r.decision(state).players[0]   # type: ignore[union-attr]
        r.apply(state, p, bots.choose("florenz", r.view(state, p), p, r.legal_orders(state, p)), rng)
    p = r.decision(state).players[0]   # type: ignore[union-attr]
    for _ in range(n):
        r.legal_orders(state, p)
    return n


def turnfile_parse(n: int) -> int:
    text = "game: m1\nplayer: anna\ntoken: abcdefgh\nturn: 17\norders:\n  - draw\n  - bid: 7\n"
    for _ in range(n):
        parse_turnfile(text, "medici.orders")
    return n


def pipeline(games: int) -> int:
    """`games` games in one games dir; each gets one turn file per run; returns the orders applied."""
    root = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    try:
        gd = GamesDir(root / "games")
        gd.ensure_repo()
        tokens = {}
        for g in range(games):
            people = [(f"p{i}", f"p{i}@example.org") for i in range(4)]
            state, tok = new_game(gd, "medici", f"g{g}", people, {}, f"seed-{g}")
            gd.save(f"g{g}", state)
            tokens[f"g{g}"] = tok
        applied = 0
        for _ in range(5):
            for g in range(games):
                state = gd.load(f"g{g}")
                seen = show(state, None)
                p = seen["waiting_for"][0]
                mine = show(state, p)
                order = bots.choose("medici", mine["view"], p, mine["legal_orders"])
                submit(gd, dump_yaml({"game": f"g{g}", "player": p, "token": tokens[f"g{g}"][p],
                                      "turn": mine["turn"], "orders": [order]}).encode())
            advance(gd)
            applied += games
        return applied
    finally:
        shutil.rmtree(root, ignore_errors=True)


@click.command()
@click.option("--games", default=20, show_default=True, help="Games in the pipeline benchmark.")
@click.option("--quick", is_flag=True, help="One repetition of each, for a smoke run.")
def main(games: int, quick: bool) -> None:
    repeat = 1 if quick else 3
    click.echo(f"pbem benchmarks (python {sys.version.split()[0]})")
    for n in (3, 6):
        timed(f"engine: 10 bot games of Medici, {n} players (orders)", lambda n=n: engine_games(n, 10), repeat)
    timed("engine: 3 bot games of Florenz, 4 families (orders)", lambda: engine_games(4, 3, "florenz"), repeat)
    timed("engine: 3 solo games of Florenz, harder (orders)",
          lambda: engine_games(1, 3, "florenz", {"solo": "harder"}), repeat)
    timed("engine: Florenz legal orders of one family (lists)", lambda: florenz_legal(20), repeat)
    timed("turn file: hardened parse + schema (files)", lambda: turnfile_parse(500), repeat)
    timed(f"pipeline: {games} games x 5 runs of submit+advance+git (orders)", lambda: pipeline(games), 1)


if __name__ == "__main__":
    main()
