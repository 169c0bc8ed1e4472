"""`pbem watch` in a process of its own against the real servers of tests/mailservers.py and a Maildir:
a reply answered within seconds of its delivery (IMAP IDLE, a Maildir looked at every 2 s), a dropped
IMAP connection made again, a deadline acted on when it comes (also one a GM sets by hand while the
watch runs), the games dir's lock left to a GM's command, and SIGTERM or Ctrl-C in the middle of a run:
the run finishes, nothing is lost or done twice, exit 0."""

from __future__ import annotations

import fcntl
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from conftest import Pbem
from helpers import git
from conftest_mail import (FilesOut, ImapDrop, MaildirDrop, MailGames, MboxDrop, address, order_body, order_line,
                           parse, player_mail)
from mailservers import Dovecot, certs, dovecot, imap_user  # noqa: F401
from pbem.watch import pending_moment

LATENCY = 5.0  # seconds from a reply's delivery to its answer in the outbox


class Watching:
    """`pbem watch` in a session of its own (a group signal reaches it and its children alone), its
    output read line by line as it comes."""

    def __init__(self, root: Path, *args: str, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "pbem", "watch", "--games-dir", str(root), "--jobs", "1",
                                      *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env={**os.environ, **(env or {})}, start_new_session=True)
        self.out: list[str] = []
        self.err: list[str] = []
        self.readers = [threading.Thread(target=self._read, args=(stream, lines), daemon=True)
                        for stream, lines in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))]
        for reader in self.readers:
            reader.start()

    @staticmethod
    def _read(stream: Any, lines: list[str]) -> None:
        for line in stream:
            lines.append(line.rstrip("\n"))

    def wait_for(self, pattern: str, stream: str = "out", timeout: float = 20.0) -> str:
        """The first line of stdout (or stderr) that `pattern` finds; fails after `timeout`."""
        lines = self.out if stream == "out" else self.err
        found: list[str] = []

        def seen() -> bool:
            found[:] = [line for line in lines if re.search(pattern, line)]
            return bool(found) or self.proc.poll() is not None
        wait_until(seen, timeout, f"{pattern!r} in the watch's {stream}")
        assert found, f"the watch ended ({self.proc.returncode}) before {pattern!r}:\n{self.log()}"
        return found[0]

    def ready(self) -> str:
        return self.wait_for(r"^\S+Z watching ")

    def stop(self, sig: int = signal.SIGTERM, group: bool = False, timeout: float = 30.0) -> int:
        if group:
            os.killpg(self.proc.pid, sig)  # as a terminal's Ctrl-C: the watch, and every git it runs
        else:
            self.proc.send_signal(sig)
        code = self.proc.wait(timeout)
        for reader in self.readers:
            reader.join(5)
        return code

    def log(self) -> str:
        return "stdout:\n" + "\n".join(self.out) + "\nstderr:\n" + "\n".join(self.err)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


@pytest.fixture
def watching() -> Iterator[Callable[..., Watching]]:
    started: list[Watching] = []

    def start(root: Path, *args: str, env: dict[str, str] | None = None) -> Watching:
        started.append(Watching(root, *args, env=env))
        return started[-1]
    yield start
    for w in started:
        w.kill()


def wait_until(condition: Callable[[], Any], timeout: float, what: str = "the condition") -> float:
    """Seconds until `condition()` holds, asked every 20 ms; fails after `timeout`."""
    begun = time.monotonic()
    while not condition():
        if time.monotonic() - begun > timeout:
            pytest.fail(f"no {what} within {timeout}s")
        time.sleep(0.02)
    return time.monotonic() - begun


def answers(root: Path, mid: str) -> list[Any]:
    """pbem's answers to the mail `mid` in the outbox folder."""
    folder = root / "mail" / "outbox"
    mails = [parse(p.read_bytes()) for p in sorted(folder.glob("reply-*.eml"))] if folder.is_dir() else []
    return [m for m in mails if str(m["In-Reply-To"]) == mid]


def reply(g: MailGames) -> tuple[bytes, str, str]:
    """The player to move answers his welcome mail with a legal order: (the mail, its Message-ID, he)."""
    player, _ = g.mover()
    welcome = g.welcome[player]
    mid = f"<watch.{time.monotonic_ns()}@players.test>"
    body = order_body(g.tokens[player], [order_line(g.legal_order(player))])
    raw = player_mail(address(player), body, in_reply_to=str(welcome["Message-ID"]), message_id=mid,
                      subject=f"Re: {welcome['Subject']}")
    return raw, mid, player


