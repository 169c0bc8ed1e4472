"""Helpers shared by several test files: plain functions and classes, no fixtures (those live in the test
files, or in conftest.py when several files need the same one).

- the `pbem` command run in-process, the test clock, and what a CLI test asserts about a result;
- snapshots of a games dir (every file's bytes and the git history), to prove a command changed nothing;
- `Table`: one game in a games dir, its players' tokens and the turn files written and submitted for it;
- engine and pipeline games played to the end with checks after every order (the game-specific
  invariants stay in the test files and are handed in);
- what a secrets test looks for in views and reports.
"""

from __future__ import annotations

import copy
import functools
import json
import re
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml
from click.testing import CliRunner

from pbem import bots
from pbem.cli import main as pbem_main
from pbem.errors import IllegalOrder
from pbem.game import STRONG_SEED, apply_orders, new_game, show, waiting_for
from pbem.report import render_report
from pbem.rng import Rng
from pbem.store import GamesDir, check_state, dump_yaml

# the C loader when there is one (as the store uses); both are safe loaders
SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(text: str | bytes) -> Any:
    return yaml.load(text, Loader=SafeLoader)


# -- the pbem command ---------------------------------------------------------------------------------

def fixed_clock(mp: pytest.MonkeyPatch) -> None:
    """Every test runs at a known time, and git never asks who the author is."""
    mp.setenv("PBEM_NOW", "2026-11-21T12:00:00+00:00")
    mp.delenv("PBEM_GAMES_DIR", raising=False)
    for key in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"):
        mp.setenv(key, "pbem tests")
    for key in ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"):
        mp.setenv(key, "tests@localhost")


def no_disk_flush() -> None:
    """fsync, sync and syncfs in this process return at once, everything written left in the page cache:
    what they do shows only after a crash of the machine, and each waits on the disk."""
    import os

    from pbem.store import files, gamesdir

    def flushed(*_: Any) -> int:
        return 0

    os.fsync = flushed  # type: ignore[assignment]
    os.sync = flushed  # type: ignore[assignment]
    for module in (files, gamesdir):  # syncfs(2), through ctypes
        if hasattr(module, "_syncfs"):
            module._syncfs = lambda: flushed  # type: ignore[attr-defined]


class BlankBoards:
    """Stands in for `pbem.pictures.board_png` where a test reads a mail's words and the orders its
    replies give, never its picture: a blank PNG of the board's size (a real PNG, made once a size),
    from the board's SVG, which must be well-formed. What a board picture shows, in every game,
    language and state, is examined where pictures are (test_pictures, test_mail_phone, test_raster,
    test_i18n_pictures); mail that a test scores or sends through real servers keeps its picture.
    `refused` keeps every SVG it could not read (a mail goes out without its picture then, which no
    run shows but as a warning)."""

    def __init__(self) -> None:
        self.refused: list[str] = []

    def __call__(self, svg: str) -> bytes:
        import xml.etree.ElementTree as ET

        try:
            root = ET.fromstring(svg)
            size = int(root.attrib["width"]), int(root.attrib["height"])
        except (ET.ParseError, KeyError, ValueError) as exc:
            self.refused.append(f"{type(exc).__name__}: {exc}: {svg[:200]}")
            raise
        return _blank_png(size)


@functools.lru_cache(maxsize=8)
def _blank_png(size: tuple[int, int]) -> bytes:
    from pbem.pictures import png_bytes

    return png_bytes(size, bytes(3 * 64), bytes(size[0] * size[1]))


def seed_args(seed: str) -> list[str]:
    """`--seed SEED`, with `--weak-seed` when the seed is shorter than `pbem new` accepts: a test's short
    seed is meant."""
    return ["--seed", seed, *(["--weak-seed"] if len(seed) < STRONG_SEED else [])]


def player_args(*names: str) -> list[str]:
    out = []
    for n in names:
        out += ["--player", f"{n}={n}@example.org"]
    return out


class Pbem:
    """Runs the `pbem` command in-process against one games dir, as a GM would type it."""

    def __init__(self, games: Path) -> None:
        self.games = games
        self.runner = CliRunner()

    def __call__(self, *args: str, input: str | bytes | None = None):
        return self.runner.invoke(pbem_main, [*map(str, args), "--games-dir", str(self.games)], input=input)

    def new(self, game: str = "m1", players: tuple[str, ...] = ("anna", "ben", "cleo"), *extra: str) -> dict[str, str]:
        """Create a game; returns each player's token."""
        args = ["new", "medici", game, *seed_args("test-seed"), "--json"]
        for p in players:
            args += ["--player", f"{p}={p}@example.org"]
        r = self(*args, *extra)
        assert r.exit_code == 0, r.output
        return {p["name"]: p["token"] for p in json.loads(r.stdout)["players"]}

    def show(self, game: str = "m1", player: str | None = None) -> dict:
        r = self("show", game, "--json", *(["--as", player] if player else []))
        assert r.exit_code == 0, r.output
        return json.loads(r.stdout)


