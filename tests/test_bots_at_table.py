"""Bots at the table: seats the game's bot plays from the start (`pbem new --bot`, `pbem open
--fill-with-bots-after`, `new medici with bot, bot` by mail). A bot decides in the run that reaches
its decision, from its seat's view alone; bots get no mail; every report names them; the order log
holds their orders, so `pbem verify` replays the game."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import GM, FilesOut, MaildirDrop, MailGames, answer, mail_lines, player_mail, send, to
from helpers import assert_error
from rooms import GAMES, QUICK, room
from pbem import bots, lobby
from pbem.rules.base import get_ruleset, order_text
from pbem.store import GamesDir, dump_yaml

pytestmark = pytest.mark.usefixtures("pictures_unexamined")

SEED = ["--seed", "bots-at-the-table-seed-0001"]


def state_of(pbem: Pbem, game: str) -> dict[str, Any]:
    return GamesDir(pbem.games).load(game)


def new_with_bots(pbem: Pbem, ruleset: str, game: str, names: list[str]) -> str:
    """A game of anna against bots named `names`; anna's token."""
    args = ["new", ruleset, game, "--player", "anna=anna@example.org", *SEED, "--json"]
    for n in names:
        args += ["--bot", n]
    r = pbem(*args)
    assert r.exit_code == 0, r.output
    return next(p["token"] for p in json.loads(r.stdout)["players"] if p["name"] == "anna")


def play(pbem: Pbem, game: str, token: str, order: Any) -> None:
    """anna's order by turn file, then a run."""
    shown = pbem.show(game, "anna")
    path = pbem.games.parent / "turn.yaml"
    path.write_text(dump_yaml({"game": game, "player": "anna", "token": token, "turn": shown["turn"],
                               "orders": [order]}))
    r = pbem("submit", str(path))
    assert r.exit_code == 0, r.output
    r = pbem("advance")
    assert r.exit_code == 0, r.output


def plain(msg: Any) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def flat(msg: Any) -> str:
    return " ".join(plain(msg).split())


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    games = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games), lobby={"create": "anyone"})
    games.write_config()
    (pbem.games / "mail").mkdir()
    return games


# -- pbem new --bot ----------------------------------------------------------------------------------

def test_new_seats_bots_where_the_command_line_puts_them_and_they_move_at_once(pbem: Pbem) -> None:
    r = pbem("new", "medici", "m1", "--bot", "bruno", "--player", "anna=anna@example.org", "--bot=carla", *SEED)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[2:6] == ["Players and their secret tokens (shown only now; pbem keeps only a hash):",
                          "  bruno        (the bot plays this seat)",
                          lines[4], "  carla        (the bot plays this seat)"]
    assert lines[4].startswith("  anna         anna@example.org ")
    state = state_of(pbem, "m1")
    assert [(p["name"], p["email"], p.get("bot")) for p in state["players"]] == [
        ("bruno", "", True), ("anna", "anna@example.org", None), ("carla", "", True)]
    # bruno, the first auctioneer, and carla have moved already: the game waits for anna
    assert pbem.show("m1")["waiting_for"] == ["anna"]
    assert pbem.show("m1", "anna")["bots"] == ["bruno", "carla"]
    assert state["log"] and all(e["player"] in ("bruno", "carla") and e["by"] == "bot" for e in state["log"])
    # bots get no report and no mail; anna's names the bots
    assert sorted(p.name for p in (pbem.games / "m1" / "reports").iterdir()) == ["anna"]
    report = next((pbem.games / "m1" / "reports" / "anna").iterdir()).read_text()
    assert "Played by bots: bruno, carla\nSeed commitment (sha256):" in report
    r = pbem("verify", "m1")
    assert r.exit_code == 0, r.output


def test_new_json_marks_the_bots_without_a_token(pbem: Pbem) -> None:
    r = pbem("new", QUICK, "s1", "--player", "anna=anna@example.org", "--bot", "zeno", *SEED, "--json")
    assert r.exit_code == 0, r.output
    players = json.loads(r.stdout)["players"]
    assert players[1] == {"name": "zeno", "bot": True}
    assert set(players[0]) == {"name", "email", "token"}


def test_a_bot_name_that_is_no_name_or_is_taken_is_refused_and_nothing_is_made(pbem: Pbem) -> None:
    r = pbem("new", "medici", "m1", "--player", "anna=anna@example.org", "--bot", "Bot!", "--bot", "b", *SEED)
    assert r.exit_code == 2
    assert "Invalid value for '--bot': bot name 'Bot!' must be lower-case letters, digits, '-' or '_', " \
           "starting with a letter, at most 24 characters" in r.output
    r = pbem("new", "medici", "m1", "--player", "anna=anna@example.org", "--bot", "anna", "--bot", "b", *SEED)
    assert_error(r, "player 'anna' is named twice")
    r = pbem("new", "medici", "m1", "--player", "anna=anna@example.org", "--bot", "b", *SEED)
    assert_error(r, "Medici needs 3 to 6 players, not 2")
    assert not (pbem.games / "m1").exists()


