"""The GM's tools for running a real game: deadlines with a grace period and a policy (wait, default,
bot), the reminder before the deadline, substitute moves marked as such, `pbem set`, `replace`, `pause`,
`resume`, `rollback`, `advance --dry-run` and what `status` tells the GM.

The clock is PBEM_NOW, which the tests move (they never sleep). Exit codes: 0 success, 1 a domain
error (`Error: <message>` on stderr), 2 a usage error.

The Medici games here start with seed `test-seed` and the players anna, ben, cleo: ben is the first
auctioneer (turn 1); after his `auction` cleo, anna and ben bid in that order.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import json
import mailbox
import re
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import yaml

import helpers
from helpers import assert_error, assert_usage_error, commit_count, git, snapshot
from pbem import bots
from pbem.deadlines import describe, parse_duration, show_hours
from pbem.errors import PbemError
from pbem.game import apply_orders, engine_events, replay, ruleset_of, waiting_for
from pbem.gm import deadline_rule
from pbem.rules.base import order_text
from pbem.store import GamesDir
from rooms import QUICK

pytestmark = pytest.mark.usefixtures("pictures_unexamined")

T0 = datetime(2026, 11, 21, 12, tzinfo=timezone.utc)  # the conftest clock: every game starts here
PLAYERS = ("anna", "ben", "cleo")
DEFAULT_48 = ("--deadline", "48h", "--grace", "6h", "--policy", "default")


# -- helpers -------------------------------------------------------------------------------------------

def stamp(hours: float = 0, seconds: float = 0) -> str:
    """The time `hours` (and `seconds`) after T0, as pbem writes it."""
    return (T0 + timedelta(hours=hours, seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")


class Clock:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.monkeypatch = monkeypatch

    def at(self, hours: float, seconds: float = 0) -> str:
        """Move the clock to `hours` (and `seconds`) after T0; returns the time as pbem writes it."""
        self.monkeypatch.setenv("PBEM_NOW", (T0 + timedelta(hours=hours, seconds=seconds)).isoformat())
        return stamp(hours, seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch)


def last_commit(games: Path) -> str:
    return git(games, "log", "-1", "--format=%B")


def subjects(games: Path, n: int) -> list[str]:
    return git(games, "log", f"-{n}", "--format=%s").splitlines()


def read_mail(path: Path) -> EmailMessage:
    return email.message_from_bytes(path.read_bytes(), policy=email.policy.default)  # type: ignore[return-value]


def body(msg: EmailMessage) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def game_lines(stdout: str) -> list[str]:
    """What `pbem advance` said about the games, without its line about the mail it wrote."""
    return [line for line in stdout.splitlines() if " written to " not in line]


def unwrapped(report: str) -> str:
    """A report with each event's continuation lines (indented 9 columns, under the event's text)
    joined to the event's line again."""
    return re.sub(r"\n {9}(?=\S)", " ", report)


class Table(helpers.Table):
    """One game in a games dir, with its players' tokens and a place to write turn files."""

    def __init__(self, pbem: Any, folder: Path, *extra: str, game: str = "m1", ruleset: str = "medici",
                 players: tuple[str, ...] = PLAYERS) -> None:
        super().__init__(pbem, folder, game, ruleset=ruleset, name="{game}-turn-{n:03d}.yaml")
        self.create(players, "test-seed", *extra)

    @property
    def dir(self) -> Path:
        return self.games / self.game

    def submit(self, player: str, orders: list[Any], turn: int | None = None, token: str | None = None) -> Any:
        return self.pbem("submit", self.turnfile(player, self.turn() if turn is None else turn, orders, token))

    def play(self, orders: list[Any]) -> str:
        """The waiting player submits `orders` and the GM advances; both must succeed. Returns the player."""
        who = self.waiting()
        r = self.submit(who, orders)
        assert r.exit_code == 0, r.output
        r = self.pbem("advance")
        assert r.exit_code == 0, r.output
        return who

    def reports(self, player: str) -> list[Path]:
        return sorted((self.dir / "reports" / player).iterdir())

    def last_report(self, player: str) -> str:
        """The player's latest report, each event on one line again (reports wrap them at 72 columns)."""
        return unwrapped(self.reports(player)[-1].read_text())

    def outbox(self) -> Path:
        return self.games / "mail" / "outbox"

    def queue(self) -> list[Path]:
        q = self.dir / "queue"
        return sorted(q.glob("*.yaml")) if q.is_dir() else []

    def verify(self) -> None:
        r = self.pbem("verify", self.game)
        assert r.exit_code == 0, r.output
        assert r.stdout == f"{self.game}: verified: {len(self.state()['log'])} orders replay to the identical game.\n"

    def status(self) -> dict[str, Any]:
        r = self.pbem("status", "--json")
        assert r.exit_code == 0, r.output
        return next(row for row in json.loads(r.stdout) if row["game"] == self.game)

    def finish(self) -> None:
        """Bots play the game to its end (through the library; the GM's commands are under test)."""
        gd = GamesDir(self.games)
        state = gd.load(self.game)
        rules = ruleset_of(state)
        while state["status"] == "active":
            player = waiting_for(state)[0]
            order = bots.choose(rules.name, rules.view(state["engine"], player), player,
                                rules.legal_orders(state["engine"], player))
            state, _ = apply_orders(state, player, state["engine"]["turn"], [order])
        gd.save(self.game, state)
        assert gd.commit(self.game, f"{self.game}: played to the end by bots\n")


@pytest.fixture
def inbox(tmp_path: Path) -> Path:
    folder = tmp_path / "turnfiles"
    folder.mkdir()
    return folder


def advance(pbem: Any) -> list[str]:
    r = pbem("advance")
    assert r.exit_code == 0, r.output
    return game_lines(r.stdout)


# -- durations -----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "hours"), [
    ("48h", 48), ("2d", 48), ("90m", 1.5), ("1w", 168), ("60m", 1), (" 6H ", 6), ("36 h", 36), ("1m", 1 / 60),
])
def test_parse_duration(text: str, hours: float) -> None:
    assert parse_duration(text) == pytest.approx(hours)


@pytest.mark.parametrize("text", ["2x", "48", "h", "", "1.5h", "-1h", "0h", "0d", "2 days", "h48", "4 8h"])
def test_bad_deadline_durations(text: str) -> None:
    with pytest.raises(PbemError) as exc:
        parse_duration(text)
    assert str(exc.value) == f"deadline {text!r} is not a duration such as 48h, 2d, 90m or 1w"


def test_grace_period_durations() -> None:
    assert parse_duration("0h", "grace period") == 0  # no grace is a grace period, not a deadline
    assert parse_duration("6h", "grace period") == 6
    with pytest.raises(PbemError) as exc:
        parse_duration("soon", "grace period")
    assert str(exc.value) == "grace period 'soon' is not a duration such as 48h, 2d, 90m or 1w"