def assert_error(result: Any, message: str, code: int = 1) -> None:
    """A domain error: exit 1, `Error: <message>` on stderr, nothing on stdout, no traceback."""
    assert result.exit_code == code, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit), f"unhandled {result.exception!r}"
    assert result.stderr == f"Error: {message}\n"
    assert result.stdout == ""


def assert_usage_error(result: Any, message: str) -> None:
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.stderr.startswith("Usage: ")
    assert result.stderr.endswith(f"\nError: {message}\n"), result.stderr
    assert result.stdout == ""


def send_turn(pbem: Any, path: Path, game: str, player: str, token: str, turn: int, orders: list[Any]) -> None:
    """Write a turn file to `path`, `pbem submit` it and `pbem advance`; both must succeed."""
    path.write_text(dump_yaml({"game": game, "player": player, "token": token, "turn": turn, "orders": orders}))
    r = pbem("submit", str(path))
    assert r.exit_code == 0, r.output
    r = pbem("advance")
    assert r.exit_code == 0, r.output


# -- the games dir --------------------------------------------------------------------------------------

def has_word(text: str, word: str) -> bool:
    """Whether `word` stands in `text` as a whole word (no letter, digit, `_` or `-` beside it)."""
    return word in text and _whole_word(word).search(text) is not None


@functools.lru_cache(maxsize=4096)
def _whole_word(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])")


