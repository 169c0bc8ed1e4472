"""Whole games of Medina, played by the bot and by a seeded random legal-order player, with the rules
checked after every single placement by code of this file (not the engine's): pieces conserved, no two
palaces touching, every stable at its palace, each market street a simple path, walls contiguous from
the towers with a gate on every side, at most two placements a turn, the legal orders sane, the state a
YAML round trip away from itself. At the end the scores are recomputed from the final board and from
bonus tiles followed move by move. Then a few games through the pipeline library: verified by replay,
and the seed kept out of every report and view until the game is over."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from pbem import bots
from pbem.errors import IllegalOrder
from pbem.game import apply_orders, new_game, show, verify, waiting_for
from pbem.report import render_report
from pbem.rng import Rng
from pbem.rules.base import get_ruleset
from pbem.store import GamesDir, check_state, dump_yaml
from pbem.turnfile import schema

R = get_ruleset("medina")
DATA = yaml.safe_load((Path(__file__).parent.parent / "pbem" / "rules" / "medina.yaml").read_text("utf-8"))
TABLE = DATA["pieces"]
COLOURS = ["grey", "black", "brown", "orange"]
LETTERS = "ABCDEFGHIJKLMNOP"
COLS, ROWS = 16, 11
SIDES = {"N": COLS, "S": COLS, "W": ROWS, "E": ROWS}
# the tower at the low end (position 1) and at the high end of each side, towers clockwise from NW
ENDS = {"N": ("1", "2"), "E": ("2", "3"), "S": ("4", "3"), "W": ("1", "4")}
PALACE_TILE = {"grey": 1, "black": 2, "brown": 3, "orange": 4}
TOWER_TILE = {"1": 1, "2": 2, "3": 3, "4": 4}
NAMES = ["anna", "ben", "cleo", "dora"]
TRICKY = ["no", "null", "on", "true"]  # names a careless YAML writer would turn into booleans or null

ENGINE_VALIDATOR = jsonschema.Draft202012Validator(schema("medina.state"))
SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


# -- the board, looked at by this file's own code ---------------------------------------------------------

def xy(sq: str) -> tuple[int, int]:
    return LETTERS.index(sq[0]), int(sq[1:]) - 1


def name(c: int, r: int) -> str:
    return f"{LETTERS[c]}{r + 1}"


def ortho(sq: str) -> list[str]:
    c, r = xy(sq)
    return [name(c + dc, r + dr) for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= c + dc < COLS and 0 <= r + dr < ROWS]


def around(sq: str) -> list[str]:
    c, r = xy(sq)
    return [name(c + dc, r + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1)
            if (dc or dr) and 0 <= c + dc < COLS and 0 <= r + dr < ROWS]


def walls_beside(sq: str) -> list[str]:
    """The wall segments next to a square of the edge."""
    c, r = xy(sq)
    out = []
    if r == 0:
        out.append(f"N{c + 1}")
    if r == ROWS - 1:
        out.append(f"S{c + 1}")
    if c == 0:
        out.append(f"W{r + 1}")
    if c == COLS - 1:
        out.append(f"E{r + 1}")
    return out


def inside(wall: str) -> str:
    side, pos = wall[0], int(wall[1:]) - 1
    return {"N": name(pos, 0), "S": name(pos, ROWS - 1), "W": name(0, pos), "E": name(COLS - 1, pos)}[side]


def tower_of(walls: set[str], wall: str) -> str:
    """The tower a standing wall's run grows from: the end of its side it is joined to."""
    side, pos = wall[0], int(wall[1:])
    low, high = ENDS[side]
    if all(f"{side}{p}" in walls for p in range(1, pos + 1)):
        return low
    assert all(f"{side}{p}" in walls for p in range(pos, SIDES[side] + 1)), f"wall {wall} hangs in the air"
    return high


def connected(squares: list[str]) -> bool:
    if not squares:
        return False
    todo, seen = [squares[0]], {squares[0]}
    pool = set(squares)
    while todo:
        for n in ortho(todo.pop()):
            if n in pool and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == pool