@pytest.mark.parametrize(("hours", "text"), [
    (48, "2d"), (24, "1d"), (168, "7d"), (36, "36h"), (6, "6h"), (1, "1h"), (1.5, "90m"), (0.5, "30m"),
    (parse_duration("61m"), "61m"), (parse_duration("1440m"), "1d"),
])
def test_show_hours(hours: float, text: str) -> None:
    assert show_hours(hours) == text


def test_describe() -> None:
    assert describe({}) == "none"
    assert describe({"deadline": None}) == "none"
    rule = {"hours": 48, "grace_hours": 6, "policy": "default"}
    assert describe({"deadline": rule}) == "2d + 6h grace, then default"
    assert describe({"deadline": {"hours": 36, "grace_hours": 0, "policy": "wait"}}) == "36h, then wait"
    assert describe({"deadline": {"hours": 1.5, "grace_hours": 0.5, "policy": "bot"}}) == "90m + 30m grace, then bot"


def test_deadline_rule() -> None:
    assert deadline_rule("48h", None, None) == {"hours": 48, "grace_hours": 0, "policy": "wait"}
    assert deadline_rule("2d", "6h", "bot") == {"hours": 48, "grace_hours": 6, "policy": "bot"}
    current = {"hours": 48, "grace_hours": 6, "policy": "bot"}
    assert deadline_rule(None, "0", None, current) == {"hours": 48, "grace_hours": 0, "policy": "bot"}
    assert deadline_rule(None, "none", None, current) == {"hours": 48, "grace_hours": 0, "policy": "bot"}
    assert deadline_rule("1w", None, None, current) == {"hours": 168, "grace_hours": 6, "policy": "bot"}
    assert current == {"hours": 48, "grace_hours": 6, "policy": "bot"}  # not changed in place
    assert deadline_rule("none", None, None, current) is None
    assert deadline_rule("off", None, None) is None
    for grace, policy in (("6h", None), (None, "bot"), ("6h", "default")):
        with pytest.raises(PbemError) as exc:
            deadline_rule(None, grace, policy)
        assert str(exc.value) == "set a deadline (such as --deadline 48h) before a grace period or a policy"
    with pytest.raises(PbemError) as exc:
        deadline_rule("48h", None, "sometimes")
    assert str(exc.value) == "policy 'sometimes' is not one of: wait, default, bot"


# -- pbem new with a deadline --------------------------------------------------------------------------

def new_args(*extra: str) -> list[str]:
    args = ["new", "medici", "m1", *helpers.seed_args("test-seed"), *extra]
    for p in PLAYERS:
        args += ["--player", f"{p}={p}@example.org"]
    return args


@pytest.mark.parametrize(("extra", "message"), [
    (("--deadline", "2x"), "Invalid value for '--deadline': '2x' is not a duration such as 48h, 2d, 90m or 1w"),
    (("--deadline", "0h"), "Invalid value for '--deadline': '0h' is not a duration such as 48h, 2d, 90m or 1w"),
    (("--deadline", "400d"), "Invalid value for '--deadline': '400d' is longer than a year"),
    (("--deadline", "48h", "--grace", "a while"),
     "Invalid value for '--grace': 'a while' is not a duration such as 48h, 2d, 90m or 1w"),
    (("--grace", "6h"), "set a deadline (such as --deadline 48h) before a grace period or a policy"),
    (("--policy", "bot"), "set a deadline (such as --deadline 48h) before a grace period or a policy"),
    (("--grace", "6h", "--policy", "default"),
     "set a deadline (such as --deadline 48h) before a grace period or a policy"),
])
def test_new_refuses_bad_deadlines(pbem: Any, extra: tuple[str, ...], message: str) -> None:
    """A malformed value is a usage error (exit 2), like click's own."""
    assert_usage_error(pbem(*new_args(*extra)), message)
    assert not (pbem.games / "m1").exists()


def test_new_refuses_an_unknown_policy(pbem: Any) -> None:
    r = pbem(*new_args("--deadline", "48h", "--policy", "sometimes"))
    assert_usage_error(r, "Invalid value for '--policy': 'sometimes' is not one of 'wait', 'default', 'bot'.")
    assert not (pbem.games / "m1").exists()


def test_new_with_a_deadline(pbem: Any, inbox: Path) -> None:
    t = Table(pbem, inbox, *DEFAULT_48)
    assert t.state()["deadline"] == {"hours": 48, "grace_hours": 6, "policy": "default"}
    row = t.status()
    assert row["deadline"] == "2d + 6h grace, then default"
    assert row["due"] == stamp(48)
    assert row["needs_gm"] is None
    t2 = Table(pbem, inbox, "--deadline", "90m", game="m2")
    assert t2.state()["deadline"] == {"hours": 1.5, "grace_hours": 0, "policy": "wait"}
    assert t2.status()["deadline"] == "90m, then wait"
    assert t2.status()["due"] == stamp(1.5)
    t3 = Table(pbem, inbox, game="m3")
    assert "deadline" not in t3.state()
    assert t3.status()["deadline"] == "none"
    assert t3.status()["due"] is None


def test_an_absurd_deadline_is_refused_or_harmless(pbem: Any) -> None:
    r = pbem(*new_args("--deadline", "100000000h"))
    if r.exit_code == 2 and isinstance(r.exception, SystemExit):  # refused as a malformed value: fine
        assert r.stderr.endswith("Error: Invalid value for '--deadline': '100000000h' is longer than a year\n")
        return
    assert r.exit_code == 0, r.output
    s = pbem("status")
    assert s.exit_code == 0, (s.output, s.exception)
    a = pbem("advance")
    assert a.exit_code == 0, (a.output, a.exception)
    assert "SKIPPED" not in a.output


# -- the reminder --------------------------------------------------------------------------------------

def test_the_reminder_tells_the_late_player_what_follows_the_deadline() -> None:
    from pbem.deadlines import after_the_deadline

    def rule(policy: str, grace: float) -> dict[str, Any]:
        return {"hours": 48, "grace_hours": grace, "policy": policy}
    assert after_the_deadline(rule("wait", 0), "pass") == "After that, the game waits for the game master."
    assert after_the_deadline(rule("bot", 12), "pass") == "After that and 12h of grace, the game's bot moves for you."
    assert after_the_deadline(rule("default", 36), "pass") == ("After that and 36h of grace, the order 'pass' is "
                                                              "given for you.")
    # a game with no passive order: the bot moves, as the policy does
    assert after_the_deadline(rule("default", 0), None) == "After that, the game's bot moves for you."