# -- what a bot sees ---------------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", GAMES)
def test_a_bot_decides_from_its_seats_view_and_legal_orders_alone(pbem: Pbem, monkeypatch: Any, ruleset: str) -> None:
    """The bot's code gets its seat's view and legal orders, never the state: no hidden card, no seed,
    no deck order, no other seat's secret reaches it."""
    others = len(room(ruleset).PLAYERS) - 1  # anna and the bots make a usual table
    rules = get_ruleset(ruleset)
    bots.choose(ruleset, *_any_view(ruleset))  # registers the game's bot
    real = bots.BOTS[ruleset]
    seen: list[tuple[Any, str, Any]] = []

    def spy(view: dict[str, Any], me: str, legal: list[Any]) -> Any:
        seen.append((view, me, legal))
        return real(view, me, legal)

    monkeypatch.setitem(bots.BOTS, ruleset, spy)
    names = [f"bot{i}" for i in range(others)]
    token = new_with_bots(pbem, ruleset, "x1", names)
    for _ in range(12):  # anna plays on; the bots answer in the same run
        shown = pbem.show("x1", "anna")
        if shown["status"] != "active":
            break
        play(pbem, "x1", token, real(shown["view"], "anna", shown["legal_orders"]))
    assert seen, "no bot decided"
    state = state_of(pbem, "x1")
    secrets = {state["seed"]}
    for view, me, legal in seen:
        assert me in names
        text = json.dumps(view, sort_keys=True)
        assert all(s not in text for s in secrets)
        assert "seed" not in view
        # never more than the seat's own view (the same view a player reads, less display text)
        assert set(view) <= set(rules.view(state["engine"], me)) | {"players"}
    assert all(e["player"] != "anna" or "by" not in e for e in state["log"])
    assert pbem("verify", "x1").exit_code == 0


def _any_view(ruleset: str) -> tuple[dict[str, Any], str, list[Any]]:
    from pbem.rng import Rng

    rules = get_ruleset(ruleset)
    names = list(room(ruleset).PLAYERS)
    engine, _ = rules.setup(names, rules.check_options({}), Rng("x" * 20), None)
    p = rules.decision(engine).players[0]
    return rules.bot_view(engine, p), p, rules.legal_orders(engine, p)


def test_a_bot_that_would_read_a_hidden_card_finds_none(pbem: Pbem, monkeypatch: Any) -> None:
    """A bot that looks for the bag's order and the cards set aside unseen in what it is given finds
    nothing: in Medici both are hidden from every seat, and the bot gets its seat's view alone."""
    import copy

    rules = get_ruleset("medici")
    engines: list[dict[str, Any]] = []
    real_view = type(rules).bot_view

    def recording(self: Any, engine: dict[str, Any], player: str) -> dict[str, Any]:
        engines.append(copy.deepcopy(engine))
        return real_view(self, engine, player)

    found: list[str] = []

    def peeking(*given: Any) -> Any:
        text = json.dumps(given)
        engine = engines[-1]
        for what, hidden in (("the bag", engine["deck"]), ("the cards set aside", engine["set_aside"])):
            if len(hidden) > 1 and (json.dumps(hidden) in text or json.dumps(sorted(hidden)) in text):
                found.append(what)
        return given[2][0]

    bots.choose("medici", *_any_view("medici"))
    monkeypatch.setattr(type(rules), "bot_view", recording)
    monkeypatch.setitem(bots.BOTS, "medici", peeking)
    token = new_with_bots(pbem, "medici", "m1", ["b1", "b2"])
    for _ in range(10):
        shown = pbem.show("m1", "anna")
        play(pbem, "m1", token, shown["legal_orders"][-1])
    assert len(engines) > 5 and found == []
    assert all(len(e["deck"]) > 1 for e in engines[:3])  # there was a bag to peek at


# -- a whole game by mail ------------------------------------------------------------------------------