def check_board(state: dict[str, Any]) -> None:
    """Every rule of the city, checked on the position alone."""
    board = state["board"]
    owner: dict[str, int] = {}
    for i, p in enumerate(state["palaces"]):
        assert p["id"] == i and p["colour"] in COLOURS and p["parts"]
        for sq in p["parts"]:
            assert board[sq] == {"kind": "palace", "palace": i}
        for sq in p["stables"]:
            assert board[sq] == {"kind": "stable", "palace": i}
        for sq in p["parts"] + p["stables"]:
            assert sq not in owner
            owner[sq] = i
        assert connected(p["parts"]), f"palace {i} falls apart: {p['parts']}"
        assert connected(p["parts"] + p["stables"]), f"a stable of palace {i} is not at it: {p['stables']}"
        assert p["owner"] is None or p["owner"] in state["players"]
    # palaces never touch, not even diagonally or through stables
    for sq, i in owner.items():
        for n in around(sq):
            assert owner.get(n, i) == i, f"palaces {i} and {owner[n]} touch at {sq}/{n}"
    merchants = {sq for sq, piece in board.items() if piece["kind"] == "merchant"}
    assert set(board) == set(owner) | merchants
    assert all(board[sq] == {"kind": "merchant"} for sq in merchants)
    # each street a simple path without branch or loop; the streets together are the merchants and
    # no street touches another
    in_street: dict[str, int] = {}
    for k, street in enumerate(state["streets"]):
        assert street and len(set(street)) == len(street)
        for a, b in zip(street, street[1:]):
            assert b in ortho(a), f"street {street} jumps from {a} to {b}"
        for i, a in enumerate(street):
            for j in range(i + 2, len(street)):
                assert street[j] not in ortho(a), f"street {street} branches or loops at {a}/{street[j]}"
            in_street[a] = k
    assert set(in_street) == merchants
    for sq, k in in_street.items():
        for n in ortho(sq):
            assert in_street.get(n, k) == k, f"streets {k} and {in_street[n]} touch at {sq}/{n}"
    # walls: contiguous runs from the corner towers, a gate on every side
    walls = set(state["walls"])
    for side, length in SIDES.items():
        mine = {int(w[1:]) for w in walls if w[0] == side}
        assert mine <= set(range(1, length + 1))
        assert len(mine) <= length - 1, f"the {side} side is closed"
    for w, tower in state["walls"].items():
        assert tower == tower_of(walls, w)
    # claims: one palace of each colour per player
    for p in state["players"]:
        claimed = [x["colour"] for x in state["palaces"] if x["owner"] == p]
        assert sorted(claimed) == sorted(state["roofed"][p])
        assert len(set(claimed)) == len(claimed)


def size(palace: dict[str, Any]) -> int:
    return len(palace["parts"]) + len(palace["stables"])


def my_scores(state: dict[str, Any], palace_tiles: dict[str, int | None],
              tower_tiles: dict[str, str | None]) -> dict[str, int]:
    """Each player's points, counted here from the board and the tiles followed by `Follower`."""
    totals = {p: 0 for p in state["players"]}
    for palace in state["palaces"]:
        if palace["owner"] is None:
            continue
        squares = palace["parts"] + palace["stables"]
        merchants = {n for sq in squares for n in ortho(sq) if state["board"].get(n, {}).get("kind") == "merchant"}
        walls = {w for sq in squares for w in walls_beside(sq) if w in state["walls"]}
        totals[palace["owner"]] += len(squares) + len(merchants) + len(walls)
    for colour, pid in palace_tiles.items():
        if pid is not None:
            totals[state["palaces"][pid]["owner"]] += PALACE_TILE[colour]
    for tower, player in tower_tiles.items():
        if player is not None:
            totals[player] += TOWER_TILE[tower]
    return totals


