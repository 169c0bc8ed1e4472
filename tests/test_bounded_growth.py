"""What a stranger sends grows what pbem keeps by a small, bounded amount a mail, and no mail makes a
commit that git cannot take: huge Message-IDs, thousands of mails in one run, a huge From address."""

from __future__ import annotations

import os
from datetime import date, timedelta
from pathlib import Path

import pytest

from conftest import Pbem
from conftest_mail import FilesOut, MaildirDrop, MailGames, address, order_body, order_line, player_mail
from helpers import git
from pbem.store import GamesDir
from pbem.store.gitrepo import MESSAGE_LINE, MESSAGE_LINES
from pbem.store.seen import DIGEST_CHARS, KEEP_DAYS, SeenMail, digest

LINE = len("2026-11-21 ") + DIGEST_CHARS + 1  # what one mail read costs in mail/seen.log


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    # mail up to 1 MB is read (a From: of 150 KB is more than the default limit of 256 KB)
    return MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games), max_mail_bytes=1_000_000)


def size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def away(n: int, length: int = 240_000) -> bytes:
    """An out-of-office reply from a stranger with a Message-ID of `length` characters."""
    return player_mail("away@elsewhere.test", "I am out of the office.\n", subject="Out of office",
                       message_id=f"<{n}.{'z' * length}@elsewhere.test>",
                       headers={"Auto-Submitted": "auto-replied"})


def test_thirty_auto_replies_with_240_kb_message_ids_grow_git_by_nothing(g: MailGames) -> None:
    """Each is set aside unanswered; what pbem keeps of it is one line of 44 bytes outside git, and the
    repository does not grow (it grew by 23 MB when the ids themselves were kept in git)."""
    g.new()
    before_git, head = size(g.root / ".git"), git(g.root, "rev-parse", "HEAD")
    for n in range(30):
        g.inbox.deliver(away(n))
        r = g.advance()
        assert "mail from away@elsewhere.test: set aside: " in r.output and len(r.output) < 1000
    assert len(g.inbox.set_aside()) == 30 and g.outbox.new() == []
    assert git(g.root, "rev-parse", "HEAD") == head  # nothing for git
    assert size(g.root / ".git") - before_git < 64 * 1024
    log = g.root / "mail" / "seen.log"
    assert log.stat().st_size == 30 * LINE
    assert "elsewhere" not in log.read_text()  # the ids' hashes, not the ids
    assert git(g.root, "ls-files", "mail") == ""


def test_a_huge_message_id_read_before_is_known_in_a_later_run(g: MailGames) -> None:
    """A mail that comes again (delivered twice, or left in the inbox by a run that died) is known by
    the hash of its id: taken out of the inbox, nothing done twice."""
    g.new()
    raw = away(7)
    g.inbox.deliver(raw)
    g.advance()
    g.inbox.deliver(raw)
    r = g.advance()
    assert "read before; taken out of the inbox" in r.output and len(r.output) < 1000  # the id by its hash
    assert g.inbox.waiting() == []
    assert (g.root / "mail" / "seen.log").stat().st_size == LINE


def stranger_away(n: int, fresh: bool = False) -> bytes:
    """The auto-reply of stranger number n: one of six mails (its subject, with Auto-Submitted or
    without) written once by player_mail, his number put in; `fresh`: written by player_mail itself
    (5,000 of them cost seconds)."""
    if fresh:
        return player_mail(f"s{n}@strangers.test", "I am away.\n", message_id=f"<m{n}.{'y' * 200}@strangers.test>",
                           subject="Out of office" if n % 2 else "Automatische Antwort",
                           headers={"Auto-Submitted": "auto-replied"} if n % 3 else {})
    shape = _AWAY.get(n % 6)
    if shape is None:
        shape = _AWAY[n % 6] = stranger_away(n % 6, fresh=True).replace(f"s{n % 6}@".encode(), b"s{n}@") \
            .replace(f"<m{n % 6}.".encode(), b"<m{n}.")
    return shape.replace(b"{n}", str(n).encode())


_AWAY: dict[int, bytes] = {}


def test_a_strangers_auto_reply_is_the_mail_player_mail_writes() -> None:
    assert [stranger_away(n) for n in (0, 1, 2, 3, 4, 5, 6, 11, 4999)] == \
        [stranger_away(n, fresh=True) for n in (0, 1, 2, 3, 4, 5, 6, 11, 4999)]


def test_five_thousand_mails_in_one_run(g: MailGames) -> None:
    """5,000 auto-replies of 5,000 strangers in one run (the run failed when their lines made a commit
    message of 128 KB passed as an argument): the run ends well, each mail read and set aside once,
    and what it keeps grows by one line a mail."""
    g.new()
    head = git(g.root, "rev-parse", "HEAD").strip()
    folder = g.root / "mail" / "inbox" / "new"
    for sub in ("new", "cur", "tmp"):
        (folder.parent / sub).mkdir(parents=True, exist_ok=True)
    for n in range(5000):  # as a mail server delivers them: one file each
        (folder / f"{n:05d}.mail").write_bytes(stranger_away(n))
    r = g.advance()
    assert r.exit_code == 0, r.output[-2000:]
    assert g.inbox.waiting() == []
    assert len(g.inbox.set_aside()) == 5000 and g.outbox.new() == []
    assert (g.root / "mail" / "seen.log").stat().st_size == 5000 * LINE
    for sha in git(g.root, "rev-list", f"{head}..HEAD").split():
        assert len(git(g.root, "log", "-1", "--format=%B", sha).encode()) < MESSAGE_LINE * MESSAGE_LINES