def test_a_player_plays_a_whole_game_against_bots_by_mail_each_run_giving_his_next_report(g: MailGames) -> None:
    """`new medici with bot, bot`: the game starts at once; each reply with his order is applied in
    the run that reads it, the bots answer in the same run, and that run mails him his next report;
    to the end. The bots get no mail; the order log holds their orders and the game verifies."""
    lines, sent = send(g, "anna@far.test", "new medici with bot, bot")
    assert lines == ["mail from anna@far.test: medici-1: anna plays against bot, bot2 (bots); the game starts"]
    assert [to(m) for m in sent] == ["anna@far.test"]
    latest = sent[0]
    assert "welcome" in str(latest["Subject"])
    assert "Played by bots: bot, bot2" in plain(latest)
    state = g.state("medici-1")
    assert [(p["name"], bool(p.get("bot"))) for p in state["players"]] == [("anna", False), ("bot", True),
                                                                           ("bot2", True)]
    runs = 0
    for runs in range(1, 200):
        shown = g.pbem.show("medici-1", "anna")
        if shown["status"] != "active":
            break
        assert shown["waiting_for"] == ["anna"]
        order = bots.choose("medici", shown["view"], "anna", shown["legal_orders"])
        words = " ".join(f"{k} {v}" for k, v in order.items()) if isinstance(order, dict) else str(order)
        lines, sent = answer(g, latest, "anna@far.test", words)
        assert lines == [f"mail from anna@far.test: medici-1 turn {shown['turn']}: queued {order_text(order)}"]
        assert {to(m) for m in sent} == {"anna@far.test"}
        reports = [m for m in sent if not str(m["Subject"]).startswith("Re:")]  # (the other: his order's ack)
        assert len(reports) == 1, [m["Subject"] for m in sent]
        latest = reports[0]
    assert g.pbem.show("medici-1")["status"] == "finished"
    assert "the game is over" in str(latest["Subject"])
    assert runs > 5
    log = g.state("medici-1")["log"]
    assert {e["player"] for e in log if e.get("by") == "bot"} == {"bot", "bot2"}
    assert all(e.get("by") != "bot" for e in log if e["player"] == "anna")
    r = g.pbem("verify", "medici-1")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("words,lang,subject", [
    ("neu medici mit bot und bot", "de", "Willkommen"),
    ("nieuw medici met bot en bot", "nl", "welkom")])
def test_a_game_against_bots_in_german_and_dutch(g: MailGames, words: str, lang: str, subject: str) -> None:
    lines, sent = send(g, "anna@far.test", words)
    assert lines == ["mail from anna@far.test: medici-1: anna plays against bot, bot2 (bots); the game starts"]
    assert subject.casefold() in str(sent[0]["Subject"]).casefold()
    assert g.state("medici-1")["players"][0]["language"] == lang
    expected = {"de": "Von Bots gespielt: bot, bot2", "nl": "Gespeeld door bots: bot, bot2"}[lang]
    assert expected in plain(sent[0])


@pytest.mark.parametrize("words", ["new medici with 2 bots", "neu medici mit bot und bot.", "nieuw medici met 2 bots"])
def test_bots_may_be_counted(words: str) -> None:
    from pbem.mail.lobby import parse

    command = parse([words])
    assert command is not None and (command.verb, command.ruleset, command.bots, command.invitees) == \
        ("new", "medici", 2, [])


def test_a_challenge_with_players_and_bots_starts_with_the_bots_once_the_invitees_accept(g: MailGames) -> None:
    lines, sent = send(g, "anna@far.test", "new medici with ben@far.test, bot")
    assert lines == ["mail from anna@far.test: medici-1: challenged ben@far.test"]
    invitation = next(m for m in sent if to(m) == "ben@far.test")
    lines, sent = answer(g, invitation, "ben@far.test", "accept")
    assert lines == ["mail from ben@far.test: medici-1: ben@far.test accepted; medici-1 starts"]
    assert sorted(to(m) for m in sent if "elcome" in str(m["Subject"])) == ["anna@far.test", "ben@far.test"]
    assert [(p["name"], bool(p.get("bot"))) for p in g.state("medici-1")["players"]] == [
        ("anna", False), ("ben", False), ("bot", True)]


def test_a_host_that_allows_no_bots_refuses_them_in_the_players_language(pbem: Pbem) -> None:
    """`lobby.bots: false`: a player's `new ... with bot` is refused, in the language of his words;
    nothing is made."""
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games), lobby={"create": "anyone", "bots": False})
    g.new("m1", ["anna", "ben", "cleo"])
    (pbem.games / "mail").mkdir(exist_ok=True)
    for words, refusal in (("new medici with bot, bot", "this host does not start games against bots"),
                           ("neu medici mit bot, bot", "dieser Server startet keine Partien gegen Bots"),
                           ("nieuw medici met bot, bot", "deze server start geen spellen tegen bots")):
        lines, sent = send(g, "anna@players.test", words)
        assert lines == ["mail from anna@players.test: refused 'new': this host does not start games against bots"]
        assert [to(m) for m in sent] == ["anna@players.test"]
        assert refusal in flat(sent[0])
        assert g.gd.games() == ["m1"] and not (pbem.games / "lobby").exists()


