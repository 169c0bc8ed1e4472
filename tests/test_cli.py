"""The `pbem` command end to end: every error path with its exact message and exit code (and proof that
nothing changed), and the positive paths of new, submit, advance, status, show and verify.

Exit codes: 0 success, 1 a domain error (`Error: <message>` on stderr), 2 a usage error.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

import helpers
from helpers import Pbem, assert_error, assert_usage_error, commit_count, git, player_args, send_turn, snapshot
from pbem import bots
from rooms import GAMES, need
from pbem.cli import main as pbem_main
from pbem.store import GamesDir, dump_yaml

pytestmark = pytest.mark.usefixtures("pictures_unexamined")

PLAYERS = ("anna", "ben", "cleo")


# -- helpers -------------------------------------------------------------------------------------------

GOOD = player_args(*PLAYERS)


def game_lines(stdout: str) -> str:
    """What `pbem advance` said about the games, without its line about the mail it wrote."""
    return "".join(line + "\n" for line in stdout.splitlines() if " written to " not in line)


def state_bytes(games: Path, game: str = "m1") -> bytes:
    """The state file and the history files: what "changes nothing" must leave as it was."""
    return helpers.game_bytes(games / game)


def load_state(games: Path, game: str = "m1") -> dict[str, Any]:
    return helpers.load_game(games, game)


class Table(helpers.Table):
    """One Medici game (`pbem.new`) in a games dir, with its players' tokens and a place to write turn files."""

    def __init__(self, pbem: Any, folder: Path, game: str = "m1") -> None:
        super().__init__(pbem, folder, game)
        self.tokens = pbem.new(game)


@pytest.fixture
def table(pbem: Any, tmp_path: Path) -> Table:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    return Table(pbem, inbox)


def bidding_table(table: Table) -> tuple[str, str, str]:
    """Put the lot up for auction and have the first bidder bid 5; the auctioneer, the first bidder,
    and the player to bid now."""
    auctioneer = table.waiting()
    table.play(auctioneer, ["auction"])
    first = table.waiting()
    table.play(first, [{"bid": 5}])
    return auctioneer, first, table.waiting()


def play_to_the_end(pbem: Any, game: str, tokens: dict[str, str], inbox: Path) -> int:
    """Bots play the game through show/submit/advance; the number of turn files."""
    files = 0
    while True:
        gm = pbem.show(game)
        if gm["status"] == "finished":
            return files
        player = gm["waiting_for"][0]
        seen = pbem.show(game, player)
        order = bots.choose("medici", seen["view"], player, seen["legal_orders"])
        files += 1
        send_turn(pbem, inbox / f"{files:04d}.yaml", game, player, tokens[player], seen["turn"], [order])


@pytest.fixture(scope="module")
def finished_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A whole game played by bots (once per module): its games dir and tokens."""
    root = tmp_path_factory.mktemp("finished")
    with pytest.MonkeyPatch.context() as mp:
        helpers.fixed_clock(mp)
        pbem = Pbem(root / "games")
        tokens = pbem.new("m1")
        inbox = root / "inbox"
        inbox.mkdir()
        assert play_to_the_end(pbem, "m1", tokens, inbox) > 10
    return root / "games", tokens


@pytest.fixture
def finished(finished_game: tuple[Path, dict[str, str]], pbem: Any) -> dict[str, str]:
    """A copy of the finished game in this test's games dir; its tokens."""
    shutil.copytree(finished_game[0], pbem.games)
    return finished_game[1]


# -- pbem new: errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize("args, message", [
    (["new", "chess", "m2", *GOOD], f"unknown ruleset 'chess' (known: {', '.join(GAMES)})"),
    (["new", "medici", "M2", *GOOD],
     "'M2' is not a game id (lower-case letters, digits, '-' and '_', at most 40, starting with a letter or digit)"),
    (["new", "medici", "a" * 41, *GOOD],
     f"{'a' * 41!r} is not a game id (lower-case letters, digits, '-' and '_', at most 40, "
     f"starting with a letter or digit)"),
    (["new", "medici", "../m2", *GOOD],
     "'../m2' is not a game id (lower-case letters, digits, '-' and '_', at most 40, starting with a letter or digit)"),
    (["new", "medici", "m2", *player_args("anna", "ben", "anna")], "player 'anna' is named twice"),
    (["new", "medici", "m2", *player_args("anna", "ben")], "Medici needs 3 to 6 players, not 2"),
    (["new", "medici", "m2", *player_args(*[f"p{i}" for i in range(7)])], "Medici needs 3 to 6 players, not 7"),
    (["new", "medici", "m2", *GOOD, "--option", "colour=red"], "medici has no option 'colour' (options: edition)"),
    (["new", "medici", "m2", *GOOD, "--option", "edition=deluxe"],
     "option edition='deluxe' is not allowed for medici (choose one of: riogrande, amigo)"),
    (["new", "medici", "m2", *GOOD, "--seed", ""], "the seed must not be empty"),
])
def test_new_rejects(table: Table, args: list[str], message: str) -> None:
    before = snapshot(table.games)
    assert_error(table.pbem(*args), message)
    assert snapshot(table.games) == before


