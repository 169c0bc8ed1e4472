"""The mail pbem has read, so that each mail is read once: its Message-ID as a hash of fixed size and
the day it was read, one line a mail appended to mail/seen.log (kept out of git, mode 0600).

Whatever a mail's Message-ID (a stranger may send one of 240 KB), it costs one line of 44 bytes, and
the file only grows at its end: a run appends what it read and never rewrites what was there, but
once in a while to forget the ids read more than KEEP_DAYS ago (a mail is long out of the inbox by
then, and what it carried long stale). A line a run that died left half written is not an id and is
skipped. A games dir of an older pbem kept the ids themselves in the git-tracked mail/seen.txt: they
are taken over, hashed, by `take_over_old_list`.
"""

from __future__ import annotations

import contextlib
import os
import re
from datetime import date, timedelta
from pathlib import Path

from pbem import digests
from pbem.patterns import Pattern
from pbem.store.files import private_folder, write_atomic

SEEN_LOG = ("mail", "seen.log")
OLD_SEEN_LIST = ("mail", "seen.txt")
KEEP_DAYS = 400  # longer than a game waits for a reply, shorter than forever
DIGEST_CHARS = 32  # hex characters of SHA-256 kept: 128 bits, no two ids alike by chance
_DIGEST = re.compile(f"[0-9a-f]{{{DIGEST_CHARS}}}")  # a whole digest, as `digest` writes it
CUT_SHORT = Pattern(r"^[0-9-]{0,10}(?: [0-9a-f]{0,32})?$")  # the start of a line of the log


def digest(message_id: str) -> str:
    """The fixed-size name of a Message-ID, as the log keeps it."""
    return digests.sha256(message_id.encode("utf-8", "surrogateescape")).hexdigest()[:DIGEST_CHARS]


def _entry(line: str) -> tuple[str, str] | None:
    """(day, digest) of a whole line of the log; None for anything else (a line cut short)."""
    day, _, name = line.partition(" ")
    if len(day) == 10 and _DIGEST.fullmatch(name):
        return day, name
    return None


class SeenMail:
    """The Message-IDs read, as `in` and `add` see them; `save` appends the ones added since."""

    def __init__(self, root: Path, today: date) -> None:
        self.path = root.joinpath(*SEEN_LOG)
        self.today = today
        self.known: set[str] = set()
        self.fresh: list[str] = []
        self.oldest: str | None = None
        from pbem.mended import mended, read_lines

        lost = "the lines it cannot read are skipped (a mail they named is read again if it is still in the inbox)"
        lines = read_lines(self.path, root, lost) or []
        spoiled = 0
        for line in lines:
            entry = _entry(line)
            if entry is not None:
                self.oldest = self.oldest or entry[0]
                self.known.add(entry[1])
            elif not CUT_SHORT.match(line):  # a line a dead run left half written is no damage
                spoiled += 1
        if spoiled:
            mended(self.path, root, f"{spoiled} of its lines are not 'day digest'", lost)

    def __contains__(self, message_id: object) -> bool:
        return isinstance(message_id, str) and digest(message_id) in self.known

    def add(self, message_id: str) -> None:
        name = digest(message_id)
        if name not in self.known:
            self.known.add(name)
            self.fresh.append(name)

    def save(self) -> None:
        """Append the ids added since the last save (a run killed after it does not read those mails
        again); first forget those older than KEEP_DAYS, when there are any. No fsync a mail: what a
        mail caused (its queued orders, its answer) is made durable by the run's one sync, and the
        line with it, before the mail leaves the inbox (see pbem.advance)."""
        if not self.fresh:
            return
        self.prune()
        stamp = self.today.isoformat()
        data = "".join(f"{stamp} {name}\n" for name in self.fresh).encode("ascii")
        private_folder(self.path.parent)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND | getattr(os, "O_CLOEXEC", 0), 0o600)
        try:
            if os.fstat(fd).st_size and not _ends_a_line(fd):
                data = b"\n" + data  # after a line a dead run left half written
            os.write(fd, data)
        finally:
            os.close(fd)
        self.oldest = self.oldest or stamp
        self.fresh.clear()

    def prune(self) -> None:
        """Rewrite the log without the ids read more than KEEP_DAYS ago (only when it holds some)."""
        limit = (self.today - timedelta(days=KEEP_DAYS)).isoformat()
        if self.oldest is None or self.oldest >= limit:
            return
        kept = []
        with contextlib.suppress(FileNotFoundError):
            for line in self.path.read_text("utf-8", errors="replace").splitlines():
                entry = _entry(line)
                if entry is not None and entry[0] >= limit:
                    kept.append(line + "\n")
        write_atomic(self.path, "".join(kept))
        self.known = {line[11:-1] for line in kept} | set(self.fresh)
        self.oldest = kept[0][:10] if kept else None


def _ends_a_line(fd: int) -> bool:
    return os.pread(fd, 1, os.fstat(fd).st_size - 1) == b"\n"


def take_over_old_list(root: Path, today: date) -> bool:
    """Move the ids of an older pbem's mail/seen.txt (the ids themselves, one a line) into the log, as
    read today, and delete the list; True when there was one (git's copy is then the caller's to drop)."""
    old = root.joinpath(*OLD_SEEN_LIST)
    try:
        ids = old.read_text("utf-8", errors="surrogateescape").split()
    except FileNotFoundError:
        return False
    seen = SeenMail(root, today)
    for message_id in ids:
        seen.add(message_id)
    seen.save()
    old.unlink()
    return True
