"""What outside testing found at the command line: seeds that can be guessed, the GM's own
address as a player's, a broken PBEM_NOW, numbers that only look whole, keys that are collections,
malformed option values, a paused game's orders and a seat handed to a newcomer.

Every refusal is asserted with its exact message and exit code, and changes nothing.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from helpers import Pbem, assert_error, assert_usage_error, player_args, snapshot

GOOD = player_args("anna", "ben", "cleo")
STRONG = "a-seed-of-twenty-chars"


def new(pbem: Pbem, *extra: str, game: str = "m1") -> dict[str, str]:
    r = pbem("new", "medici", game, *GOOD, "--seed", STRONG, "--json", *extra)
    assert r.exit_code == 0, r.output
    return {p["name"]: p["token"] for p in json.loads(r.stdout)["players"]}


def turnfile(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "turn.yaml"
    path.write_text(text, "utf-8")
    return path


# -- seeds ------------------------------------------------------------------------------------------

def weak(seed: str) -> str:
    return (f"the seed {seed!r} is weak: a seed of {len(seed)} characters can be guessed from the sha256 every "
            f"report carries, and with it every shuffle of the game; use at least 16 characters or leave "
            f"--seed out, or pass --weak-seed if that is meant (tests, demos)")


def test_a_short_seed_is_refused_and_nothing_is_made(pbem: Pbem) -> None:
    assert_error(pbem("new", "medici", "m1", *GOOD, "--seed", "hello"),
                 "the seed 'hello' is weak: a seed of 5 characters can be guessed from the sha256 every report "
                 "carries, and with it every shuffle of the game; use at least 16 characters or leave --seed "
                 "out, or pass --weak-seed if that is meant (tests, demos)")
    assert not pbem.games.exists()  # not even the games dir


@pytest.mark.parametrize("seed", ["hello", "x" * 15, "1"])
def test_a_short_seed_is_refused_in_a_games_dir_with_games(pbem: Pbem, seed: str) -> None:
    new(pbem)
    before = snapshot(pbem.games)
    assert_error(pbem("new", "medici", "m2", *GOOD, "--seed", seed), weak(seed))
    assert not (pbem.games / "m2").exists()
    assert snapshot(pbem.games) == before  # no file and no commit


@pytest.mark.parametrize("seed", [["--seed", "hello", "--weak-seed"], ["--seed", "x" * 16], []],
                         ids=["short-with-weak-seed", "sixteen-characters", "no-seed"])
def test_a_strong_seed_weak_seed_or_no_seed_is_accepted_without_a_word(pbem: Pbem, seed: list[str]) -> None:
    r = pbem("new", "medici", "m1", *GOOD, *seed)
    assert r.exit_code == 0, r.output
    assert r.stderr == ""
    assert r.stdout.startswith("New Medici game 'm1' in ")
    assert (pbem.games / "m1" / "state.yaml").is_file()
    if seed[:1] == ["--seed"]:
        state = pbem.games / "m1" / "state.yaml"
        assert f"seed: {seed[1]}\n" in state.read_text()


def test_without_a_seed_pbem_draws_one_no_one_can_guess(pbem: Pbem) -> None:
    new(pbem)
    r = pbem("new", "medici", "m2", *GOOD, "--json")
    state = pbem.games / "m2" / "state.yaml"
    seed = next(line for line in state.read_text().splitlines() if line.startswith("seed: "))[6:]
    assert r.exit_code == 0 and len(seed.strip("'\"")) >= 16


# -- the GM's own address ---------------------------------------------------------------------------

def init(pbem: Pbem, address: str = "gm@example.org") -> None:
    r = pbem("init", "--address", address)
    assert r.exit_code == 0, r.output


def test_a_player_with_the_gms_address_is_refused(pbem: Pbem) -> None:
    init(pbem)
    before = snapshot(pbem.games)
    r = pbem("new", "medici", "m1", *player_args("anna", "ben"), "--player", "cleo=GM@example.org",
             "--seed", STRONG)
    assert_error(r, "'GM@example.org' (player cleo) is the GM's own address in pbem.yaml; pbem sets mail "
                    "from it aside, so cleo could never send orders by mail")
    assert snapshot(pbem.games) == before


def test_a_newcomer_with_the_gms_address_is_refused(pbem: Pbem) -> None:
    init(pbem)
    new(pbem)
    before = snapshot(pbem.games)
    assert_error(pbem("replace", "m1", "cleo", "dora=gm@example.org"),
                 "'gm@example.org' (player dora) is the GM's own address in pbem.yaml; pbem sets mail "
                 "from it aside, so dora could never send orders by mail")
    assert snapshot(pbem.games) == before


def test_init_refuses_an_address_a_player_has(pbem: Pbem) -> None:
    new(pbem)
    before = snapshot(pbem.games)
    assert_error(pbem("init", "--address", "ben@example.org"),
                 "'ben@example.org' (player ben) is the GM's own address in pbem.yaml; pbem sets mail "
                 "from it aside, so ben could never send orders by mail")
    assert snapshot(pbem.games) == before


def test_init_warns_about_games_begun_before_it(pbem: Pbem) -> None:
    new(pbem)
    new(pbem, game="m2")
    r = pbem("init", "--address", "gm@example.org")
    assert r.exit_code == 0, r.output
    assert r.stderr == ("Warning: m1, m2 began before pbem.yaml: their players' mail so far came from "
                        "pbem@localhost, which they cannot answer; their next report comes from the new "
                        "address.\n")


def test_init_in_an_empty_games_dir_gives_no_warning(pbem: Pbem) -> None:
    r = pbem("init", "--address", "gm@example.org")
    assert r.exit_code == 0 and r.stderr == ""


# -- the environment --------------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["yesterday", "2026-13-01", "12:00"])
@pytest.mark.parametrize("command", [["status"], ["advance"], ["show", "m1"], ["rulesets"]])
def test_a_broken_pbem_now_is_one_line(pbem: Pbem, monkeypatch: pytest.MonkeyPatch, value: str,
                                       command: list[str]) -> None:
    new(pbem)
    before = snapshot(pbem.games)
    monkeypatch.setenv("PBEM_NOW", value)
    r = pbem(*command)
    assert_error(r, f"PBEM_NOW={value!r} is not a time in ISO 8601 form (such as 2026-11-24T18:00:00Z); "
                    f"unset it to use the clock")
    assert snapshot(pbem.games) == before


def test_pbem_now_without_a_zone_is_utc(pbem: Pbem, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_NOW", "2026-11-24T18:00:00")
    new(pbem)
    assert pbem.show()["waiting_since"] == "2026-11-24T18:00:00Z"


# -- numbers and keys in turn files ------------------------------------------------------------------

def test_a_turn_that_only_looks_whole_is_refused_at_once(pbem: Pbem, tmp_path: Path) -> None:
    tokens = new(pbem)
    before = snapshot(pbem.games)
    path = turnfile(tmp_path, f"game: m1\nplayer: anna\ntoken: {tokens['anna']}\nturn: 1.0\norders: [draw]\n")
    assert_error(pbem("submit", str(path)),
                 "the turn file is not valid:\n  - line 4, turn: must be a whole number (the turn your orders answer) or 'next', not 1.0")
    assert snapshot(pbem.games) == before


def test_a_bid_that_only_looks_whole_is_refused(pbem: Pbem, tmp_path: Path) -> None:
    tokens = new(pbem)
    for player, orders in ((pbem.show()["waiting_for"][0], "[draw, auction]"),):
        path = turnfile(tmp_path, f"game: m1\nplayer: {player}\ntoken: {tokens[player]}\nturn: 1\norders: {orders}\n")
        assert pbem("submit", str(path)).exit_code == 0
    assert pbem("advance").exit_code == 0
    waiting = pbem.show()["waiting_for"][0]
    turn = pbem.show()["turn"]
    before = snapshot(pbem.games)
    path = turnfile(tmp_path, f"game: m1\nplayer: {waiting}\ntoken: {tokens[waiting]}\nturn: {turn}\n"
                              f"orders:\n  - bid: 2.0\n")
    assert_error(pbem("submit", str(path)),
                 "the turn file is not valid:\n  - line 6, orders[0].bid: must be a whole number, not 2.0")
    assert snapshot(pbem.games) == before


def test_a_list_as_a_key_is_refused_by_submit(pbem: Pbem, tmp_path: Path) -> None:
    new(pbem)
    before = snapshot(pbem.games)
    path = turnfile(tmp_path, "[a]: b\n")
    assert_error(pbem("submit", str(path)),
                 "the turn file, line 1: a list cannot be a key; keys are plain words such as 'orders'")
    assert snapshot(pbem.games) == before


def test_a_list_as_a_key_is_refused_in_a_deck_file(pbem: Pbem, tmp_path: Path) -> None:
    deck = tmp_path / "deck.yaml"
    deck.write_text("days:\n  - [dyes-5]\n[a]: b\n")
    assert_error(pbem("new", "medici", "m1", *GOOD, "--deck", str(deck)),
                 f"the deck file {str(deck)!r}, line 3: a list cannot be a key; keys are plain words "
                 f"such as 'orders'")
    assert not pbem.games.exists()


# -- the GM's commands ------------------------------------------------------------------------------

def test_set_refuses_malformed_durations_as_usage_errors(pbem: Pbem) -> None:
    new(pbem)
    before = snapshot(pbem.games)
    assert_usage_error(pbem("set", "m1", "--deadline", "soon"),
                       "Invalid value for '--deadline': 'soon' is not a duration such as 48h, 2d, 90m or 1w")
    assert snapshot(pbem.games) == before


def test_replace_refuses_a_malformed_newcomer_as_a_usage_error(pbem: Pbem) -> None:
    new(pbem)
    before = snapshot(pbem.games)
    assert_usage_error(pbem("replace", "m1", "cleo", "dora"), "Invalid value for 'NEW=EMAIL': 'dora' is not NAME=EMAIL")
    assert_usage_error(pbem("replace", "m1", "cleo", "dora=nowhere"),
                       "Invalid value for 'NEW=EMAIL': 'nowhere' (player dora) is not an email address")
    assert snapshot(pbem.games) == before


def sent_mail(games: Path) -> list[email.message.EmailMessage]:
    outbox = games / "mail" / "outbox"
    return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)  # type: ignore[misc]
            for p in sorted(outbox.iterdir())]


def test_a_newcomer_gets_his_welcome_first_and_no_report_before_it(pbem: Pbem) -> None:
    new(pbem)
    before = {m["Message-ID"] for m in sent_mail(pbem.games)}
    r = pbem("replace", "m1", "cleo", "dora=dora@example.org", "--json")
    assert r.exit_code == 0, r.output
    token = json.loads(r.stdout)["token"]
    fresh = [m for m in sent_mail(pbem.games) if m["Message-ID"] not in before]
    to_dora = [m for m in fresh if m["To"].addresses[0].addr_spec == "dora@example.org"]
    assert len(to_dora) == 1  # the welcome, and it holds the report
    welcome = to_dora[0]
    assert "welcome to Medici" in welcome["Subject"]
    text = welcome.get_body(("plain",)).get_content()
    assert token in text and "dora takes over the seat 'cleo' from cleo." in text
    # the others hear of her, and never see her token
    others = [m for m in fresh if m not in to_dora]
    assert {m["To"].addresses[0].addr_spec for m in others} == {"anna@example.org", "ben@example.org"}
    assert all(token not in m.get_body(("plain",)).get_content() for m in others)
    state = (pbem.games / "m1" / "state.yaml").read_text()
    assert hashlib.sha256(token.encode()).hexdigest() in state and token not in state


def test_orders_sent_to_a_paused_game_wait_in_the_queue(pbem: Pbem, tmp_path: Path) -> None:
    tokens = new(pbem)
    first = pbem.show()["waiting_for"][0]
    assert pbem("pause", "m1").exit_code == 0
    path = turnfile(tmp_path, f"game: m1\nplayer: {first}\ntoken: {tokens[first]}\nturn: 1\norders: [draw]\n")
    r = pbem("submit", str(path))
    assert r.exit_code == 0, r.output
    assert r.stdout == (f"Queued {first}'s orders for m1, turn 1: draw.\n"
                        "m1 is paused by the GM: they are applied when it resumes.\n")
    assert pbem("advance").stdout.startswith("m1: nothing to do")
    assert pbem.show()["turn"] == 1
    assert pbem("resume", "m1").exit_code == 0
    r = pbem("advance")
    assert r.stdout.startswith(f"m1: applied {first} draw"), r.output
    assert pbem.show()["turn"] == 2


def test_a_paused_game_still_refuses_an_illegal_order(pbem: Pbem, tmp_path: Path) -> None:
    tokens = new(pbem)
    first = pbem.show()["waiting_for"][0]
    assert pbem("pause", "m1").exit_code == 0
    before = snapshot(pbem.games)
    path = turnfile(tmp_path, f"game: m1\nplayer: {first}\ntoken: {tokens[first]}\nturn: 1\norders: [{{bid: 3}}]\n")
    assert_error(pbem("submit", str(path)),
                 "order 'bid: 3': you are the auctioneer: send 'draw' or 'auction', not 'bid: 3'")
    assert snapshot(pbem.games) == before


@pytest.mark.parametrize("content, message", [
    (b"gm:\n  name: \xff\n", "the configuration '{path}' is not UTF-8 text (byte 12)"),
    (b"max_mail_bytes: 2000.0\n", "{path} is not valid:\n  - line 1, max_mail_bytes: must be a whole number, not 2000.0"),
    (b"- gm\n", "{path} is not valid:\n  - line 1, the top level: must be a mapping (key: value), not a list"),
    (b"[gm]: x\n", "the configuration '{path}', line 1: a list cannot be a key; keys are plain words such as 'orders'"),
])
def test_a_broken_pbem_yaml_is_one_clear_error(pbem: Pbem, content: bytes, message: str) -> None:
    new(pbem)
    path = pbem.games.resolve() / "pbem.yaml"
    path.write_bytes(content)
    before = snapshot(pbem.games)
    assert_error(pbem("advance"), message.format(path=path))
    assert snapshot(pbem.games) == before


def test_a_game_id_or_player_name_with_a_trailing_newline_is_refused(pbem: Pbem) -> None:
    """A name ending in a newline would pass a pattern ending in Python's `$`."""
    assert_error(pbem("new", "medici", "m1\n", *GOOD),
                 "'m1\\n' is not a game id (lower-case letters, digits, '-' and '_', at most 40, starting "
                 "with a letter or digit)")
    assert_usage_error(pbem("new", "medici", "m1", "--player", "anna\n=anna@example.org", *player_args("ben", "cleo")),
                       "Invalid value for '--player': player name 'anna\\n' must be lower-case letters, digits, "
                       "'-' or '_', starting with a letter, at most 24 characters")
    assert not pbem.games.exists()


def test_new_refuses_the_id_of_a_game_whose_state_file_is_lost(pbem: Pbem) -> None:
    new(pbem)
    (pbem.games / "m1" / "state.yaml").unlink()
    r = pbem("new", "medici", "m1", *GOOD, "--seed", STRONG)
    assert_error(r, f"game 'm1' already exists in {pbem.games.resolve()}")