@pytest.mark.parametrize("args, message", [
    (["--player", "anna", *player_args("ben", "cleo")], "Invalid value for '--player': 'anna' is not NAME=EMAIL"),
    (["--player", "Anna=anna@example.org", *player_args("ben", "cleo")],
     "Invalid value for '--player': player name 'Anna' must be lower-case letters, digits, '-' or '_', "
     "starting with a letter, at most 24 characters"),
    (["--player", "anna=anna-at-example.org", *player_args("ben", "cleo")],
     "Invalid value for '--player': 'anna-at-example.org' (player anna) is not an email address"),
    (["--player", "anna=", *player_args("ben", "cleo")],
     "Invalid value for '--player': '' (player anna) is not an email address"),
    ([*GOOD, "--option", "edition"], "Invalid value for '--option': 'edition' is not KEY=VALUE"),
    ([*GOOD, "--option", "=amigo"], "Invalid value for '--option': '=amigo' is not KEY=VALUE"),
])
def test_new_rejects_malformed_values_as_usage_errors(table: Table, args: list[str], message: str) -> None:
    """A value that cannot be read is a usage error (exit 2), like click's own; nothing is written."""
    before = snapshot(table.games)
    assert_usage_error(table.pbem("new", "medici", "m2", *args), message)
    assert snapshot(table.games) == before
    assert table.pbem.games.joinpath("m2").exists() is False


def test_new_refuses_a_game_that_exists(table: Table) -> None:
    before = snapshot(table.games)
    r = table.pbem("new", "medici", "m1", *player_args("dora", "emil", "fred"))
    assert_error(r, f"game 'm1' already exists in {table.games.resolve()}")
    assert snapshot(table.games) == before


def deck_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "deck.yaml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("text, message", [
    ("days: [dyes-5\n", "the deck file '{path}', line 2: not valid YAML (did not find expected ',' or ']')"),
    ("days: &d [[dyes-5]]\n", "the deck file '{path}', line 1: anchors ('&name') are not allowed"),
    ("days: [[dyes-5, 7]]\nextra: 1\n",
     "the deck file '{path}' is not valid:\n"
     "  - line 1, days[0][1]: must be text, not 7\n"
     "  - line 2, the top level: has unknown field 'extra'"),
    ("days: []\n", "the deck file '{path}' is not valid:\n  - line 1, days: must hold at least 1 item"),
    ("days:\n  - [dyes-5, gems-3]\n",
     "day 1 of the deck file: 'gems-3' is not a card of the riogrande edition "
     "(goods: linen, furs, grain, dyes, spices, values 0-5, and gold-10)"),
    ("days:\n  - [dyes-5]\n  - [dyes-9]\n",
     "day 2 of the deck file: 'dyes-9' is not a card of the riogrande edition "
     "(goods: linen, furs, grain, dyes, spices, values 0-5, and gold-10)"),
    ("days:\n  - [" + ", ".join(f"{g}-{v}" for g in ("linen", "furs", "grain", "dyes") for v in range(5)) + "]\n",
     "day 1 of the deck file lists 20 cards; only 18 are in play with 3 players"),
    ("days:\n  - [dyes-0, dyes-0]\n", "day 1 of the deck file lists 'dyes-0' 2 times; the game has 1"),
])
def test_new_rejects_a_bad_deck_file(table: Table, tmp_path: Path, text: str, message: str) -> None:
    path = deck_file(tmp_path, text)
    before = snapshot(table.games)
    assert_error(table.pbem("new", "medici", "m2", *GOOD, "--deck", path), message.format(path=path))
    assert snapshot(table.games) == before


def test_new_rejects_a_missing_deck_file(table: Table, tmp_path: Path) -> None:
    path = tmp_path / "nowhere.yaml"
    before = snapshot(table.games)
    r = table.pbem("new", "medici", "m2", *GOOD, "--deck", path)
    assert_error(r, f"cannot read the deck file '{path}': No such file or directory")
    assert snapshot(table.games) == before


def test_new_rejects_a_card_of_the_other_edition(table: Table, tmp_path: Path) -> None:
    path = deck_file(tmp_path, "days:\n  - [linen-1]\n")
    r = table.pbem("new", "medici", "m2", *GOOD, "--option", "edition=amigo", "--deck", path)
    assert_error(r, "day 1 of the deck file: 'linen-1' is not a card of the amigo edition "
                    "(goods: metals, porcelain, dyes, cloth, spices, values 0-5, and gold-10)")


def test_deck_schema_errors_are_in_the_order_of_the_file(pbem: Any, tmp_path: Path) -> None:
    cards = ["dyes-1", "dyes-2", "X"] + [f"linen-{v}" for v in range(5)] + ["furs-1", "furs-2", "Y"]
    path = deck_file(tmp_path, "days:\n  - [" + ", ".join(cards) + "]\n")
    r = pbem("new", "medici", "m1", *GOOD, "--deck", path)
    assert_error(r, f"the deck file '{path}' is not valid:\n"
                    f"  - line 2, days[0][2]: 'X' is not of the allowed form\n"
                    f"  - line 2, days[0][10]: 'Y' is not of the allowed form")


def test_a_failed_new_creates_nothing(pbem: Any) -> None:
    r = pbem("new", "medici", "M1", *GOOD)
    assert r.exit_code == 1
    assert not pbem.games.exists()


def test_new_without_players_is_a_usage_error(pbem: Any) -> None:
    assert_usage_error(pbem("new", "medici", "m1"), "Missing option '--player'.")
    assert not pbem.games.exists()


def test_new_without_a_game_id_is_a_usage_error(pbem: Any) -> None:
    assert_usage_error(pbem("new", "medici"), "Missing argument 'GAME'.")


def test_unknown_command_is_a_usage_error(pbem: Any) -> None:
    assert_usage_error(pbem("frobnicate"), "No such command 'frobnicate'.")


def test_unknown_option_is_a_usage_error(pbem: Any) -> None:
    assert_usage_error(pbem("status", "--colour"), "No such option '--colour'.")


# -- pbem new: success ---------------------------------------------------------------------------------

