"""`pbem verify --log FILE`: a player checks a finished game from its published log (game.yaml of the
archive), without the GM's games dir: the seed against its commitment, every order replayed, the final
standings against those the file claims. Every way the file can be wrong is one line and exit 1."""

from __future__ import annotations

import contextlib
import copy
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from helpers import assert_error, assert_usage_error
from pbem import bots
from pbem.archive import game_record
from pbem.cli import main as pbem_main
from pbem.game import apply_orders, new_game, show, waiting_for
from pbem.rng import commitment
from pbem.rules.base import order_text
from pbem.store import GamesDir, dump_yaml

SEED = "Published-seed-0123456789"


def finished_record(tmp_path: Path, ruleset: str = "medici", names: tuple[str, ...] = ("anna", "ben", "cleo"),
                    options: dict[str, str] | None = None) -> dict[str, Any]:
    state, _ = new_game(GamesDir(tmp_path / "unused"), ruleset, "m1", [(n, f"{n}@example.org") for n in names],
                        options or {}, SEED)
    while state["status"] == "active":
        player = waiting_for(state)[0]
        seen = show(state, player)
        state, _ = apply_orders(state, player, seen["turn"],
                                [bots.choose(ruleset, seen["view"], player, seen["legal_orders"])])
    return game_record(state)


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return finished_record(tmp_path_factory.mktemp("record"))


def verify(tmp_path: Path, *args: str):
    """`pbem verify` run in an empty folder with no games dir anywhere."""
    empty = tmp_path / "elsewhere"
    empty.mkdir(exist_ok=True)
    with contextlib.chdir(empty):
        return CliRunner().invoke(pbem_main, ["verify", *args])


def write(tmp_path: Path, data: Any, name: str = "game.yaml") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else dump_yaml(data), "utf-8")
    return path


def test_a_published_game_verifies_without_a_games_dir(record: dict[str, Any], tmp_path: Path) -> None:
    path = write(tmp_path, record)
    r = verify(tmp_path, "--log", str(path))
    assert r.exit_code == 0, r.output
    standings = "".join(f"  {s['rank']}. {s['player']:<12} {s['score']}\n" for s in record["result"])
    assert r.stdout == (f"m1 (Medici): {len(record['log'])} orders replay from the seed to the end of the game.\n"
                        f"The seed matches its commitment, sha256 {commitment(SEED)}.\n"
                        f"Final standings:\n{standings}"
                        f"They are the standings the log file claims.\n")
    assert r.stderr == ""
    assert not (tmp_path / "games").exists()


@pytest.mark.parametrize("ruleset, names, options", [
    ("medici-strozzi", ("lorenzo", "filippo"), {}),
    ("medina", ("anna", "ben", "cleo"), {}),
    ("florenz", ("anna",), {"solo": "easier"}),
])
def test_every_ruleset_verifies(tmp_path: Path, ruleset: str, names: tuple[str, ...], options: dict[str, str]) -> None:
    data = finished_record(tmp_path, ruleset, names, options)
    r = verify(tmp_path, "--log", str(write(tmp_path, data)))
    assert r.exit_code == 0, r.output
    assert r.stdout.endswith("They are the standings the log file claims.\n")


def test_standings_that_differ_from_the_claim(record: dict[str, Any], tmp_path: Path) -> None:
    data = copy.deepcopy(record)
    data["result"][0]["score"] += 5
    r = verify(tmp_path, "--log", str(write(tmp_path, data)))
    assert r.exit_code == 1
    replayed = "; ".join(f"{s['rank']}. {s['player']} {s['score']}" for s in record["result"])
    claimed = "; ".join(f"{s['rank']}. {s['player']} {s['score']}" for s in data["result"])
    assert r.stderr == f"Error: the replayed standings ({replayed}) are not the ones the log file claims ({claimed})\n"
    assert r.stdout.startswith("m1 (Medici): ") and "Final standings:" in r.stdout


def test_the_file_cannot_be_read(tmp_path: Path) -> None:
    missing = tmp_path / "nothing.yaml"
    assert_error(verify(tmp_path, "--log", str(missing)),
                 f"cannot read the log file '{missing}': No such file or directory")
    assert_usage_error(verify(tmp_path, "--log", str(tmp_path)),
                       f"Invalid value for '--log': File '{tmp_path}' is a directory.")
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"seed: \xff\xfe\n")
    assert_error(verify(tmp_path, "--log", str(binary)), f"the log file '{binary}' is not YAML: it is not UTF-8 text")
    broken = write(tmp_path, "ruleset: medici\nlog: [\n", "broken.yaml")
    assert_error(verify(tmp_path, "--log", str(broken)),
                 f"the log file '{broken}' is not YAML: did not find expected node content (line 3)")
    control = write(tmp_path, "ruleset: medici\nlog: []\nseed: \"a\x7fb\"\n", "control.yaml")
    assert_error(verify(tmp_path, "--log", str(control)),
                 f"the log file '{control}' is not YAML: a control character (U+007F) that YAML does not "
                 f"allow; delete it (line 3)")


def shape(record: dict[str, Any], change: Any) -> Any:
    data = copy.deepcopy(record)
    if callable(change):
        change(data)
        return data
    return change


