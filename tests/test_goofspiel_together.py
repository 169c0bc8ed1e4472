"""Decisions of several players at once, through the whole pipeline, with Goofspiel (tests/goofspiel/),
a game of simultaneous secret bids that lives outside pbem/ and is registered for the tests alone
(`PBEM_RULESETS`, set in conftest.py).

A round is one decision of every player: it keeps its turn and its clock until the last bid is in;
a bid is its bidder's alone until then (he gets an acknowledgement, the others nothing); the deadline
substitutes every late bidder at once; the archive has one page a round with every bid of it.
"""

from __future__ import annotations

import email
import email.policy
import json
import os
import re
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

import helpers
from conftest_mail import FilesOut, MaildirDrop, MailGames, player_mail, player_of, recipient
from helpers import Table, git, load_game, play_decision, play_engine_game, play_moves, seed_args
from pbem import bots
from pbem.errors import IllegalOrder, SetupError
from pbem.rng import Rng
from pbem.rules.base import OWN, files_of, get_ruleset, outside_rulesets

PLAYERS = ("anna", "ben", "cleo")
T0 = datetime(2026, 11, 21, 12, tzinfo=timezone.utc)  # the conftest clock


def at(monkeypatch: pytest.MonkeyPatch, hours: float) -> str:
    """Move the clock to `hours` after T0; returns the time as pbem writes it."""
    moment = T0 + timedelta(hours=hours)
    monkeypatch.setenv("PBEM_NOW", moment.isoformat())
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def read_mail(path: Path) -> EmailMessage:
    return email.message_from_bytes(path.read_bytes(), policy=email.policy.default)  # type: ignore[return-value]


def body(msg: EmailMessage) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def goofspiel(pbem: Any, tmp_path: Path, *extra: str, seed: str = "together-seed", game: str = "g1",
              players: tuple[str, ...] = PLAYERS) -> Table:
    t = Table(pbem, tmp_path / f"turns-{game}", game, ruleset="goofspiel")
    t.folder.mkdir(parents=True, exist_ok=True)
    t.create(players, seed, "--option", "cards=5", *extra)
    return t


def bot_bids(t: Table) -> dict[str, list[Any]]:
    """The bot's bid of every player the round waits for, from what `show --as` gives each."""
    out = {}
    for player in t.show()["waiting_for"]:
        seen = t.show(player)
        out[player] = [bots.choose("goofspiel", seen["view"], player, seen["legal_orders"])]
    return out


def reports(games: Path, game: str, player: str) -> list[str]:
    folder = games / game / "reports" / player
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


# -- the game and its registration ------------------------------------------------------------------------

def test_a_game_outside_pbem_is_registered_by_the_environment() -> None:
    found, problems = outside_rulesets("goofspiel=goofspiel, other=my.games.other")
    assert found == {"goofspiel": "goofspiel", "other": "my.games.other"} and problems == []
    found, problems = outside_rulesets("medici=my.medici nonsense x=1bad")
    assert found == {}
    assert problems == [
        "PBEM_RULESETS: the ruleset 'medici' is named twice or is one of pbem's own",
        "PBEM_RULESETS: 'nonsense' is not NAME=MODULE (such as goofspiel=mygames.goofspiel)",
        "PBEM_RULESETS: 'x=1bad' is not NAME=MODULE (such as goofspiel=mygames.goofspiel)"]
    # its files are in its own folder; pbem's own games and common files in pbem's
    here = Path(__file__).parent / "goofspiel"
    assert files_of("goofspiel", "templates") == here / "templates"
    assert files_of("goofspiel", "schemas") == here / "schemas"
    assert files_of("medici", "templates") is None and files_of("common", "templates") is None