def test_bots_are_refused_silently_to_a_stranger_where_only_players_may_have_them(pbem: Pbem) -> None:
    """`lobby.bots: players`: a stranger's (perhaps forged) `new medici with bot, bot` mails nobody."""
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games), lobby={"bots": "players"})
    g.write_config()
    (pbem.games / "mail").mkdir()
    lines, sent = send(g, "victim@far.test", "new medici with bot, bot")
    assert lines == ["mail from victim@far.test: refused 'new' without an answer: victim@far.test may not start "
                     "games against bots on this host (pbem.yaml lobby.bots: players)"]
    assert sent == []
    assert g.gd.games() == []


def test_one_address_has_at_most_a_few_games_against_bots_at_once(g: MailGames) -> None:
    for n in range(1, 4):
        lines, _ = send(g, "anna@far.test", f"new {QUICK} with bot")
        assert lines == [f"mail from anna@far.test: {QUICK}-{n}: anna plays against bot (bots); the game starts"]
    lines, sent = send(g, "anna@far.test", f"new {QUICK} with bot")
    assert lines == ["mail from anna@far.test: refused 'new': you play 3 games against bots that are not over "
                     f"({QUICK}-1, {QUICK}-2, {QUICK}-3), the most this host allows; finish one "
                     "first"]
    assert "you play 3 games against bots that are not over" in flat(sent[0])


def test_too_many_bots_are_refused(g: MailGames) -> None:
    quick = get_ruleset(QUICK)
    assert quick.max_players == 2
    lines, sent = send(g, "anna@far.test", f"new {QUICK} with bot, bot")
    assert lines == [f"mail from anna@far.test: refused 'new': {quick.title} needs 2 players, not 3"]
    assert g.gd.games() == []


# -- open games filled with bots ---------------------------------------------------------------------

def test_an_open_game_fills_its_free_seats_with_bots_when_its_time_runs_out(g: MailGames, monkeypatch: Any) -> None:
    monkeypatch.setenv("PBEM_NOW", "2026-11-21T12:00:00Z")
    r = g.pbem("open", "medici", "g1", "--seats", "4", "--fill-with-bots-after", "48h")
    assert r.exit_code == 0, r.output
    assert r.stdout == (f"Opened Medici game 'g1' with 4 seats; players join by mailing 'join g1' to {GM}; "
                        f"bots take the seats still free at 2026-11-23T12:00:00Z.\n")
    lines, _ = send(g, "una@far.test", "join g1")
    assert lines == ["mail from una@far.test: g1: joined as una"]
    assert "  g1               medici           open: 1 of 4 seats taken; bots take the free seats at " \
           "2026-11-23T12:00:00Z" in g.pbem("status").stdout
    from pbem.watch import pending_moments

    assert pending_moments(g.root)["g1"].isoformat() == "2026-11-23T12:00:00+00:00"  # a watch wakes then
    monkeypatch.setenv("PBEM_NOW", "2026-11-23T11:59:00Z")
    g.advance()
    assert not g.gd.exists("g1")
    monkeypatch.setenv("PBEM_NOW", "2026-11-23T12:00:00Z")
    r = g.advance()
    assert "g1: the time for players ran out; bot, bot2, bot3 take the free seats; the game starts" in r.output
    state = g.state("g1")
    assert [(p["name"], bool(p.get("bot"))) for p in state["players"]] == [
        ("una", False), ("bot", True), ("bot2", True), ("bot3", True)]
    sent = g.outbox.new()
    assert [to(m) for m in sent] == ["una@far.test"]
    assert not lobby.exists(g.gd, "g1")


def test_an_open_game_nobody_joined_stays_open_after_its_time(g: MailGames, monkeypatch: Any) -> None:
    monkeypatch.setenv("PBEM_NOW", "2026-11-21T12:00:00Z")
    assert g.pbem("open", "medici", "g1", "--seats", "3", "--fill-with-bots-after", "1h").exit_code == 0
    monkeypatch.setenv("PBEM_NOW", "2026-11-22T12:00:00Z")
    g.advance()
    assert lobby.exists(g.gd, "g1") and not g.gd.exists("g1")


def test_fill_with_bots_after_needs_a_duration(g: MailGames) -> None:
    r = g.pbem("open", "medici", "g1", "--seats", "3", "--fill-with-bots-after", "soon")
    assert r.exit_code == 2
    assert "Invalid value for '--fill-with-bots-after'" in r.output
    assert not lobby.exists(g.gd, "g1")