SHAPES = [
    ("list", ["medici"], "it is not a mapping of ruleset, options, players, seed, log and result"),
    ("empty", "", "it is not a mapping of ruleset, options, players, seed, log and result"),
    ("no seed", lambda d: d.pop("seed"), "'seed' is missing"),
    ("no result", lambda d: d.pop("result"), "'result' is missing"),
    ("format", lambda d: d.update(format=2), "its format 2 is not 1"),
    ("ruleset", lambda d: d.update(ruleset=["medici"]), "'ruleset' must be the name of a ruleset"),
    ("options", lambda d: d.update(options={"edition": 1}), "'options' must map option names to values"),
    ("players", lambda d: d.update(players="anna"), "'players' must be a list of player names"),
    ("no players", lambda d: d.update(players=[]), "'players' must be a list of player names"),
    ("seed", lambda d: d.update(seed=12345), "'seed' must be the game's seed, a text"),
    ("commitment", lambda d: d.update(seed_sha256=1), "'seed_sha256' must be the seed's commitment, a text"),
    ("deck", lambda d: d.update(deck=["dyes-5"]), "'deck' must be a deck file's mapping, or null"),
    ("log", lambda d: d.update(log={"turn": 1}), "'log' must be a list of orders"),
    ("entry", lambda d: d["log"][3].pop("player"), "log[3] must have a turn (a number), a player and an order"),
    ("turn", lambda d: d["log"][0].update(turn="1"), "log[0] must have a turn (a number), a player and an order"),
    ("result", lambda d: d["result"][1].pop("rank"), "'result' must be a list of standings (player, score, rank)"),
]


@pytest.mark.parametrize("change, why", [(c, w) for _, c, w in SHAPES], ids=[i for i, _, _ in SHAPES])
def test_a_file_of_the_wrong_shape(record: dict[str, Any], tmp_path: Path, change: Any, why: str) -> None:
    path = write(tmp_path, shape(record, change))
    assert_error(verify(tmp_path, "--log", str(path)), f"the log file '{path}' is not a pbem game log: {why}")


RULES = [
    ("unknown ruleset", lambda d: d.update(ruleset="chess"),
     "unknown ruleset 'chess' (known: florenz, goofspiel, medici, medici-strozzi, medina)"),
    ("option", lambda d: d.update(options={"edition": "deluxe"}),
     "option edition='deluxe' is not allowed for medici (choose one of: riogrande, amigo)"),
    ("players", lambda d: d.update(players=["anna"]), "Medici needs 3 to 6 players, not 1"),
    ("deck", lambda d: d.update(deck={"days": [["dyes-99"]]}),
     "day 1 of the deck file: 'dyes-99' is not a card of the riogrande edition (goods: linen, furs, grain, dyes, "
     "spices, values 0-5, and gold-10)"),
]


@pytest.mark.parametrize("change, message", [(c, m) for _, c, m in RULES], ids=[i for i, _, _ in RULES])
def test_a_game_pbem_cannot_set_up(record: dict[str, Any], tmp_path: Path, change: Any, message: str) -> None:
    path = write(tmp_path, shape(record, change))
    assert_error(verify(tmp_path, "--log", str(path)), f"the log file '{path}': {message}")


def test_a_seed_that_is_not_the_one_committed_to(record: dict[str, Any], tmp_path: Path) -> None:
    data = dict(record, seed="another-seed-0123456789")
    path = write(tmp_path, data)
    assert_error(verify(tmp_path, "--log", str(path)),
                 f"the log file '{path}': the seed does not match its commitment (sha256 {commitment(SEED)})")
    # without a commitment the replay itself tells: another seed deals other cards
    del data["seed_sha256"]
    r = verify(tmp_path, "--log", str(write(tmp_path, data)))
    assert r.exit_code == 1 and r.stderr.startswith(f"Error: the log file '{path}' does not replay") \
        or "are not the ones the log file claims" in r.stderr, r.stderr


def test_a_log_that_does_not_replay(record: dict[str, Any], tmp_path: Path) -> None:
    log = record["log"]
    path = tmp_path / "game.yaml"

    def check(data: dict[str, Any], message: str) -> None:
        write(tmp_path, data)
        assert_error(verify(tmp_path, "--log", str(path)), f"the log file '{path}' does not replay{message}")

    first = log[0]
    check(dict(record, log=[dict(first, turn=2), *log[1:]]),
          f": order 1 (turn 2, {first['player']}: draw): the game is at turn 1")
    other = next(p for p in record["players"] if p != first["player"])
    check(dict(record, log=[dict(first, player=other), *log[1:]]),
          f": order 1 (turn 1, {other}: draw): the decision is {first['player']}'s")
    check(dict(record, log=[dict(first, order={"bid": 500}), *log[1:]]),
          f": order 1 (turn 1, {first['player']}: bid: 500): you are the auctioneer: send 'draw' or 'auction', "
          f"not 'bid: 500'")
    extra = dict(log[-1], turn=log[-1]["turn"] + 1)
    check(dict(record, log=[*log, extra]),
          f": order {len(log) + 1} (turn {extra['turn']}, {extra['player']}: {order_text(extra['order'])}): "
          f"the game is already over")
    last = log[-1]
    check(dict(record, log=log[:-1]),
          f" to the end: after its {len(log) - 1} orders the game waits for {last['player']} (turn {last['turn']})")


def test_game_or_log_not_both(record: dict[str, Any], tmp_path: Path) -> None:
    path = write(tmp_path, record)
    assert_usage_error(verify(tmp_path, "m1", "--log", str(path)), "give GAME or --log FILE, not both")
    assert_usage_error(verify(tmp_path), "Missing argument 'GAME' (or --log FILE).")