def test_a_150_kb_from_address_is_set_aside_and_the_run_goes_on(g: MailGames) -> None:
    """A From: address longer than any mail address can be (254 characters) names no sender: the mail
    is set aside, nothing is written about it, the run exits 0 (a join from it failed its commit)."""
    g.write_config()
    r = g.pbem("open", "medici", "g1", "--seats", "3")
    assert r.exit_code == 0, r.output
    lobby = (g.root / "lobby" / "g1.yaml").read_bytes()
    head = git(g.root, "rev-parse", "HEAD")
    huge = "a" * 150_000 + "@far.test"
    (g.root / "mail").mkdir()
    g.inbox.deliver(player_mail(huge, "join g1\n", subject="join g1"))
    r = g.advance()
    assert r.exit_code == 0, r.output[-2000:]
    assert any("set aside: its sender's address is 150009 characters long" in line for line in r.output.splitlines())
    assert all(len(line) < 400 for line in r.output.splitlines())
    assert len(g.inbox.set_aside()) == 1 and g.outbox.new() == []
    assert (g.root / "lobby" / "g1.yaml").read_bytes() == lobby
    assert git(g.root, "rev-parse", "HEAD") == head


def test_a_commit_message_of_any_length_is_cut_to_what_git_takes(tmp_path: Path) -> None:
    """5,000 lines and a line of 150 KB: the commit is made, its message at most MESSAGE_LINES lines of
    MESSAGE_LINE characters, the rest summed up."""
    gd = GamesDir(tmp_path / "games", create=True)
    with gd.lock():
        gd.ensure_repo()
        (gd.root / "notes").mkdir()
        (gd.root / "notes" / "a.txt").write_text("a\n")
        message = "mail: a long run\n\n" + "x" * 150_000 + "\n" + "".join(f"- mail {n} from s{n}@x.test\n"
                                                                        for n in range(5000))
        assert len(message.encode()) > 200_000
        assert gd.commit_paths(["notes"], message)
    stored = git(gd.root, "log", "-1", "--format=%B").rstrip("\n").split("\n")
    assert len(stored) == MESSAGE_LINES
    assert max(len(line) for line in stored) <= MESSAGE_LINE
    assert stored[0] == "mail: a long run"
    assert stored[2] == "x" * (MESSAGE_LINE - 40) + f"... ({150_000 - (MESSAGE_LINE - 40):,} more characters)"
    assert stored[-1] == f"... and {5003 - (MESSAGE_LINES - 1):,} more lines"
    assert git(gd.root, "status", "--porcelain") == ""


def test_the_ids_read_are_forgotten_after_keep_days(tmp_path: Path) -> None:
    """Old lines leave the log when it is next written; a line a dead run left half written is skipped,
    and the next line starts on a line of its own."""
    today = date(2026, 11, 21)
    log = tmp_path / "mail" / "seen.log"
    log.parent.mkdir()
    old = (today - timedelta(days=KEEP_DAYS + 1)).isoformat()
    recent = (today - timedelta(days=KEEP_DAYS - 1)).isoformat()
    log.write_text(f"{old} {digest('<old@x>')}\n{recent} {digest('<recent@x>')}\n{today} 12ab")
    seen = SeenMail(tmp_path, today)
    assert "<old@x>" in seen and "<recent@x>" in seen and "<new@x>" not in seen
    seen.add("<new@x>")
    seen.save()
    assert log.read_text() == f"{recent} {digest('<recent@x>')}\n{today} {digest('<new@x>')}\n"
    assert os.stat(log).st_mode & 0o777 == 0o600
    again = SeenMail(tmp_path, today)
    assert "<old@x>" not in again and "<recent@x>" in again and "<new@x>" in again


def test_a_players_orders_in_a_mail_with_a_240_kb_message_id_keep_no_more_than_its_hash(g: MailGames) -> None:
    """The orders are queued; the mail is named by a hash of its id wherever pbem names it (the
    console, the answer's In-Reply-To), never by the id itself."""
    tokens = g.new()
    player, turn = g.mover()
    order = order_line(g.legal_order(player))
    huge = f"<{'z' * 240_000}@players.test>"
    g.inbox.deliver(player_mail(address(player), order_body(tokens[player], [order]), message_id=huge,
                                in_reply_to=str(g.last_report(player)["Message-ID"])))
    r = g.advance()
    assert f"mail from {address(player)}: m1 turn {turn}: queued " in r.output and len(r.output) < 1000
    assert len(g.state()["log"]) == 1
    # what pbem wrote (the mail itself moved, not copied, from the inbox to mail/read): the answer too
    kept = b"".join(p.read_bytes() for p in g.root.rglob("*") if p.is_file() and "inbox" not in p.parts
                    and "read" not in p.parts and ".git" not in p.parts)
    assert b"zzzzzzzz" not in kept and g.outbox.new()