class Follower:
    """Follows one engine game and checks everything after every placement."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.players = list(state["players"])
        self.table = TABLE[len(self.players)]
        self.placed = {p: {"palace": {c: 0 for c in COLOURS}, "stable": 0, "merchant": 0, "wall": 0, "roof": 0}
                       for p in self.players}
        self.palace_tiles: dict[str, int | None] = {c: None for c in COLOURS}
        self.tower_tiles: dict[str, str | None] = {t: None for t in TOWER_TILE}
        self.in_turn = 0
        self.turn = state["turn"]
        self.gone: set[str] = set()  # colours given back
        self.this_turn: list[str] = []  # the placements of the turn under way
        self.compulsory = False  # its player was the only one with roofs left when it began
        self.compulsory_turns = 0
        self.check(state)

    def before(self, state: dict[str, Any], player: str) -> None:
        if state["phase"] == "build" and state["placed"] == 0:
            self.this_turn = []
            self.compulsory = state["supply"][player]["roof"] > 0 and all(
                state["supply"][q]["roof"] == 0 for q in self.players if q != player)

    def conserved(self, state: dict[str, Any]) -> None:
        for p in self.players:
            supply, placed, back = state["supply"][p], self.placed[p], state["returned"][p]
            for c in COLOURS:
                assert supply["palace"][c] + placed["palace"][c] + back.get(c, 0) == self.table["palace"], (p, c)
            for kind in ("stable", "merchant", "wall", "roof"):
                assert supply[kind] + placed[kind] + back.get(kind, 0) == self.table[kind], (p, kind)
            assert not set(back) - set(COLOURS) - {"roof"}, back
        # and what is on the board is what was placed
        for c in COLOURS:
            on_board = sum(len(x["parts"]) for x in state["palaces"] if x["colour"] == c)
            assert on_board == sum(self.placed[p]["palace"][c] for p in self.players)
        kinds = [piece["kind"] for piece in state["board"].values()]
        assert kinds.count("stable") == sum(self.placed[p]["stable"] for p in self.players)
        assert kinds.count("merchant") == 1 + sum(self.placed[p]["merchant"] for p in self.players)
        assert len(state["walls"]) == sum(self.placed[p]["wall"] for p in self.players)
        assert sum(1 for x in state["palaces"] if x["owner"]) == sum(self.placed[p]["roof"] for p in self.players)

    def check(self, state: dict[str, Any]) -> None:
        assert state["players"] == self.players
        assert state["turn"] == self.turn
        if state["phase"] != "start":
            self.conserved(state)
            check_board(state)
        for c in self.gone:
            assert all(state["supply"][p]["palace"][c] == 0 for p in self.players)

    def after(self, state: dict[str, Any], player: str, order: str, events: list[dict[str, Any]],
              placed_before: int) -> None:
        self.turn += 1
        kind, *rest = order.split()
        where = rest[-1]
        if kind == "palace":
            self.placed[player]["palace"][rest[0]] += 1
        elif kind != "start":
            self.placed[player][kind] += 1
        # two placements a turn at most (the start aside)
        if kind != "start":
            assert placed_before in (0, 1)
            self.in_turn = self.in_turn + 1 if placed_before else 1
            assert self.in_turn <= 2
            if state["phase"] != "over" and state["current"] == player and state["placed"]:
                assert state["placed"] == placed_before + 1 == 1
            else:
                assert state["placed"] == 0
        for e in events:
            if e["type"] == "return":
                self.gone.add(e["colour"])
        # 'Hat nur noch ein Spieler Dächer, so muss er ... jedes Mal, wenn er an der Reihe ist, mindestens
        # ein Dach setzen.'
        if kind != "start":
            self.this_turn.append(order)
            if state["phase"] == "over" or state["current"] != player or state["placed"] == 0:
                if self.compulsory:
                    self.compulsory_turns += 1
                    assert any(o.startswith("roof") for o in self.this_turn), (player, self.this_turn)
        self.follow_tiles(state, player, kind, where)
        assert state["palace_bonus"] == self.palace_tiles
        assert state["tower_bonus"] == self.tower_tiles
        self.check(state)

    def follow_tiles(self, state: dict[str, Any], player: str, kind: str, where: str) -> None:
        """The bonus tiles by the text: a palace tile at the first claimed palace of its colour, moving
        only to a strictly larger claimed one; a tower tile with whoever last joined a claimed palace to
        the tower's wall (a wall beside it, a roof on it, a stable of it beside the wall)."""
        board = state["board"]
        walls = state["walls"]
        joined: list[tuple[str, str]] = []  # (wall, owner)
        if kind == "wall":
            piece = board.get(inside(where))
            if piece and piece["kind"] != "merchant":
                owner = state["palaces"][piece["palace"]]["owner"]
                if owner:
                    joined.append((where, owner))
        elif kind == "roof":
            palace = state["palaces"][board[where]["palace"]]
            assert palace["owner"] == player
            joined += [(w, player) for sq in palace["parts"] + palace["stables"] for w in walls_beside(sq) if w in walls]
        elif kind == "stable":
            palace = state["palaces"][board[where]["palace"]]
            if palace["owner"]:
                joined += [(w, palace["owner"]) for w in walls_beside(where) if w in walls]
        for wall, owner in joined:
            self.tower_tiles[tower_of(set(walls), wall)] = owner
        for colour in COLOURS:
            claimed = [x for x in state["palaces"] if x["colour"] == colour and x["owner"]]
            holder = self.palace_tiles[colour]
            if holder is None:
                assert len(claimed) <= 1
                if claimed:
                    self.palace_tiles[colour] = claimed[0]["id"]
                continue
            larger = [x for x in claimed if size(x) > size(state["palaces"][holder])]
            assert len(larger) <= 1
            if larger:
                self.palace_tiles[colour] = larger[0]["id"]

    def at_end(self, state: dict[str, Any], all_events: list[dict[str, Any]]) -> None:
        assert R.decision(state) is None and state["phase"] == "over"
        # nobody could place anything more
        for p in self.players:
            turn = dict(state, current=p, placed=0, roofed_this_turn=False, phase="build")
            assert R.legal_orders(turn, p) == []
        mine = my_scores(state, self.palace_tiles, self.tower_tiles)
        scores = R.scores(state)
        assert {p: s["total"] for p, s in scores.items()} == mine
        for p, s in scores.items():
            assert s["total"] == sum(x["total"] for x in s["palaces"]) + sum(b["points"] for b in s["bonus"])
        result = R.result(state)
        assert [r["player"] for r in result] == sorted(self.players, key=lambda p: -mine[p])
        for r in result:
            assert r["score"] == mine[r["player"]]
            assert r["rank"] == 1 + sum(1 for q in self.players if mine[q] > r["score"])
        ends = [e for e in all_events if e["type"] == "game_end"]
        assert len(ends) == 1 and all_events[-1] == ends[0] and ends[0]["standings"] == result


