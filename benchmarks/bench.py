"""`make bench`: how fast the parts of a run are. Measurements, not tests: nothing here fails.

    python -m benchmarks.bench [--games N] [--quick]
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable

import click

from pbem import bots
from pbem.advance import advance, write_reports
from pbem.rules.medici_bot import medici_worth
from pbem.config import load_config
from pbem.game import apply_orders, new_game, show, submit, waiting_for
from pbem.mail.boxes import Postman
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


def engine_games(players: int, games: int, ruleset: str = "medici", options: dict[str, str] | None = None,
                 playouts: bool = False) -> int:
    """Whole bot games in the engine alone; returns the number of orders applied. With `playouts`,
    each order is drawn at random from the legal ones (as a search bot's playouts do): the engine's
    own speed, without the bot's thinking."""
    r = get_ruleset(ruleset)
    names = [f"p{i}" for i in range(players)]
    orders = 0
    for g in range(games):
        rng = Rng(f"bench-{g}")
        pick = Rng(f"playout-{g}")  # the playouts' own stream: the game's draws stay as they are
        state, _ = r.setup(names, r.check_options(options or {}), rng)
        while (d := r.decision(state)) is not None:
            p = d.players[0]
            legal = r.legal_orders(state, p)
            order = pick.choice(legal, "playout") if playouts else bots.choose(ruleset, r.bot_view(state, p), p, legal)
            r.apply(state, p, order, rng)
            orders += 1
    return orders


# the engines measured alone, as whole bot games a second (a figure to watch; no goal: today's rates
# serve every use): label, ruleset, players, games, options
ENGINES: list[tuple[str, str, int, int, dict[str, str] | None]] = [
    ("Medici, 3 players", "medici", 3, 20, None),
    ("Medici, 6 players", "medici", 6, 10, None),
    ("Medici vs Strozzi", "medici-strozzi", 2, 10, None),
    ("Medina, 4 players", "medina", 4, 3, None),
    ("Florenz, 4 families", "florenz", 4, 3, None),
    ("Florenz solo, harder", "florenz", 1, 3, {"solo": "harder"}),
]


def engine_line(label: str, ruleset: str, players: int, games: int, options: dict[str, str] | None,
                repeat: int) -> None:
    """Whole games a second in the engine alone: played by the bots (choosing from their views), and as
    random playouts (the engine without the bots)."""
    for playouts in (False, True):
        best, orders = float("inf"), 0
        for _ in range(repeat):
            t0 = time.perf_counter()
            orders = engine_games(players, games * (1 + 2 * playouts), ruleset, options, playouts)
            best = min(best, time.perf_counter() - t0)
        rate = games * (1 + 2 * playouts) / best
        how = "random playouts/s" if playouts else "whole bot games/s"
        click.echo(f"{'engine: ' + label + ' (' + how + ')':<58} {rate:8.1f} /s     "
                   f"({orders / best:,.0f} orders/s)")


def florenz_midround() -> tuple[Any, dict[str, Any], str]:
    """A Florenz game of 4 families into round 1, with pieces on the board: the ruleset, the state and
    the family to move."""
    r = get_ruleset("florenz")
    rng = Rng("bench-legal")
    state, _ = r.setup(["p0", "p1", "p2", "p3"], r.check_options({}), rng)
    for _ in range(20):
        p = r.decision(state).players[0]   # type: ignore[union-attr]
        r.apply(state, p, bots.choose("florenz", r.bot_view(state, p), p, r.legal_orders(state, p)), rng)
    return r, state, r.decision(state).players[0]   # type: ignore[union-attr]


def florenz_legal(n: int, position: tuple[Any, dict[str, Any], str]) -> int:
    """Legal orders of a Florenz family in mid-game, n times (the position made beforehand)."""
    r, state, p = position
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


# -- replies: a game played by one-line replies, against markers and token -------------------------

REPLY_SEED = "bench-replies-seed-0001"
REPLY_GM = "gm@pbem.test"
REPLY_WAYS = ("reply", "token")  # the order alone in a reply; the order between marker lines, with the token


@dataclass
class ReplyPlay:
    """A Medici game played by mail through `pbem new` and `pbem advance`, each order one player's
    reply to the latest mail pbem sent him. `typed` is what the players wrote above the quote, `goal`
    the characters of the orders alone; `mails` the mails pbem sent in the runs (the welcome mails
    of `pbem new` not counted)."""

    way: str
    orders: int = 0
    sent: int = 0  # the players' mails
    typed: int = 0
    goal: int = 0
    refusals: int = 0
    fallbacks: int = 0  # decisions no mail could answer, moved on by a turn file (`pbem submit`)
    runs: int = 0
    mails: int = 0
    run_seconds: float = 0.0
    finished: bool = False
    day: int = 0


def spoken(order: Any) -> str:
    """An order as a player types it alone on a line: `draw`, `bid 7`."""
    if isinstance(order, dict) and len(order) == 1:
        (key, value), = order.items()
        return f"{key} {value}"
    from pbem.rules.base import order_text

    return order_text(order)


def phone_reply(answered: Any, sender: str, own: str, serial: int) -> bytes:
    """A reply as a phone's mail client writes it: `own` on top, then "On ..., GM wrote:" and the
    answered mail's text quoted with `> `; threaded by In-Reply-To and References, sent to its Reply-To."""
    import email.policy
    from email.message import EmailMessage
    from email.utils import format_datetime

    text = answered.get_body(("plain",)).get_content().replace("\r\n", "\n")
    quoted = "\n".join(f"> {line}" if line else ">" for line in text.rstrip("\n").split("\n"))
    who = answered["From"].addresses[0]
    header = f"On {answered['Date']}, {who.display_name} <{who.addr_spec}> wrote:"
    reply_to = answered["Reply-To"] or answered["From"]
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = sender
    msg["To"] = str(reply_to)
    subject = str(answered["Subject"])
    msg["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    msg["Date"] = format_datetime(datetime.now(timezone.utc))
    msg["Message-ID"] = f"<bench.{serial}.{sender.replace('@', '.')}@players.test>"
    mid = str(answered["Message-ID"])
    msg["In-Reply-To"] = mid
    msg["References"] = " ".join([*str(answered.get("References", "")).split(), mid])
    msg.set_content(f"{own}\n\n{header}\n{quoted}\n", cte="quoted-printable")
    return msg.as_bytes()


def play_by_replies(root: Path, way: str = "reply", players: int = 4, seed: str = REPLY_SEED,
                    days: int | None = None, limit: int = 2000,
                    command: Callable[[list[str], str | None], str] | None = None) -> ReplyPlay:
    """Bots play a Medici game by mail through the `pbem` command (a Maildir inbox and an outbox of
    files in the games dir): for each decision the mover's bot picks a legal order, he replies to the
    latest mail pbem sent him with it (`way` "reply": the order alone; "token": between the marker
    lines, below his token, as the report's order block asks), and `pbem advance` runs. A refused
    mail is counted and the mover tries the next legal order; a decision no mail answers is moved
    on by a turn file. `days`: stop when this many days are played (None: to the end). `command`
    runs `pbem` with its arguments (and standard input) and returns what it printed (default: this
    process's pbem); a pbem.yaml already in `root` is kept."""
    import email
    import email.policy
    import json
    import mailbox

    from click.testing import CliRunner

    from pbem.cli import main as pbem_main
    from pbem.report import BEGIN, END

    root.mkdir(parents=True, exist_ok=True)
    if not (root / "pbem.yaml").exists():
        (root / "pbem.yaml").write_text(dump_yaml({"gm": {"name": "Game Master", "address": REPLY_GM},
                                                   "inbox": {"type": "maildir", "path": "mail/inbox"},
                                                   "outbox": {"type": "files", "path": "mail/outbox"}}))
    runner = CliRunner()

    def pbem(*args: str, input: str | None = None) -> str:
        if command is not None:
            return command([*args, "--games-dir", str(root)], input)
        r = runner.invoke(pbem_main, [*args, "--games-dir", str(root)], input=input)
        if r.exit_code != 0:
            raise RuntimeError(f"pbem {args[0]} failed ({r.exit_code}): {r.output}") from r.exception
        return r.stdout

    names = [f"p{i}" for i in range(players)]
    args = ["new", "medici", "m1", "--seed", seed, "--json"]
    for p in names:
        args += ["--player", f"{p}={p}@example.org"]
    tokens = {p["name"]: p["token"] for p in json.loads(pbem(*args))["players"]}
    outbox, inbox = root / "mail" / "outbox", mailbox.Maildir(root / "mail" / "inbox", create=True)
    taken: set[str] = set()
    latest: dict[str, Any] = {}

    def collect() -> int:
        """Note the mails pbem sent since the last call; each player's latest is the one he answers.
        In a run the answers to mails go first, the reports after (in the order of their number)."""
        fresh = sorted(set(p.name for p in outbox.glob("*.eml")) - taken,
                       key=lambda name: (not name.startswith("reply-"), name))
        taken.update(fresh)
        for name in fresh:
            msg = email.message_from_bytes((outbox / name).read_bytes(), policy=email.policy.default)
            latest[msg["To"].addresses[0].username] = msg
        return len(fresh)

    collect()
    play = ReplyPlay(way)
    gd = GamesDir(root)
    refused: dict[tuple[int, str], set[str]] = {}  # (turn, player): the orders of his refused mails
    while play.runs < limit:
        state = gd.load("m1")
        play.day = state["engine"]["day"]
        if state["status"] == "finished" or (days is not None and play.day > days):
            break
        mover = waiting_for(state)[0]
        seen = show(state, mover)
        tried = refused.setdefault((seen["turn"], mover), set())
        choice = bots.choose("medici", seen["view"], mover, seen["legal_orders"])
        left = [o for o in [choice, *seen["legal_orders"]] if spoken(o) not in tried]
        if not left:  # every legal order was refused: a turn file moves the game on
            pbem("submit", "-", input=dump_yaml({"game": "m1", "player": mover, "token": tokens[mover],
                                                 "turn": seen["turn"], "orders": [choice]}))
            play.fallbacks += 1
        else:
            order = spoken(left[0])
            own = order if way == "reply" else "\n".join([BEGIN, f"token: {tokens[mover]}", order, END])
            inbox.add(phone_reply(latest[mover], f"{mover}@example.org", own, play.runs))
            play.sent += 1
            play.typed += len(own)
            play.goal += len(order)
        before = len(state["log"])
        t0 = time.perf_counter()
        pbem("advance")
        play.run_seconds += time.perf_counter() - t0
        play.runs += 1
        play.mails += collect()
        if len(gd.load("m1")["log"]) > before:
            play.orders += 1
        elif left:
            play.refusals += 1
            tried.add(spoken(left[0]))
    play.finished = gd.load("m1")["status"] == "finished"
    return play


def replies(days: int | None = None) -> None:
    """A 4-player Medici game by one-line replies, and the same game by marker lines and token: what a
    player types per order against the order alone, refusals, runs and mails, wall time per order."""
    plays = {}
    for way in REPLY_WAYS:
        root = Path(tempfile.mkdtemp(prefix="pbem-bench-replies-"))
        try:
            plays[way] = play_by_replies(root / "games", way, days=days)
        finally:
            shutil.rmtree(root, ignore_errors=True)
    label = {"reply": "one-line reply", "token": "markers + token"}
    first = plays["reply"]
    how = "to its end" if first.finished else f"through day {days}"
    click.echo(f"replies: 4-player Medici by mail {how} ({first.orders} orders), each order a reply quoting "
               f"the latest mail")

    def line(what: str, way: str, figure: str, goal: str, ratio: str) -> None:
        click.echo(f"{'  ' + what + ', ' + label[way]:<58} {figure:>8} {goal}  {ratio}")

    for way, play in plays.items():
        typed, goal = play.typed / max(play.sent, 1), max(play.goal / max(play.sent, 1), 1e-9)
        line("typed per order", way, f"{typed:.1f}", f"chars  goal {goal:5.1f}", f"ratio {typed / goal:5.2f}")
    for way, play in plays.items():
        line("refusals", way, str(play.refusals), "       goal     0",
             ("ok" if play.refusals == 0 else "over")
             + (f" ({play.fallbacks} decisions moved on by a turn file)" if play.fallbacks else ""))
    # one run and one mail a decision: each answers the mail of the run before
    for way, play in plays.items():
        line("runs", way, str(play.runs), f"       goal {play.orders:5d}",
             f"ratio {play.runs / max(play.orders, 1):5.2f}")
    for way, play in plays.items():
        line("mails from players", way, str(play.sent), f"       goal {play.orders:5d}",
             f"ratio {play.sent / max(play.orders, 1):5.2f}")
    for way, play in plays.items():
        line("mails pbem sent", way, str(play.mails), "      ",
             f"{play.mails / max(play.orders, 1):11.2f} an order")
    for way, play in plays.items():
        ms = play.run_seconds * 1000 / max(play.orders, 1)
        line("time per order (advance in-process)", way, f"{ms:.1f}", "ms     goal   250", f"ratio {ms / 250:5.2f}")


# -- the batch: cost per game against the floor of reading and writing its files --------------------

def midgame_dir(root: Path, games: int, decision: int, players: int = 4, distinct: int = 50) -> dict[str, dict[str, str]]:
    """A games dir of `games` Medici games at `decision` (`distinct` of them played by bots, the rest
    copies under other ids), committed; returns each game's tokens."""
    gd = GamesDir(root, create=True)
    gd.ensure_repo()
    people = [(f"p{i}", f"p{i}@example.org") for i in range(players)]
    made: list[tuple[dict[str, Any], dict[str, str]]] = []
    for g in range(min(games, distinct)):
        state, tokens = new_game(gd, "medici", f"g{g}", people, {}, f"bench-seed-{g:04d}-midgame")
        while state["status"] == "active" and state["engine"]["turn"] < decision:
            p = waiting_for(state)[0]
            mine = show(state, p)
            state, _ = apply_orders(state, p, state["engine"]["turn"],
                                    [bots.choose("medici", mine["view"], p, mine["legal_orders"])])
        write_reports(gd, state)
        made.append((state, tokens))
    all_tokens = {}
    for g in range(games):
        state, tokens = made[g % len(made)]
        game = f"g{g}"
        gd.save(game, dict(state, game=game, events=list(state["events"]), log=list(state["log"])))
        all_tokens[game] = tokens
    gd.commit_paths([f"g{g}" for g in range(games)], "bench: games\n")
    return all_tokens


def queue_one_order(root: Path, tokens: dict[str, dict[str, str]]) -> None:
    gd = GamesDir(root)
    for game, mine in tokens.items():
        state = gd.load(game)
        p = waiting_for(state)[0]
        seen = show(state, p)
        order = bots.choose("medici", seen["view"], p, seen["legal_orders"])
        submit(gd, dump_yaml({"game": game, "player": p, "token": mine[p], "turn": seen["turn"],
                              "orders": [order]}).encode())


def floor_ms(root: Path, games: list[str]) -> float:
    """The floor: C-YAML load and dump of each game as one YAML file (the format-1 state file, with
    its events and order log inside), per game."""
    import yaml

    gd = GamesDir(root)
    tmp = Path(tempfile.mkdtemp(prefix="pbem-floor-"))
    try:
        for game in games:
            state = gd.load(game)
            (tmp / f"{game}.yaml").write_text(dump_yaml(dict(state, format=1, events=list(state["events"]),
                                                             log=list(state["log"]))))
        t0 = time.perf_counter()
        for game in games:
            data = yaml.load((tmp / f"{game}.yaml").read_text("utf-8"), Loader=yaml.CSafeLoader)
            yaml.dump(data, Dumper=yaml.CSafeDumper, sort_keys=False, allow_unicode=True)
        return (time.perf_counter() - t0) * 1000 / len(games)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def advance_ms(root: Path, jobs: int) -> tuple[float, float, float]:
    """One `pbem advance` (no mail) of the games dir, per game: the time it took, and the CPU time
    this process and its children (the workers, git) spent."""
    import resource

    gd = GamesDir(root)
    n = len(gd.games())
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    run = advance(gd, mail=False, jobs=jobs)
    took = (time.perf_counter() - t0) * 1000 / n
    assert not [o for o in run.outcomes if o.error], "a game failed in the bench"
    assert all(o.applied for o in run.outcomes), "a game applied nothing"

    def cpu(before: Any, who: int) -> float:
        after = resource.getrusage(who)
        return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000 / n
    return took, cpu(own, resource.RUSAGE_SELF), cpu(children, resource.RUSAGE_CHILDREN)


def ratio_line(label: str, value: float, floor: float, unit: str = "ms/game") -> None:
    click.echo(f"{label:<58} {value:8.1f} {unit}  floor {floor:7.1f}  ratio {value / floor:5.2f}")


def batch(sizes: tuple[int, ...], decision: int = 60) -> None:
    """The batch's cost: advance over many mid-game games, against the floor, then in parallel."""
    cores = os.cpu_count() or 1
    per_game: dict[int, float] = {}
    for n in sizes:
        base = Path(tempfile.mkdtemp(prefix="pbem-bench-batch-"))
        try:
            tokens = midgame_dir(base / "a", n, decision)
            queue_one_order(base / "a", tokens)
            subprocess.run(["cp", "-a", str(base / "a"), str(base / "b")], check=True)
            floor = floor_ms(base / "a", list(tokens))
            one, _, git = advance_ms(base / "a", 1)
            per_game[n] = one
            ratio_line(f"advance, {n} games at decision {decision}, 1 order each, --jobs 1", one, floor)
            click.echo(f"{'  of its CPU, git (fast-import, status, index)':<58} {git:8.1f} ms/game")
            if cores > 1:
                many, own, children = advance_ms(base / "b", cores)
                click.echo(f"{'  the same with --jobs ' + str(cores):<58} {many:8.1f} ms/game  "
                           f"speed-up {one / many:4.2f}x on {cores} cores")
                # every process's CPU shared by the cores: no run can be faster (git's share grows with the
                # number of games: each commit writes the top tree, one entry a game)
                bound = (own + children) / cores
                click.echo(f"{'  its CPU (all processes) shared by ' + str(cores) + ' cores':<58} {bound:8.1f} ms/game  "
                           f"the least a run on {cores} cores can take")
        finally:
            shutil.rmtree(base, ignore_errors=True)
    if len(sizes) > 1:
        small, large = min(sizes), max(sizes)
        click.echo(f"{'flat in the number of games: per game at ' + str(large) + ' / at ' + str(small):<58} "
                   f"{per_game[large] / per_game[small]:8.2f}")


#: the cost a real run may have per game, in units (see `unit_ms`): with board pictures, and text alone
RUN_GOALS = {True: 2.0, False: 1.0}


def unit_ms(root: Path, games: list[str]) -> float:
    """The unit a run's cost is measured in: PyYAML's C loader and dumper loading and dumping one game's
    state once (the format-1 file: the state with its events and order log, ~17 KB mid-game), per game,
    on this machine now. The best of three rounds."""
    return min(floor_ms(root, games) for _ in range(3))


def advance_command_ms(root: Path) -> tuple[float, float]:
    """One `pbem advance` of a games dir as the GM runs it, timed from outside: a process of its own,
    `--jobs` at its default, the report mails written to files (pbem.yaml's outbox). The file system is
    synced first, so that the run does not pay for the writes of the one before. The time it took, and
    the CPU time of all its processes (workers and git too)."""
    import resource

    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run(["sync"], check=False)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "pbem", "advance", "--quiet", "--games-dir", str(root)], env=env,
                       capture_output=True, text=True)
    took = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise RuntimeError(f"pbem advance failed ({r.returncode}): {r.stdout}{r.stderr}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return took * 1000, cpu * 1000


def mailed_midgame_dir(root: Path, games: int, decision: int) -> dict[str, dict[str, str]]:
    """`midgame_dir` with mail to files (pbem.yaml), after a run that applied one order in each game and
    mailed every player, and with one more order queued in each: a run as the GM's usual one."""
    tokens = midgame_dir(root, games, decision)
    (root / "pbem.yaml").write_text("pictures: true\n")
    queue_one_order(root, tokens)
    run = advance(GamesDir(root), mail=True, jobs=os.cpu_count() or 1)
    assert not [o for o in run.outcomes if o.error], "a game failed in the bench"
    queue_one_order(root, tokens)
    return tokens


def outbox_count(root: Path) -> int:
    folder = root / "mail" / "outbox"
    return len(list(folder.glob("*.eml"))) if folder.is_dir() else 0


def run_cost(games: int = 300, decision: int = 60, repeat: int = 3, profile: int = 0) -> None:
    """What a real run costs a game: `pbem advance` over `games` mid-game Medici games with one order
    each, the run after one that mailed every player, from outside, against the goals (`RUN_GOALS`, in
    units measured on this machine alongside). `profile`: then where the time of such a run (with
    pictures, in one process) goes, its top functions by cumulative time."""
    base = Path(tempfile.mkdtemp(prefix="pbem-bench-run-"))
    try:
        tokens = mailed_midgame_dir(base / "made", games, decision)
        names = list(tokens)
        unit = unit_ms(base / "made", names)
        click.echo(f"{'unit: C-YAML load + dump of one ~17 KB state, on this machine':<58} {unit:8.2f} ms")
        for pictures in (True, False):
            (base / "made" / "pbem.yaml").write_text(f"pictures: {str(pictures).lower()}\n")
            times, cpus = [], []
            for _ in range(repeat):
                shutil.rmtree(base / "run", ignore_errors=True)
                subprocess.run(["cp", "-a", str(base / "made"), str(base / "run")], check=True)
                took, cpu = advance_command_ms(base / "run")
                times.append(took / games)
                cpus.append(cpu / games)
                mails = outbox_count(base / "run") - outbox_count(base / "made")
            best, goal = min(times), RUN_GOALS[pictures]
            label = (f"pbem advance, {games} games, 1 order each, mail to files, "
                     f"{'pictures' if pictures else 'text alone'}")
            click.echo(f"{label:<58} {best:8.2f} ms/game = {best / unit:4.2f} units  goal {goal:3.1f} units  "
                       f"{'ok' if best / unit <= goal else 'over'}")
            click.echo(f"{'  median; CPU of all its processes; mails written':<58} {statistics.median(times):8.2f} ms/game"
                       f"   CPU {min(cpus):.2f} ms/game ({min(cpus) / unit:.2f} units) on {os.cpu_count()} cores;"
                       f" {mails} mails")
        click.echo(f"{'  the unit measured again after the runs':<58} {unit_ms(base / 'made', names):8.2f} ms")
        if profile:
            (base / "made" / "pbem.yaml").write_text("pictures: true\n")
            shutil.rmtree(base / "run", ignore_errors=True)
            subprocess.run(["cp", "-a", str(base / "made"), str(base / "run")], check=True)
            where_the_time_goes(base / "run", games, profile)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def where_the_time_goes(root: Path, games: int, top: int) -> None:
    """Profile one run (with pictures, --jobs 1, in this process) and print its `top` functions by
    cumulative time and by their own time, per game."""
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    advance(GamesDir(root), mail=True, jobs=1)
    profiler.disable()
    stats = pstats.Stats(profiler)
    rows = stats.stats  # type: ignore[attr-defined]

    def name(key: tuple[str, int, str]) -> str:
        path, line, func = key
        if path == "~":
            return func
        parts = Path(path).parts
        short = "/".join(parts[parts.index("pbem"):]) if "pbem" in parts else "/".join(parts[-2:])
        return f"{short}:{line} {func}"

    click.echo(f"where the time of that run goes (pictures, --jobs 1, profiled; ms a game, top {top}):")
    click.echo(f"  {'cumulative':>10} {'own':>8} {'calls/game':>10}  function (by cumulative time)")
    by_cum = sorted(rows.items(), key=lambda kv: -kv[1][3])
    for key, (_, calls, own, cum, _) in by_cum[:top]:
        click.echo(f"  {cum * 1000 / games:10.2f} {own * 1000 / games:8.2f} {calls / games:10.1f}  {name(key)}")
    click.echo(f"  {'cumulative':>10} {'own':>8} {'calls/game':>10}  function (by its own time)")
    for key, (_, calls, own, cum, _) in sorted(rows.items(), key=lambda kv: -kv[1][2])[:top // 2]:
        click.echo(f"  {cum * 1000 / games:10.2f} {own * 1000 / games:8.2f} {calls / games:10.1f}  {name(key)}")


def one_order_cost(repeat: int = 5, decision: int = 60) -> None:
    """One game's `pbem advance` of one order, as the GM runs it (a process of its own, mail to files,
    with pictures), the run after one that mailed every player; against its goal."""
    base = Path(tempfile.mkdtemp(prefix="pbem-bench-one-"))
    try:
        mailed_midgame_dir(base / "made", 1, decision)
        times, cpus = [], []
        for _ in range(repeat):
            shutil.rmtree(base / "run", ignore_errors=True)
            subprocess.run(["cp", "-a", str(base / "made"), str(base / "run")], check=True)
            took, cpu = advance_command_ms(base / "run")
            times.append(took)
            cpus.append(cpu)
        best = min(times)
        click.echo(f"{'pbem advance of one order in one game (4-player Medici)':<58} {best:8.1f} ms  goal "
                   f"{ONE_ORDER_GOAL_MS:5.0f} ms  ratio {best / ONE_ORDER_GOAL_MS:4.2f}  "
                   f"{'ok' if best <= ONE_ORDER_GOAL_MS else 'over'}")
        # on a busy machine the time is mostly waiting; the CPU is what the run itself costs
        click.echo(f"{'  its CPU (all its processes, git too)':<58} {min(cpus):8.1f} ms")
        floor = min(_started([sys.executable, "-c", "import yaml, click"]) for _ in range(repeat))
        label = "  against python -c 'import yaml, click'"
        click.echo(f"{label:<58} {floor:8.1f} ms  goal "
                   f"{ONE_ORDER_GOAL_FLOOR:5.1f} x   ratio {best / floor:4.2f}  "
                   f"{'ok' if best / floor <= ONE_ORDER_GOAL_FLOOR else 'over'}")
    finally:
        shutil.rmtree(base, ignore_errors=True)


#: one game's advance of one order, from process start to exit; and against the import floor
ONE_ORDER_GOAL_MS = 250.0
ONE_ORDER_GOAL_FLOOR = 2.5


def _started(argv: list[str]) -> float:
    """Milliseconds of one process from start to exit."""
    t0 = time.perf_counter()
    subprocess.run(argv, capture_output=True, check=True)
    return (time.perf_counter() - t0) * 1000


def order_cost(decisions: tuple[int, ...] = (10, 150), games: int = 20) -> None:
    """The cost of one order early and late in a long game (Medici, 6 players)."""
    cost = {}
    for d in decisions:
        base = Path(tempfile.mkdtemp(prefix="pbem-bench-order-"))
        try:
            tokens = midgame_dir(base / "a", games, d, players=6, distinct=games)
            queue_one_order(base / "a", tokens)
            cost[d] = advance_ms(base / "a", 1)[0]
        finally:
            shutil.rmtree(base, ignore_errors=True)
    first, last = decisions[0], decisions[-1]
    for d in decisions:
        ratio_line(f"one order at decision {d} (6-player Medici, advance per game)", cost[d], cost[first])
    click.echo(f"{'  cost at decision ' + str(last) + ' / at decision ' + str(first):<58} {cost[last] / cost[first]:8.2f}")


#: a command against `python -c "import yaml, click"`, the stack it is built on
COMMAND_GOAL = 1.5


def commands(repeat: int = 5) -> None:
    """One command from process start to exit, against `python -c "import yaml"`."""
    py = sys.executable
    pbem = [py, "-m", "pbem"]
    base = Path(tempfile.mkdtemp(prefix="pbem-bench-cmd-"))
    try:
        tokens = midgame_dir(base / "games", 1, 40)
        env = dict(os.environ, PBEM_GAMES_DIR=str(base / "games"))
        # as on a GM's machine: Python keeps its compiled modules (the first run below writes them)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        gd = GamesDir(base / "games")
        state = gd.load("g0")
        p = waiting_for(state)[0]
        seen = show(state, p)
        order = bots.choose("medici", seen["view"], p, seen["legal_orders"])
        turnfile = base / "turn.yaml"
        turnfile.write_text(dump_yaml({"game": "g0", "player": p, "token": tokens["g0"][p], "turn": seen["turn"],
                                       "orders": [order]}))

        def best(argv: list[str]) -> float:
            times = []
            for _ in range(repeat):
                t0 = time.perf_counter()
                subprocess.run(argv, env=env, capture_output=True, check=True)
                times.append(time.perf_counter() - t0)
            return min(times) * 1000

        subprocess.run(pbem + ["show", "g0"], env=env, capture_output=True, check=True)  # writes the .pyc
        floor = best([py, "-c", "import yaml"])
        # the stack the project prescribes for a command: click beside PyYAML is already ~1.5x the floor
        stack = best([py, "-c", "import yaml, click"])
        ratio_line("python -c 'import yaml, click' (the command's own stack)", stack, floor, "ms     ")
        # each command the GM types, which loads what it uses alone (tests/test_command_imports.py); the
        # advance has nothing to do (the orders are submitted last)
        for label, argv in (("pbem --help", ["--help"]), ("pbem --version", ["--version"]), ("pbem status", ["status"]),
                            ("pbem show g0", ["show", "g0"]), ("pbem doctor", ["doctor"]),
                            ("pbem advance, nothing to do", ["advance"]),
                            ("pbem submit (one turn file)", ["submit", str(turnfile)])):
            took = best(pbem + argv)
            ratio_line(label, took, floor, "ms     ")
            click.echo(f"{'  the same against yaml and click':<58} {'':8}          ratio {took / stack:5.2f}  goal "
                       f"{COMMAND_GOAL:3.1f}  {'ok' if took / stack <= COMMAND_GOAL else 'over'}")
        for pictures in (True, False):
            (base / "games" / "pbem.yaml").write_text(f"pictures: {str(pictures).lower()}\n")
            times = []
            for _ in range(repeat):  # each time a fresh order: the one queued by the last submit
                subprocess.run(pbem + ["submit", str(turnfile)], env=env, capture_output=True, check=True)
                t0 = time.perf_counter()
                subprocess.run(pbem + ["advance", "--quiet"], env=env, capture_output=True, check=True)
                times.append(time.perf_counter() - t0)
                state = gd.load("g0")
                p = waiting_for(state)[0]
                seen = show(state, p)
                order = bots.choose("medici", seen["view"], p, seen["legal_orders"])
                turnfile.write_text(dump_yaml({"game": "g0", "player": p, "token": tokens["g0"][p],
                                               "turn": seen["turn"], "orders": [order]}))
            label = f"pbem advance, 1 game, 1 order ({'board picture' if pictures else 'pictures: false'})"
            took = min(times) * 1000
            click.echo(f"{label:<58} {took:8.1f} ms       goal 250 ms")
            # the goal holds for the mail with its picture; the run without one shows what the rest costs
            click.echo(f"{'  the same against yaml and click':<58} {'':8}          ratio {took / stack:5.2f}  goal "
                       f"{ONE_ORDER_GOAL_FLOOR:3.1f}{'' if pictures else ' (with the picture)'}")
    finally:
        shutil.rmtree(base, ignore_errors=True)


@click.command()
@click.option("--games", default=20, show_default=True, help="Games in the pipeline benchmark.")
@click.option("--quick", is_flag=True, help="One repetition of each, for a smoke run.")
@click.option("--only", type=click.Choice(["engines", "batch", "orders", "commands", "mail", "replies", "scale",
                                          "bots"]),
              default=None, help="Only this part.")
def main(games: int, quick: bool, only: str | None) -> None:
    repeat = 1 if quick else 3
    click.echo(f"pbem benchmarks (python {sys.version.split()[0]}, {os.cpu_count()} cores)")
    if only in (None, "commands"):
        commands(3 if quick else 7)
    if only in (None, "batch"):
        one_order_cost(repeat=3 if quick else 7)
        run_cost(60 if quick else 300, repeat=1 if quick else 3, profile=20)
        batch((20, 100) if quick else (100, 1000))
    if only in (None, "orders"):
        order_cost(games=5 if quick else 20)
    if only in (None, "replies"):
        replies(days=1 if quick else None)
        from benchmarks.bench_replies import reply_reading

        reply_reading(200 if quick else 600)
    if only in (None, "scale"):  # 10,000 games and 100,000 commits against 1,000 (benchmarks.bench_scale)
        from benchmarks.bench_scale import scale

        scale(quick)
    if only in (None, "bots"):  # each game's bot against random play and against itself (benchmarks.bench_bots)
        from benchmarks.bench_bots import bots_section

        bots_section(quick)
    if only not in (None, "engines", "mail"):
        return
    for label, ruleset, players, games_, options in ENGINES:
        engine_line(label, ruleset, players, games_, options, repeat)
    position = florenz_midround()
    timed("engine: Florenz legal orders of one family (lists)", lambda: florenz_legal(200, position), repeat)
    timed("turn file: hardened parse + schema (files)", lambda: turnfile_parse(500), repeat)
    timed(f"pipeline: {games} games x 5 runs of submit+advance+git (orders)", lambda: pipeline(games), 1)
    if only in (None, "mail"):
        mail_rounds()


if __name__ == "__main__":
    main()