def test_the_cli_in_a_process_of_its_own_hosts_the_game(tmp_path: Path) -> None:
    """The variable conftest.py sets reaches a `pbem` started as a process, as a GM's setting would."""
    r = subprocess.run([sys.executable, "-m", "pbem", "rulesets"], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "goofspiel        Goofspiel, 2-4 players (cards: 13|8|5)\n" in r.stdout
    env = dict(os.environ, PBEM_RULESETS="goofspiel=nowhere.goofspiel")
    r = subprocess.run([sys.executable, "-m", "pbem", "new", "goofspiel", "g1", "--player", "anna=a@example.org",
                        "--player", "ben=b@example.org", "--games-dir", str(tmp_path / "games")],
                       capture_output=True, text=True, cwd=tmp_path, env=env)
    assert r.returncode == 1
    assert r.stderr == ("Error: the ruleset 'goofspiel' (PBEM_RULESETS) cannot be imported from "
                        "'nowhere.goofspiel': No module named 'nowhere'\n")
    assert not (tmp_path / "games" / "g1").exists()
    # `pbem rulesets` lists the games that load, and names what is wrong with the GM's setting
    env["PBEM_RULESETS"] = "goofspiel=nowhere.goofspiel, dice"
    r = subprocess.run([sys.executable, "-m", "pbem", "rulesets"], capture_output=True, text=True, cwd=tmp_path,
                       env=env)
    assert r.returncode == 1
    assert [line.split()[0] for line in r.stdout.splitlines()] == sorted(OWN)
    assert r.stderr == ("Error: PBEM_RULESETS: 'dice' is not NAME=MODULE (such as goofspiel=mygames.goofspiel); "
                        "the ruleset 'goofspiel' (PBEM_RULESETS) cannot be imported from 'nowhere.goofspiel': "
                        "No module named 'nowhere'\n")


def test_a_round_keeps_its_turn_until_the_last_bid_and_a_tie_wins_nothing() -> None:
    rules = get_ruleset("goofspiel")
    rng = Rng("engine-seed")
    state, events = rules.setup(list(PLAYERS), {"cards": "5"}, rng, {"prizes": [4, 2]})
    assert events == [{"type": "prize", "round": 1, "card": 4}]
    assert rules.decision(state).players == PLAYERS
    # a bid is its bidder's event alone; the decision waits for the others, at the same turn
    assert play_moves(rules, state, rng, ("ben", {"bid": 3})) == [
        {"type": "bid_sent", "player": "ben", "card": 3, "to": ["ben"]}]
    assert rules.decision(state).players == ("anna", "cleo") and state["turn"] == 1
    assert rules.view(state, "anna").get("your_bid") is None and "bids" not in rules.view(state, "anna")
    # nor does ben's hand tell it: to the others his bid is still a card of his hand, face down
    for viewer in ("anna", "cleo", ""):
        assert rules.view(state, viewer)["players"][1]["hand"] == [1, 2, 3, 4, 5]
    assert rules.view(state, "ben")["players"][1]["hand"] == [1, 2, 4, 5]
    assert rules.view(state, None)["players"][1]["hand"] == [1, 2, 4, 5] and rules.view(state, None)["bids"] == {"ben": 3}
    assert rules.view(state, "ben")["your_bid"] == 3
    with pytest.raises(IllegalOrder) as exc:
        rules.apply(state, "ben", {"bid": 4}, rng)
    assert str(exc.value) == "you have chosen already; the decision is settled when anna, cleo have chosen too"
    events = play_decision(rules, state, rng, {"anna": {"bid": 5}, "cleo": {"bid": 5}})
    assert events[-2:] == [
        {"type": "round", "round": 1, "prize": 4, "bids": {"anna": 5, "ben": 3, "cleo": 5}, "winner": None},
        {"type": "prize", "round": 2, "card": 2}]
    assert state["set_aside"] == [4] and state["turn"] == 2 and rules.decision(state).players == PLAYERS
    play_decision(rules, state, rng, {"cleo": {"bid": 1}, "anna": {"bid": 2}, "ben": {"bid": 1}})
    assert state["won"]["anna"] == [2]
    with pytest.raises(IllegalOrder) as exc:
        rules.apply(state, "anna", {"bid": 5}, rng)
    assert str(exc.value) == "you have no card 5 (your cards: 1 3 4)"


class Follower:
    """Goofspiel's invariants along a game: every card bid once, the prizes' points all accounted for."""

    def __init__(self, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
        self.n = state["cards"]

    def after_order(self, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
        for p, hand in state["hands"].items():
            assert len(hand) + (p in state["bids"]) == self.n - state["round"] + 1 or state["prize"] is None

    def at_end(self, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
        won = sum(sum(w) for w in state["won"].values()) + sum(state["set_aside"])
        assert won == self.n * (self.n + 1) // 2
        assert all(hand == [] for hand in state["hands"].values())


@pytest.mark.parametrize("players", [("anna", "ben"), PLAYERS, ("anna", "ben", "cleo", "dora")])
def test_whole_engine_games_of_bots(players: tuple[str, ...]) -> None:
    rules = get_ruleset("goofspiel")

    def choose(state: dict[str, Any], player: str, legal: list[Any]) -> Any:
        return bots.choose("goofspiel", rules.view(state, player), player, legal)
    state, events, orders = play_engine_game(rules, list(players), {"cards": "8"}, "bots-" + str(len(players)),
                                             choose, Follower, part="round", refuse_every=3)
    assert orders == 8 * len(players)
    assert [e["round"] for e in events if e["type"] == "round"] == list(range(1, 9))


# -- a whole game through the CLI ------------------------------------------------------------------------

def play_to_the_end(t: Table) -> None:
    while t.show()["status"] == "active":
        t.play_decision(bot_bids(t))


def test_a_whole_game_by_turn_files_verifies_and_archives_one_page_a_round(pbem: Any, tmp_path: Path) -> None:
    t = goofspiel(pbem, tmp_path)
    since = t.state()["waiting_since"]
    # round 1 with an advance after each bid: the turn and its clock stay until the last bid
    t.play_decision(bot_bids(t), advance_each=True)
    assert t.turn() == 2 and t.show()["waiting_for"] == list(PLAYERS)
    play_to_the_end(t)
    state = t.state()
    assert state["status"] == "finished" and len(state["log"]) == 15
    assert [e["turn"] for e in state["log"]] == [n for n in range(1, 6) for _ in PLAYERS]
    assert since == state["created"]
    r = pbem("verify", "g1")
    assert r.exit_code == 0, r.output
    assert r.stdout == "g1: verified: 15 orders replay to the identical game.\n"

    site = tmp_path / "site"
    r = pbem("archive", "--out", site)
    assert r.exit_code == 0, r.output
    pages = sorted(p.name for p in (site / "g1").glob("turn-*.html"))
    assert pages == [f"turn-{n:04d}.html" for n in range(6)]  # the start and one a round
    for n in range(6):
        html = (site / "g1" / f"turn-{n:04d}.html").read_text("utf-8")
        prev = re.findall(r'<a rel="prev" href="([^"]+)"', html)
        nxt = re.findall(r'<a rel="next" href="([^"]+)"', html)
        assert prev == ([f"turn-{n - 1:04d}.html"] * 2 if n else [])
        assert nxt == ([f"turn-{n + 1:04d}.html"] * 2 if n < 5 else [])
        if n:  # every bid of the round, each by its bidder
            assert f'<p class="decision">Turn {n}: anna, ben, cleo decided.</p>\n<ul class="orders">' in html
            orders = re.findall(r"<li>(\w+) ordered <code>bid: (\d+)</code></li>", html)
            bids = {e["player"]: str(e["order"]["bid"]) for e in state["log"] if e["turn"] == n}
            assert dict(orders) == bids and [p for p, _ in orders] == [e["player"] for e in state["log"]
                                                                        if e["turn"] == n]
    log = (site / "g1" / "game.yaml").read_text("utf-8")
    r = pbem("verify", "--log", site / "g1" / "game.yaml")
    assert r.exit_code == 0, (r.output, log[:300])


def test_the_archive_of_a_running_game_has_no_page_for_a_round_still_open(pbem: Any, tmp_path: Path) -> None:
    t = goofspiel(pbem, tmp_path)
    t.play_decision(bot_bids(t))
    bid = bot_bids(t)
    first = next(iter(bid))
    assert t.submit(first, 2, bid[first]).exit_code == 0
    assert pbem("advance").exit_code == 0
    site = tmp_path / "site"
    assert pbem("archive", "--out", site).exit_code == 0
    assert sorted(p.name for p in (site / "g1").glob("turn-*.html")) == ["turn-0000.html", "turn-0001.html"]
    page = (site / "g1" / "turn-0001.html").read_text("utf-8")
    assert "Turn 1: anna, ben, cleo decided." in page and " ordered " not in page  # who, not what, while it runs
    assert 'rel="next"' not in page


def test_a_bid_is_its_bidders_alone_until_the_round_is_settled(pbem: Any, tmp_path: Path) -> None:
    t = goofspiel(pbem, tmp_path)
    games = t.games
    before = {p: reports(games, "g1", p) for p in PLAYERS}
    assert t.submit("anna", 1, [{"bid": 4}]).exit_code == 0
    r = pbem("advance")
    assert r.exit_code == 0, r.output
    # nobody gets a report: anna's acknowledgement is `pbem submit`'s answer (by mail: the answer to her mail)
    assert {p: reports(games, "g1", p) for p in PLAYERS} == before
    # nobody else may see it: not ben's view, not the commit, not the public file git holds
    for who in ("ben", "cleo"):
        seen = t.show(who)
        assert "your_bid" in seen["view"] and seen["view"]["your_bid"] is None
        assert "bid: 4" not in json.dumps(seen) and '"bids"' not in json.dumps(seen)
        assert seen["view"]["players"][0]["hand"] == [1, 2, 3, 4, 5]  # her bid is face down in her hand
    assert t.show("anna")["view"]["players"][0]["hand"] == [1, 2, 3, 5]
    assert t.show()["view"]["players"][0]["hand"] == [1, 2, 3, 5]  # the GM's view
    assert git(games, "log", "-1", "--format=%B") == ("g1: turn 1: orders of anna\n\n"
                                                      "Now turn 1, waiting for ben, cleo.\n\n")
    assert "bid" not in (games / "g1" / "public.yaml").read_text("utf-8")
    status = pbem("status", "--json")
    assert status.exit_code == 0 and json.loads(status.stdout)[0]["waiting_for"] == ["ben", "cleo"]
    assert t.submit("ben", 1, [{"bid": 2}]).exit_code == 0
    assert pbem("advance").exit_code == 0
    assert {p: reports(games, "g1", p) for p in PLAYERS} == before
    # the last bid settles the round: a report to every player, every bid in it
    assert t.submit("cleo", 1, [{"bid": 1}]).exit_code == 0
    assert pbem("advance").exit_code == 0
    for p in PLAYERS:
        latest = (games / "g1" / "reports" / p / reports(games, "g1", p)[-1]).read_text("utf-8")
        assert "the bids anna 4, ben 2, cleo 1." in " ".join(latest.split())
        assert [line.split("] ", 1)[1] for line in latest.splitlines() if "in secret" in line] == (  # his own bid
            {"anna": ["anna bids 4 in secret."], "ben": ["ben bids 2 in secret."], "cleo": []}[p])  # alone


def test_a_second_bid_of_the_same_bidder_is_refused_and_changes_nothing(pbem: Any, tmp_path: Path) -> None:
    t = goofspiel(pbem, tmp_path)
    assert t.submit("anna", 1, [{"bid": 4}]).exit_code == 0
    assert pbem("advance").exit_code == 0
    before = t.state_bytes()
    r = t.submit("anna", 1, [{"bid": 5}])
    assert r.exit_code == 1
    assert r.stderr == ("Error: your orders for turn 1 of game 'g1' are in already; the game waits for ben, "
                        "cleo to send theirs\n")
    assert t.state_bytes() == before
    # by mail, in the bidder's language: the same refusal, by its id
    from pbem.errors import StaleTurn
    from pbem.game import check_turn
    from pbem.report import refusal_text
    with pytest.raises(StaleTurn) as refused:
        check_turn(t.state(), "anna", 1)
    assert refused.value.refusal.msg == "decided-already" and str(refused.value) == r.stderr[7:-1]
    assert refusal_text(refused.value.refusal, "de", "goofspiel") == (
        "deine Befehle für Zug 1 der Partie 'g1' sind schon da; die Partie wartet noch auf die Befehle von ben, cleo")


def test_reports_in_german_and_dutch_from_the_games_own_catalogs(pbem: Any, tmp_path: Path) -> None:
    t = goofspiel(pbem, tmp_path, "--language", "anna=de", "--language", "ben=nl")
    anna = (t.games / "g1" / "reports" / "anna" / reports(t.games, "g1", "anna")[0]).read_text("utf-8")
    ben = (t.games / "g1" / "reports" / "ben" / reports(t.games, "g1", "ben")[0]).read_text("utf-8")
    assert anna.startswith("DEIN ZUG\n  Biete eine Karte deiner Hand für den Preis ")
    assert "\n  Mögliche Befehle: bieten: N (N von 1 bis 5).\n" in anna and "#  - bieten: N\n" in anna
    assert ben.startswith("JOUW BEURT\n  Bied een kaart uit je hand voor de prijs ")
    assert "\n  Mogelijke orders: bieden: N (N van 1 tot 5).\n" in ben
    # an order in the reader's words is read back as the game's own
    assert t.submit("anna", 1, [{"bieten": 2}]).exit_code == 0
    assert t.submit("ben", 1, [{"bod": 3}]).exit_code == 0
    assert t.submit("cleo", 1, [{"bid": 1}]).exit_code == 0
    assert pbem("advance").exit_code == 0
    assert [e["order"] for e in t.state()["log"]] == [{"bid": 2}, {"bid": 3}, {"bid": 1}]
    anna = (t.games / "g1" / "reports" / "anna" / reports(t.games, "g1", "anna")[-1]).read_text("utf-8")
    assert "gewinnt den Preis" in anna and "die Gebote: anna 2, ben 3, cleo 1." in " ".join(anna.split())


# -- deadlines and reminders ------------------------------------------------------------------------------

def test_the_deadline_substitutes_every_late_bidder_at_once(pbem: Any, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    t = goofspiel(pbem, tmp_path, "--deadline", "48h", "--policy", "default")
    at(monkeypatch, 10)
    assert t.submit("anna", 1, [{"bid": 5}]).exit_code == 0
    assert pbem("advance").exit_code == 0
    assert t.state()["waiting_since"] == t.state()["created"]  # anna's bid does not restart the clock
    # the reminder at 36h goes to the two late bidders alone; anna is told whom the game waits for
    at(monkeypatch, 36)
    r = pbem("advance")
    assert r.exit_code == 0 and "g1: reminded ben, cleo" in r.stdout, r.output
    outbox = t.games / "mail" / "outbox"
    late = {p: read_mail(outbox / f"g1.{p}.remind-0001.eml") for p in ("ben", "cleo")}
    for p, msg in late.items():
        assert msg["Subject"] == "[pbem] g1 reminder: turn 1 is due"
        assert body(msg).startswith("Game g1 waits for your orders for turn 1.\n")
        assert "'bid: 1' is given for you" in " ".join(body(msg).split())
    told = read_mail(outbox / "g1.anna.remind-0001.eml")
    assert told["Subject"] == "[pbem] g1 turn 1: waiting for ben, cleo"
    # 48h after the round began (not after anna's bid), both late bidders are substituted in one run
    at(monkeypatch, 48)
    r = pbem("advance")
    assert r.exit_code == 0, r.output
    state = t.state()
    assert state["engine"]["turn"] == 2
    assert [(e["player"], e["order"], e.get("substitute")) for e in state["log"]] == [
        ("anna", {"bid": 5}, None), ("ben", {"bid": 1}, "default"), ("cleo", {"bid": 1}, "default")]
    assert git(t.games, "log", "-1", "--format=%s") == "g1: turn 1; substitute moves for ben, cleo\n"
    assert state["waiting_since"] == at(monkeypatch, 48)
    assert pbem("verify", "g1").exit_code == 0


# -- by mail ----------------------------------------------------------------------------------------------

def test_a_whole_game_by_mail(pbem: Any) -> None:
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    g.write_config()
    args = ["new", "goofspiel", "g1", *seed_args("mail-seed"), "--option", "cards=5", "--json"]
    for p in PLAYERS:
        args += ["--player", f"{p}={p}@players.test"]
    r = pbem(*args)
    assert r.exit_code == 0, r.output
    welcome = {player_of(m): m for m in g.outbox.new()}
    assert sorted(welcome) == list(PLAYERS)
    latest = dict(welcome)
    rounds = 0
    while g.state("g1")["status"] == "active":
        rounds += 1
        order = list(PLAYERS) if rounds % 2 else list(reversed(PLAYERS))
        bids = {}
        for n, p in enumerate(order, start=1):
            seen = pbem.show("g1", p)
            bid = bots.choose("goofspiel", seen["view"], p, seen["legal_orders"])["bid"]
            bids[p] = bid
            mail = latest[p]
            g.inbox.deliver(player_mail(f"{p}@players.test", f"bid: {bid}\n", subject=f"Re: {mail['Subject']}",
                                        in_reply_to=str(mail["Message-ID"])))
            g.advance()
            sent = g.outbox.new()
            for m in sent:
                latest[player_of(m)] = m
            if n < len(order):  # the bidder alone hears, of his own bid only: the answer to his mail
                assert [player_of(m) for m in sent] == [p], [m["Subject"] for m in sent]
                text = body(sent[0])
                assert "were received:\n\n  - bid: %d\n" % bid in text
                rest = [q for q in PLAYERS if q not in bids]
                assert (f"Turn {rounds} is settled when the orders of {', '.join(rest)} are in too; your report "
                        "comes then.") in " ".join(text.split())
                assert not re.search(r"\d", text.split("were received:")[1].replace(f"bid: {bid}", "")
                                     .replace(f"Turn {rounds} ", ""))
            else:  # the round is settled: everyone hears, with every bid
                told = [m for m in sent if not str(m["Message-ID"]).startswith("<pbem.reply.")]  # not the answer
                assert sorted(player_of(m) for m in told) == sorted(PLAYERS)
                line = ", ".join(f"{q} {bids[q]}" for q in PLAYERS)
                assert all(line in " ".join(body(m).split()) for m in told)
    assert rounds == 5
    assert g.state("g1")["status"] == "finished"
    assert pbem("verify", "g1").exit_code == 0


# -- determinism -----------------------------------------------------------------------------------------

def test_the_same_seed_and_bids_give_the_same_game_byte_for_byte(pbem: Any, tmp_path: Path) -> None:
    other = helpers.Pbem(tmp_path / "games2")
    games = []
    for runner, name in ((pbem, "a"), (other, "b")):
        t = goofspiel(runner, tmp_path / name, seed="same-seed-for-both")
        t.play_decision(bot_bids(t), advance_each=True)
        play_to_the_end(t)
        games.append(t)
    a, b = (t.games / "g1" for t in games)
    for name in ("events.yaml", "log.yaml"):  # (public.yaml names the checksum of the state file, tokens and all)
        assert (a / name).read_bytes() == (b / name).read_bytes(), name

    def untokened(folder: Path) -> bytes:  # the tokens are drawn anew for each game (and only hashed)
        return re.sub(rb"(token_sha256|checksum): [0-9a-f]{64}", b"", (folder / "state.yaml").read_bytes())
    assert untokened(a) == untokened(b)
    assert sorted(p.relative_to(a) for p in (a / "reports").rglob("*")) == \
        sorted(p.relative_to(b) for p in (b / "reports").rglob("*"))
    for p in (a / "reports").rglob("*.txt"):
        assert p.read_bytes() == (b / p.relative_to(a)).read_bytes()


def test_bots_at_the_table_bid_at_once_and_never_see_a_bid_before_it_is_opened(pbem: Any, tmp_path: Path) -> None:
    r = pbem("new", "goofspiel", "g1", "--player", "anna=anna@example.org", "--bot", "ben", "--bot", "cleo",
             "--option", "cards=5", *seed_args("bots-at-the-table"), "--json")
    assert r.exit_code == 0, r.output
    token = json.loads(r.stdout)["players"][0]["token"]
    state = load_game(pbem.games, "g1")
    # the bots bid as the game began, each from his own view; the round waits for anna alone, at turn 1
    assert [(e["player"], e.get("by")) for e in state["log"]] == [("ben", "bot"), ("cleo", "bot")]
    assert pbem.show("g1")["waiting_for"] == ["anna"] and pbem.show("g1")["turn"] == 1
    assert "bids" not in pbem.show("g1", "anna")["view"]
    for turn in range(1, 6):
        card = pbem.show("g1", "anna")["legal_orders"][0]["bid"]
        path = tmp_path / f"t{turn}.yaml"
        path.write_text(json.dumps({"game": "g1", "player": "anna", "token": token, "turn": turn,
                                    "orders": [{"bid": card}]}))
        assert pbem("submit", path).exit_code == 0
        assert pbem("advance").exit_code == 0
    state = load_game(pbem.games, "g1")
    assert state["status"] == "finished" and len(state["log"]) == 15
    assert pbem("verify", "g1").exit_code == 0


def test_a_challenge_by_mail_may_name_the_registered_game() -> None:
    """The lobby reads a game the GM registers by its name, as it reads pbem's own."""
    from pbem.mail.lobby import CommandError, parse

    command = parse(["new goofspiel with ben@example.org, cleo@example.org cards 8"])
    assert command is not None
    assert (command.verb, command.ruleset, command.invitees, command.options) == (
        "new", "goofspiel", ["ben@example.org", "cleo@example.org"], {"cards": "8"})
    with pytest.raises(CommandError) as refused:
        parse(["new chess with ben@example.org"])
    assert "goofspiel" in str(refused.value).split("choose one of: ")[1].split(", ")


def test_its_catalogs_are_made_in_its_own_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`python -m pbem.catalogs catalogs --game goofspiel` brings the catalogs of the game's own folder up
    to date, whatever `--locale` (pbem's catalogs) says; its words are its templates', its modules' and
    its schemas' messages."""
    import shutil

    from babel.messages.pofile import read_po

    from pbem import catalogs

    own = Path(__file__).parent / "goofspiel"
    folder = tmp_path / "goofspiel"
    shutil.copytree(own, folder, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(type(get_ruleset("goofspiel")), "files", folder)
    pbem_locale = tmp_path / "pbem-locale"
    pbem_locale.mkdir()
    assert catalogs.update_catalogs(pbem_locale, ["goofspiel"]) == []  # in step with its code
    stale = '\nmsgid "a word nobody says any more"\nmsgstr "ein Wort, das keiner mehr sagt"\n'
    de = folder / "locale" / "de" / "LC_MESSAGES" / "goofspiel.po"
    de.write_text(de.read_text("utf-8") + stale, "utf-8")
    assert catalogs.update_catalogs(pbem_locale, ["goofspiel"]) == [de]
    assert "a word nobody says any more" not in de.read_text("utf-8")

    def entries(path: Path) -> dict[Any, Any]:
        with path.open("rb") as f:
            return {m.id: m.string for m in read_po(f) if m.id}
    assert entries(de) == entries(own / "locale" / "de" / "LC_MESSAGES" / "goofspiel.po")  # translations kept
    assert list(pbem_locale.iterdir()) == []  # nothing of it in pbem's catalogs
    words = {m.id for m in catalogs.extract_domain("goofspiel") if isinstance(m.id, str) and m.id}
    assert {"Prize: %(card)s", "send 'bid: N' with a card of your hand, not %(order)s",  # its templates', its modules'
            "is not a Goofspiel order; send bid: N"} <= words  # and its schema's message, read from the schema
    assert not {"THE TABLE", "the game is over"} & words  # the words every game says are pbem's
