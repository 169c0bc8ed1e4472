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
from dataclasses import dataclass, field
from typing import Any, Callable

import click

from pbem import bots
from pbem.advance import advance, write_reports
from pbem.rules.medici_bot import medici_worth
from pbem.config import load_config
from pbem.game import new_game, show, submit, waiting_for
from pbem.mailbox import Postman
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


@dataclass
class MailPlay:
    """A game played by mail through the whole pipeline: how many `pbem advance` runs it took, the mails
    each player got, and the runs in which he had to act or could bid."""

    runs: int = 0
    mails: dict[str, int] = field(default_factory=dict)
    needed: dict[str, int] = field(default_factory=dict)
    state: dict[str, Any] = field(default_factory=dict)


def play_by_mail(root: Path, players: int = 4, seed: str = "mail-play-seed-0001", standing: bool = True,
                 limit: int = 400) -> MailPlay:
    """Bots play a Medici game as players by mail would: each answers only the mail he got in the last
    run. With `standing`, a player sends `draw_until` at the start and a `max_bid` for each lot he may
    bid on when it goes up; a plain order only when a decision reaches him. Without, one plain order per
    decision, as before standing orders."""
    gd = GamesDir(root, create=True)
    gd.ensure_repo()
    people = [(f"p{i}", f"p{i}@example.org") for i in range(players)]
    state, tokens = new_game(gd, "medici", "m1", people, {}, seed)
    postman = Postman(load_config(gd.root))
    write_reports(gd, state, postman, tokens)
    gd.save("m1", state)
    gd.commit("m1", "m1: new game\n")
    postman.deliver()
    outbox = gd.root / "mail" / "outbox"
    seen_mail: set[str] = set()
    play = MailPlay(mails={p: 0 for p, _ in people}, needed={p: 0 for p, _ in people})

    def send(player: str, **body: Any) -> None:
        submit(gd, dump_yaml({"game": "m1", "player": player, "token": tokens[player], **body}).encode())

    while play.runs < limit:
        fresh = sorted(set(p.name for p in outbox.glob("*.eml")) - seen_mail)
        seen_mail.update(fresh)
        got = {name.split(".")[1] for name in fresh if name.startswith("m1.")}
        for p in got if play.runs else []:  # the welcome mail comes from `pbem new`, not a run
            play.mails[p] += 1
        state = gd.load("m1")
        if state["status"] == "finished":
            break
        engine = state["engine"]
        for p, _ in people:
            if p in waiting_for(state) or (engine["phase"] == "bid" and p in engine["to_bid"]):
                play.needed[p] += 1
        for p in sorted(got):
            seen = show(state, p)
            if standing and play.runs == 0:
                send(p, standing=[{"draw_until": 2 + (int(p[1:]) % 2)}])
            elif p in seen["waiting_for"]:
                order = bots.choose("medici", seen["view"], p, seen["legal_orders"])
                send(p, turn=seen["turn"], orders=[order])
            elif standing and engine["phase"] == "bid" and p in engine["to_bid"]:
                view = seen["view"]
                money = next(x["money"] for x in view["players"] if x["name"] == p)
                worth = medici_worth(view, p, view["lot"]) * (0.55 + 0.3 * bots.temperament(p))
                send(p, standing=[{"draw_until": 2 + (int(p[1:]) % 2)}, {"max_bid": min(money, int(worth))}])
        advance(gd)
        play.runs += 1
    play.state = gd.load("m1")
    return play


def mail_rounds() -> None:
    """Runs and mails of a 4-player Medici game by mail, with and without standing orders."""
    for standing in (False, True):
        root = Path(tempfile.mkdtemp(prefix="pbem-bench-mail-"))
        try:
            t0 = time.perf_counter()
            play = play_by_mail(root / "games", standing=standing)
            took = time.perf_counter() - t0
        finally:
            shutil.rmtree(root, ignore_errors=True)
        decisions = len(play.state["log"])
        click.echo(f"by mail, 4 players, {'standing orders' if standing else 'one order a mail':<17} "
                   f"{decisions} decisions in {play.runs} runs ({took:.1f} s); mails per player: "
                   + ", ".join(f"{p} {n} (of {play.needed[p]} runs needing him)" for p, n in play.mails.items()))


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
    mail_rounds()


if __name__ == "__main__":
    main()
