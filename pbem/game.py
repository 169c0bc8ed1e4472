"""A hosted game: its players and tokens, its seed, its order log, and the steps of the pipeline that
act on one game (new, submit, apply, show, verify). The batch over all games is `pbem.advance`."""

from __future__ import annotations

import copy
import marshal
import re
from pathlib import Path
from typing import Any, Collection

from pbem.clock import now
from pbem.gamestate import as_data, from_data, notice, resigned_seats, ruleset_of, token_hash, waiting_for  # noqa: F401 (the pipeline's names)
from pbem.errors import AuthError, IllegalOrder, PbemError, SetupError, StaleTurn, StoreError
from pbem.history import HISTORIES, History, plain_copy
from pbem.refusals import (DEADLINE_REMOVED, DEADLINE_SET, NOTICE_MESSAGES, NOTICES, PAUSED, RESUMED,  # noqa: F401
                           ROLLED_BACK, SEAT_TAKEN, STANDING_DROPPED, STANDING_REFUSED, SUBSTITUTE_BOT,
                           SUBSTITUTE_DEFAULT, refuse)
from pbem.rng import STRONG_SEED, Rng, commitment  # noqa: F401 (STRONG_SEED: the pipeline's name)
from pbem.rules.base import Event, Order, Ruleset, get_ruleset, order_text
from pbem import absence
from pbem.tablebots import bot_order, bot_seats, is_bot, seat_entry
from pbem.names import setup_check
from pbem.store import FORMAT, GAME_ID, GamesDir, dump_yaml
from pbem.turnfile import NEXT, TurnFile, check_orders, parse_turnfile

EMAIL = r"^[^@\s]+@[^@\s]+\.[^@\s]+$"


def player_names(state: dict[str, Any]) -> list[str]:
    return [p["name"] for p in state["players"]]


# -- a new game ---------------------------------------------------------------------------------------

def parse_player(spec: str) -> tuple[str, str]:
    """`anna=anna@example.org` -> ("anna", "anna@example.org")."""
    name, sep, email = spec.partition("=")
    if not sep:
        raise SetupError(f"{spec!r} is not NAME=EMAIL")
    name = setup_check(name)
    if not re.match(EMAIL, email):
        raise SetupError(f"{email!r} (player {name}) is not an email address")
    return name, email




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
        raise SetupError(refuse("game-taken", game=game, where=str(gd.root)))
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
        raise AuthError(refuse("no-game", game=repr(tf.game)))
    state = gd.load(tf.game)
    seat = seat_of(state, tf.player)
    if seat is None:
        raise AuthError(refuse("no-player", game=repr(tf.game), player=repr(tf.player)))
    if proven is not None and proven != (tf.game, seat):
        raise AuthError(refuse("other-seat", player=repr(proven[1]), game=repr(proven[0]), other=repr(tf.player),
                                wanted=repr(tf.game)))
    if proven is not None and tf.token is None:
        return state, seat
    stored = next(p["token_sha256"] for p in state["players"] if p["name"] == seat)
    from pbem import digests

    if not digests.compare_digest(stored, token_hash(tf.token or "")):
        raise AuthError(refuse("wrong-token", player=repr(tf.player), game=repr(tf.game)))
    return state, seat


