"""A hosted game: its players and tokens, its seed, its order log, and the steps of the pipeline that
act on one game (new, submit, apply, show, verify). The batch over all games is `pbem.advance`."""

from __future__ import annotations

import copy
import hashlib
import hmac
import marshal
import os
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Collection

from pbem.errors import AuthError, IllegalOrder, PbemError, Refusal, SetupError, StaleTurn, StoreError
from pbem.history import HISTORIES
from pbem.i18n import N_
from pbem.rng import Rng, commitment
from pbem.rules.base import Event, Order, Ruleset, get_ruleset, order_text
from pbem import absence
from pbem.tablebots import bot_order, bot_seats, is_bot, seat_entry
from pbem.store import FORMAT, GAME_ID, PLAYER_NAME, GamesDir, dump_yaml
from pbem.turnfile import FRAMES as TURN_FILE_FRAMES
from pbem.turnfile import NEXT, TurnFile, check_orders, parse_turnfile
from pbem.turnfile import REFUSALS as TURN_FILE_REFUSALS

EMAIL = r"^[^@\s]+@[^@\s]+\.[^@\s]+$"


def now() -> str:
    """The time, as ISO 8601 UTC; tests set PBEM_NOW to control the clock."""
    fixed = os.environ.get("PBEM_NOW")
    if not fixed:
        return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    try:
        moment = datetime.fromisoformat(fixed.strip().replace("Z", "+00:00"))
    except ValueError:
        raise SetupError(f"PBEM_NOW={fixed!r} is not a time in ISO 8601 form "
                         f"(such as 2026-11-24T18:00:00Z); unset it to use the clock") from None
    if moment.tzinfo is None:  # a time without a zone is read as UTC, the zone of every stamp pbem writes
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def ruleset_of(state: dict[str, Any]) -> Ruleset:
    return get_ruleset(state["ruleset"])


def waiting_for(state: dict[str, Any]) -> list[str]:
    decision = ruleset_of(state).decision(state["engine"])
    return list(decision.players) if decision else []


def player_names(state: dict[str, Any]) -> list[str]:
    return [p["name"] for p in state["players"]]


# -- a new game ---------------------------------------------------------------------------------------

def parse_player(spec: str) -> tuple[str, str]:
    """`anna=anna@example.org` -> ("anna", "anna@example.org")."""
    name, sep, email = spec.partition("=")
    if not sep:
        raise SetupError(f"{spec!r} is not NAME=EMAIL")
    if not PLAYER_NAME.match(name):
        raise SetupError(f"player name {name!r} must be lower-case letters, digits, '-' or '_', "
                         f"starting with a letter, at most 24 characters")
    if not re.match(EMAIL, email):
        raise SetupError(f"{email!r} (player {name}) is not an email address")
    return name, email


STRONG_SEED = 16  # shorter seeds can be found from their published sha256 by trying candidates


def weak_seed(seed: str | None) -> str | None:
    """Why a GM's seed is too easy to guess, or None (no seed: pbem draws a strong one)."""
    if not seed or len(seed) >= STRONG_SEED:  # an empty seed is refused by new_game
        return None
    return (f"a seed of {len(seed)} characters can be guessed from the sha256 every report carries, "
            f"and with it every shuffle of the game")


def check_seed(seed: str | None, weak_ok: bool = False) -> None:
    """Refuse a seed that is too easy to guess, unless the GM says it is meant (`--weak-seed`)."""
    why = weak_seed(seed)
    if why and not weak_ok:
        raise SetupError(f"the seed {seed!r} is weak: {why}; use at least {STRONG_SEED} characters or leave "
                         f"--seed out, or pass --weak-seed if that is meant (tests, demos)")


def check_addresses(players: list[tuple[str, str]], config: Any) -> None:
    """Refuse a player whose address is the GM's own: pbem sets that mail aside, so he could never
    send orders by mail."""
    for name, email in players:
        if email.lower() == config.gm_address.lower():
            raise SetupError(f"{email!r} (player {name}) is the GM's own address in pbem.yaml; pbem sets "
                             f"mail from it aside, so {name} could never send orders by mail")