def test_the_board_checker_catches_broken_rules() -> None:
    """This file's own rule checks see a broken position: palaces touching diagonally, a stable away
    from its palace, a street closing a loop or with a branch, a wall side closed, a wall hanging in
    the air."""
    rng = Rng("checker")
    state, _ = R.setup(NAMES[:3], {}, rng)
    for order in ("start H6", "palace grey C3", "merchant H5"):
        R.apply(state, state["current"], order, rng)
    check_board(state)

    def broken(change) -> None:
        bad = copy.deepcopy(state)
        change(bad)
        with pytest.raises(AssertionError):
            check_board(bad)

    def touching(s: dict[str, Any]) -> None:
        s["palaces"].append({"id": 1, "colour": "black", "parts": ["D4"], "stables": [], "owner": None})
        s["board"]["D4"] = {"kind": "palace", "palace": 1}

    def stray_stable(s: dict[str, Any]) -> None:
        s["palaces"][0]["stables"].append("E3")
        s["board"]["E3"] = {"kind": "stable", "palace": 0}

    def loop(s: dict[str, Any]) -> None:
        s["streets"][-1] = ["G5", "H5", "H6", "G6"]
        s["board"].update({"G5": {"kind": "merchant"}, "G6": {"kind": "merchant"}})

    def branch(s: dict[str, Any]) -> None:
        s["board"]["I6"] = {"kind": "merchant"}  # beside H6, in no street

    def closed(s: dict[str, Any]) -> None:
        s["walls"].update({f"W{i}": "1" for i in range(1, 12)})

    def hanging(s: dict[str, Any]) -> None:
        s["walls"]["N5"] = "1"

    for change in (touching, stray_stable, loop, branch, closed, hanging):
        broken(change)


# -- players ---------------------------------------------------------------------------------------------

def bot_player(state: dict[str, Any], player: str, legal: list[str]) -> str:
    return bots.choose("medina", R.view(state, player), player, legal)


def random_player(prng: Rng):
    """Chooses among the legal orders with a seeded stream (never Python's `random`): first a kind of
    placement, then one of that kind, so that roofs and stables are not drowned by the many squares."""
    def choose(state: dict[str, Any], player: str, legal: list[str]) -> str:
        kinds = sorted({o.split()[0] for o in legal})
        kind = kinds[prng.below(len(kinds), "kind")]
        mine = [o for o in legal if o.split()[0] == kind]
        return mine[prng.below(len(mine), "order")]
    return choose


# -- whole engine games ---------------------------------------------------------------------------------