def check_turn(state: dict[str, Any], player: str, turn: int) -> None:
    if state["status"] == "paused":
        raise StaleTurn(refuse("paused", game=repr(state["game"])))
    if state["status"] != "active":  # finished
        raise StaleTurn(refuse("finished", game=repr(state["game"])))
    current = state["engine"]["turn"]
    if turn < current:
        raise StaleTurn(refuse("stale", turn=turn, game=repr(state["game"]), current=current))
    if turn > current:
        raise StaleTurn(refuse("ahead", turn=turn, game=repr(state["game"]), current=current))
    waiting = waiting_for(state)
    if player not in waiting and decided(state, player, current):  # one of several who decide at once
        raise StaleTurn(refuse("decided-already", turn=current, game=repr(state["game"]), players=", ".join(waiting)))
    if player not in waiting:
        raise StaleTurn(refuse("turn-not-yours", turn=current, game=repr(state["game"]), players=", ".join(waiting)))


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
    their own copy (a history not yet a file's, a list, through marshal too)."""
    try:
        plain = marshal.loads(marshal.dumps({k: v for k, v in state.items() if k not in HISTORIES}))
    except ValueError:  # something marshal does not know: copied the slow way
        return copy.deepcopy(state)
    plain.update({key: copy.deepcopy(state[key]) if isinstance(state[key], History) else plain_copy(state[key])
                  for key in HISTORIES if key in state})
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
            who = ", ".join(decision.players) if decision else refuse("nobody")
            raise IllegalOrder(refuse("no-longer-yours", n=i, order=shown, before=i - 1, players=who))
        at = engine["turn"]
        try:
            step = ruleset.apply(engine, player, order, rng)
        except IllegalOrder as exc:
            why = exc.refusal
            raise IllegalOrder(refuse("order-n-refused-nothing", n=i, order=shown, why=why) if len(orders) > 1
                               else refuse("order-refused", order=shown, why=why)) from None
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
        from pbem.standings import unrated_reasons

        state["unrated"] = unrated_reasons(state)  # while the seats still have their addresses


class Submitted:  # not a dataclass: one costs its module's import ~3M instructions, compiling its methods
    """A turn file taken: its game, seat, turn (a decision number, NEXT: a premove, or None: standing
    orders alone) and orders, the queue file it went to and how many queued before it replaces."""

    def __init__(self, game: str, player: str, turn: int | str | None, orders: list[Order], queued: Path | None,
                 replaced: int, paused: bool = False, standing: list[dict[str, Any]] | None = None,
                 reports: str | None = None) -> None:
        self.game, self.player, self.turn, self.orders = game, player, turn, orders
        self.queued, self.replaced = queued, replaced
        self.paused = paused  # the game is paused: the orders wait in the queue until it resumes
        self.standing = standing  # the standing orders it sets ([] clears them)
        self.reports = reports  # when he wants mail, if the turn file says

    def __repr__(self) -> str:
        return f"Submitted({self.game!r}, {self.player!r}, {self.turn!r}, {self.orders!r})"


def check_submission(gd: GamesDir, data: bytes, sender: str | None = None, source: str = "file",
                     proven: tuple[str, str] | None = None) -> tuple[Submitted, dict[str, Any]]:
    """Everything `submit` checks, without queueing: the answer and the queue entry it would write.
    `sender`: the address a mail came from, which must be the player's own. `proven`: the game and seat
    the mail's reply key proved; it then needs no token."""
    tf = parse_turnfile(data, need_token=proven is None)
    state, seat = authenticate(gd, tf, proven)
    if seat in resigned_seats(gd, tf.game):  # the game's rule for missing players plays it now
        raise StaleTurn(refuse("resigned-seat", player=seat, game=tf.game))
    if sender is not None:
        registered = next(p["email"] for p in state["players"] if p["name"] == seat)
        if sender.lower() != registered.lower():
            raise AuthError(refuse("not-the-address", person=sender, player=repr(tf.player), game=repr(tf.game)))
    ruleset = ruleset_of(state)
    paused = state["status"] == "paused"
    probe = dict(state, status="active") if paused else state  # checked as they will be applied on resume
    if state["status"] == "finished":
        raise StaleTurn(refuse("finished", game=repr(state["game"])))
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
            raise IllegalOrder(refuse("standing-not-one", n=i, order=repr(next(iter(ruleset.standing_help)))))
    try:
        return ruleset.check_standing(state["engine"], player, [dict(e) if isinstance(e, dict) else e
                                                                for e in entries])
    except IllegalOrder as exc:
        raise IllegalOrder(refuse("standing-refused", why=exc.refusal)) from None


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


class QueueResult:  # not a dataclass: one costs its module's import ~3M instructions, compiling its methods
    """What became of one queued turn file: its key (the queue file, or whatever the caller keyed it
    by), player, turn and orders, the outcome (applied | refused | held | replaced | dropped: a premove
    not legal then) and the refusal's message."""

    __slots__ = ("key", "player", "turn", "orders", "outcome", "message")

    def __init__(self, key: Any, player: str, turn: Any, orders: list[Order], outcome: str, message: str = "") -> None:
        self.key, self.player, self.turn, self.orders, self.outcome, self.message = \
            key, player, turn, orders, outcome, message

    def __repr__(self) -> str:
        return f"QueueResult({self.key!r}, {self.player!r}, {self.turn!r}, {self.orders!r}, {self.outcome!r})"


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
                                                                   "why": exc.refusal})
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