def new_game(gd: GamesDir, ruleset_name: str, game: str, players: list[tuple[str, str]],
             options: dict[str, str], seed: str | None = None, deck: Any = None,
             deadline: dict[str, Any] | None = None,
             bots: Collection[str] = ()) -> tuple[dict[str, Any], dict[str, str]]:
    """Set up a game and store it; returns the state and each player's token (shown once, never stored).
    `bots`: the seats the game's bot plays (their addresses are ignored; they have no token); they make
    their first decisions at once."""
    ruleset = get_ruleset(ruleset_name)
    if not GAME_ID.match(game):
        raise SetupError(f"{game!r} is not a game id (lower-case letters, digits, '-' and '_', at most 40, "
                         f"starting with a letter or digit)")
    names = [n for n, _ in players]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise SetupError(f"player {dupes[0]!r} is named twice")
    ruleset.check_players(names)
    options = ruleset.check_options(options)
    fixed = ruleset.check_deck(deck, names, options) if deck is not None else None
    if gd.exists(game) or gd.is_game_folder(game):  # a game whose state file is lost is still a game
        raise SetupError(f"game {game!r} already exists in {gd.root}")
    import secrets

    seed = seed if seed is not None else secrets.token_hex(16)
    if not seed:
        raise SetupError("the seed must not be empty")
    rng = Rng(seed)
    engine, events = ruleset.setup(names, options, rng, fixed)
    tokens = {n: secrets.token_urlsafe(12) for n in names if n not in bots}
    stamp = now()
    state: dict[str, Any] = {
        "format": FORMAT,
        "game": game,
        "ruleset": ruleset.name,
        "options": options,
        "status": "active",
        "created": stamp,
        "waiting_since": stamp,
        "players": [seat_entry(n) if n in bots else {"name": n, "email": e, "token_sha256": token_hash(tokens[n])}
                    for n, e in players],
        "seed": seed,
        "seed_sha256": commitment(seed),
        "deck": fixed,
        "rng_counter": rng.counter,
        "engine": engine,
        "events": [dict(e, turn=0) for e in events],
        "log": [],
        "reported": {n: 0 for n in names},
        "reports_sent": {n: 0 for n in names},
    }
    if deadline:
        state["deadline"] = deadline
    if bots:  # the bots decide until a player must
        state, _, _ = play_queue(state, [])
    _finish_if_over(state)
    return state, tokens


# -- orders -------------------------------------------------------------------------------------------

def seat_of(state: dict[str, Any], name: str) -> str | None:
    """The seat a name plays: the seat's own name, or the person who took it over (`pbem replace`)."""
    for p in state["players"]:
        if name in (p["name"], p.get("person")):
            return p["name"]
    return None


def authenticate(gd: GamesDir, tf: TurnFile, proven: tuple[str, str] | None = None) -> tuple[dict[str, Any], str]:
    """The game a turn file is for and the seat its sender plays, once he has proved who he is: by his
    token, or (`proven`: the game and seat a reply key proved) by his reply key, with his token too if
    he gave it."""
    if not GAME_ID.match(tf.game) or not gd.exists(tf.game):
        raise AuthError(f"there is no game {tf.game!r}")
    state = gd.load(tf.game)
    seat = seat_of(state, tf.player)
    if seat is None:
        raise AuthError(f"game {tf.game!r} has no player {tf.player!r}")
    if proven is not None and proven != (tf.game, seat):
        raise AuthError(f"the mail you answer is about {proven[1]!r} in game {proven[0]!r}, not {tf.player!r} "
                        f"in game {tf.game!r}")
    if proven is not None and tf.token is None:
        return state, seat
    stored = next(p["token_sha256"] for p in state["players"] if p["name"] == seat)
    if not hmac.compare_digest(stored, token_hash(tf.token or "")):
        raise AuthError(f"the token for {tf.player!r} in game {tf.game!r} is wrong")
    return state, seat


def check_turn(state: dict[str, Any], player: str, turn: int) -> None:
    if state["status"] == "paused":
        raise StaleTurn(f"game {state['game']!r} is paused by the GM; send your orders when it resumes")
    if state["status"] != "active":
        raise StaleTurn(f"game {state['game']!r} is {state['status']}; it takes no more orders")
    current = state["engine"]["turn"]
    if turn < current:
        raise StaleTurn(f"your orders answer turn {turn}, but game {state['game']!r} is at turn {current}: "
                        f"they are stale")
    if turn > current:
        raise StaleTurn(f"your orders answer turn {turn}, but game {state['game']!r} is only at turn {current}")
    waiting = waiting_for(state)
    if player not in waiting and decided(state, player, current):  # one of several who decide at once
        raise StaleTurn(f"your orders for turn {current} of game {state['game']!r} are in already; the game "
                        f"waits for {', '.join(waiting)} to send theirs")
    if player not in waiting:
        raise StaleTurn(f"turn {current} of game {state['game']!r} is not yours: "
                        f"the game waits for {', '.join(waiting)}")


def decided(state: dict[str, Any], player: str, turn: int) -> bool:
    """Whether `player` has given his order for decision `turn` (the log is read from its end, only as
    far back as that decision)."""
    log = state["log"]
    for i in range(len(log) - 1, -1, -1):
        if log[i]["turn"] != turn:
            return False
        if log[i]["player"] == player:
            return True
    return False