def play_engine_game(players: list[str], seed: str, choose, sample: Rng) -> tuple[dict[str, Any], int]:
    rng = Rng(seed)
    state, events = R.setup(players, {}, rng)
    all_events = list(events)
    follower = Follower(state)
    steps = 0
    while (decision := R.decision(state)) is not None:
        assert len(decision.players) == 1 and decision.players[0] == state["current"]
        player = decision.players[0]
        assert decision.kind == ("start" if state["phase"] == "start" else "build")
        legal = R.legal_orders(state, player)
        assert legal, f"{player} is asked but has no legal placement"
        assert len(set(legal)) == len(legal)
        # every legal order is legal when asked on its own (all of them now and then, a sample otherwise)
        picks = legal if steps % 20 == 0 else [legal[sample.below(len(legal), "pick")] for _ in range(6)]
        for o in picks:
            assert R.why_illegal(state, player, o) is None, o
        # candidates that are not legal say why, and are refused without a trace
        legal_set = set(legal)
        refused = [o for o in R.candidate_orders(state, player) if o not in legal_set]
        for o in [refused[sample.below(len(refused), "refused")] for _ in range(3)] if refused else []:
            reason = R.why_illegal(state, player, o)
            assert isinstance(reason, str) and reason
            if steps % 10 == 0:
                before = copy.deepcopy(state)
                with pytest.raises(IllegalOrder, match="^" + re.escape(reason) + "$"):
                    R.apply(state, player, o, Rng(seed, rng.counter))
                assert state == before
        # nobody else may place now
        other = players[(players.index(player) + 1 + steps % (len(players) - 1)) % len(players)]
        assert R.why_illegal(state, other, order_of(legal, sample)) == (
            f"it is not your turn: the game waits for {player}")
        # plain data: a YAML round trip gives the state back
        reloaded = yaml.load(dump_yaml(state), Loader=SafeLoader)
        assert reloaded == state
        if steps % 25 == 0:
            assert ENGINE_VALIDATOR.is_valid(state), list(ENGINE_VALIDATOR.iter_errors(state))[:3]
            assert R.legal_orders(reloaded, player) == legal

        order = choose(state, player, legal)
        assert order in legal
        placed_before = state["placed"]
        follower.before(state, player)
        events = R.apply(state, player, order, rng)
        assert events[0] == {"type": "place", "player": player, "order": order}
        all_events += events
        follower.after(state, player, order, events, placed_before)
        steps += 1
        assert steps < 1000, "the game does not end"
    follower.at_end(state, all_events)
    play_engine_game.compulsory_turns = follower.compulsory_turns  # type: ignore[attr-defined]
    assert yaml.load(dump_yaml(state), Loader=SafeLoader) == state
    assert yaml.safe_load(dump_yaml(state)) == state  # the pure-Python loader agrees
    assert ENGINE_VALIDATOR.is_valid(state)
    return state, steps


def order_of(legal: list[str], sample: Rng) -> str:
    return legal[sample.below(len(legal), "other")]


# the seed draws only the start player; the random player's choices come from a stream of their own
GAME_CASES = [pytest.param(n, kind, i, id=f"{n}p-{kind}-{i}")
              for n, kind, i in ((3, "bot", 0), (3, "random", 0), (3, "random", 1),
                                 (4, "bot", 0), (4, "random", 0), (4, "random", 1))]


@pytest.mark.parametrize("n, kind, i", GAME_CASES)
def test_whole_engine_game_keeps_every_rule(n: int, kind: str, i: int) -> None:
    if kind == "bot":
        players, choose = NAMES[:n], bot_player
    else:
        players = (TRICKY if i else NAMES)[:n]
        choose = random_player(Rng(f"medina-random-player-{n}-{i}"))
    state, steps = play_engine_game(players, f"medina-game-{n}-{kind}-{i}", choose, Rng(f"sample-{n}-{kind}-{i}"))
    # the start, then two placements a turn for a good part of everyone's pieces
    assert steps > 60
    assert len(state["palaces"]) >= 4
    assert any(x["owner"] for x in state["palaces"])


# -- through the pipeline library ----------------------------------------------------------------------------

def two_at_once(prng: Rng):
    """A player who sometimes sends both placements of his turn in one turn file."""
    pick = random_player(prng)

    def orders(engine: dict[str, Any], player: str, legal: list[str]) -> list[str]:
        first = pick(engine, player, legal)
        if engine["phase"] != "build" or engine["placed"] or prng.below(2, "both") == 0:
            return [first]
        after = copy.deepcopy(engine)
        R.apply(after, player, first, Rng("lookahead"))
        if after["current"] != player or R.decision(after) is None:
            return [first]
        return [first, pick(after, player, R.legal_orders(after, player))]
    return orders


PIPELINE_CASES = [(3, "bot", "medina-pipeline-seed-3b9f"), (4, "multi", "medina-pipeline-seed-77c1")]


