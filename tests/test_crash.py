"""Runs that die half way, and what the next run makes of them.

The kill tests run `pbem advance` as a real process that PBEM_DIE_AT stops dead (os._exit, no cleanup)
just before a named step (pbem.store.crash_point), then run it again normally: the games, reports, mail
and git history must end as after one run that never died. Then the faults a crash (or a killed git)
used to cause, one by one: a stale .git/index.lock, orders applied but still queued, mail filed twice,
one broken game keeping every mail in the inbox.
"""

from __future__ import annotations

import email
import email.policy
import errno
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

import helpers
from conftest_mail import (FilesOut, MaildirDrop, MailGames, MboxDrop, address, player_mail, turn_file)
from helpers import Pbem, commit_count, git
from mailservers import certs, dovecot, imap_user  # noqa: F401 (fixtures)
from pbem.mail import boxes as pbem_mailbox
from pbem.config import Config
from pbem.errors import PbemError, StoreError
from pbem.mail.boxes import ImapInbox, MaildirInbox, MboxInbox
from pbem.store import CommitBatch, GamesDir, process_start

SEED = "crash-test-seed-0123"
PLAYERS = ("anna", "ben", "cleo")


# -- a games dir with work for one run -------------------------------------------------------------------

def mover(pbem: Pbem, game: str) -> str:
    return pbem.show(game)["waiting_for"][0]


def idle(pbem: Pbem, game: str) -> str:
    who = mover(pbem, game)
    return next(p for p in PLAYERS if p != who)


def build(root: Path, drop: type) -> None:
    """Games m1 and m2 and the mail and turn files for one run:
    - m1: orders by mail from the player to move (a turn file attached), and a mail with a wrong token;
    - a mail that is set aside (an auto-reply);
    - m2: orders by `pbem submit`, and a queued entry of a player whose move it is not (refused).
    """
    pbem = Pbem(root)
    g = MailGames(pbem, drop(root), FilesOut(root))
    g.new("m1", seed=SEED)
    assert git(root, "status", "--porcelain") == ""  # `pbem new` committed pbem.yaml too
    r = pbem("new", "medici", "m2", *helpers.player_args(*PLAYERS), "--seed", SEED, "--json")
    assert r.exit_code == 0, r.output
    who = mover(pbem, "m1")
    g.inbox.deliver(player_mail(address(who), "my orders\n", message_id="<orders.m1@players.test>",
                                attachments=[("turn.yaml", turn_file("m1", who, g.tokens[who], 1, ["auction"]))]))
    g.inbox.deliver(player_mail("x@elsewhere.test", "I am away\n", message_id="<away@elsewhere.test>",
                                headers={"Auto-Submitted": "auto-replied"}))
    other = idle(pbem, "m1")
    g.inbox.deliver(player_mail(address(other), "orders\n", message_id="<badtoken.m1@players.test>",
                                attachments=[("turn.yaml", turn_file("m1", other, "guessed", 1, ["draw"]))]))
    tokens2 = {p["name"]: p["token"] for p in json.loads(r.stdout)["players"]}
    who2 = mover(pbem, "m2")
    path = root.parent / "m2-turn.yaml"
    path.write_text(turn_file("m2", who2, tokens2[who2], 1, ["draw", "auction"]))
    assert pbem("submit", path).exit_code == 0
    GamesDir(root).enqueue("m2", {"player": idle(pbem, "m2"), "turn": 1, "orders": ["pass"],
                                  "received": "2026-11-21T12:00:00Z", "source": "file"})


def mail_ids(box: Any) -> list[str]:
    return sorted(str(email.message_from_bytes(raw, policy=email.policy.default)["Message-ID"]) for raw in box)


def outcome(root: Path, drop: type) -> dict[str, Any]:
    """Everything a run leaves that must not depend on whether it died half way."""
    d = drop(root)
    files = {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
             if p.is_file() and p.relative_to(root).parts[0] in ("m1", "m2")}
    return {"files": files,  # states, reports, rejected orders (the queues must be empty)
            "outbox": {p.name: p.read_bytes() for p in sorted((root / "mail" / "outbox").glob("*.eml"))},
            "outgoing": sorted((root / "mail" / "outgoing").glob("*.eml")),
            "seen": (root / "mail" / "seen.log").read_text(),
            "inbox": d.waiting(), "read": mail_ids(d.read()), "set_aside": mail_ids(d.set_aside())}