def git(games: Path, *args: str) -> str:
    r = subprocess.run(["git", *args], cwd=games, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def commit_count(games: Path) -> int:
    return int(git(games, "rev-list", "--count", "HEAD"))


def game_bytes(folder: Path) -> bytes:
    """A game's state file and history files, end to end: what "changes nothing" must leave as it was."""
    return b"".join((folder / name).read_bytes() for name in ("state.yaml", "events.yaml", "log.yaml")
                    if (folder / name).is_file())


def load_game(games: Path, game: str = "m1") -> dict[str, Any]:
    """A game as the store reads it, with its whole history as lists."""
    state = GamesDir(games).load(game)
    return {**state, "events": list(state["events"]), "log": list(state["log"])}


def game_files(games: Path) -> dict[str, bytes]:
    """Every file's bytes under `games`, outside .git (and but for the lock file)."""
    return {str(p.relative_to(games)): p.read_bytes() for p in sorted(games.rglob("*"))
            if p.is_file() and ".git" not in p.relative_to(games).parts and p.name != ".pbem.lock"}


def snapshot(games: Path) -> dict[str, Any]:
    """Everything a command could change: every file's bytes (outside .git) and the number of commits."""
    return {"files": game_files(games), "commits": commit_count(games)}


def snapshot_at_head(games: Path) -> dict[str, Any]:
    """Everything a command could change: every file's bytes (outside .git) and the git HEAD; {} while
    there is no games dir."""
    if not games.exists():
        return {}
    return {"files": game_files(games), "head": git(games, "rev-parse", "HEAD") if (games / ".git").exists() else None}


# -- a game and its turn files ----------------------------------------------------------------------------

class Table:
    """One game in a games dir, with its players' tokens and a folder to write turn files into.

    `ruleset` is what `create` starts; `name` the turn files' names (formatted with `game` and `n`, the
    file's number); `quiet`: `play` insists that `pbem advance` wrote nothing to stderr."""

    def __init__(self, pbem: Any, folder: Path, game: str = "m1", *, ruleset: str = "medici",
                 name: str = "turn-{n:03d}.yaml", quiet: bool = False) -> None:
        self.pbem = pbem
        self.folder = folder
        self.game = game
        self.ruleset = ruleset
        self.name = name
        self.quiet = quiet
        self.tokens: dict[str, str] = {}
        self.files = 0

    @property
    def games(self) -> Path:
        return self.pbem.games

    def create(self, players: tuple[str, ...] | list[str], seed: str, *extra: str) -> None:
        """`pbem new` for this game; keeps the players' tokens."""
        r = self.pbem("new", self.ruleset, self.game, *player_args(*players), *seed_args(seed), "--json", *extra)
        assert r.exit_code == 0, r.output
        self.tokens = {p["name"]: p["token"] for p in json.loads(r.stdout)["players"]}

    def state_bytes(self) -> bytes:
        return game_bytes(self.games / self.game)

    def state(self) -> dict[str, Any]:
        return load_game(self.games, self.game)

    def show(self, player: str | None = None) -> dict[str, Any]:
        return self.pbem.show(self.game, player)

    def waiting(self) -> str:
        return self.show()["waiting_for"][0]

    def turn(self) -> int:
        return self.show()["turn"]

    def play_decision(self, orders: dict[str, list[Any]], advance_each: bool = False) -> None:
        """Every player the decision waits for sends his orders for its turn, then one `pbem advance`
        (`advance_each`: an advance after each order; the decision keeps its turn until the last)."""
        shown = self.show()
        assert set(orders) == set(shown["waiting_for"]), (orders, shown["waiting_for"])
        for n, (player, given) in enumerate(orders.items(), start=1):
            r = self.submit(player, shown["turn"], given)
            assert r.exit_code == 0, r.output
            if advance_each or n == len(orders):
                r = self.pbem("advance")
                assert r.exit_code == 0, r.output
                if n < len(orders):
                    assert self.turn() == shown["turn"] and player not in self.show()["waiting_for"]

    def turnfile(self, player: str, turn: int, orders: list[Any], token: str | None = None,
                 game: str | None = None) -> Path:
        self.files += 1
        path = self.folder / self.name.format(game=self.game, n=self.files)
        path.write_text(dump_yaml({"game": game or self.game, "player": player,
                                   "token": self.tokens.get(player, "x") if token is None else token,
                                   "turn": turn, "orders": orders}))
        return path

    def submit(self, player: str, turn: int, orders: list[Any], **kw: Any) -> Any:
        return self.pbem("submit", self.turnfile(player, turn, orders, **kw))

    def play(self, player: str, orders: list[Any]) -> None:
        """Submit and advance; must succeed."""
        r = self.submit(player, self.turn(), orders)
        assert r.exit_code == 0, r.output
        r = self.pbem("advance")
        assert r.exit_code == 0, r.output
        if self.quiet:
            assert r.stderr == "", r.stderr


# -- engine games ---------------------------------------------------------------------------------------

Chooser = Callable[[dict[str, Any], str, list[Any]], Any]


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def play_moves(rules: Any, state: dict[str, Any], rng: Rng, *moves: tuple[str, Any]) -> list[dict[str, Any]]:
    """Apply (player, order) pairs, checking each player is one the decision waits for; returns all
    events."""
    events: list[dict[str, Any]] = []
    for player, order in moves:
        decision = rules.decision(state)
        assert decision is not None and player in decision.players, (player, order, decision)
        events += rules.apply(state, player, order, rng)
    return events


def play_decision(rules: Any, state: dict[str, Any], rng: Rng, orders: dict[str, Any]) -> list[dict[str, Any]]:
    """Play one decision with an order of every player it waits for (a decision of several players,
    each deciding in secret): the orders must be exactly its players', and the decision keeps its turn
    until the last is in. Returns all events."""
    decision = rules.decision(state)
    assert decision is not None and set(orders) == set(decision.players), (orders, decision)
    turn = state["turn"]
    events: list[dict[str, Any]] = []
    for n, (player, order) in enumerate(orders.items(), start=1):
        events += rules.apply(state, player, order, rng)
        if n < len(orders):
            assert state["turn"] == turn and player not in rules.decision(state).players
    return events


def play_engine_game(rules: Any, players: list[str], options: dict[str, Any], seed: str, choose: Chooser,
                     checker: Callable[[dict[str, Any], list[dict[str, Any]]], Any], *, part: str,
                     legal_orders: Callable[[Any, dict[str, Any], str], list[Any]] | None = None,
                     reloaded_legal_every: int = 1, refuse_every: int) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
    """A whole engine game of `players`, each order chosen by `choose`, with a YAML round trip at every
    step: the reloaded copy has the same legal orders (every `reloaded_legal_every` orders) and the same
    order applied to it with a stream resumed at the counter gives the same events and state. Every
    `refuse_every` orders another player's order is refused and changes nothing. `checker(state, events)`
    follows the game (its `after_order` and `at_end` check the game's invariants); `legal_orders(checker,
    state, player)` the orders to choose from (the ruleset's by default). Finally the game continued from
    a copy reloaded when `state[part]` became 2 ends in the same place. Returns the final state, all
    events and the number of orders."""
    rng = Rng(seed)
    state, events = rules.setup(players, options, rng)
    all_events = list(events)
    follower = checker(state, events)
    assert yaml.safe_load(dump_yaml(state)) == state  # the pure-Python loader reads it back too
    orders = 0
    resume: tuple[dict[str, Any], int] | None = None  # a reloaded copy from the start of day/round 2
    later: list[tuple[str, Any]] = []  # and the orders given since
    while (decision := rules.decision(state)) is not None:
        player = decision.players[0]
        if resume is None and state[part] == 2:
            resume = (safe_load(dump_yaml(state)), rng.counter)
        legal = rules.legal_orders(state, player) if legal_orders is None else legal_orders(follower, state, player)
        order = choose(state, player, legal)
        assert order in legal

        # the state is plain data: a YAML round trip gives it back unchanged ...
        reloaded = safe_load(dump_yaml(state))
        assert reloaded == state
        if orders % reloaded_legal_every == 0:
            assert rules.legal_orders(reloaded, player) == legal
        # ... and so does the same order applied to the reloaded copy with a stream resumed at the counter
        resumed = Rng(seed, rng.counter)

        # someone else's order is refused and changes nothing (in a solo game: the engine's own family)
        other = next((p for p in [*players, *state.get("families", [])] if p not in decision.players), None)
        if other is not None and orders % refuse_every == 0:
            before = copy.deepcopy(state)
            with pytest.raises(IllegalOrder):
                rules.apply(state, other, order, Rng(seed, rng.counter))
            assert state == before

        events = rules.apply(state, player, order, rng)
        again = rules.apply(reloaded, player, order, resumed)
        assert again == events
        assert reloaded == state
        assert resumed.counter == rng.counter
        all_events += events
        if resume is not None:
            later.append((player, order))
        orders += 1
        follower.after_order(state, events)
        assert orders < 2000, "the game does not end"
    follower.at_end(state, all_events)
    # continuing the whole game from the copy reloaded at the start of day/round 2 ends in the same place
    assert resume is not None
    copy_state, counter = resume
    resumed = Rng(seed, counter)
    for player, order in later:
        rules.apply(copy_state, player, order, resumed)
    assert copy_state == state and resumed.counter == rng.counter
    # and the finished state round-trips too
    assert safe_load(dump_yaml(state)) == state
    assert yaml.safe_load(dump_yaml(state)) == state  # the pure-Python loader agrees
    return state, all_events, orders


# -- games through the pipeline library -----------------------------------------------------------------

def bot_move(state: dict[str, Any]) -> dict[str, Any]:
    """The game after its bot plays the next decision for the player it waits for."""
    player = waiting_for(state)[0]
    shown = show(state, player)
    order = bots.choose(state["ruleset"], shown["view"], player, shown["legal_orders"])
    return apply_orders(state, player, state["engine"]["turn"], [order])[0]


def play_pipeline_game(tmp_path: Path, ruleset: str, names: list[str], options: dict[str, Any], seed: str,
                       orders_of: Callable[[dict[str, Any], str, dict[str, Any]], list[Any]], *,
                       game: str = "g1", check_every: int = 1) -> tuple[GamesDir, dict[str, Any], dict[str, str]]:
    """new_game, show and apply_orders to the end; `orders_of(state, player, shown)` the orders of the
    player asked. The state file validates every `check_every` steps (and at the end), and is written
    and read back every 10 steps (and at the end). Returns the games dir, the final state and the tokens."""
    gd = GamesDir(tmp_path / "games")
    people = [(p, f"{p}@example.org") for p in names]
    state, tokens = new_game(gd, ruleset, game, people, options, seed)
    check_state(state, game)
    gd.save(game, state)
    steps = 0
    while state["status"] == "active":
        who = waiting_for(state)
        player = who[0]  # of several who decide at once, each in his turn
        shown = show(state, player)
        legal = shown["legal_orders"]
        assert legal
        orders = orders_of(state, player, shown)
        turn = state["engine"]["turn"]
        new, events = apply_orders(state, player, turn, orders)
        if len(who) == 1:
            assert new["engine"]["turn"] == turn + len(orders)
        else:  # one of several who decide at once: the decision keeps its turn and its clock
            assert new["engine"]["turn"] == turn and player not in waiting_for(new)
            assert new["waiting_since"] == state["waiting_since"]
        assert len(new["log"]) == len(state["log"]) + len(orders)
        assert new["events"] == state["events"] + events
        assert all(e["turn"] >= turn for e in events)
        last = new["status"] != "active"
        if steps % check_every == 0 or last:  # the schema check of the whole file grows with the game
            check_state(new, game)
        if steps % 10 == 0 or last:  # written and read back now and then
            gd.save(game, new)
            assert gd.load(game) == new
        state = new
        steps += 1
        assert steps < 2000
    return gd, state, tokens


# -- secrets --------------------------------------------------------------------------------------------

class Mirror:
    """The GM's side of a game, followed in the test: the engine and the stream, advanced by the same
    orders as the stored game. It says whose move it is without loading the state file each time."""

    def __init__(self, rules: Any, state: dict[str, Any]) -> None:
        self.rules = rules
        self.engine = copy.deepcopy(state["engine"])
        self.rng = Rng(state["seed"], state["rng_counter"])

    def waiting(self) -> str | None:
        """The first player the decision waits for (of several who decide at once: the first of them)."""
        decision = self.rules.decision(self.engine)
        return decision.players[0] if decision else None

    def bot_order(self, player: str) -> Any:
        """The bot's order from exactly what `show --as player` gives it (the view and legal orders)."""
        return bots.choose(self.rules.name, self.rules.view(self.engine, player), player,
                           self.rules.legal_orders(self.engine, player))

    def apply(self, player: str, order: Any) -> None:
        self.rules.apply(self.engine, player, order, self.rng)


def keys_in(value: Any) -> set[str]:
    """Every key of every dict in `value`, however deep."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_in(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_in(v)}
    return set()


def lists_in(value: Any) -> list[list]:
    """Every list in `value`, however deep."""
    if isinstance(value, dict):
        return [lst for v in value.values() for lst in lists_in(v)]
    if isinstance(value, list):
        return [value] + [lst for v in value for lst in lists_in(v)]
    return []


def has_run(items: list, run: list) -> bool:
    """`run` occurs in `items` as consecutive elements."""
    return any(items[i:i + len(run)] == run for i in range(len(items) - len(run) + 1))


def as_json(value: Any) -> Any:
    """A value as `show --json` prints it (JSON keys are strings)."""
    return json.loads(json.dumps(value))


class Secrets:
    """The hidden facts of a game at one moment: the seed, the tokens, and `runs()`, sequences that no
    player may see (named `hidden` in the messages); `hidden_keys` may show in no player's view."""

    hidden = "hidden cards"
    hidden_keys: set[str] = set()

    def __init__(self, seed: str, tokens: dict[str, str], finished: bool) -> None:
        self.seed = seed
        self.tokens = tokens
        self.finished = finished

    def runs(self) -> list[list[str]]:
        raise NotImplementedError

    def check_text(self, text: str, player: str, what: str) -> None:
        if not self.finished:
            assert self.seed not in text, f"{what}: the seed shows before the end"
        for other, token in self.tokens.items():
            if other != player:
                assert token not in text, f"{what}: {other}'s token shows"
        for run in self.runs():
            assert ", ".join(run) not in text, f"{what}: {self.hidden} {run} show"

    def check_view(self, shown: dict[str, Any], player: str, what: str) -> None:
        keys = keys_in(shown)
        assert not keys & self.hidden_keys, f"{what}: hidden keys {keys & self.hidden_keys}"
        if not self.finished:
            assert "seed" not in keys, f"{what}: the seed shows before the end"
        for lst in lists_in(shown):
            for run in self.runs():
                assert not has_run(lst, run), f"{what}: {self.hidden} {run} show in {lst}"
        self.check_text(json.dumps(shown, ensure_ascii=False), player, what)

    def check_reports(self, paths: list[Path], last: dict[str, str]) -> None:
        """Each report in `paths` (in its player's folder) keeps the secrets; `last` gets its text."""
        for path in paths:
            text = path.read_text("utf-8")
            owner = path.parent.name
            last[owner] = text
            self.check_text(text, owner, f"report {path.name} of {owner}")


def check_views_ignore_hidden(state: dict[str, Any], other: dict[str, Any], events: list[dict[str, Any]],
                              hidden: str) -> None:
    """No player's view or report may change when only hidden things change (`other` is `state` with
    them changed; `hidden` names them in the message)."""
    for p in (q["name"] for q in state["players"]):
        assert show(other, p) == show(state, p), f"{p}'s view depends on {hidden}"
        assert render_report(other, p, events) == render_report(state, p, events)


def git_history(repo: Path) -> bytes:
    """Every object any ref of `repo` reaches, read whole: every blob, tree and commit message."""
    listed = subprocess.run(["git", "rev-list", "--all", "--objects"], cwd=repo, capture_output=True, text=True,
                            check=True).stdout
    names = "".join(line.split(" ", 1)[0] + "\n" for line in listed.splitlines())
    return subprocess.run(["git", "cat-file", "--batch"], cwd=repo, input=names.encode(), capture_output=True,
                          check=True).stdout