def answered_within(g: MailGames, raw: bytes, mid: str) -> float:
    """Deliver `raw`, and the seconds until its answer is in the outbox."""
    g.inbox.deliver(raw)
    delivered = time.monotonic()
    wait_until(lambda: answers(g.root, mid), LATENCY, "answer")
    return time.monotonic() - delivered


def git_clean(root: Path) -> str:
    return subprocess.run(["git", "status", "--porcelain"], cwd=root, capture_output=True, text=True, check=True).stdout


def started(g: MailGames) -> MailGames:
    """A game begun, and pbem.yaml committed (`pbem new` commits it, but for one that holds a password)."""
    g.new()
    if git(g.root, "status", "--porcelain", "--", "pbem.yaml"):
        git(g.root, "add", "pbem.yaml")
        git(g.root, "commit", "-q", "-m", "pbem.yaml")
    return g


@pytest.fixture
def imap_games(pbem: Pbem, dovecot: Dovecot, imap_user: str) -> MailGames:
    """A game whose GM reads an IMAP account (IMAPS) and writes mail to mail/outbox."""
    g = MailGames(pbem, ImapDrop(dovecot, imap_user), FilesOut(pbem.games))
    return started(g)


@pytest.fixture
def maildir_games(pbem: Pbem) -> MailGames:
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    return started(g)


# -- answers within seconds --------------------------------------------------------------------------

@pytest.mark.parametrize("security", ["tls", "starttls", "none"])
def test_imap_idle_answers_a_reply_within_5_seconds(pbem: Pbem, dovecot: Dovecot, imap_user: str, security: str,
                                                    watching: Callable[..., Watching]) -> None:
    """Over TLS from the start, after STARTTLS, and in clear text on localhost (`security: none`)."""
    port = {"port": dovecot.port_starttls} if security == "none" else {}
    g = started(MailGames(pbem, ImapDrop(dovecot, imap_user, security, **port), FilesOut(pbem.games)))
    w = watching(g.root, "--interval", "60")
    assert re.search(r" mail in IMAP 127\.0\.0\.1:\d+ folder INBOX \(IDLE\), a run at least every 60 min; "
                     r"deadlines: none ahead$", w.ready()), w.log()
    time.sleep(0.3)  # into its IDLE: the runs of the hour's interval are far off
    raw, mid, player = reply(g)
    latency = answered_within(g, raw, mid)
    print(f"IMAP IDLE ({security}): answered {latency:.2f}s after delivery")
    line = w.wait_for(rf"mail from {address(player)}: m1 turn 1: queued ")
    assert re.fullmatch(rf"\d{{4}}-\d\d-\d\dT\d\d:\d\d:\d\dZ m1: mail from {address(player)}: m1 turn 1: queued [^;]+; "
                        rf"m1: applied {player} [^;]+; \d+ mails written to {re.escape(str(g.root))}/mail/outbox",
                        line), line
    assert g.inbox.waiting() == [] and len(g.inbox.read()) == 1
    assert len(g.state()["log"]) == 1
    assert w.err == [], w.log()
    assert w.stop() == 0


@pytest.mark.parametrize("kind", ["maildir", "mbox"])
def test_a_local_inbox_watch_answers_a_reply_within_5_seconds(pbem: Pbem, kind: str,
                                                              watching: Callable[..., Watching]) -> None:
    drop = MaildirDrop(pbem.games) if kind == "maildir" else MboxDrop(pbem.games)
    g = started(MailGames(pbem, drop, FilesOut(pbem.games)))
    w = watching(g.root, "--interval", "60")
    shown = {"maildir": "Maildir", "mbox": "mbox"}[kind]
    assert re.search(rf" mail in {shown} {re.escape(str(g.root / drop.path))} \(looked at every 2s\), ", w.ready())
    raw, mid, player = reply(g)
    latency = answered_within(g, raw, mid)
    print(f"{shown}: answered {latency:.2f}s after delivery")
    w.wait_for(rf"mail from {address(player)}: m1 turn 1: queued ")
    assert g.inbox.waiting() == [] and len(g.inbox.read()) == 1
    assert len(g.state()["log"]) == 1
    assert w.stop() == 0
    assert len([line for line in w.out if " mail from " in line]) == 1, w.log()  # one run; idle wakes say nothing
    assert w.err == [], w.log()