def test_reminder_once_when_a_quarter_of_the_time_is_left(pbem: Any, inbox: Path, clock: Clock) -> None:
    t = Table(pbem, inbox, *DEFAULT_48)
    outbox = t.outbox()
    clock.at(36, -1)  # due at 48h: the reminder comes at 36h
    before = snapshot(t.games)
    assert advance(pbem) == ["m1: nothing to do"]
    assert snapshot(t.games) == before
    assert not list(outbox.glob("*remind*"))

    clock.at(36)
    assert advance(pbem) == ["m1: reminded ben"]
    assert commit_count(t.games) == before["commits"] + 1
    assert last_commit(t.games) == "m1: turn 1; reminded ben\n\n- reminded: ben\nNow turn 1, waiting for ben.\n\n"
    assert t.state()["reminded"] == 1
    assert t.state()["engine"] == yaml.safe_load(before["files"]["m1/state.yaml"])["engine"]  # nothing played
    reminders = sorted(p.name for p in outbox.glob("*remind*"))
    assert reminders == ["m1.anna.remind-0001.eml", "m1.ben.remind-0001.eml", "m1.cleo.remind-0001.eml"]
    late = read_mail(outbox / "m1.ben.remind-0001.eml")
    assert late["To"].addresses[0].addr_spec == "ben@example.org"
    assert late["Subject"] == "[pbem] m1 reminder: turn 1 is due"
    assert body(late) == ("Game m1 waits for your orders for turn 1.\n"
                          f"They are due by {stamp(48)}. After that and 6h of grace, the\n"
                          "order 'auction' is given for you.\n"
                          "Your latest report has a turn file ready to fill in.\n")
    for other in ("anna", "cleo"):
        msg = read_mail(outbox / f"m1.{other}.remind-0001.eml")
        assert msg["To"].addresses[0].addr_spec == f"{other}@example.org"
        assert msg["Subject"] == "[pbem] m1 turn 1: waiting for ben"
        assert body(msg) == f"Game m1 is waiting for ben (turn 1, due by {stamp(48)}).\n"
    sent = {p.name: p.read_bytes() for p in outbox.iterdir()}

    # once: a later run (still before the deadline) does not remind again
    clock.at(40)
    commits = commit_count(t.games)
    assert advance(pbem) == ["m1: nothing to do"]
    assert commit_count(t.games) == commits
    assert {p.name: p.read_bytes() for p in outbox.iterdir()} == sent

    # the next decision has its own clock and its own reminder
    assert t.play(["auction"]) == "ben"
    assert t.state()["waiting_since"] == stamp(40)
    clock.at(40 + 36, -1)
    assert advance(pbem) == ["m1: nothing to do"]
    clock.at(40 + 36)
    assert advance(pbem) == ["m1: reminded cleo"]
    assert (outbox / "m1.cleo.remind-0002.eml").is_file()
    assert read_mail(outbox / "m1.ben.remind-0002.eml")["Subject"] == "[pbem] m1 turn 2: waiting for cleo"
    assert subjects(t.games, 1) == ["m1: turn 2; reminded cleo"]


def test_no_deadline_no_reminder(pbem: Any, inbox: Path, clock: Clock) -> None:
    t = Table(pbem, inbox)
    clock.at(24 * 365)
    before = snapshot(t.games)
    assert advance(pbem) == ["m1: nothing to do"]
    assert snapshot(t.games) == before
    assert t.status()["needs_gm"] is None


def test_a_second_reminder_for_the_same_turn_is_a_new_mail(pbem: Any, inbox: Path, clock: Clock) -> None:
    t = Table(pbem, inbox, "--deadline", "48h")
    clock.at(36)
    assert advance(pbem) == ["m1: reminded ben"]
    clock.at(37)
    assert pbem("pause", "m1").exit_code == 0
    clock.at(38)
    assert pbem("resume", "m1").exit_code == 0
    clock.at(38 + 36)
    assert advance(pbem) == ["m1: reminded ben"]
    reminders = [read_mail(p) for p in sorted(t.outbox().glob("m1.ben.remind*"))]
    assert len(reminders) == 2
    assert reminders[0]["Message-ID"] != reminders[1]["Message-ID"]
    assert {f"They are due by {stamp(48)}" in body(m) for m in reminders} == {True, False}


# -- at the deadline: policy wait ----------------------------------------------------------------------

def test_policy_wait_tells_the_gm_again_under_a_new_deadline(pbem: Any, inbox: Path, clock: Clock) -> None:
    """Once a decision and a rule: `pbem set` gives a new deadline; when that one passes too, the GM is
    told again."""
    t = Table(pbem, inbox, "--deadline", "48h")
    told = ["m1: reminded ben, ben missed the deadline: the game waits for the GM (policy: wait; `pbem set`, "
            "`pbem replace` or `pbem pause` decides)"]
    clock.at(48)
    assert advance(pbem) == told
    assert t.state()["overdue"] == 1
    assert pbem("set", "m1", "--deadline", "72h").exit_code == 0
    assert "overdue" not in t.state()
    clock.at(71)
    assert advance(pbem) == ["m1: nothing to do"]
    clock.at(72)
    assert advance(pbem) == [told[0].replace("reminded ben, ", "")]
    assert advance(pbem) == ["m1: nothing to do"]


def test_policy_wait_applies_nothing_and_the_game_needs_the_gm(pbem: Any, inbox: Path, clock: Clock) -> None:
    t = Table(pbem, inbox, "--deadline", "48h", "--grace", "6h")
    assert t.state()["deadline"] == {"hours": 48, "grace_hours": 6, "policy": "wait"}
    clock.at(54, -1)
    assert advance(pbem) == ["m1: reminded ben"]  # the first run since the reminder was due
    assert t.status()["needs_gm"] is None  # the grace period is not over
    clock.at(54)
    engine = t.state()["engine"]
    # the run that finds the deadline past says so once, under --quiet too (cron mails it to the GM)
    r = pbem("advance", "--quiet")
    assert (r.exit_code, r.stdout) == (0, "m1: ben missed the deadline: the game waits for the GM (policy: wait; "
                                          "`pbem set`, `pbem replace` or `pbem pause` decides)\n")
    assert last_commit(t.games) == ("m1: turn 1; ben missed the deadline, waiting for the GM\n\n"
                                    "Now turn 1, waiting for ben.\n\n")
    assert t.state()["engine"] == engine
    assert t.state()["log"] == []
    assert t.status()["needs_gm"] == "ben missed the deadline (policy: wait)"
    r = pbem("advance", "--quiet")  # and not again: each run of cron would mail it
    assert (r.exit_code, r.output) == (0, "")
    assert advance(pbem) == ["m1: nothing to do"]
    r = pbem("status")
    assert r.exit_code == 0
    assert r.stdout.endswith("\nNeeds the GM:\n  m1: ben missed the deadline (policy: wait)\n")

    clock.at(24 * 60)  # months later: still waiting for the GM
    before = snapshot(t.games)
    assert advance(pbem) == ["m1: nothing to do"]
    assert snapshot(t.games) == before
    assert t.status()["needs_gm"] == "ben missed the deadline (policy: wait)"

    # the GM decides: the default order from now on
    r = pbem("set", "m1", "--policy", "default")
    assert r.exit_code == 0, r.output
    assert r.stdout == "m1: deadline 2d + 6h grace, then default.\n"
    assert t.status()["needs_gm"] is None
    assert advance(pbem) == ["m1: substitute moves: ben missed the deadline: auction (default)"]
    t.verify()