@pytest.fixture(scope="module")
def env() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        helpers.fixed_clock(mp)
        yield


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory, env: None) -> dict[str, Path]:
    """A games dir ready for the run, one with a Maildir inbox and one with an mbox."""
    out = {}
    for kind, drop in (("maildir", MaildirDrop), ("mbox", MboxDrop)):
        root = tmp_path_factory.mktemp(f"template-{kind}") / "games"
        build(root, drop)
        out[kind] = root
    return out


@pytest.fixture(scope="module")
def reference(templates: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """What one run that does not die leaves."""
    out = {}
    for kind, drop in (("maildir", MaildirDrop), ("mbox", MboxDrop)):
        root = tmp_path_factory.mktemp(f"reference-{kind}") / "games"
        shutil.copytree(templates[kind], root, symlinks=True)
        r = Pbem(root)("advance")
        assert r.exit_code == 0, r.output
        out[kind] = outcome(root, drop)
    return out


# named steps of a run, in the order a run reaches them (`:n`: the n-th time): reading the mail (the
# second of three), m1's reports, history appended, state, m2's history, queue, git add, then m2's
# refused order and commit, the public file between a game's state file and its commit,
# filing the second mail, delivery; for an mbox inbox also the rewrite of the inbox
STEPS = [
    ("maildir", "remember:2"), ("maildir", "reports"), ("maildir", "history"), ("maildir", "save"),
    ("maildir", "history:2"), ("maildir", "dequeue"),
    ("maildir", "git-commit"), ("maildir", "dequeue:3"), ("maildir", "commit:2"), ("maildir", "public"),
    ("maildir", "file-mail:2"), ("maildir", "deliver"), ("mbox", "file-mail:2"), ("mbox", "unlink-mail"),
]


def pbem_process(root: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`pbem advance` as a process of its own, through the command's entry point (`python -m pbem`)."""
    return subprocess.run([sys.executable, "-m", "pbem", "advance", "--games-dir", str(root)],
                          env=dict(os.environ, **env), capture_output=True, text=True, timeout=60)


def forked_advance(root: Path, **env: str) -> int:
    """`pbem advance` in a process of its own, forked from this one (the modules are loaded already, so
    it costs only the run); its output goes to root/../advance.{out,err}. Returns the process id."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid:
        return pid
    code = 99
    try:  # the child: never returns into pytest
        os.environ.update(env)
        sys.stdout = open(root.parent / "advance.out", "w")  # noqa: SIM115 (closed by os._exit)
        sys.stderr = open(root.parent / "advance.err", "w")  # noqa: SIM115
        from pbem.cli import main
        try:
            main(["advance", "--games-dir", str(root)], prog_name="pbem")
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    except BaseException:
        import traceback
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def wait(pid: int) -> int:
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


@pytest.fixture(scope="module")
def killed(templates: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Any]:
    """For each step, a copy of the template in which `pbem advance` (a process of its own) died at that
    step, then ran again to the end; the processes run side by side. Returns the games dir, and the exit
    code, stdout and stderr of the second run."""
    roots = {}
    for kind, step in STEPS:
        root = tmp_path_factory.mktemp(f"killed-{kind}-{step.replace(':', '-')}") / "games"
        shutil.copytree(templates[kind], root, symlinks=True)
        roots[(kind, step)] = root
    pids = {key: forked_advance(root, PBEM_DIE_AT=key[1]) for key, root in roots.items()}
    for key, pid in pids.items():
        code = wait(pid)
        assert code == 137, (key, code, (roots[key].parent / "advance.err").read_text())  # it died at the step
    pids = {key: forked_advance(root) for key, root in roots.items()}  # each a new process, after the dead one
    return {key: (roots[key], wait(pid), (roots[key].parent / "advance.out").read_text(),
                  (roots[key].parent / "advance.err").read_text()) for key, pid in pids.items()}


@pytest.mark.parametrize("kind, step", STEPS, ids=[f"{k}-{s}" for k, s in STEPS])
def test_a_run_killed_at_a_step_then_run_again_ends_as_one_run(killed: dict[tuple[str, str], Any],
                                                               reference: dict[str, dict[str, Any]],
                                                               kind: str, step: str) -> None:
    root, code, stdout, stderr = killed[(kind, step)]
    assert code == 0, stdout + stderr
    if kind == "mbox":  # the dead run's dot lock on the inbox is older than the run after it
        assert stderr.startswith("Warning: removed a stale dot lock "), stderr
    else:
        assert stderr == ""
    after = outcome(root, MaildirDrop if kind == "maildir" else MboxDrop)
    expected = reference[kind]
    # every order applied exactly once, no player told his applied orders were refused: the games and
    # every report are exactly those of a run that did not die
    assert after["files"].keys() == expected["files"].keys()
    for name, data in expected["files"].items():
        assert after["files"][name] == data, name
    assert after["outbox"] == expected["outbox"] and after["outgoing"] == []
    # each mail filed exactly once, none left in the inbox
    assert after["inbox"] == []
    assert after["read"] == expected["read"] == ["<badtoken.m1@players.test>", "<orders.m1@players.test>"]
    assert after["set_aside"] == expected["set_aside"] == ["<away@elsewhere.test>"]
    assert after["seen"] == expected["seen"]
    # everything committed, and the games replay
    assert git(root, "status", "--porcelain") == ""
    for game in ("m1", "m2"):
        v = Pbem(root)("verify", game)
        assert v.exit_code == 0, v.output
    state = helpers.load_game(root, "m2")
    assert [e["order"] for e in state["log"]] == ["draw", "auction"]


def test_a_killed_git_leaves_a_stale_index_lock_that_the_next_run_removes(templates: dict[str, Path],
                                                                         reference: dict[str, dict[str, Any]],
                                                                         tmp_path: Path) -> None:
    """The whole way through the command: PBEM_DIE_AT kills `python -m pbem advance` after its `git add`,
    a git killed with it leaves .git/index.lock; the next `python -m pbem advance` removes it, says so,
    and ends as one run that did not die."""
    root = tmp_path / "games"
    shutil.copytree(templates["maildir"], root, symlinks=True)
    assert pbem_process(root, PBEM_DIE_AT="git-commit").returncode == 137
    lock = root / ".git" / "index.lock"
    lock.write_bytes(b"")  # what the git that was killed with it left
    old = process_start() - 60  # older than this process (a test worker may have run for minutes)
    os.utime(lock, (old, old))
    proc = pbem_process(root)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "Warning: removed a stale .git/index.lock left by a killed git\n"
    assert not lock.exists()
    after = outcome(root, MaildirDrop)
    assert after["files"] == reference["maildir"]["files"] and after["inbox"] == []
    assert after["read"] == reference["maildir"]["read"]
    assert git(root, "status", "--porcelain") == ""


# -- git that fails -------------------------------------------------------------------------------------

@pytest.fixture
def table(pbem: Pbem, tmp_path: Path) -> helpers.Table:
    t = helpers.Table(pbem, tmp_path)
    t.create(PLAYERS, SEED)
    return t


@pytest.mark.parametrize("name", ["index.lock", "HEAD.lock", "refs/heads/main.lock"])
def test_a_stale_git_lock_is_removed_with_a_warning(table: helpers.Table, name: str) -> None:
    who = table.waiting()
    assert table.submit(who, 1, ["auction"]).exit_code == 0
    lock = table.games / ".git" / name
    lock.write_bytes(b"")
    old = time.time() - 86400  # long before this process started
    os.utime(lock, (old, old))
    r = table.pbem("advance")
    assert r.exit_code == 0, r.output
    assert r.stderr == f"Warning: removed a stale .git/{name} left by a killed git\n"
    assert r.stdout.splitlines()[0] == f"m1: applied {who} auction"
    assert git(table.games, "status", "--porcelain") == ""
    assert git(table.games, "log", "-1", "--format=%s") == f"m1: turn 1: orders of {who}\n"


def test_every_failed_git_call_names_its_cause(tmp_path: Path) -> None:
    gd = GamesDir(tmp_path / "games")
    gd.ensure_repo()
    (gd.root / "m1").mkdir()
    (gd.root / "m1" / "x.txt").write_text("x\n")
    (gd.root / ".git" / "index.lock").write_bytes(b"")
    with pytest.raises(StoreError, match=r"^m1: git add failed: fatal: Unable to create '.*index.lock': File exists$"):
        gd.commit("m1", "m1: x\n")
    (gd.root / ".git" / "index.lock").unlink()
    (gd.root / ".git" / "HEAD.lock").write_bytes(b"")
    with pytest.raises(StoreError, match=r"^m1: git commit failed: .*HEAD.lock"):
        gd.commit("m1", "m1: x\n")


# -- orders a run applied but did not take out of the queue ------------------------------------------------

def test_orders_already_in_the_log_are_taken_out_of_the_queue_without_a_word(table: helpers.Table) -> None:
    who = table.waiting()
    assert table.submit(who, 1, ["draw", "auction"]).exit_code == 0
    queued = next((table.games / "m1" / "queue").iterdir())
    copy = queued.read_bytes()
    assert table.pbem("advance").exit_code == 0
    before = helpers.snapshot(table.games)
    queued.write_bytes(copy)  # as after a run killed between saving the state and clearing the queue
    r = table.pbem("advance")
    assert r.exit_code == 0, r.output
    assert r.stdout == "m1: nothing to do\n"
    assert list((table.games / "m1" / "queue").iterdir()) == []
    assert not (table.games / "m1" / "rejected").exists()
    assert helpers.snapshot(table.games) == before  # no report (no "were refused"), no mail, no commit
    assert len(table.state()["log"]) == 2


@pytest.mark.parametrize("kind", ["standing", "ahead"])
def test_standing_orders_and_orders_sent_ahead_already_applied_are_not_applied_again(table: helpers.Table,
                                                                                    tmp_path: Path, kind: str) -> None:
    """Killed between saving the state and clearing the queue: standing orders would be bound afresh
    (a max_bid spent on one auction would bid on the next), orders sent ahead played twice."""
    who = table.waiting()
    others = [p for p in ("anna", "ben", "cleo") if p != who]
    body = {"standing": [{"max_bid": 30}]} if kind == "standing" else {"turn": "next", "orders": [{"bid": 1}]}
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump({"game": "m1", "player": others[0], "token": table.tokens[others[0]], **body}))
    assert table.pbem("submit", str(path)).exit_code == 0
    assert table.submit(who, 1, ["auction"]).exit_code == 0
    queued = {p.name: p.read_bytes() for p in (table.games / "m1" / "queue").iterdir()}
    assert table.pbem("advance").exit_code == 0
    log = table.state()["log"]
    assert [(e["player"], e["order"], e.get("by")) for e in log[-1:]] == [
        (others[0], {"bid": 1}, "standing" if kind == "standing" else "premove")]
    before = helpers.snapshot(table.games)
    for name, data in queued.items():  # as after a run killed between saving the state and clearing the queue
        (table.games / "m1" / "queue" / name).write_bytes(data)
    r = table.pbem("advance")
    assert r.exit_code == 0, r.output
    assert r.stdout == "m1: nothing to do\n"
    assert list((table.games / "m1" / "queue").iterdir()) == []
    assert helpers.snapshot(table.games) == before
    assert table.state()["log"] == log


def test_a_refusal_already_made_is_not_made_twice(table: helpers.Table) -> None:
    other = next(p for p in PLAYERS if p != table.waiting())
    GamesDir(table.games).enqueue("m1", {"player": other, "turn": 1, "orders": ["pass"],
                                         "received": "2026-11-21T12:00:00Z", "source": "file"})
    queued = next((table.games / "m1" / "queue").iterdir())
    copy = queued.read_bytes()
    r = table.pbem("advance")
    assert r.exit_code == 0 and f"refused {other}" in r.stdout
    queued.write_bytes(copy)  # as after a run killed between saving the state and moving it to rejected/
    (table.games / "m1" / "rejected" / queued.name).unlink()
    count = commit_count(table.games)
    reports = sorted((table.games / "m1" / "reports" / other).iterdir())
    r = table.pbem("advance")
    assert r.stdout == "m1: nothing to do\n"
    assert sorted((table.games / "m1" / "reports" / other).iterdir()) == reports
    assert [p.name for p in (table.games / "m1" / "rejected").iterdir()] == [queued.name]
    assert commit_count(table.games) == count  # the rejected file is back where git has it
    assert git(table.games, "status", "--porcelain") == ""


def test_a_queued_file_a_newer_one_replaced_is_dropped(table: helpers.Table) -> None:
    who = table.waiting()
    assert table.submit(who, 1, ["draw"]).exit_code == 0
    older = next((table.games / "m1" / "queue").iterdir())
    copy = older.read_bytes()
    assert table.submit(who, 1, ["auction"]).exit_code == 0
    older.write_bytes(copy)  # as after a `pbem submit` killed before it removed the file it replaced
    r = table.pbem("advance")
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0] == f"m1: applied {who} auction"
    assert list((table.games / "m1" / "queue").iterdir()) == []
    assert [e["order"] for e in table.state()["log"]] == ["auction"]


# -- filing mail twice ------------------------------------------------------------------------------------

class Died(BaseException):
    """The process dying at a crash point."""


def die_at(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> None:
    def crash_point(step: str) -> None:
        if step == name:
            raise Died(step)
    monkeypatch.setattr(module, "crash_point", crash_point)


def test_a_maildir_mail_is_moved_by_one_rename(tmp_path: Path) -> None:
    (tmp_path / "mail").mkdir()
    drop = MaildirDrop(tmp_path)
    drop.deliver(player_mail("anna@players.test", "hi\n", message_id="<a@x>"))
    inbox = MaildirInbox(tmp_path / "mail" / "inbox", tmp_path)
    key, = inbox.keys()
    name = next((tmp_path / "mail" / "inbox" / "new").iterdir()).name
    inbox.done(key, False)
    assert drop.waiting() == [] and mail_ids(drop.read()) == ["<a@x>"]
    assert [p.name for p in (tmp_path / "mail" / "read" / "new").iterdir()] == [name]  # the file itself


def test_a_maildir_on_another_file_system_is_copied_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "mail").mkdir()
    drop = MaildirDrop(tmp_path)
    drop.deliver(player_mail("anna@players.test", "hi\n", message_id="<a@x>"))

    def rename(src: Any, dst: Any) -> None:
        raise OSError(errno.EXDEV, "Invalid cross-device link")
    with monkeypatch.context() as m:
        m.setattr(pbem_mailbox.os, "rename", rename)
        die_at(m, pbem_mailbox, "unlink-mail")
        inbox = MaildirInbox(tmp_path / "mail" / "inbox", tmp_path)
        with pytest.raises(Died):
            inbox.done(inbox.keys()[0], False)  # copied, not yet taken out
        assert len(drop.waiting()) == 1 and len(drop.read()) == 1
        inbox = MaildirInbox(tmp_path / "mail" / "inbox", tmp_path)  # the next run
        inbox.done(inbox.keys()[0], False)
    assert drop.waiting() == [] and mail_ids(drop.read()) == ["<a@x>"]


def test_an_mbox_mail_appended_by_a_run_that_died_is_not_appended_again(tmp_path: Path) -> None:
    drop = MboxDrop(tmp_path)
    for n in (1, 2):
        drop.deliver(player_mail("anna@players.test", f"mail {n}\nFrom the start\n", message_id=f"<m{n}@x>"))
    inbox = MboxInbox(tmp_path / "mail" / "inbox.mbox", tmp_path)
    for key in inbox.keys():
        inbox.done(key, False)
    # the run dies here: the inbox is never rewritten, its dot lock stays (older than the next run)
    dot = tmp_path / "mail" / "inbox.mbox.lock"
    assert dot.read_text().startswith("pbem ")
    old = process_start() - 60  # older than this process (a test worker may have run for minutes)
    os.utime(dot, (old, old))
    assert len(drop.waiting()) == 2 and len(drop.read()) == 2
    inbox = MboxInbox(tmp_path / "mail" / "inbox.mbox", tmp_path)
    assert inbox.warnings == [f"removed a stale dot lock {dot} left by a killed pbem"]
    for key in inbox.keys():
        inbox.done(key, False)
    inbox.close()
    assert drop.waiting() == [] and mail_ids(drop.read()) == ["<m1@x>", "<m2@x>"]
    assert not dot.exists()


def test_a_stale_mbox_dot_lock_is_removed_with_a_warning(tmp_path: Path) -> None:
    drop = MboxDrop(tmp_path)
    drop.deliver(player_mail("anna@players.test", "hi\n", message_id="<a@x>"))
    dot = tmp_path / "mail" / "inbox.mbox.lock"
    dot.write_bytes(b"")  # another program's (a mail delivery agent's)
    old = time.time() - 600
    os.utime(dot, (old, old))
    with pytest.raises(PbemError, match="^the mbox .* is locked by another program"):  # it may still be at work
        MboxInbox(tmp_path / "mail" / "inbox.mbox", tmp_path)
    old = time.time() - 3600
    os.utime(dot, (old, old))
    inbox = MboxInbox(tmp_path / "mail" / "inbox.mbox", tmp_path)
    assert inbox.warnings == [f"removed a stale dot lock {dot} left by a killed program"]
    inbox.close()


# -- one game that does not commit keeps only its own mail ------------------------------------------------

def test_mail_for_a_game_that_did_not_commit_stays_and_the_rest_leaves(pbem: Pbem, monkeypatch: pytest.MonkeyPatch) -> None:
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    tokens = {game: g.new(game, seed=SEED) for game in ("m1", "m2")}
    assert git(pbem.games, "status", "--porcelain") == ""  # `pbem new` committed pbem.yaml too
    for game in ("m1", "m2"):
        who = mover(pbem, game)
        g.inbox.deliver(player_mail(address(who), "orders\n", message_id=f"<{game}@players.test>",
                                    attachments=[("t.yaml", turn_file(game, who, tokens[game][who], 1, ["auction"]))]))
    g.inbox.deliver(player_mail("x@elsewhere.test", "away\n", message_id="<away@elsewhere.test>",
                                headers={"Auto-Submitted": "auto-replied"}))
    real, real_batch = GamesDir.commit, CommitBatch.commit

    def commit(self: GamesDir, game: str, message: str) -> bool:
        if game == "m2":
            raise StoreError("m2: git add failed: fatal: the disk is full")
        return real(self, game, message)

    def batch_commit(self: CommitBatch, message: str, paths: list[str]) -> bool:  # a game git had clean
        if message.startswith("m2: "):
            raise StoreError("m2: git add failed: fatal: the disk is full")
        return real_batch(self, message, paths)
    with monkeypatch.context() as m:
        m.setattr(GamesDir, "commit", commit)
        m.setattr(CommitBatch, "commit", batch_commit)
        r = g.advance(ok=False)
    assert r.exit_code == 1
    assert mail_ids(g.inbox.waiting()) == ["<m2@players.test>"]  # the mail of the game that did not commit
    assert mail_ids(g.inbox.read()) == ["<m1@players.test>"] and mail_ids(g.inbox.set_aside()) == ["<away@elsewhere.test>"]
    assert any(line.endswith("(the mail stays in the inbox until m2 is committed)") for line in r.stdout.splitlines())
    r = g.advance()  # m2 commits now, and its mail leaves
    assert "mail <m2@players.test>: read before; taken out of the inbox" in r.stdout
    assert g.inbox.waiting() == []
    assert mail_ids(g.inbox.read()) == ["<m1@players.test>", "<m2@players.test>"]
    assert git(pbem.games, "status", "--porcelain") == ""


# -- IMAP: MOVE where the server has it, else COPY once -------------------------------------------------

def imap_config(root: Path, server: Any, user: str) -> Config:
    return Config(root=root, gm_address="gm@pbem.test", inbox=server.inbox(user))


def test_an_imap_mail_is_moved_in_one_step(tmp_path: Path, dovecot: Any, imap_user: str) -> None:
    dovecot.append(imap_user, player_mail("anna@players.test", "hi\n", message_id="<i1@x>"))
    inbox = ImapInbox(imap_config(tmp_path, dovecot, imap_user))
    assert inbox.can_move()
    inbox.done(inbox.keys()[0], False)
    inbox.close()
    assert dovecot.folder_messages(imap_user, "INBOX") == []
    assert mail_ids(dovecot.folder_messages(imap_user, "pbem-read")) == ["<i1@x>"]


def test_without_move_an_imap_mail_a_dead_run_copied_is_not_copied_again(tmp_path: Path, dovecot: Any,
                                                                         imap_user: str,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    for n in (1, 2):
        dovecot.append(imap_user, player_mail("anna@players.test", f"mail {n}\n", message_id=f"<i{n}@x>"))
    config = imap_config(tmp_path, dovecot, imap_user)
    with monkeypatch.context() as m:
        die_at(m, pbem_mailbox, "unlink-mail")
        inbox = ImapInbox(config)
        inbox.move = False  # a server without MOVE
        with pytest.raises(Died):
            inbox.done(inbox.keys()[0], False)  # copied, not yet marked deleted
        inbox.imap.shutdown()  # the connection of the dead run drops: no expunge
    inbox = ImapInbox(config)
    inbox.move = False
    for key in inbox.keys():
        inbox.done(key, False)
    inbox.close()
    assert dovecot.folder_messages(imap_user, "INBOX") == []
    assert mail_ids(dovecot.folder_messages(imap_user, "pbem-read")) == ["<i1@x>", "<i2@x>"]