def test_a_new_inbox_in_pbem_yaml_is_watched(maildir_games: MailGames, watching: Callable[..., Watching]) -> None:
    g = maildir_games
    w = watching(g.root, "--interval", "60", "--poll", "0.5")
    w.ready()
    g.inbox = MaildirDrop(g.root, "mail/elsewhere")
    g.write_config()
    w.wait_for(rf"pbem\.yaml changed: now watching Maildir {re.escape(str(g.root))}/mail/elsewhere ", timeout=5)
    raw, mid, _ = reply(g)
    answered_within(g, raw, mid)
    assert g.inbox.waiting() == []
    assert w.stop() == 0 and w.err == [], w.log()


def test_an_idle_watch_says_nothing(maildir_games: MailGames, watching: Callable[..., Watching]) -> None:
    """Runs that do nothing (the start's, an interval's every 0.6 s here) write no line."""
    w = watching(maildir_games.root, "--interval", "0.01", "--poll", "0.2")
    w.ready()
    lock = maildir_games.root / ".pbem.lock"
    ran = lock.stat().st_mtime_ns
    wait_until(lambda: lock.stat().st_mtime_ns > ran, 5, "interval's run")  # each run opens it anew
    time.sleep(1)
    assert w.stop() == 0
    assert len(w.out) == 1 and w.err == [], w.log()


def imap_sessions(server: Dovecot) -> list[int]:
    """The pids of this dovecot's imap processes: one per logged-in connection."""
    assert server.proc is not None
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        comm, fields = stat[stat.index("(") + 1:stat.rindex(")")], stat[stat.rindex(")") + 2:].split()
        if comm == "imap" and int(fields[1]) == server.proc.pid:
            found.append(int(entry.name))
    return found


def test_imap_a_dropped_connection_is_made_again(imap_games: MailGames, dovecot: Dovecot,
                                                  watching: Callable[..., Watching]) -> None:
    g = imap_games
    w = watching(g.root, "--interval", "60")
    assert "(IDLE)" in w.ready()
    time.sleep(0.3)
    sessions = imap_sessions(dovecot)
    assert sessions
    for pid in sessions:  # the server's side of the watch's connection dies
        os.kill(pid, signal.SIGKILL)
    lost = w.wait_for(r"IMAP 127\.0\.0\.1:\d+: the connection was lost \(.+\); connecting again in 1s$", "err")
    raw, mid, player = reply(g)
    latency = answered_within(g, raw, mid)
    print(f"IMAP after a dropped connection: answered {latency:.2f}s after delivery")
    w.wait_for(r"IMAP 127\.0\.0\.1:\d+: connected again$", "err")
    w.wait_for(rf"mail from {address(player)}: m1 turn 1: queued ")
    assert len(g.state()["log"]) == 1 and len(answers(g.root, mid)) == 1
    assert w.stop() == 0
    assert w.err.index(lost) == 0 and len(w.err) == 2, w.log()


# -- deadlines ---------------------------------------------------------------------------------------

def test_a_deadline_that_has_come_wakes_the_watch(pbem: Pbem, watching: Callable[..., Watching]) -> None:
    """No mail, an interval of an hour: `--once` runs for the reminder that fell due."""
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    g.new()
    assert pbem("set", "m1", "--deadline", "1h").exit_code == 0
    mover, _ = g.mover()
    w = watching(g.root, "--once", "--interval", "60", env={"PBEM_NOW": "2026-11-21T12:50:00Z"})
    assert w.proc.wait(20) == 0, w.log()
    w.stop()
    assert w.out[0].endswith(" deadlines: the next at 2026-11-21T12:45:00Z"), w.log()
    assert re.fullmatch(rf"\S+Z m1: reminded {mover}; 3 mails written to {re.escape(str(g.root))}/mail/outbox",
                        w.out[1]), w.log()  # the reminder, and the others told whom the game waits for
    assert len(w.out) == 2
    assert g.state()["reminded"] == g.state()["engine"]["turn"]


def test_a_deadline_the_gm_sets_beside_the_watch(pbem: Pbem, watching: Callable[..., Watching]) -> None:
    """The GM's `pbem set` works while the watch runs (it holds no lock while it waits); the watch
    sees the commit and acts on the new deadline's reminder, past at the watch's clock, at once."""
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    g.new()
    mover, _ = g.mover()
    w = watching(g.root, "--interval", "60", env={"PBEM_NOW": "2026-11-21T12:50:00Z"})
    assert w.ready().endswith("deadlines: none ahead")
    r = pbem("set", "m1", "--deadline", "1h")  # at the tests' clock, 12:00: the reminder is due at 12:45
    assert r.exit_code == 0, r.output
    set_at = time.monotonic()
    w.wait_for(rf" m1: reminded {mover}; ", timeout=LATENCY)
    print(f"a deadline set by hand: reminded {time.monotonic() - set_at:.2f}s after `pbem set`")
    assert w.stop() == 0
    assert w.err == [], w.log()