# -- at the deadline: policy default -------------------------------------------------------------------

def test_policy_default_plays_the_most_passive_order(pbem: Any, inbox: Path, clock: Clock) -> None:
    t = Table(pbem, inbox, *DEFAULT_48)
    clock.at(54, -1)  # the deadline is past, the grace period is not
    assert advance(pbem) == ["m1: reminded ben"]
    assert t.state()["log"] == []
    commits = commit_count(t.games)

    now = clock.at(54)
    assert advance(pbem) == ["m1: substitute moves: ben missed the deadline: auction (default)"]
    assert commit_count(t.games) == commits + 1
    state = t.state()
    assert state["log"] == [
        {"turn": 1, "player": "ben", "order": "auction", "received": now, "substitute": "default"}]
    assert state["engine"]["turn"] == 2
    assert state["waiting_since"] == now  # cleo's clock starts now
    assert t.status()["due"] == stamp(54 + 48)
    notice = "ben missed the deadline; the default order is given: auction."
    assert [e for e in state["events"] if e.get("pipeline")] == [
        {"type": "notice", "pipeline": True, "text": notice, "turn": 1, "msg": "substitute-default",
         "values": {"player": "ben", "order": "auction"}}]
    marked = [e for e in state["events"] if "substitute" in e]
    assert marked and all(e["substitute"] == "default" and e["turn"] == 1 for e in marked)
    assert [e["type"] for e in marked] == ["auction_opens"]

    # the reports (files and mail) say so
    for player in PLAYERS:
        report = t.last_report(player)
        assert f"] {notice}\n" in report
        lines = [line for line in report.splitlines() if "[substitute move: default]" in line]
        assert len(lines) == 1 and "ben puts up the lot" in lines[0]
        assert lines[0].endswith("[substitute move: default]")
        mailed = unwrapped(body(read_mail(t.outbox() / f"m1.{player}.0002.eml")))
        assert notice in mailed and "[substitute move: default]" in mailed

    # and the history
    message = last_commit(t.games).splitlines()
    assert message[0] == "m1: turn 1; substitute moves for ben"
    assert f"- {notice}" in message
    assert any(line.startswith("- ben puts up the lot") and line.endswith(" [substitute move: default]")
               for line in message)
    assert "Now turn 2, waiting for cleo." in message
    t.verify()


def test_default_policy_moves_one_late_player_per_deadline(pbem: Any, inbox: Path, clock: Clock) -> None:
    """A run long after the deadline substitutes for the late player only: the next one gets his full time."""
    t = Table(pbem, inbox, *DEFAULT_48)
    now = clock.at(24 * 30)
    assert advance(pbem) == ["m1: substitute moves: ben missed the deadline: auction (default)"]
    assert t.state()["waiting_since"] == now
    assert advance(pbem) == ["m1: nothing to do"]
    assert t.waiting() == "cleo"
    assert len(t.state()["log"]) == 1


def test_default_policy_for_a_medici_bidder_is_pass(pbem: Any, inbox: Path, clock: Clock) -> None:
    t = Table(pbem, inbox, *DEFAULT_48)
    clock.at(1)
    assert t.play(["auction"]) == "ben"
    assert t.waiting() == "cleo"
    clock.at(1 + 54, -1)
    assert advance(pbem) == ["m1: reminded cleo"]
    now = clock.at(1 + 54)
    assert advance(pbem) == ["m1: substitute moves: cleo missed the deadline: pass (default)"]
    log = t.state()["log"]
    assert log[-1] == {"turn": 2, "player": "cleo", "order": "pass", "received": now, "substitute": "default"}
    assert "substitute" not in log[0]  # ben's own order is not marked
    assert "cleo missed the deadline; the default order is given: pass." in t.last_report("anna")
    assert t.waiting() == "anna"
    t.verify()


def test_queued_orders_come_before_the_deadline_policy(pbem: Any, inbox: Path, clock: Clock) -> None:
    """Orders that arrived before the run are the player's own, however late the run: no substitute."""
    t = Table(pbem, inbox, *DEFAULT_48)
    clock.at(60)  # after the deadline and the grace; no run since
    r = t.submit("ben", ["draw"])
    assert r.exit_code == 0, r.output
    now = clock.at(61)
    assert advance(pbem) == ["m1: applied ben draw"]
    state = t.state()
    assert state["log"] == [{"turn": 1, "player": "ben", "order": "draw", "received": stamp(60)}]
    assert state["waiting_since"] == now  # ben's next decision has its full time
    assert not [e for e in state["events"] if "substitute" in e or e.get("pipeline")]
    assert advance(pbem) == ["m1: nothing to do"]


# -- at the deadline: policy bot -----------------------------------------------------------------------

def test_policy_bot_lets_the_bot_move(pbem: Any, inbox: Path, clock: Clock) -> None:
    t = Table(pbem, inbox, "--deadline", "48h", "--policy", "bot")
    seen = t.show("ben")
    expected = bots.choose("medici", seen["view"], "ben", seen["legal_orders"])
    clock.at(48, -1)
    assert advance(pbem) == ["m1: reminded ben"]
    now = clock.at(48)  # no grace period
    assert advance(pbem) == [f"m1: substitute moves: ben missed the deadline: {order_text(expected)} (bot)"]
    state = t.state()
    assert state["log"] == [{"turn": 1, "player": "ben", "order": expected, "received": now, "substitute": "bot"}]
    notice = f"ben missed the deadline; the bot moves for this seat: {order_text(expected)}."
    assert f"] {notice}\n" in t.last_report("cleo")
    assert "[substitute move: bot]" in t.last_report("cleo")
    message = last_commit(t.games)
    assert message.startswith("m1: turn 1; substitute moves for ben\n")
    assert f"- {notice}\n" in message and " [substitute move: bot]\n" in message
    assert all(e["substitute"] == "bot" for e in state["events"] if "substitute" in e)
    t.verify()


# -- pbem verify after everything the GM does ---------------------------------------------------------