def test_new_json(pbem: Any) -> None:
    r = pbem("new", "medici", "m1", *GOOD, "--seed", "s", "--weak-seed", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert set(out) == {"game", "ruleset", "players"}
    assert out["game"] == "m1"
    assert out["ruleset"] == "medici"
    assert [set(p) for p in out["players"]] == [{"name", "email", "token"}] * 3
    assert [(p["name"], p["email"]) for p in out["players"]] == [(n, f"{n}@example.org") for n in PLAYERS]
    tokens = [p["token"] for p in out["players"]]
    assert len(set(tokens)) == 3 and all(len(t) >= 16 for t in tokens)


def test_tokens_are_kept_only_as_hashes(pbem: Any) -> None:
    tokens = pbem.new("m1")
    state = load_state(pbem.games)
    assert [p["token_sha256"] for p in state["players"]] == [
        hashlib.sha256(tokens[n].encode()).hexdigest() for n in PLAYERS]
    text = state_bytes(pbem.games).decode()
    # the welcome mails carry the tokens to the players; they stay out of the history (mail/ is ignored)
    everything = "".join(p.read_text(errors="replace") for p in pbem.games.rglob("*")
                         if p.is_file() and ".git" not in p.parts and "mail" not in p.parts)
    history = git(pbem.games, "log", "-p", "--all")
    for token in tokens.values():
        assert token not in text
        assert token not in everything
        assert token not in history


def test_new_human_output(pbem: Any) -> None:
    r = pbem("new", "medici", "m1", *GOOD, "--seed", "test-seed", "--weak-seed")
    assert r.exit_code == 0, r.output
    state = load_state(pbem.games)
    lines = r.stdout.splitlines()
    assert lines[0] == f"New Medici game 'm1' in {pbem.games.resolve() / 'm1'}"
    assert lines[1] == f"Seed commitment: sha256 {state['seed_sha256']}"
    assert lines[1] == "Seed commitment: sha256 " + hashlib.sha256(b"test-seed").hexdigest()
    assert lines[2] == "Players and their secret tokens (shown only now; pbem keeps only a hash):"
    for line, player in zip(lines[3:6], state["players"]):
        name, email, token = line.split()
        assert (name, email) == (player["name"], player["email"])
        assert hashlib.sha256(token.encode()).hexdigest() == player["token_sha256"]
    waiting = pbem.show("m1")["waiting_for"]
    assert lines[6] == f"Waiting for {', '.join(waiting)} (turn 1)."
    assert len(lines) == 7
    assert r.stderr == ""


def test_new_commits_the_game_and_writes_first_reports(pbem: Any) -> None:
    pbem.new("m1")
    assert git(pbem.games, "log", "-1", "--format=%s") == "m1: new medici game for anna, ben, cleo\n"
    for p in PLAYERS:
        assert [f.name for f in (pbem.games / "m1" / "reports" / p).iterdir()] == ["0001-turn-0001.txt"]
    assert git(pbem.games, "status", "--porcelain") == ""


def test_new_with_an_option_and_a_deck(pbem: Any, tmp_path: Path) -> None:
    path = deck_file(tmp_path, "days:\n  - [dyes-5, metals-2]\n")
    pbem.new("m1", PLAYERS, "--option", "edition=amigo", "--deck", str(path))
    gm = pbem.show("m1")
    assert gm["options"] == {"edition": "amigo"}
    assert gm["view"]["lot"] == ["dyes-5"]
    assert gm["view"]["deck"][0] == "metals-2"


def test_without_a_seed_each_game_gets_its_own(pbem: Any) -> None:
    r1 = pbem("new", "medici", "m1", *GOOD)
    r2 = pbem("new", "medici", "m2", *GOOD)
    assert r1.exit_code == r2.exit_code == 0
    assert load_state(pbem.games, "m1")["seed_sha256"] != load_state(pbem.games, "m2")["seed_sha256"]


# -- pbem submit: errors -------------------------------------------------------------------------------

def assert_refused(table: Table, result: Any, message: str) -> None:
    assert_error(result, message)
    assert table.SNAPSHOT == snapshot(table.games)


@pytest.fixture
def frozen(table: Table) -> Table:
    """The table, with a snapshot to prove that a refused submission changed nothing."""
    table.SNAPSHOT = snapshot(table.games)  # type: ignore[attr-defined]
    return table


def test_submit_missing_file(frozen: Table) -> None:
    path = frozen.folder / "nowhere.yaml"
    assert_refused(frozen, frozen.pbem("submit", path),
                   f"cannot read the turn file '{path}': No such file or directory")


def test_submit_a_directory_is_a_usage_error(frozen: Table) -> None:
    r = frozen.pbem("submit", frozen.folder)
    assert r.exit_code == 2
    assert f"'{frozen.folder}' is a directory" in r.stderr


def test_submit_malformed_yaml(frozen: Table) -> None:
    path = frozen.folder / "bad.yaml"
    path.write_text("game: m1\nplayer: [anna\ntoken: x\n")
    assert_refused(frozen, frozen.pbem("submit", path),
                   "the turn file, line 3: not valid YAML (did not find expected ',' or ']')")


def test_submit_hostile_yaml(frozen: Table) -> None:
    path = frozen.folder / "bad.yaml"
    path.write_text("game: m1\nplayer: !!python/object/apply:os.system [touch pwned]\n")
    assert_refused(frozen, frozen.pbem("submit", path),
                   "the turn file, line 2: tags ('!!python/object/apply:os.system') are not allowed")


def test_submit_too_large(frozen: Table) -> None:
    path = frozen.folder / "big.yaml"
    path.write_bytes(b"#" * 70000)
    assert_refused(frozen, frozen.pbem("submit", path), "the turn file is 70000 bytes; the limit is 65536")


def test_submit_schema_errors(frozen: Table) -> None:
    path = frozen.folder / "bad.yaml"
    path.write_text("game: m1\nplayer: anna\nturn: zero\norders: []\nsignature: anna\n")
    assert_refused(frozen, frozen.pbem("submit", path),
                   "the turn file is not valid:\n"
                   "  - line 1, the top level: lacks 'token'\n"
                   "  - line 3, turn: must be a whole number (the turn your orders answer) or 'next', not 'zero'\n"
                   "  - line 4, orders: must hold at least 1 item\n"
                   "  - line 5, the top level: has unknown field 'signature'")


def test_submit_order_schema_errors(frozen: Table) -> None:
    who = frozen.waiting()
    r = frozen.submit(who, 1, ["drw", {"bid": "seven"}, {"bid": 0}, {"bid": 5, "colour": "red"}])
    assert_refused(frozen, r,
                   "the turn file is not valid:\n"
                   "  - line 6, orders[0]: is not a Medici order; send one of: draw, auction, pass, bid: N\n"
                   "  - line 7, orders[1].bid: must be a whole number, not 'seven'\n"
                   "  - line 8, orders[2].bid: must be at least 1, not 0\n"
                   "  - line 10, orders[3]: has unknown field 'colour'")


def test_submit_order_schema_errors_name_their_line(frozen: Table) -> None:
    who = frozen.waiting()
    path = frozen.folder / "bad.yaml"
    path.write_text(f"game: m1\nplayer: {who}\ntoken: {frozen.tokens[who]}\nturn: 1\norders:\n  - bid: 0\n")
    assert_refused(frozen, frozen.pbem("submit", path),
                   "the turn file is not valid:\n  - line 6, orders[0].bid: must be at least 1, not 0")


def test_submit_two_yaml_documents(frozen: Table) -> None:
    who = frozen.waiting()
    doc = dump_yaml({"game": "m1", "player": who, "token": frozen.tokens[who], "turn": 1, "orders": ["draw"]})
    path = frozen.folder / "two.yaml"
    path.write_text("---\n" + doc + "---\n" + doc)
    r = frozen.pbem("submit", path)
    assert r.exit_code == 1
    assert isinstance(r.exception, SystemExit), repr(r.exception)
    assert r.stderr.startswith("Error: the turn file, line ")
    assert snapshot(frozen.games) == frozen.SNAPSHOT


def test_submit_impossible_date(frozen: Table) -> None:
    path = frozen.folder / "date.yaml"
    path.write_text("game: m1\nplayer: anna\ntoken: x\nturn: 2026-02-30\norders: [draw]\n")
    r = frozen.pbem("submit", path)
    assert r.exit_code == 1
    assert isinstance(r.exception, SystemExit), repr(r.exception)
    assert r.stderr.startswith("Error: the turn file")
    assert snapshot(frozen.games) == frozen.SNAPSHOT


def test_submit_unknown_game(frozen: Table) -> None:
    who = frozen.waiting()
    assert_refused(frozen, frozen.submit(who, 1, ["draw"], game="m9"), "there is no game 'm9'")


def test_submit_unknown_game_that_is_no_game_id(frozen: Table) -> None:
    who = frozen.waiting()
    assert_refused(frozen, frozen.submit(who, 1, ["draw"], game="../m1"), "there is no game '../m1'")


def test_submit_unknown_player(frozen: Table) -> None:
    assert_refused(frozen, frozen.submit("zed", 1, ["draw"], token="guess"), "game 'm1' has no player 'zed'")


def test_submit_wrong_token(frozen: Table) -> None:
    who = frozen.waiting()
    other = next(p for p in PLAYERS if p != who)
    assert_refused(frozen, frozen.submit(who, 1, ["draw"], token=frozen.tokens[other]),
                   f"the token for '{who}' in game 'm1' is wrong")


def test_submit_future_turn(frozen: Table) -> None:
    who = frozen.waiting()
    assert_refused(frozen, frozen.submit(who, 2, ["draw"]),
                   "your orders answer turn 2, but game 'm1' is only at turn 1")


def test_submit_stale_turn(table: Table) -> None:
    auctioneer = table.waiting()
    table.play(auctioneer, ["auction"])
    bidder = table.waiting()
    before = snapshot(table.games)
    assert_error(table.submit(bidder, 1, ["pass"]),
                 "your orders answer turn 1, but game 'm1' is at turn 2: they are stale")
    assert snapshot(table.games) == before


def test_submit_not_your_decision(frozen: Table) -> None:
    who = frozen.waiting()
    other = next(p for p in PLAYERS if p != who)
    assert_refused(frozen, frozen.submit(other, 1, ["draw"]),
                   f"turn 1 of game 'm1' is not yours: the game waits for {who}")


def test_submit_illegal_order_for_the_phase(frozen: Table) -> None:
    who = frozen.waiting()
    assert_refused(frozen, frozen.submit(who, 1, ["pass"]),
                   "order 'pass': you are the auctioneer: send 'draw' or 'auction', not 'pass'")


def test_submit_bid_above_money(table: Table) -> None:
    table.play(table.waiting(), ["auction"])
    bidder = table.waiting()
    before = snapshot(table.games)
    assert_error(table.submit(bidder, 2, [{"bid": 41}]), "order 'bid: 41': bid 41 is more than your money (40)")
    assert snapshot(table.games) == before


def test_submit_bid_not_above_the_high_bid(table: Table) -> None:
    _, first, now = bidding_table(table)
    before = snapshot(table.games)
    for amount in (5, 4):
        assert_error(table.submit(now, 3, [{"bid": amount}]),
                     f"order 'bid: {amount}': bid {amount} is not higher than the high bid of 5 by {first}")
    assert snapshot(table.games) == before


def test_submit_draw_beyond_three_cards(frozen: Table) -> None:
    # the second draw makes a lot of 3 cards, which opens the auction: the third draw is refused
    who = frozen.waiting()
    first_bidder = PLAYERS[(PLAYERS.index(who) + 1) % 3]
    assert_refused(frozen, frozen.submit(who, 1, ["draw", "draw", "draw"]),
                   f"order 3 ('draw'): after order 2 the decision is no longer yours "
                   f"(the game waits for {first_bidder}); nothing was applied")


def test_submit_second_order_no_longer_your_decision(frozen: Table) -> None:
    who = frozen.waiting()
    first_bidder = PLAYERS[(PLAYERS.index(who) + 1) % 3]
    assert_refused(frozen, frozen.submit(who, 1, ["auction", {"bid": 3}]),
                   f"order 2 ('bid: 3'): after order 1 the decision is no longer yours "
                   f"(the game waits for {first_bidder}); nothing was applied")


def test_submit_second_order_illegal(frozen: Table) -> None:
    who = frozen.waiting()
    assert_refused(frozen, frozen.submit(who, 1, ["draw", "pass"]),
                   "order 2 ('pass'): you are the auctioneer: send 'draw' or 'auction', not 'pass'; "
                   "nothing was applied")


def test_submit_to_a_finished_game(finished: dict[str, str], pbem: Any, tmp_path: Path) -> None:
    turn = pbem.show("m1")["turn"]
    path = tmp_path / "late.yaml"
    path.write_text(dump_yaml({"game": "m1", "player": "anna", "token": finished["anna"], "turn": turn,
                               "orders": ["pass"]}))
    before = snapshot(pbem.games)
    assert_error(pbem("submit", path), "game 'm1' is finished; it takes no more orders")
    assert snapshot(pbem.games) == before


@pytest.mark.parametrize("fault, message", [
    # several faults at once: the first check in the documented order wins
    ({"turn": 0, "game": "m9", "token": "bad"}, "the turn file is not valid:\n  - line 4, turn: must be at least 1, not 0"),
    ({"game": "m9", "player": "zed", "token": "bad", "turn": 7}, "there is no game 'm9'"),
    ({"player": "zed", "token": "bad", "turn": 7}, "game 'm1' has no player 'zed'"),
    ({"token": "bad", "turn": 7, "orders": ["pass"]}, "the token for '{who}' in game 'm1' is wrong"),
    ({"turn": 7, "orders": ["pass"]}, "your orders answer turn 7, but game 'm1' is only at turn 1"),
])
def test_submit_checks_in_order(frozen: Table, fault: dict[str, Any], message: str) -> None:
    who = frozen.waiting()
    entry = {"game": "m1", "player": who, "token": frozen.tokens[who], "turn": 1, "orders": ["draw"]}
    entry.update(fault)
    path = frozen.folder / "faulty.yaml"
    path.write_text(dump_yaml(entry))
    assert_refused(frozen, frozen.pbem("submit", path), message.format(who=who))


# -- pbem submit and advance: success ------------------------------------------------------------------

def test_submit_then_advance(table: Table) -> None:
    who = table.waiting()
    r = table.submit(who, 1, ["auction"])
    assert r.exit_code == 0, r.output
    assert r.stdout == f"Queued {who}'s orders for m1, turn 1: auction.\n"
    assert load_state(table.games)["engine"]["turn"] == 1  # only queued
    queued = list((table.games / "m1" / "queue").iterdir())
    assert len(queued) == 1
    assert table.tokens[who] not in queued[0].read_text()
    assert table.pbem.show("m1")["turn"] == 1

    r = table.pbem("advance")
    assert r.exit_code == 0, r.output
    assert game_lines(r.stdout) == f"m1: applied {who} auction\n"
    gm = table.pbem.show("m1")
    assert gm["turn"] == 2
    assert gm["view"]["phase"] == "bid"
    assert list((table.games / "m1" / "queue").iterdir()) == []
    assert load_state(table.games)["log"] == [
        {"turn": 1, "player": who, "order": "auction", "received": "2026-11-21T12:00:00Z"}]


def test_submit_several_orders_applies_them_all(table: Table) -> None:
    who = table.waiting()
    r = table.submit(who, 1, ["draw", "auction"])
    assert r.stdout == f"Queued {who}'s orders for m1, turn 1: draw; auction.\n"
    r = table.pbem("advance")
    assert game_lines(r.stdout) == f"m1: applied {who} draw, auction\n"
    gm = table.pbem.show("m1")
    assert gm["turn"] == 3
    assert len(gm["view"]["lot"]) == 2


def test_submit_from_standard_input(table: Table) -> None:
    who = table.waiting()
    text = dump_yaml({"game": "m1", "player": who, "token": table.tokens[who], "turn": 1, "orders": ["auction"]})
    r = table.pbem("submit", "-", input=text)
    assert r.exit_code == 0, r.output
    assert r.stdout == f"Queued {who}'s orders for m1, turn 1: auction.\n"


def test_resubmission_replaces_the_queued_orders(table: Table) -> None:
    who = table.waiting()
    assert table.submit(who, 1, ["draw"]).exit_code == 0
    r = table.submit(who, 1, ["auction"])
    assert r.exit_code == 0, r.output
    assert r.stdout == f"Queued {who}'s orders for m1, turn 1: auction (it replaces the orders queued before).\n"
    assert len(list((table.games / "m1" / "queue").iterdir())) == 1
    r = table.pbem("advance")
    assert game_lines(r.stdout) == f"m1: applied {who} auction\n"
    assert table.pbem.show("m1")["view"]["phase"] == "bid"


def test_a_refused_resubmission_keeps_the_queued_orders(table: Table) -> None:
    who = table.waiting()
    assert table.submit(who, 1, ["auction"]).exit_code == 0
    before = snapshot(table.games)
    assert table.submit(who, 1, ["pass"]).exit_code == 1
    assert snapshot(table.games) == before
    assert game_lines(table.pbem("advance").stdout) == f"m1: applied {who} auction\n"


def test_advance_with_nothing_queued(table: Table) -> None:
    before = snapshot(table.games)
    r = table.pbem("advance")
    assert r.exit_code == 0
    assert r.stdout == "m1: nothing to do\n"
    assert snapshot(table.games) == before


def test_advance_in_an_empty_games_dir(pbem: Any) -> None:
    assert pbem("init").exit_code == 0  # a games dir without games (`advance` refuses a folder that is none)
    r = pbem("advance")
    assert r.exit_code == 0
    assert r.stdout == f"No games in {pbem.games.resolve()}.\n"


def test_advance_writes_reports_and_one_commit_per_game(table: Table) -> None:
    tokens2 = table.pbem.new("m2")
    who1 = table.waiting()
    who2 = table.pbem.show("m2")["waiting_for"][0]
    assert table.submit(who1, 1, ["auction"]).exit_code == 0
    assert table.submit(who2, 1, ["auction"], game="m2", token=tokens2[who2]).exit_code == 0
    count = commit_count(table.games)

    r = table.pbem("advance")
    assert r.exit_code == 0, r.output
    assert game_lines(r.stdout) == f"m1: applied {who1} auction\nm2: applied {who2} auction\n"
    assert commit_count(table.games) == count + 2
    subjects = git(table.games, "log", "-2", "--format=%s").splitlines()
    assert subjects == [f"m2: turn 1: orders of {who2}", f"m1: turn 1: orders of {who1}"]
    for rev, game in (("HEAD", "m2"), ("HEAD~1", "m1")):
        changed = git(table.games, "show", "--name-only", "--format=", rev).split()
        assert changed and all(path.startswith(f"{game}/") for path in changed)
    m1_subjects = git(table.games, "log", "--format=%s", "--", "m1").splitlines()
    assert m1_subjects == [f"m1: turn 1: orders of {who1}", "m1: new medici game for anna, ben, cleo"]
    for game in ("m1", "m2"):
        for p in PLAYERS:
            names = sorted(f.name for f in (table.games / game / "reports" / p).iterdir())
            assert names == ["0001-turn-0001.txt", "0002-turn-0002.txt"]
    report = (table.games / "m1" / "reports" / table.waiting() / "0002-turn-0002.txt").read_text()
    assert report.startswith("YOUR MOVE\n")  # what he must do first, then the report's title
    assert f"\n\nMEDICI m1 - turn 2 - report for {table.waiting()}\n" in report
    assert git(table.games, "status", "--porcelain") == ""


def test_advance_refuses_a_queued_file_that_became_stale(table: Table) -> None:
    who = table.waiting()
    assert table.submit(who, 1, ["auction"]).exit_code == 0
    queued = next((table.games / "m1" / "queue").iterdir())
    copy = queued.read_bytes()
    assert table.pbem("advance").exit_code == 0
    # orders for turn 1 that were not applied (received at another moment) come back to the queue; the
    # same file back after a crash is recognised as applied and dropped (tests/test_crash.py)
    entry = yaml.safe_load(copy)
    entry["received"] = "2026-11-21T11:59:00Z"
    queued.write_text(dump_yaml(entry))
    engine = load_state(table.games)["engine"]
    reports = {p: sorted(f.name for f in (table.games / "m1" / "reports" / p).iterdir()) for p in PLAYERS}
    count = commit_count(table.games)

    r = table.pbem("advance")
    assert r.exit_code == 0, r.output
    message = "your orders answer turn 1, but game 'm1' is at turn 2: they are stale"
    assert game_lines(r.stdout) == f"m1: refused {who} (turn 1): {message}\n"
    state = load_state(table.games)
    assert state["engine"] == engine
    assert state["engine"]["turn"] == 2
    for p in PLAYERS:
        now = sorted(f.name for f in (table.games / "m1" / "reports" / p).iterdir())
        if p == who:
            new = [n for n in now if n not in reports[p]]
            assert new == ["0003-refused-turn-0001.txt"]
            text = (table.games / "m1" / "reports" / p / new[0]).read_text()
            assert message in text
            assert "were refused, and nothing in the game changed" in text
        else:
            assert now == reports[p]
    assert list((table.games / "m1" / "queue").iterdir()) == []
    assert [f.name for f in (table.games / "m1" / "rejected").iterdir()] == [queued.name]
    assert commit_count(table.games) == count + 1
    assert git(table.games, "log", "-1", "--format=%s") == "m1: turn 2\n"


def test_a_corrupt_game_is_skipped_and_the_others_advance(table: Table) -> None:
    tokens2 = table.pbem.new("m2")
    who2 = table.pbem.show("m2")["waiting_for"][0]
    assert table.submit(who2, 1, ["auction"], game="m2", token=tokens2[who2]).exit_code == 0
    (table.games / "m1" / "state.yaml").write_text("format: 1\ngame: [m1\n")

    r = table.pbem("advance")
    assert r.exit_code == 1
    assert isinstance(r.exception, SystemExit)
    assert game_lines(r.stdout) == f"m2: applied {who2} auction\n"
    assert r.stderr.startswith("m1: SKIPPED: ")
    assert "the state file is corrupt" in r.stderr
    assert r.stderr.endswith("\nError: 1 game skipped: m1\n")
    assert table.pbem.show("m2")["turn"] == 2
    assert git(table.games, "log", "-1", "--format=%s") == f"m2: turn 1: orders of {who2}\n"
    assert (table.games / "m1" / "state.yaml").read_text() == "format: 1\ngame: [m1\n"


def test_a_corrupt_state_file_is_reported_with_its_line(table: Table) -> None:
    (table.games / "m1" / "state.yaml").write_text("format: 1\ngame: [m1\n")
    r = table.pbem("show", "m1")
    assert r.exit_code == 1
    assert r.stderr.startswith("Error: m1: the state file is corrupt")
    assert re.search(r"line \d+", r.stderr), r.stderr


def test_a_state_file_of_another_format(table: Table) -> None:
    path = table.games / "m1" / "state.yaml"
    path.write_text(path.read_text().replace("format: 2\n", "format: 3\n", 1))
    assert_error(table.pbem("show", "m1"), "m1: state file format 3 is not one this pbem reads (1 or 2)")


# -- pbem status ---------------------------------------------------------------------------------------

def test_status_table(table: Table) -> None:
    who = table.waiting()
    assert table.submit(who, 1, ["draw"]).exit_code == 0
    r = table.pbem("status")
    assert r.exit_code == 0
    assert r.stdout.splitlines() == [
        "game             ruleset           turn  status    waiting for              since                 "
        "due                   queued",
        f"m1               medici               1  active    {who:<24} 2026-11-21T12:00:00Z  {'-':<21} 1",
    ]


def test_status_json(table: Table) -> None:
    who = table.waiting()
    table.pbem.new("m2")
    (table.games / "m2" / "state.yaml").write_text("[")
    r = table.pbem("status", "--json")
    assert r.exit_code == 0
    rows = json.loads(r.stdout)
    assert rows[0] == {"game": "m1", "ruleset": "medici", "turn": 1, "status": "active", "waiting_for": [who],
                       "since": "2026-11-21T12:00:00Z", "queued": 0, "deadline": "none", "due": None,
                       "needs_gm": None}
    assert rows[1]["game"] == "m2"
    assert set(rows[1]) == {"game", "error"}
    assert "the state file is corrupt" in rows[1]["error"]
    human = table.pbem("status").stdout.splitlines()
    assert human[2].startswith("m2               NEEDS THE GM: m2: the state file is corrupt")


def test_status_of_no_games(pbem: Any) -> None:
    assert pbem("init").exit_code == 0  # a games dir without games (`status` refuses a folder that is none)
    r = pbem("status")
    assert r.exit_code == 0
    assert r.stdout == f"No games in {pbem.games.resolve()}.\n"
    assert json.loads(pbem("status", "--json").stdout) == []


# -- pbem show -----------------------------------------------------------------------------------------

def test_show_unknown_game(table: Table) -> None:
    assert_error(table.pbem("show", "m9"), f"there is no game 'm9' in {table.games.resolve()}")
    assert_error(table.pbem("show", "m9", "--json"), f"there is no game 'm9' in {table.games.resolve()}")


def test_show_not_a_game_id(table: Table) -> None:
    assert_error(table.pbem("show", "../m1"), "'../m1' is not a game id")


def test_show_unknown_player(table: Table) -> None:
    assert_error(table.pbem("show", "m1", "--as", "zed"), "game 'm1' has no player 'zed'")
    assert_error(table.pbem("show", "m1", "--as", "zed", "--json"), "game 'm1' has no player 'zed'")


def test_show_json_contract_while_active(table: Table) -> None:
    who = table.waiting()
    gm = table.pbem.show("m1")
    assert set(gm) == {"game", "ruleset", "options", "turn", "status", "waiting_for", "waiting_since",
                       "seed_sha256", "view"}
    assert (gm["game"], gm["ruleset"], gm["turn"], gm["status"], gm["waiting_for"]) == (
        "m1", "medici", 1, "active", [who])
    assert "deck" in gm["view"]  # the GM sees what lies face down
    seen = table.pbem.show("m1", who)
    assert set(seen) == set(gm) | {"legal_orders", "standing"}
    assert seen["legal_orders"] == ["draw", "auction"]
    assert "deck" not in seen["view"] and "set_aside" not in seen["view"]
    assert seen["view"]["you"] == who
    other = next(p for p in PLAYERS if p != who)
    assert table.pbem.show("m1", other)["legal_orders"] == []
    assert "seed" not in seen and "result" not in seen
    assert "test-seed" not in json.dumps(seen) and "test-seed" not in json.dumps(gm)


def test_show_legal_orders_while_bidding(table: Table) -> None:
    table.play(table.waiting(), ["auction"])
    bidder = table.waiting()
    assert table.pbem.show("m1", bidder)["legal_orders"] == ["pass"] + [{"bid": n} for n in range(1, 41)]


def test_show_renders_a_report(table: Table) -> None:
    who = table.waiting()
    r = table.pbem("show", "m1", "--as", who)
    assert r.exit_code == 0
    assert r.stdout.startswith("YOUR MOVE\n  You are the auctioneer: draw another card, or put the lot up for\n")
    assert f"\n\nMEDICI m1 - turn 1 - report for {who}\n" in r.stdout
    assert "----- pbem orders begin -----" in r.stdout
    assert r.stdout.rstrip().endswith(json.loads(table.pbem("show", "m1", "--json").stdout)["seed_sha256"])
    gm = table.pbem("show", "m1")
    assert gm.stdout.startswith(f"WAITING FOR {who}\n\nMEDICI m1 - turn 1 - GM view\n")


def test_a_finished_game(finished: dict[str, str], pbem: Any) -> None:
    gm = pbem.show("m1")
    assert gm["status"] == "finished"
    assert gm["waiting_for"] == []
    assert gm["seed"] == "test-seed"
    assert hashlib.sha256(gm["seed"].encode()).hexdigest() == gm["seed_sha256"]
    standings = gm["result"]["standings"]
    assert sorted(r["player"] for r in standings) == sorted(PLAYERS)
    assert all(set(r) == {"player", "score", "rank"} for r in standings)
    assert [r["score"] for r in standings] == sorted((r["score"] for r in standings), reverse=True)
    assert standings[0]["rank"] == 1
    seen = pbem.show("m1", "anna")
    assert seen["legal_orders"] == []
    assert seen["result"] == gm["result"]
    text = pbem("show", "m1", "--as", "anna").stdout
    assert "FINAL STANDINGS" in text and "The seed was: test-seed" in text
    r = pbem("status", "--json")
    assert json.loads(r.stdout)[0]["status"] == "finished"


# -- pbem verify ---------------------------------------------------------------------------------------

def test_verify_a_good_game(finished: dict[str, str], pbem: Any) -> None:
    count = len(load_state(pbem.games)["log"])
    before = snapshot(pbem.games)
    r = pbem("verify", "m1")
    assert r.exit_code == 0, r.output
    assert r.stdout == f"m1: verified: {count} orders replay to the identical game.\n"
    assert snapshot(pbem.games) == before


def test_verify_a_new_game(table: Table) -> None:
    r = table.pbem("verify", "m1")
    assert r.exit_code == 0
    assert r.stdout == "m1: verified: 0 orders replay to the identical game.\n"


def test_verify_a_tampered_game(table: Table) -> None:
    table.play(table.waiting(), ["auction"])
    state = load_state(table.games)
    state["engine"]["money"]["anna"] += 1
    GamesDir(table.games).save("m1", state)
    before = snapshot(table.games)
    assert_error(table.pbem("verify", "m1"),
                 "m1: the replay does not match:\n"
                 "  - engine differs from the replay at .money.anna: stored 41, replayed 40")
    assert snapshot(table.games) == before


def test_verify_a_game_with_a_forged_log(table: Table) -> None:
    who = table.waiting()
    table.play(who, ["auction"])
    state = load_state(table.games)
    state["log"][0]["order"] = "draw"
    GamesDir(table.games).save("m1", state)
    r = table.pbem("verify", "m1")
    assert r.exit_code == 1
    assert r.stderr.startswith("Error: m1: the replay does not match:\n  - engine differs from the replay at ")


def test_verify_unknown_game(table: Table) -> None:
    assert_error(table.pbem("verify", "m9"), f"there is no game 'm9' in {table.games.resolve()}")


# -- where the games live ------------------------------------------------------------------------------

def test_the_games_dir_from_the_environment(tmp_path: Path) -> None:
    games = tmp_path / "elsewhere"
    runner = CliRunner()
    env = {"PBEM_GAMES_DIR": str(games)}
    r = runner.invoke(pbem_main, ["new", "medici", "m1", *GOOD, "--json"], env=env)
    assert r.exit_code == 0, r.output
    assert (games / "m1" / "state.yaml").is_file()
    r = runner.invoke(pbem_main, ["status", "--json"], env=env)
    assert [row["game"] for row in json.loads(r.stdout)] == ["m1"]
    # --games-dir wins over the environment
    other = tmp_path / "other"
    assert runner.invoke(pbem_main, ["init", "--games-dir", str(other)], env=env).exit_code == 0
    r = runner.invoke(pbem_main, ["status", "--json", "--games-dir", str(other)], env=env)
    assert json.loads(r.stdout) == []


def test_a_games_dir_inside_another_repository_is_a_repository_of_its_own(tmp_path: Path) -> None:
    outer = tmp_path / "project"
    outer.mkdir()
    subprocess.run(["git", "init", "-q", str(outer)], check=True)
    games = outer / "games"
    r = CliRunner().invoke(pbem_main, ["new", "medici", "m1", *GOOD, "--games-dir", str(games)])
    assert r.exit_code == 0, r.output
    assert git(games, "rev-parse", "--show-toplevel").strip() == str(games.resolve())
    assert git(games, "log", "--format=%s").splitlines()[0] == "m1: new medici game for anna, ben, cleo"
    # the enclosing checkout got no commit
    outer_log = subprocess.run(["git", "log"], cwd=outer, capture_output=True, text=True)
    assert outer_log.returncode != 0  # no commits at all
    assert (games / ".gitignore").read_text() == (".pbem.lock\n*/queue/\n.*.tmp\nmail/*\n/*/state.yaml\n/*/events.yaml\n"
                                                   "/*/log.yaml\n/*/reports/\n/*/rejected/\n!/lobby/*.yaml\n")


def test_every_command_takes_games_dir(pbem: Any) -> None:
    for command in ("new", "submit", "advance", "status", "show", "verify"):
        r = pbem.runner.invoke(pbem_main, [command, "--help"])
        assert r.exit_code == 0
        assert "--games-dir" in r.stdout, command


def test_version_and_rulesets(pbem: Any) -> None:
    r = pbem.runner.invoke(pbem_main, ["--version"])
    assert r.exit_code == 0 and "0.1.0" in r.stdout
    r = pbem.runner.invoke(pbem_main, ["rulesets"])
    assert r.exit_code == 0
    assert r.stdout == "".join(f"{game:<16} {need(game, 'LISTED')}\n" for game in GAMES)



def test_a_run_over_many_games_lists_only_what_happened(pbem: Any) -> None:
    """From cron over many games: a game with nothing to do is not listed; a run that did nothing
    says so in one line."""
    for game in ("m1", "m2", "m3"):
        pbem.new(game)
    r = pbem("advance")
    assert r.exit_code == 0, r.output
    assert r.stdout == "nothing to do in 3 games\n"


def test_advance_quiet_prints_only_what_needs_the_gm(pbem: Any, tmp_path: Path) -> None:
    tokens = pbem.new("m1")
    first = pbem.show("m1")["waiting_for"][0]
    path = tmp_path / "t.yaml"
    path.write_text(f"game: m1\nplayer: {first}\ntoken: {tokens[first]}\nturn: 1\norders: [draw]\n")
    assert pbem("submit", str(path)).exit_code == 0
    r = pbem("advance", "--quiet")
    assert r.exit_code == 0, r.output
    assert r.stdout == "" and r.stderr == ""
    assert pbem.show("m1")["turn"] == 2
    (pbem.games / "m1" / "state.yaml").write_text("format: [")
    r = pbem("advance", "-q")
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr.splitlines()[0].startswith("m1: SKIPPED: the state file is corrupt")
    assert r.stderr.splitlines()[-1] == "Error: 1 game skipped: m1"