def copy_game(state: dict[str, Any]) -> dict[str, Any]:
    """A copy of a game: the plain data through marshal (a third of deepcopy's time), the histories by
    their own copy."""
    try:
        plain = marshal.loads(marshal.dumps({k: v for k, v in state.items() if k not in HISTORIES}))
    except ValueError:  # something marshal does not know: copied the slow way
        return copy.deepcopy(state)
    plain.update({key: copy.deepcopy(state[key]) for key in HISTORIES if key in state})
    return plain


def apply_orders(state: dict[str, Any], player: str, turn: int, orders: list[Order],
                 received: str | None = None, substitute: str | None = None,
                 by: str | None = None) -> tuple[dict[str, Any], list[Event]]:
    """Apply a player's orders one after another to a copy of the game. Every order must be legal when
    its turn comes and still be the player's decision; otherwise nothing at all is applied."""
    check_turn(state, player, turn)
    ruleset = ruleset_of(state)
    new = copy_game(state)
    rng = Rng(new["seed"], new["rng_counter"])
    events: list[Event] = []
    for i, order in enumerate(orders, start=1):
        shown = repr(order_text(order))
        engine = new["engine"]
        decision = ruleset.decision(engine)
        if decision is None or player not in decision.players:
            who = ", ".join(decision.players) if decision else "nobody: the game is over"
            raise IllegalOrder(framed("no-longer-yours", n=i, order=shown, before=i - 1, players=who))
        at = engine["turn"]
        try:
            step = ruleset.apply(engine, player, order, rng)
        except IllegalOrder as exc:
            why = exc.refusal
            raise IllegalOrder(framed("order-n-refused-nothing", n=i, order=shown, why=why) if len(orders) > 1
                               else framed("order-refused", order=shown, why=why)) from None
        entry = {"turn": at, "player": player, "order": order, "received": received or now()}
        mark = {"substitute": substitute} if substitute else {"by": by} if by else {}
        entry.update(mark)
        new["log"].append(entry)
        events += [dict(e, turn=at, **mark) for e in step]
        _refresh_standing(ruleset, new)
    new["rng_counter"] = rng.counter
    new["events"] += events
    if not same_decision(state, new) and (waiting_for(new) != waiting_for(state) or events):
        new["waiting_since"] = now()
    _finish_if_over(new)
    return new, events