def test_verify_after_substitutes_notices_replace_pause_and_rollback(pbem: Any, inbox: Path, clock: Clock) -> None:
    t = Table(pbem, inbox, *DEFAULT_48)
    clock.at(36)
    assert advance(pbem) == ["m1: reminded ben"]
    t.verify()
    clock.at(54)
    assert advance(pbem) == ["m1: substitute moves: ben missed the deadline: auction (default)"]
    t.verify()
    assert pbem("set", "m1", "--policy", "bot").exit_code == 0
    t.verify()
    clock.at(108)
    assert advance(pbem)[0].startswith("m1: substitute moves: cleo missed the deadline: ")
    assert t.state()["log"][-1]["substitute"] == "bot"
    t.verify()
    clock.at(109)
    r = pbem("replace", "m1", "anna", "dora=dora@example.org", "--json")
    assert r.exit_code == 0, r.output
    t.tokens["anna"] = json.loads(r.stdout)["token"]
    t.verify()
    assert pbem("pause", "m1").exit_code == 0
    t.verify()
    clock.at(110)
    assert pbem("resume", "m1").exit_code == 0
    t.verify()
    t.play(["pass"])  # anna's seat
    t.play(["pass"])  # ben
    assert len(t.state()["log"]) == 4
    t.verify()
    r = pbem("rollback", "m1", "--to", "2")
    assert r.exit_code == 0, r.output
    t.verify()
    assert len(t.state()["log"]) == 1 and len(t.state()["undone"]) == 3


# -- pbem set ------------------------------------------------------------------------------------------

def test_set_changes_the_deadline(pbem: Any, inbox: Path, clock: Clock) -> None:
    t = Table(pbem, inbox)
    assert t.status()["due"] is None
    clock.at(2)
    r = pbem("set", "m1", "--deadline", "24h")
    assert r.exit_code == 0, r.output
    assert r.stdout == "m1: deadline 1d, then wait.\n"
    assert t.state()["deadline"] == {"hours": 24, "grace_hours": 0, "policy": "wait"}
    assert t.state()["waiting_since"] == stamp(0)  # the clock runs from when the game began waiting
    row = t.status()
    assert (row["deadline"], row["due"]) == ("1d, then wait", stamp(24))
    assert subjects(t.games, 1) == ["m1: deadline 1d, then wait"]
    for player in PLAYERS:
        assert "] The GM set the deadline: 1d, then wait.\n" in t.last_report(player)

    r = pbem("set", "m1", "--grace", "2h", "--policy", "bot")
    assert r.stdout == "m1: deadline 1d + 2h grace, then bot.\n"
    r = pbem("set", "m1", "--deadline", "36h")
    assert r.stdout == "m1: deadline 36h + 2h grace, then bot.\n"  # the grace and policy stay
    row = t.status()
    assert (row["deadline"], row["due"]) == ("36h + 2h grace, then bot", stamp(36))
    status = pbem("status").stdout.splitlines()
    assert status[1].split()[6] == stamp(36)  # the due column
    r = pbem("set", "m1", "--grace", "0")
    assert r.stdout == "m1: deadline 36h, then bot.\n"

    r = pbem("set", "m1", "--deadline", "none")
    assert r.exit_code == 0, r.output
    assert r.stdout == "m1: deadline none.\n"
    assert "deadline" not in t.state()
    row = t.status()
    assert (row["deadline"], row["due"], row["needs_gm"]) == ("none", None, None)
    assert subjects(t.games, 1) == ["m1: deadline removed"]
    assert "] The GM removed the deadline.\n" in t.last_report("anna")
    clock.at(24 * 100)
    assert advance(pbem) == ["m1: nothing to do"]
    t.verify()


def test_set_refusals(pbem: Any, inbox: Path) -> None:
    t = Table(pbem, inbox)
    before = snapshot(t.games)
    assert_usage_error(pbem("set", "m1", "--policy", "sometimes"),
                       "Invalid value for '--policy': 'sometimes' is not one of 'wait', 'default', 'bot'.")
    assert_usage_error(pbem("set", "m1"), "say what to set: --deadline, --grace, --policy, --reports, --language or --timezone")
    assert_error(pbem("set", "m1", "--grace", "6h"),
                 "set a deadline (such as --deadline 48h) before a grace period or a policy")
    assert_error(pbem("set", "m1", "--policy", "bot"),
                 "set a deadline (such as --deadline 48h) before a grace period or a policy")
    assert_usage_error(pbem("set", "m1", "--deadline", "2x"),
                       "Invalid value for '--deadline': '2x' is not a duration such as 48h, 2d, 90m or 1w")
    assert_usage_error(pbem("set", "m1", "--deadline", "48h", "--grace", "2x"),
                       "Invalid value for '--grace': '2x' is not a duration such as 48h, 2d, 90m or 1w")
    assert_error(pbem("set", "m9", "--deadline", "48h"), f"there is no game 'm9' in {t.games.resolve()}")
    assert snapshot(t.games) == before


# -- pbem replace --------------------------------------------------------------------------------------