@pytest.mark.parametrize("n, kind, seed", PIPELINE_CASES, ids=[f"{n}p-{k}" for n, k, _ in PIPELINE_CASES])
def test_whole_game_through_the_pipeline_library(tmp_path: Path, n: int, kind: str, seed: str) -> None:
    """new_game, show, apply_orders to the end: the state file validates, the replay from seed and log
    is identical, and the seed stays out of every view and report until the game is over."""
    gd = GamesDir(tmp_path / "games")
    names = NAMES[:n]
    state, tokens = new_game(gd, "medina", "g1", [(p, f"{p}@example.org") for p in names], {}, seed)
    check_state(state, "g1")
    gd.save("g1", state)
    multi = two_at_once(Rng(f"pipeline-player-{seed}"))
    steps = 0
    events: list[dict[str, Any]] = list(state["events"])
    while state["status"] == "active":
        who = waiting_for(state)
        assert len(who) == 1
        player = who[0]
        shown = show(state, player)
        legal = shown["legal_orders"]
        assert legal and set(shown) == {"game", "ruleset", "options", "turn", "status", "waiting_for",
                                        "waiting_since", "seed_sha256", "view", "legal_orders", "standing"}
        # the seed is secret until the end: in no view, no report
        assert seed not in json.dumps(shown) and "seed" not in shown and "result" not in shown
        if steps % 5 == 0:
            for p in [None, *names]:
                seen = show(state, p)
                assert seed not in json.dumps(seen) and "seed" not in seen and "result" not in seen
        if steps % 11 == 0:
            for p in [None, *names]:
                assert seed not in render_report(state, p, events)
        if kind == "bot":
            orders = [bots.choose("medina", shown["view"], player, legal)]
        else:
            orders = multi(state["engine"], player, legal)
        turn = state["engine"]["turn"]
        new, events = apply_orders(state, player, turn, orders)
        assert new["engine"]["turn"] == turn + len(orders)
        assert new["log"][len(state["log"]):] == [
            {"turn": turn + i, "player": player, "order": o, "received": "2026-11-21T12:00:00Z"}
            for i, o in enumerate(orders)]
        assert new["events"] == state["events"] + events
        if steps % 10 == 0 or new["status"] != "active":
            check_state(new, "g1")
            gd.save("g1", new)
            assert gd.load("g1") == new
        state = new
        steps += 1
        assert steps < 1000
    assert state["engine"]["phase"] == "over" and waiting_for(state) == []
    assert verify(state) == []
    assert verify(gd.load("g1")) == []
    assert [e["turn"] for e in state["log"]] == list(range(1, state["engine"]["turn"]))
    # now the seed is out, in the view and in every player's final report
    final = show(state)
    assert final["seed"] == seed
    standings = final["result"]["standings"]
    assert standings == [{"player": r["player"], "score": r["score"], "rank": r["rank"]}
                         for r in R.result(state["engine"])]
    for p in names:
        report = render_report(state, p, events)
        assert f"The seed was: {seed}" in report and "FINAL STANDINGS" in report
        assert show(state, p)["seed"] == seed and show(state, p)["legal_orders"] == []
    # a tampered log does not verify
    tampered = copy.deepcopy(state)
    tampered["log"][3]["order"] = next(o for o in R.legal_orders(replay_to(tampered, 3), tampered["log"][3]["player"])
                                       if o != state["log"][3]["order"])
    assert verify(tampered)


def replay_to(state: dict[str, Any], upto: int) -> dict[str, Any]:
    """The engine state after the first `upto` orders of the log."""
    rng = Rng(state["seed"])
    engine, _ = R.setup([p["name"] for p in state["players"]], {}, rng)
    for entry in state["log"][:upto]:
        R.apply(engine, entry["player"], entry["order"], rng)
    return engine


def test_medina_has_nothing_hidden_but_the_seed() -> None:
    """Medina has no hidden information: every player's view equals the GM's (but for 'you')."""
    state, _ = R.setup(NAMES[:4], {}, Rng("hidden"))
    rng = Rng("hidden", 1)
    for _ in range(30):
        player = state["current"]
        views = [R.view(state, p) for p in [None, *NAMES[:4]]]
        for v in views:
            assert {k: x for k, x in v.items() if k != "you"} == {k: x for k, x in views[0].items() if k != "you"}
        R.apply(state, player, bot_player(state, player, R.legal_orders(state, player)), rng)