def same_decision(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Whether `after` still waits on the decision `before` waited on, for fewer of its players: one of
    several who decide at once has sent his order. The decision keeps its turn and its clock."""
    waiting = waiting_for(after)
    return (before["engine"]["turn"] == after["engine"]["turn"] and bool(waiting)
            and set(waiting) < set(waiting_for(before)))


def _finish_if_over(state: dict[str, Any]) -> None:
    if ruleset_of(state).decision(state["engine"]) is None:
        state["status"] = "finished"


@dataclass
class Submitted:
    game: str
    player: str
    turn: int | str | None              # a decision number, NEXT (a premove), or None (standing orders alone)
    orders: list[Order]
    queued: Path | None
    replaced: int
    paused: bool = False  # the game is paused: the orders wait in the queue until it resumes
    standing: list[dict[str, Any]] | None = None  # the standing orders it sets ([] clears them)
    reports: str | None = None  # when he wants mail, if the turn file says


def check_submission(gd: GamesDir, data: bytes, sender: str | None = None, source: str = "file",
                     proven: tuple[str, str] | None = None) -> tuple[Submitted, dict[str, Any]]:
    """Everything `submit` checks, without queueing: the answer and the queue entry it would write.
    `sender`: the address a mail came from, which must be the player's own. `proven`: the game and seat
    the mail's reply key proved; it then needs no token."""
    tf = parse_turnfile(data, need_token=proven is None)
    state, seat = authenticate(gd, tf, proven)
    if sender is not None:
        registered = next(p["email"] for p in state["players"] if p["name"] == seat)
        if sender.lower() != registered.lower():
            raise AuthError(f"{sender} is not the address of {tf.player!r} in game {tf.game!r}")
    ruleset = ruleset_of(state)
    paused = state["status"] == "paused"
    probe = dict(state, status="active") if paused else state  # checked as they will be applied on resume
    if state["status"] == "finished":
        raise StaleTurn(f"game {state['game']!r} is finished; it takes no more orders")
    if tf.orders is not None:
        check_orders(tf.orders, f"{ruleset.name}.orders", tf.lines)
        if tf.turn != NEXT:
            probe, _ = apply_orders(probe, seat, tf.turn, tf.orders)  # a dry run: raises if anything is wrong
    if tf.standing is not None:
        try:
            check_orders(tf.standing, f"{ruleset.name}.standing", tf.lines, "standing")
        except FileNotFoundError:  # a game without standing orders has no schema for them
            pass
        standing_of(ruleset, probe, seat, tf.standing)
    entry = {"player": seat, "turn": tf.turn, "received": now(), "source": source}
    if tf.turn == NEXT:  # they can answer no decision before this one (how far back a rerun looks)
        entry["sent_at_turn"] = state["engine"]["turn"]
    if tf.orders is not None:
        entry["orders"] = tf.orders
    if tf.standing is not None:
        entry["standing"] = tf.standing
    if tf.reports is not None:
        entry["reports"] = tf.reports
    replaced = sum(1 for _, e in gd.queued(tf.game) if e["player"] == seat and e.get("turn") == tf.turn)
    done = Submitted(tf.game, seat, tf.turn, tf.orders or [], None, replaced, paused, tf.standing, tf.reports)
    return done, entry


def submit(gd: GamesDir, data: bytes, source: str = "file", sender: str | None = None,
           proven: tuple[str, str] | None = None) -> Submitted:
    """Check a turn file as far as the game stands now and queue it for the next `advance`."""
    done, entry = check_submission(gd, data, sender, source, proven)
    done.queued, replaced = gd.enqueue(done.game, entry)
    done.replaced = len(replaced)
    return done


def describe_turn(turn: int | str | None) -> str:
    """What a turn file answers, in a line for the GM: `turn 7`, `sent ahead`, `any time` (standing
    orders or reports alone)."""
    return f"turn {turn}" if isinstance(turn, int) else "sent ahead" if turn == NEXT else "any time"


# -- standing orders and premoves -----------------------------------------------------------------------

def standing_of(ruleset: Ruleset, state: dict[str, Any], player: str, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A player's standing orders, checked and bound to the game as it stands."""
    for i, entry in enumerate(entries if ruleset.standing_help else []):  # (a game without: refused below)
        if not isinstance(entry, dict) or len(entry) != 1 and not (len(entry) == 2 and "harbour" in entry):
            raise IllegalOrder(framed("standing-not-one", n=i, order=repr(next(iter(ruleset.standing_help)))))
    try:
        return ruleset.check_standing(state["engine"], player, [dict(e) if isinstance(e, dict) else e
                                                                for e in entries])
    except IllegalOrder as exc:
        raise IllegalOrder(framed("standing-refused", why=exc.refusal)) from None


def set_standing(state: dict[str, Any], player: str, entries: list[dict[str, Any]],
                 queued: str | None = None) -> dict[str, Any]:
    """A copy of the game with `player`'s standing orders replaced (`[]` clears them); `queued`, the
    queue file that set them, is kept so that a rerun after a crash does not set them twice."""
    bound = standing_of(ruleset_of(state), state, player, entries)
    new = copy.deepcopy(state)
    _put_standing(new, player, bound)
    if queued:
        new.setdefault("standing_since", {})[player] = queued
    return new


SEAT_SETTINGS = ("language", "timezone")  # a seat's own, in state["players"]; absent: the host's


def set_seat(state: dict[str, Any], player: str, key: str, value: str | None) -> dict[str, Any]:
    """A copy of the game with a seat's `language` or `timezone` set (None: the host's again). Nothing
    is told to anyone: the seat's next mail is written so."""
    if key not in SEAT_SETTINGS:
        raise ValueError(key)
    new = copy.deepcopy(state)
    entry = next(p for p in new["players"] if p["name"] == player)
    if value is None:
        entry.pop(key, None)
    else:
        entry[key] = value
    return new


def set_reports(state: dict[str, Any], player: str, choice: str) -> dict[str, Any]:
    """When `player` wants mail: `moves` (when he must act, may bid, at scorings and the end; the
    default) or `all` (every change)."""
    new = copy.deepcopy(state)
    table = new.setdefault("reports", {})
    table.pop(player, None)
    if choice != "moves":
        table[player] = choice
    if not table:
        new.pop("reports")
    return new


def _put_standing(state: dict[str, Any], player: str, entries: list[dict[str, Any]]) -> None:
    table = state.setdefault("standing", {})
    table.pop(player, None)
    if entries:
        table[player] = entries
    if not table:
        state.pop("standing")


def _refresh_standing(ruleset: Ruleset, state: dict[str, Any]) -> None:
    """After an order: standing orders bind to what they wait for; spent ones go."""
    table = state.get("standing")
    if not table:
        return
    for player in list(table):
        table[player] = ruleset.refresh_standing(state["engine"], player, table[player])
        if not table[player]:
            del table[player]
    if not table:
        del state["standing"]


@dataclass
class QueueResult:
    """What became of one queued turn file."""

    key: Any                      # the queue file (or whatever the caller keyed it by)
    player: str
    turn: Any
    orders: list[Order]
    outcome: str                  # applied | refused | held | replaced | dropped (a premove not legal then)
    message: str = ""


def play_queue(state: dict[str, Any], queue: list[tuple[Any, dict[str, Any]]],
               limit: int = 10_000) -> tuple[dict[str, Any], list[QueueResult], list[str]]:
    """Apply a game's queue: dated orders in the order they came (each all or nothing), standing orders
    as they come; then, while the game waits for someone whose premove (`turn: next`) or standing
    orders answer his decision, play them. Returns the state, what became of each entry, and the
    orders given by premove or standing order ("anna bid: 3 (by standing order)")."""
    results: list[QueueResult] = []
    premoves: dict[str, tuple[Any, dict[str, Any]]] = {}
    for key, entry in queue:
        player, turn, orders = entry["player"], entry.get("turn"), entry.get("orders")
        if orders is not None and player in premoves:  # a later turn file replaces orders sent ahead
            old_key, old = premoves.pop(player)
            results.append(QueueResult(old_key, player, NEXT, old["orders"], "replaced"))
        if orders is not None and turn == NEXT:
            premoves[player] = (key, entry)
            orders = None
        try:
            if orders is not None:
                state, _ = apply_orders(state, player, turn, orders, entry.get("received"))
            if entry.get("standing") is not None:
                state = set_standing(state, player, entry["standing"], entry.get("queued"))
            if entry.get("reports") is not None:
                state = set_reports(state, player, entry["reports"])
            if entry.get("language") is not None:  # a player's `language de` by mail
                state = set_seat(state, player, "language", entry["language"])
            if entry.get("away") is not None:  # `away until 3 Dec` by mail
                state = absence.away(state, player, entry["away"])
            if entry.get("back"):
                state = absence.back(state, player, entry.get("received") or now())
        except PbemError as exc:
            results.append(QueueResult(key, player, turn, orders or [], "refused", exc.refusal))
            continue
        if player not in premoves or premoves[player][0] != key:
            results.append(QueueResult(key, player, turn, orders or [], "applied"))
    auto: list[str] = []
    ruleset = ruleset_of(state)
    for _ in range(limit):
        if state["status"] != "active":
            break
        moved = False
        for player in waiting_for(state):
            if is_bot(state, player):  # a bot decides at once, from its seat's view
                order = bot_order(ruleset, state["engine"], player)
                state, _ = apply_orders(state, player, state["engine"]["turn"], [order], by="bot")
                auto.append(f"{player} {order_text(order)} (bot)")
                moved = True
                break
            if player in premoves:
                key, entry = premoves.pop(player)
                try:
                    state, _ = apply_orders(state, player, state["engine"]["turn"], entry["orders"],
                                            entry.get("received"), by="premove")
                except PbemError as exc:
                    results.append(QueueResult(key, player, NEXT, entry["orders"], "dropped", exc.refusal))
                else:
                    results.append(QueueResult(key, player, NEXT, entry["orders"], "applied"))
                    auto.append(f"{player} {', '.join(order_text(o) for o in entry['orders'])} (sent ahead)")
                moved = True
                break
            entries = state.get("standing", {}).get(player)
            if not entries:
                continue
            move = ruleset.standing_move(state["engine"], player, entries)
            if move.entries != entries or move.dropped:
                state = copy.deepcopy(state)
                _put_standing(state, player, move.entries)
                for why in move.dropped:  # illegal now: dropped, and the game waits for him
                    notice(state, STANDING_DROPPED, to=[player], args={"why": why})
            if move.order is None:
                continue
            try:
                state, _ = apply_orders(state, player, state["engine"]["turn"], [move.order], by="standing")
            except PbemError as exc:  # the rules refuse it now: dropped, and the game waits for him
                state = copy.deepcopy(state)
                _put_standing(state, player, [])
                notice(state, STANDING_REFUSED, to=[player], args={"order": repr(order_text(move.order)),
                                                                   "why": str(exc)})
                continue
            auto.append(f"{player} {order_text(move.order)} (by standing order)")
            moved = True
            break
        if not moved:
            break
    for key, entry in premoves.values():
        results.append(QueueResult(key, entry["player"], NEXT, entry["orders"], "held"))
    return state, results, auto


# -- looking at a game --------------------------------------------------------------------------------

def show(state: dict[str, Any], player: str | None = None) -> dict[str, Any]:
    """What `pbem show --json` prints: the contract other tools rely on."""
    ruleset = ruleset_of(state)
    if player is not None:
        seat = seat_of(state, player)
        if seat is None:
            raise PbemError(f"game {state['game']!r} has no player {player!r}")
        player = seat
    out: dict[str, Any] = {
        "game": state["game"],
        "ruleset": state["ruleset"],
        "options": dict(state["options"]),
        "turn": state["engine"]["turn"],
        "status": state["status"],
        "waiting_for": waiting_for(state),
        "waiting_since": state["waiting_since"],
        "seed_sha256": state["seed_sha256"],
        "view": ruleset.view(state["engine"], player),
    }
    robots = bot_seats(state)
    if robots:  # (a game without bots shows as it always did)
        out["bots"] = robots
    if player is not None:
        out["legal_orders"] = ruleset.legal_orders(state["engine"], player) if state["status"] == "active" else []
        out["standing"] = [ruleset.standing_shown(e) for e in state.get("standing", {}).get(player, [])]
    if state["status"] == "finished":
        out["result"] = {"standings": [{"player": r["player"], "score": r["score"], "rank": r["rank"]}
                                       for r in ruleset.result(state["engine"])]}
        out["seed"] = state["seed"]
    return out


def replay(state: dict[str, Any]) -> dict[str, Any]:
    """Rebuild a game from its seed, options, deck and order log alone."""
    ruleset = ruleset_of(state)
    names = player_names(state)
    rng = Rng(state["seed"])
    engine, events = ruleset.setup(names, dict(state["options"]), rng, state["deck"])
    rebuilt = {"engine": engine, "events": [dict(e, turn=0) for e in events]}
    for entry in state["log"]:
        at = engine["turn"]
        if entry["turn"] != at:
            raise PbemError(f"the log says turn {entry['turn']} where the replay is at turn {at}")
        step = ruleset.apply(engine, entry["player"], entry["order"], rng)
        rebuilt["events"] += [dict(e, turn=at) for e in step]
    rebuilt["rng_counter"] = rng.counter
    return rebuilt


def verify(state: dict[str, Any]) -> list[str]:
    """The differences between a stored game and its replay (empty: identical)."""
    state = dict(state, events=list(state["events"]), log=list(state["log"]))  # the whole history
    try:
        rebuilt = replay(state)
    except PbemError as exc:
        return [f"the replay failed: {exc}"]
    problems = []
    stored = dict(state, events=engine_events(state["events"]))
    for key in ("engine", "events", "rng_counter"):
        if dump_yaml(rebuilt[key]) != dump_yaml(stored[key]):
            problems.append(f"{key} differs from the replay{_first_difference(state[key], rebuilt[key])}")
    return problems


def engine_events(events: list[Event]) -> list[Event]:
    """The events the rules made, without the GM's notices or the marks of substitute moves."""
    return [{k: v for k, v in e.items() if k not in ("substitute", "by")} for e in events if not e.get("pipeline")]


# What the pipeline tells players, in English. A notice keeps its English text; a report finds the
# values back by its format and writes it in the reader's language (`pbem.report.notices_in`).
STANDING_DROPPED = N_("Your standing order %(why)s; it was dropped.")
STANDING_REFUSED = N_("Your standing orders gave %(order)s, which the rules refuse now (%(why)s); they were "
                      "dropped.")
DEADLINE_REMOVED = N_("The GM removed the deadline.")
DEADLINE_SET = N_("The GM set the deadline: %(rule)s.")
SEAT_TAKEN = N_("%(person)s takes over the seat %(seat)s from %(before)s.")
PAUSED = N_("The GM paused the game. Orders wait until it resumes; no deadline runs.")
RESUMED = N_("The GM resumed the game; the deadline starts again now.")
ROLLED_BACK = N_("The GM rolled the game back to turn %(turn)s. Undone: %(undone)s. The game waits for "
                 "%(waiting)s.")
SUBSTITUTE_DEFAULT = N_("%(player)s missed the deadline; the default order plays for him: %(order)s.")
SUBSTITUTE_BOT = N_("%(player)s missed the deadline; the bot plays for him: %(order)s.")
NOTICES = (STANDING_DROPPED, STANDING_REFUSED, DEADLINE_REMOVED, DEADLINE_SET, SEAT_TAKEN, PAUSED, RESUMED,
           ROLLED_BACK, SUBSTITUTE_DEFAULT, SUBSTITUTE_BOT, absence.AWAY_NOTICE)
# Refusals a player meets most, in English (the GM's console and the commits read them so); the player
# reads them in his language (`pbem.report.refusal_text` finds the values back by the format). Those
# worded in pbem.game and pbem.mail.orders are listed by their English.
STALE_REPLY = N_("your reply answers turn %(turn)s; the game is at turn %(current)s: reply to your latest report "
                 "(or send 'status' to get it again)")
COMMAND_ALONE = N_("'%(command)s' is a command: send it alone, in a mail of its own")
SENT_AHEAD_FAILED = N_("your orders sent ahead could not be applied when your decision came: %(why)s")
FRAME_MESSAGES = {  # the frames pbem.game puts a refusal of the rules in, by id
    "no-longer-yours": N_("order %(n)s (%(order)s): after order %(before)s the decision is no longer yours (the "
                          "game waits for %(players)s); nothing was applied"),
    "order-n-refused-nothing": N_("order %(n)s (%(order)s): %(why)s; nothing was applied"),
    "order-refused": N_("order %(order)s: %(why)s"),
    "standing-not-one": N_("standing orders: standing[%(n)s] is not one standing order such as %(order)s"),
    "standing-refused": N_("standing orders: %(why)s"),
}


def framed(msg: str, **values: Any) -> Refusal:
    """A refusal in one of pbem's frames (`order 'bid: 50': ...`), by its id."""
    return Refusal(msg, FRAME_MESSAGES[msg], **values)


REFUSALS = (*TURN_FILE_REFUSALS,  # what YAML and the schemas refuse (pbem.turnfile), worded there
            STALE_REPLY, COMMAND_ALONE, SENT_AHEAD_FAILED,
            N_("your reply answers an older mail of pbem's (turn %(turn)s): orders sent ahead, standing orders, "
               "'reports', 'undo' and 'language' need a reply to your latest mail (turn %(latest)s), or your token"),
            N_("your reply answers turn %(turn)s; a 'turn:' line cannot make it answer turn %(asked)s: reply "
               "to the mail of that turn, or give your token"),
            N_("your mail gives no order: write your order alone on a line above the quoted mail"),
            N_("the word %(word)s is not an order word; did you mean %(meant)s?"),
            N_("your orders answer turn %(turn)s, but game %(game)s is at turn %(current)s: they are stale"),
            N_("your orders answer turn %(turn)s, but game %(game)s is only at turn %(current)s"),
            N_("turn %(turn)s of game %(game)s is not yours: the game waits for %(players)s"),
            N_("your orders for turn %(turn)s of game %(game)s are in already; the game waits for %(players)s "
               "to send theirs"),
            N_("game %(game)s is paused by the GM; send your orders when it resumes"),
            N_("game %(game)s is finished; it takes no more orders"),
            N_("%(title)s takes no standing orders; send your next orders ahead with 'turn: next' instead"),
            N_("the standing order %(kind)s is given %(count)s times; keep one"),
            # the schema checks (pbem.turnfile.plain, the schemas' `message`), a `type` in its own words
            N_("must be a whole number (the turn your orders answer) or 'next', not %(value)s"),
            N_("must be text, as your welcome mail gives it"),
            N_("must be one of %(values)s, not %(value)s"),
            N_("must be at least %(n)s, not %(value)s"),
            N_("must be at most %(n)s, not %(value)s"),
            N_("must be %(type)s, not %(value)s"),
            N_("a whole number"), N_("text"), N_("a mapping (key: value)"), N_("a list"), N_("true or false"),
            N_("a number"), N_("empty"),
            N_("lacks %(keys)s"),
            N_("has unknown field %(keys)s"),
            N_("has unknown fields %(keys)s"),
            N_("must hold at least %(n)s item"),
            N_("must hold at least %(n)s items"),
            N_("may hold at most %(n)s items, not %(count)s"),
            N_("may be at most %(n)s characters long"),
            N_("must not be empty"),
            N_("must be at least %(n)s characters long"),
            N_("%(value)s is not of the allowed form"),
            # (the schemas' own `message`s are the games': pbem/rules/*refusals.py)
            # the order lines of a mail (pbem.mail.orders)
            N_("the token is not text; copy it from your welcome mail, in quotes if need be"),
            N_("the mail has no text in which to find orders"),
            N_("the mail has the line %(begin)s but not the line %(end)s after it"),
            N_("the mail holds no orders: put them between the lines %(begin)s and %(end)s of your report, or "
               "attach a turn file"),
            N_("there is no token line between the lines %(begin)s and %(end)s: write 'token: ' and your token "
               "there, above your orders"),
            N_("there is no order between the lines %(begin)s and %(end)s: write your orders there, one a line, "
               "below your token"),
            N_("the mail gives a 'turn:' line and orders sent ahead ('next: ...'); keep one"),
            N_("the mail does not say which game its orders are for: reply to your latest report, or write the "
               "lines %(keys)s above your orders"),
            N_("orders for now and orders sent ahead ('next: ...') go in separate mails"),
            N_("give one standing order a line, after 'standing: ' on the same line, or write 'standing: []' to "
               "clear them"),
            N_("write it as 'token: ' and then your token, as your welcome mail gives it"),
            N_("a second '%(key)s:' line (the first is order line %(n)s); keep one"),
            N_("the mail holds orders twice: in its text and in the attachment %(name)s; send them once"),
            N_("the mail holds orders twice: in the attachments %(names)s and %(name)s; send them once"),
            N_("the mail holds orders %(n)s times: in its text and in the attachments %(names)s and %(name)s; "
               "send them once"),
            N_("the mail holds orders %(n)s times: in the attachments %(names)s and %(name)s; send them once"),
            N_("the attachment %(name)s is not UTF-8 text"),
            # a player's standing orders (standing_of)
            FRAME_MESSAGES["standing-not-one"], FRAME_MESSAGES["standing-refused"],
            N_("the turn file"), N_("the order block"), N_("your reply"), N_("the turn file in the mail"),
            N_("the attachment %(name)s is not a turn file (game:, player:, token:, turn:, orders:)"),
            N_("the turn file in the mail is not a mapping of game:, player:, token:, turn:, orders:"),
            N_("your orders are inside the report your mail quotes, which pbem does not read (lines that begin "
               "with '>', or below a line such as 'On ... wrote:' or 'From: ...'): write them %(where)s"),
            N_("alone, one a line, above the quote"),
            N_("between marker lines of your own, above the quote and without '>' in front"),
            # who may send orders (the AuthError texts a player reads)
            N_("there is no game %(game)s"),
            N_("game %(game)s has no player %(player)s"),
            N_("the mail you answer is about %(player)s in game %(game)s, not %(other)s in game %(wanted)s"),
            N_("the token for %(player)s in game %(game)s is wrong"),
            N_("%(person)s is not the address of %(player)s in game %(game)s"))
# A refusal of one of several orders, or of a part of a composite refusal: the frame in the player's
# language, the refusal it holds (`why`) found back by its own format (the rules' in the game's catalog:
# pbem/rules/*refusals.py).
REFUSAL_FRAMES = (
    FRAME_MESSAGES["no-longer-yours"],
    FRAME_MESSAGES["order-n-refused-nothing"],
    N_("order %(n)s (%(order)s): %(why)s"),
    FRAME_MESSAGES["order-refused"],
    N_("%(what)s is not valid:"),
    N_("line %(line)s, %(place)s: %(why)s"),
    N_("order line %(n)s (the token line): %(why)s"),
    N_("order line %(n)s (%(order)s): %(why)s"),
    N_("order line %(n)s: %(why)s"),
    *TURN_FILE_FRAMES,  # a file too big, empty... (pbem.turnfile): after the orders', before `%(place)s: ...`
    N_("%(what)s, line %(line)s (the token line): %(why)s"),
    N_("%(what)s, line %(line)s: %(why)s"),
    N_("%(what)s (the token line): %(why)s"),
    N_("order line %(n)s (the token line), %(place)s: %(why)s"),
    N_("order line %(n)s (%(order)s), %(key)s: %(why)s"),
    N_("%(place)s: %(why)s"),
    N_("the top level"),
    N_("the attachment %(name)s"))  # (last: after every sentence that begins with it)


def notice(state: dict[str, Any], text: str, kind: str = "notice", to: list[str] | None = None,
           args: dict[str, Any] | None = None) -> None:
    """Something the pipeline (not the rules) tells every player (or those `to`): a substitute move, a
    new player, a standing order dropped... `text` is English, with `args` a format of NOTICES."""
    event = {"type": kind, "pipeline": True, "text": text % args if args else text, "turn": state["engine"]["turn"]}
    if to is not None:
        event["to"] = list(to)
    state["events"].append(event)


def _first_difference(a: Any, b: Any, path: str = "") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if a.get(k) != b.get(k):
                return _first_difference(a.get(k), b.get(k), f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
        if len(a) != len(b):
            return f" at {path or 'top'}: {len(a)} items stored, {len(b)} replayed"
    return f" at {path or 'top'}: stored {a!r}, replayed {b!r}"


def load_checked(gd: GamesDir, game: str) -> dict[str, Any]:
    """A game's state, for commands that name it."""
    if not GAME_ID.match(game):
        raise StoreError(f"{game!r} is not a game id")
    return gd.load(game)