def test_replace_hands_the_seat_to_a_new_player(pbem: Any, inbox: Path, clock: Clock) -> None:
    t = Table(pbem, inbox, *DEFAULT_48)
    assert t.play(["auction"]) == "ben"
    clock.at(40)
    assert advance(pbem) == ["m1: reminded cleo"]
    old_token = t.tokens["cleo"]
    players_before = t.state()["players"]
    outbox_before = {p.name for p in t.outbox().iterdir()}
    commits = commit_count(t.games)

    now = clock.at(50)
    r = pbem("replace", "m1", "cleo", "dora=dora@example.org", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    token = out.pop("token")
    assert out == {"game": "m1", "seat": "cleo", "player": "dora"}
    assert token != old_token
    state = t.state()
    assert state["players"][2] == {"name": "cleo", "email": "dora@example.org", "person": "dora",
                                   "token_sha256": hashlib.sha256(token.encode()).hexdigest()}
    assert state["players"][:2] == players_before[:2]
    # the clock restarts: the deadline is extended, and the new player will be reminded afresh
    assert state["waiting_since"] == now
    assert "reminded" not in state
    assert t.status()["due"] == stamp(50 + 48)
    assert t.status()["since"] == now
    assert commit_count(t.games) == commits + 1
    assert subjects(t.games, 1) == ["m1: dora takes over the seat of cleo"]
    for player in PLAYERS:
        assert "] dora takes over the seat 'cleo' from cleo.\n" in t.last_report(player)

    # the welcome mail: to the new address, with the token and the game so far as the seat sees it
    new_mail = [read_mail(t.outbox() / n) for n in sorted({p.name for p in t.outbox().iterdir()} - outbox_before)]
    welcome = [m for m in new_mail if m["Subject"].startswith("[pbem] m1 welcome to Medici")]
    assert len(welcome) == 1
    assert welcome[0]["To"].addresses[0].addr_spec == "dora@example.org"
    text = body(welcome[0])
    assert f"Your secret token is:   {token}\n" in text
    assert "ben puts up the lot" in text and "dora takes over the seat 'cleo' from cleo." in text
    assert "player: cleo\n" in text and "turn: 2\n" in text
    # nothing more goes to the old player's address
    assert "cleo@example.org" not in [m["To"].addresses[0].addr_spec for m in new_mail]
    # the token is never in the history
    assert token not in git(t.games, "log", "-p", "--all")
    assert old_token not in git(t.games, "log", "-p", "--all")

    # the old deadline passes harmlessly
    clock.at(54)
    assert advance(pbem) == ["m1: nothing to do"]

    # the new token works under the new name and under the seat's name; the old one no longer does
    t.tokens["dora"] = token
    r = t.submit("dora", [{"bid": 3}])
    assert r.exit_code == 0, r.output
    assert r.stdout == "Queued cleo's orders for m1, turn 2: bid: 3.\n"
    r = t.submit("cleo", [{"bid": 5}], token=token)
    assert r.exit_code == 0, r.output
    assert r.stdout == "Queued cleo's orders for m1, turn 2: bid: 5 (it replaces the orders queued before).\n"
    assert_error(t.submit("cleo", ["pass"], token=old_token), "the token for 'cleo' in game 'm1' is wrong")
    assert_error(t.submit("dora", ["pass"], token=old_token), "the token for 'dora' in game 'm1' is wrong")
    assert len(t.queue()) == 1
    assert advance(pbem) == ["m1: applied cleo bid: 5"]
    assert t.state()["log"][-1]["player"] == "cleo"
    assert "substitute" not in t.state()["log"][-1]
    t.verify()


def test_replace_refusals(pbem: Any, inbox: Path) -> None:
    t = Table(pbem, inbox)
    before = snapshot(t.games)
    assert_error(pbem("replace", "m1", "zed", "dora=dora@example.org"), "game 'm1' has no player 'zed'")
    assert_error(pbem("replace", "m1", "cleo", "anna=anna2@example.org"), "'anna' already plays in game 'm1'")
    assert_error(pbem("replace", "m9", "cleo", "dora=dora@example.org"),
                 f"there is no game 'm9' in {t.games.resolve()}")
    assert snapshot(t.games) == before

    assert pbem("replace", "m1", "cleo", "dora=dora@example.org").exit_code == 0
    before = snapshot(t.games)
    # dora plays now (as a person, not a seat name); cleo's name is still the seat's
    assert_error(pbem("replace", "m1", "ben", "dora=dora2@example.org"), "'dora' already plays in game 'm1'")
    assert_error(pbem("replace", "m1", "ben", "cleo=cleo@example.org"), "'cleo' already plays in game 'm1'")
    assert snapshot(t.games) == before
    # the seat may be named by its new player too, and go back to its own name
    r = pbem("replace", "m1", "dora", "cleo=cleo2@example.org", "--json")
    assert r.exit_code == 0, r.output
    assert {k: v for k, v in json.loads(r.stdout).items() if k != "token"} == {
        "game": "m1", "seat": "cleo", "player": "cleo"}
    assert "person" not in t.state()["players"][2]
    assert t.state()["players"][2]["email"] == "cleo2@example.org"


def test_replace_refuses_a_finished_game(pbem: Any, inbox: Path) -> None:
    t = Table(pbem, inbox)
    t.finish()
    assert t.status()["status"] == "finished"
    before = snapshot(t.games)
    assert_error(pbem("replace", "m1", "cleo", "dora=dora@example.org"),
                 "game 'm1' is finished; its seats cannot change hands")
    assert_error(pbem("pause", "m1"), "game 'm1' is finished; only an active game can be paused")
    assert_error(pbem("resume", "m1"), "game 'm1' is finished, not paused")
    assert snapshot(t.games) == before


def test_replace_gives_the_same_person_a_new_token(pbem: Any, inbox: Path) -> None:
    t = Table(pbem, inbox)
    r = pbem("replace", "m1", "ben", "ben=ben2@example.org")
    assert r.exit_code == 0, r.output  # the seat's own player: a new token and address
    assert pbem("replace", "m1", "cleo", "dora=dora@example.org").exit_code == 0
    r = pbem("replace", "m1", "dora", "dora=dora2@example.org")
    assert r.exit_code == 0, r.output
    assert t.state()["players"][2]["email"] == "dora2@example.org"


def test_replace_records_the_welcome_report(pbem: Any, inbox: Path) -> None:
    t = Table(pbem, inbox)
    assert pbem("replace", "m1", "cleo", "dora=dora@example.org").exit_code == 0
    sent = t.state()["reports_sent"]["cleo"]
    assert [int(p.name[:4]) for p in t.reports("cleo")] == list(range(1, sent + 1))


# -- pbem pause and resume -----------------------------------------------------------------------------

def test_pause_and_resume(pbem: Any, inbox: Path, clock: Clock) -> None:
    t = Table(pbem, inbox, *DEFAULT_48)
    clock.at(1)
    assert t.submit("ben", ["auction"]).exit_code == 0  # queued before the pause
    clock.at(2)
    r = pbem("pause", "m1")
    assert r.exit_code == 0, r.output
    assert r.stdout == "m1: paused.\n"
    assert t.state()["status"] == "paused"
    assert subjects(t.games, 1) == ["m1: paused by the GM"]
    for player in PLAYERS:
        assert "] The GM paused the game. Orders wait until it resumes; no deadline runs.\n" in t.last_report(player)
    assert len(t.queue()) == 1

    # orders are checked and queued (a newer one replaces the older), none applied, no deadline runs
    r = t.submit("ben", ["draw", "auction"], turn=1)
    assert r.exit_code == 0, r.output
    assert r.stdout == ("Queued ben's orders for m1, turn 1: draw; auction (it replaces the orders queued before).\n"
                        "m1 is paused by the GM: they are applied when it resumes.\n")
    assert_error(t.submit("ben", ["pass"], turn=1),
                 "order 'pass': you are the auctioneer: send 'draw' or 'auction', not 'pass'")
    assert_error(pbem("pause", "m1"), "game 'm1' is paused; only an active game can be paused")
    clock.at(24 * 365)
    before = snapshot(t.games)
    assert advance(pbem) == ["m1: nothing to do"]
    assert snapshot(t.games) == before
    assert len(t.queue()) == 1 and t.state()["log"] == []
    row = t.status()
    assert (row["status"], row["needs_gm"], row["due"], row["queued"]) == ("paused", "paused", None, 1)
    r = pbem("status")
    assert r.stdout.endswith("\nNeeds the GM:\n  m1: paused\n")
    assert r.stdout.splitlines()[1].split()[3] == "paused"

    # resume: the clock starts again now
    now = clock.at(24 * 365 + 1)
    r = pbem("resume", "m1")
    assert r.exit_code == 0, r.output
    assert r.stdout == "m1: resumed.\n"
    state = t.state()
    assert state["status"] == "active" and state["waiting_since"] == now
    assert "] The GM resumed the game; the deadline starts again now.\n" in t.last_report("cleo")
    assert subjects(t.games, 1) == ["m1: resumed by the GM"]
    row = t.status()
    assert (row["needs_gm"], row["due"]) == (None, stamp(24 * 365 + 1 + 48))
    assert_error(pbem("resume", "m1"), "game 'm1' is active, not paused")
    assert advance(pbem) == ["m1: applied ben draw, auction"]  # the orders queued during the pause
    assert t.queue() == []
    t.verify()


def test_pause_stops_a_running_deadline(pbem: Any, inbox: Path, clock: Clock) -> None:
    t = Table(pbem, inbox, "--deadline", "48h", "--policy", "bot")
    clock.at(47)
    assert pbem("pause", "m1").exit_code == 0
    clock.at(200)
    assert advance(pbem) == ["m1: nothing to do"]
    assert pbem("resume", "m1").exit_code == 0
    assert advance(pbem) == ["m1: nothing to do"]  # 48h more from the resume, not from the start
    clock.at(200 + 48, -1)
    assert advance(pbem) == ["m1: reminded ben"]
    clock.at(200 + 48)
    assert advance(pbem)[0].startswith("m1: substitute moves: ben missed the deadline: ")


def test_rollback_keeps_a_paused_game_paused(pbem: Any, inbox: Path) -> None:
    t = Table(pbem, inbox)
    t.play(["auction"])
    t.play(["pass"])
    assert pbem("pause", "m1").exit_code == 0
    assert pbem("rollback", "m1", "--to", "2").exit_code == 0
    assert t.state()["status"] == "paused"
    assert pbem("resume", "m1").exit_code == 0


# -- pbem rollback -------------------------------------------------------------------------------------

def test_rollback_rebuilds_the_game_from_the_order_log(pbem: Any, inbox: Path, clock: Clock) -> None:
    t = Table(pbem, inbox, *DEFAULT_48)
    played = []
    for i, orders in enumerate((["auction"], [{"bid": 5}], ["pass"], ["pass"], ["auction"], ["pass"])):
        clock.at(i)
        played.append(t.play(orders))
    assert played == ["ben", "cleo", "anna", "ben", played[4], played[5]]
    full = t.state()
    assert full["engine"]["turn"] == 7 and len(full["log"]) == 6
    reports = {p: len(t.reports(p)) for p in PLAYERS}

    now = clock.at(10)
    r = pbem("rollback", "m1", "--to", "3")
    assert r.exit_code == 0, r.output
    assert r.stdout == "m1: back at turn 3; 4 order(s) undone and kept for the record.\n"
    state = t.state()
    rebuilt = replay(dict(full, log=full["log"][:2]))
    assert state["engine"] == rebuilt["engine"]
    assert state["rng_counter"] == rebuilt["rng_counter"]
    assert engine_events(state["events"]) == rebuilt["events"]
    assert state["engine"]["turn"] == 3
    assert state["log"] == full["log"][:2]
    assert state["undone"] == [dict(e, undone_at=now) for e in full["log"][2:]]
    assert state["status"] == "active" and state["waiting_since"] == now
    assert t.status()["due"] == stamp(10 + 48)
    assert t.waiting() == "anna"
    assert subjects(t.games, 1) == ["m1: rolled back to turn 3"]

    # every player is told, with the undone orders named
    undone = "; ".join(f"{e['player']} {order_text(e['order'])} (turn {e['turn']})" for e in full["log"][2:])
    assert undone.startswith("anna pass (turn 3); ben pass (turn 4); ")
    notice = f"The GM rolled the game back to turn 3. Undone: {undone}. The game waits for anna."
    for player in PLAYERS:
        assert len(t.reports(player)) == reports[player] + 1
        assert f"] {notice}\n" in t.last_report(player)
    t.verify()

    # the game goes on from there, differently
    clock.at(11)
    r = t.submit("anna", [{"bid": 6}])
    assert r.exit_code == 0, r.output
    assert r.stdout == "Queued anna's orders for m1, turn 3: bid: 6.\n"
    assert advance(pbem) == ["m1: applied anna bid: 6"]
    assert t.state()["log"][-1]["order"] == {"bid": 6}
    assert t.waiting() == "ben"
    t.verify()

    # a second rollback keeps the first one's record
    clock.at(12)
    r = pbem("rollback", "m1", "--to", "1")
    assert r.exit_code == 0, r.output
    assert r.stdout == "m1: back at turn 1; 3 order(s) undone and kept for the record.\n"
    state = t.state()
    assert state["log"] == [] and state["engine"] == replay(dict(full, log=[]))["engine"]
    assert len(state["undone"]) == 4 + 3
    assert state["undone"][-1]["order"] == {"bid": 6} and state["undone"][-1]["undone_at"] == stamp(12)
    assert t.waiting() == "ben"
    t.verify()


def test_rollback_refuses_bad_turns(pbem: Any, inbox: Path) -> None:
    t = Table(pbem, inbox)
    t.play(["auction"])
    t.play(["pass"])
    before = snapshot(t.games)
    for to in ("0", "3", "4", "99", "-1"):
        assert_error(pbem("rollback", "m1", "--to", to), "game 'm1' is at turn 3; roll back to a turn from 1 to 2")
    assert_usage_error(pbem("rollback", "m1"), "Missing option '--to'.")
    assert_error(pbem("rollback", "m9", "--to", "1"), f"there is no game 'm9' in {t.games.resolve()}")
    assert snapshot(t.games) == before


def test_rollback_revives_a_finished_game(pbem: Any, inbox: Path) -> None:
    t = Table(pbem, inbox)
    t.finish()
    full = t.state()
    last = full["engine"]["turn"]
    r = pbem("rollback", "m1", "--to", str(last - 1))
    assert r.exit_code == 0, r.output
    state = t.state()
    assert state["status"] == "active"
    assert state["engine"] == replay(dict(full, log=full["log"][:-1]))["engine"]
    assert t.waiting() == full["log"][-1]["player"]
    t.verify()


def substituted_history(pbem: Any, inbox: Path, clock: Clock) -> Table:
    """Two substitute moves (turns 1 and 2) and anna's own order (turn 3)."""
    t = Table(pbem, inbox, "--deadline", "1h", "--policy", "default")
    clock.at(1)
    assert advance(pbem) == ["m1: substitute moves: ben missed the deadline: auction (default)"]
    clock.at(2)
    assert advance(pbem) == ["m1: substitute moves: cleo missed the deadline: pass (default)"]
    clock.at(2.5)
    assert t.play(["pass"]) == "anna"
    return t


def test_rollback_keeps_the_marks_of_substitute_moves(pbem: Any, inbox: Path, clock: Clock) -> None:
    t = substituted_history(pbem, inbox, clock)
    marked = [e for e in t.state()["events"] if "substitute" in e]
    assert [e["turn"] for e in marked] == [1, 2]
    assert pbem("rollback", "m1", "--to", "3").exit_code == 0
    assert [e for e in t.state()["events"] if "substitute" in e] == marked


def test_rollback_keeps_the_history_before_the_turn(pbem: Any, inbox: Path, clock: Clock) -> None:
    t = substituted_history(pbem, inbox, clock)
    before = t.state()["events"]
    assert pbem("rollback", "m1", "--to", "3").exit_code == 0
    after = t.state()["events"]
    strip = lambda events: [{k: v for k, v in e.items() if k != "substitute"} for e in events]  # noqa: E731
    assert strip(after[:-1]) == strip([e for e in before if e["turn"] < 3])
    assert after[-1]["text"].startswith("The GM rolled the game back to turn 3.")


# -- pbem advance --dry-run ----------------------------------------------------------------------------

def test_dry_run_says_what_a_run_would_do_and_changes_nothing(pbem: Any, inbox: Path, clock: Clock) -> None:
    g1 = Table(pbem, inbox, *DEFAULT_48, game="g1")              # will get a substitute move
    Table(pbem, inbox, "--deadline", "48h", "--grace", "6h", game="g2")  # will be reminded, waits for the GM
    g3 = Table(pbem, inbox, game="g3")                           # an order is queued
    assert g3.submit("ben", ["draw"]).exit_code == 0
    g4 = Table(pbem, inbox, *DEFAULT_48, game="g4")              # a stale order and a paused game
    assert g4.submit("ben", ["auction"]).exit_code == 0
    GamesDir(g4.games).enqueue("g4", {"player": "cleo", "turn": 5, "orders": ["pass"], "received": stamp(0),
                                      "source": "file"})
    assert pbem("pause", "g4").exit_code == 0
    g5 = Table(pbem, inbox, game="g5")
    assert g5.submit("ben", ["auction"]).exit_code == 0
    GamesDir(g5.games).enqueue("g5", {"player": "cleo", "turn": 5, "orders": ["pass"], "received": stamp(0),
                                      "source": "file"})
    maildir = mailbox.Maildir(pbem.games / "mail" / "inbox", create=True)
    maildir.add(b"From: someone@example.org\nSubject: hello\nMessage-ID: <x1@example.org>\n\nhi\n")

    clock.at(54)
    before = snapshot(pbem.games)
    r = pbem("advance", "--dry-run")
    assert r.exit_code == 0, r.output
    assert r.stderr == ""
    expected = [
        "g1: substitute moves: ben missed the deadline: auction (default)",
        "g2: reminded ben, ben missed the deadline: the game waits for the GM (policy: wait; `pbem set`, "
        "`pbem replace` or `pbem pause` decides)",
        "g3: applied ben draw",
        "g4: nothing to do",
        "g5: applied ben auction, refused cleo (turn 5): your orders answer turn 5, but game 'g5' is only at turn 2",
    ]
    assert r.stdout.splitlines() == [  # the mail as a run would read it, without reading it
        "(dry run) mail from someone@example.org: would be refused: the mail holds no orders: put them "
        "between the lines '----- pbem orders begin -----' and '----- pbem orders end -----' of your "
        "report, or attach a turn file"] + [f"(dry run) {line}" for line in expected]
    assert snapshot(pbem.games) == before
    assert len(g3.queue()) == 1 and len(g4.queue()) == 2 and len(g5.queue()) == 2
    assert not (g5.dir / "rejected").exists()
    assert len(maildir) == 1
    assert pbem("advance", "--dry-run").stdout == r.stdout  # and says it again

    # the real run does what the dry run said
    r = pbem("advance")
    assert r.exit_code == 0, r.output
    lines = game_lines(r.stdout)
    assert lines[-4:] == [e for e in expected if not e.endswith("nothing to do")]  # a run lists what happened
    assert snapshot(pbem.games) != before
    assert g1.state()["log"][0]["substitute"] == "default"
    assert g3.queue() == [] and len(g4.queue()) == 2


def test_dry_run_without_games(pbem: Any) -> None:
    r = pbem("advance", "--dry-run")  # no games dir: refused (tests/test_gamesdir.py), nothing made
    assert r.exit_code == 1
    assert not pbem.games.exists()
    assert pbem("init").exit_code == 0
    r = pbem("advance", "--dry-run")
    assert r.exit_code == 0, r.output
    assert r.stdout == "(dry run) no games\n"


# -- pbem status ---------------------------------------------------------------------------------------

def test_status_shows_deadlines_and_the_games_that_need_the_gm(pbem: Any, inbox: Path, clock: Clock) -> None:
    Table(pbem, inbox, *DEFAULT_48, game="a1")
    Table(pbem, inbox, "--deadline", "1d", game="a2")
    Table(pbem, inbox, "--deadline", "1w", "--policy", "bot", game="a3")
    Table(pbem, inbox, game="a4", ruleset=QUICK, players=("anna", "ben"))
    assert pbem("pause", "a3").exit_code == 0
    clock.at(30)
    r = pbem("status")
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines() == [
        "game             ruleset           turn  status    waiting for              since                 "
        "due                   queued",
        f"a1               medici               1  active    {'ben':<24} {stamp(0)}  {stamp(48)}  0",
        f"a2               medici               1  active    {'ben':<24} {stamp(0)}  {stamp(24)}  0",
        f"a3               medici               1  paused    {'ben':<24} {stamp(0)}  {'-':<21} 0",
        f"a4               {QUICK:<20} 1  active    {'anna':<24} {stamp(0)}  {'-':<21} 0",
        "",
        "Needs the GM:",
        "  a2: ben missed the deadline (policy: wait)",
        "  a3: paused",
    ]
    rows = json.loads(pbem("status", "--json").stdout)
    assert [set(row) for row in rows] == [{"game", "ruleset", "turn", "status", "waiting_for", "since", "queued",
                                           "deadline", "due", "needs_gm"}] * 4
    assert [(row["game"], row["deadline"], row["due"], row["needs_gm"]) for row in rows] == [
        ("a1", "2d + 6h grace, then default", stamp(48), None),
        ("a2", "1d, then wait", stamp(24), "ben missed the deadline (policy: wait)"),
        ("a3", "7d, then bot", None, "paused"),
        ("a4", "none", None, None),
    ]


def test_status_without_anything_for_the_gm(pbem: Any, inbox: Path) -> None:
    Table(pbem, inbox, *DEFAULT_48)
    r = pbem("status")
    assert r.exit_code == 0
    assert "Needs the GM" not in r.stdout
    assert len(r.stdout.splitlines()) == 2