def test_the_next_moment_of_a_game() -> None:
    base = {"status": "active", "engine": {"turn": 3}, "waiting_since": "2026-11-21T12:00:00Z"}
    rule = {"hours": 4, "grace_hours": 1, "policy": "bot"}
    assert pending_moment(base) is None
    assert str(pending_moment({**base, "deadline": rule})) == "2026-11-21 15:00:00+00:00"  # the reminder
    assert str(pending_moment({**base, "deadline": rule, "reminded": 3})) == "2026-11-21 17:00:00+00:00"
    waiting = {**base, "deadline": {**rule, "policy": "wait"}, "reminded": 3}
    assert str(pending_moment(waiting)) == "2026-11-21 17:00:00+00:00"  # the GM is told once
    assert pending_moment({**waiting, "overdue": 3}) is None
    assert pending_moment({**base, "deadline": rule, "status": "paused"}) is None


# -- the lock, and stopping --------------------------------------------------------------------------

def test_the_watch_waits_while_a_gm_command_holds_the_lock(maildir_games: MailGames,
                                                           watching: Callable[..., Watching]) -> None:
    g = maildir_games
    w = watching(g.root, "--interval", "60", "--poll", "0.5")
    w.ready()
    raw, mid, _ = reply(g)
    with open(g.root / ".pbem.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a `pbem advance` by hand, say
        g.inbox.deliver(raw)
        time.sleep(1.5)  # the watch has seen the mail (it looks every 0.5 s) and waits
        assert answers(g.root, mid) == [] and len(g.inbox.waiting()) == 1
        fcntl.flock(lock, fcntl.LOCK_UN)
    released = time.monotonic()
    wait_until(lambda: answers(g.root, mid), LATENCY, "answer")
    assert time.monotonic() - released < 2
    assert w.stop() == 0 and w.err == [], w.log()


@pytest.mark.parametrize("kind, sig, group", [("imap", signal.SIGTERM, False), ("maildir", signal.SIGINT, True)],
                         ids=["imap-sigterm", "maildir-ctrl-c"])
def test_a_signal_in_the_middle_of_a_run(kind: str, sig: int, group: bool, request: pytest.FixtureRequest,
                                         watching: Callable[..., Watching], tmp_path: Path) -> None:
    """The signal comes while the run commits (a git hook holds the commit a second): the run finishes,
    its git too (a Ctrl-C reaches every process of the terminal's group), the answer goes out, the
    mail is filed once, everything is committed, exit 0."""
    g: MailGames = request.getfixturevalue(f"{kind}_games")
    began, ended = tmp_path / "hook-began", tmp_path / "hook-ended"
    hook = g.root / ".git" / "hooks" / "pre-commit"
    hook.parent.mkdir(exist_ok=True)
    # git unblocks the signals for its hooks: this one ignores them (the test is about pbem's own git)
    hook.write_text(f"#!/bin/sh\ntrap '' INT TERM\ntouch '{began}'\nsleep 1\ntouch '{ended}'\n")
    hook.chmod(0o755)
    w = watching(g.root, "--interval", "60")
    w.ready()
    raw, mid, player = reply(g)
    # a change a run that died left uncommitted: the run commits the game with `git commit`, which runs
    # the hook (a game git has clean is committed through fast-import, which runs none)
    public = g.root / "m1" / "public.yaml"
    public.write_text("# left by a run that died\n" + public.read_text())
    g.inbox.deliver(raw)
    wait_until(began.exists, 10, "run at its commit")
    assert not ended.exists()
    assert w.stop(sig, group) == 0, w.log()
    assert ended.exists()  # the hook, and the git commit that ran it, were not interrupted
    assert len(answers(g.root, mid)) == 1
    assert g.inbox.waiting() == [] and len(g.inbox.read()) == 1
    assert [e["player"] for e in g.state()["log"]] == [player]
    assert git_clean(g.root) == ""
    assert list((g.root / "mail" / "outgoing").glob("*.eml")) == []  # everything went out
    assert len([line for line in w.out if " mail from " in line]) == 1 and w.err == [], w.log()


def test_sigterm_while_waiting_stops_at_once(imap_games: MailGames, watching: Callable[..., Watching]) -> None:
    w = watching(imap_games.root, "--interval", "60")
    w.ready()
    time.sleep(0.3)
    asked = time.monotonic()
    assert w.stop() == 0
    assert time.monotonic() - asked < 2
    assert w.err == [], w.log()


def test_watch_refuses_a_folder_that_is_no_games_dir(tmp_path: Path) -> None:
    r = Pbem(tmp_path / "nowhere")("watch", "--once")
    assert (r.exit_code, r.stderr) == (1, f"Error: {tmp_path / 'nowhere'} is not a pbem games dir (no such folder); "
                                          f"`pbem new` or `pbem init` creates one\n")
    assert not (tmp_path / "nowhere").exists()


def test_watch_refuses_a_pbem_yaml_that_is_not_valid(pbem: Pbem) -> None:
    pbem.new()
    (pbem.games / "pbem.yaml").write_text("inbox:\n  type: pigeon\n")
    r = pbem("watch", "--once")
    assert r.exit_code == 1 and r.stderr.startswith(f"Error: {pbem.games}/pbem.yaml is not valid:"), r.output


def test_a_failing_imap_server_is_said_in_the_words_of_advance(imap_games: MailGames, dovecot: Dovecot,
                                                                imap_user: str,
                                                                watching: Callable[..., Watching]) -> None:
    """A wrong password: the watch's connection and its runs say the line `pbem advance` and `pbem doctor`
    say, once each for the connection however often it tries again."""
    import yaml

    value = imap_games.config()
    value["inbox"]["password_env"] = "PBEM_WATCH_WRONG"
    (imap_games.root / "pbem.yaml").write_text(yaml.safe_dump(value, sort_keys=False))
    line = (f"the IMAP server 127.0.0.1:{dovecot.port_tls} refused the password for {imap_user} "
            f"([AUTHENTICATIONFAILED] Authentication failed.): check the password in $PBEM_WATCH_WRONG "
            f"(inbox.password_env in pbem.yaml)")
    w = watching(imap_games.root, "--poll", "0.2", env={"PBEM_WATCH_WRONG": "wrong"})
    w.ready()
    assert re.fullmatch(r"\S+Z " + re.escape(line) + r"; connecting again in 1s", w.err[0]), w.log()
    w.wait_for(r"^\S+Z " + re.escape(line) + "$", "err", timeout=20)  # and its runs
    assert w.stop() == 0
    assert sum(1 for text in w.err if "connecting again in" in text) == 1, w.log()


class _Folder:
    """An IMAP session's side of a folder into which mail comes while the server answers a search: the
    first answer is of the folder before it, and an EXISTS beside it tells of the new mail once."""

    def __init__(self, answers: list[bytes], told: int) -> None:
        self.answers, self.told, self.searches = answers, told, 0
        self.untagged_responses: dict[str, list[bytes]] = {}

    def noop(self) -> tuple[str, list[bytes]]:
        return "OK", [b""]

    def uid(self, command: str, *args: Any) -> tuple[str, list[bytes]]:
        assert command == "SEARCH"
        answer = self.answers[min(self.searches, len(self.answers) - 1)]
        self.searches += 1
        if self.searches <= self.told:
            self.untagged_responses["EXISTS"] = [b"3"]
        return "OK", [answer]

    def send(self, data: bytes) -> None:
        raise AssertionError(f"an IDLE begun, of a folder whose new mail the server told of already: {data!r}")

    def shutdown(self) -> None:
        pass


def _watching(folder: _Folder, known: int) -> Any:
    from pbem.watch import ImapWatch

    class Log:
        errors: list[str] = []

        def error(self, line: str) -> None:
            self.errors.append(line)

    watch = object.__new__(ImapWatch)
    watch.imap, watch.known, watch.idle, watch.where = folder, known, True, "imap.test"
    watch.failures, watch.retry_at, watch.said, watch.log = 0, 0.0, None, Log()
    return watch


def test_mail_the_server_tells_of_beside_a_search_wakes_the_watch() -> None:
    """A mail that comes while the server answers the watch's search is in its next answer: the watch
    runs for it, where an IDLE begun on the first answer would wait for the next mail (or minutes)."""
    folder = _Folder([b"1 2", b"1 2 3"], told=1)
    asked = iter([None, "stop"])
    watch = _watching(folder, known=2)
    assert watch.wait(lambda: next(asked)) == "mail"
    assert folder.searches == 2 and watch.log.errors == []


def test_a_server_that_tells_of_mail_beside_every_answer_is_searched_a_few_times() -> None:
    from pbem.watch import SEARCHES

    folder = _Folder([b"1 2 3"], told=99)
    watch = _watching(folder, known=0)
    assert watch._uids() == [1, 2, 3] and folder.searches == SEARCHES
