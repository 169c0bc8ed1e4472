"""`pbem watch`: the run of `pbem advance`, made whenever mail arrives, when a deadline comes, and at
least every `interval`, by one long-lived process.

Waiting costs next to nothing: an IMAP folder is watched over a connection of its own with IDLE (the
server says when mail arrives; a server without IDLE is asked with NOOP every IMAP_POLL seconds); a
Maildir is a stat of new/ and cur/, an mbox a stat of the file, every `poll` seconds; the next reminder
or substitute move (pbem.deadlines) is computed over the games after every run and whenever git's HEAD
moves (a GM's `pbem set` commits).

Each wake calls `pbem.advance.advance` in this process, not `pbem advance` in a subprocess: the rules,
templates and mail stack stay loaded (an answer costs the run, not a start of Python and its imports),
and the run's outcome comes back as data for the log. Every run gets a fresh GamesDir and pbem.yaml,
and an error that escapes a run is logged and the watch carries on.

The games dir's lock is taken by the run alone: while a GM's command holds it, the watch waits. SIGTERM
and SIGINT are blocked while a run works, so the run, and every git and worker process it starts (they
inherit the blocked signals), finish first; then the watch exits 0. A watch killed outright is a run
killed half way: the next run mends it (see pbem.advance).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import select
import signal
import sys
import time
import traceback
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Protocol, TextIO

from pbem.config import CONFIG_FILE, Config, load_config
from pbem.errors import PbemError
from pbem.store import GamesDir

if TYPE_CHECKING:
    import imaplib

    from pbem.advance import Run

SIGNALS = (signal.SIGTERM, signal.SIGINT)
IMAP_POLL = 10.0  # seconds between NOOPs on a server without IDLE
SEARCHES = 3  # searches at most while the server tells of mail arriving beside each answer
IDLE_RENEW = 300.0  # IDLE is ended and begun again this often (RFC 2177: within 29 minutes; NATs forget sooner)
WATCH_TIMEOUT = 30.0  # seconds for the watch's own connection to answer (a stop waits for it at most this long)
BACKOFF = (1, 2, 4, 8, 16, 32, 60)  # seconds before each attempt to reconnect to the IMAP server
RETRY = (5, 10, 20, 40, 80, 160, 300)  # seconds before a run that failed is made again (at most the interval)
DEADLINE_MARGIN = timedelta(seconds=1)  # a deadline is acted on once the clock is surely past it
RACY = 2_000_000_000  # ns: a folder changed this recently may change again within its mtime's resolution

Wake = Callable[[], "str | None"]


def stamp() -> str:
    """The wall clock for the log (not PBEM_NOW: the log says when things happened)."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class Stopper:
    """SIGTERM and SIGINT set `stopping` and wake any wait at once (through a self-pipe). While a run
    works they are blocked (`held`): the run finishes, and so does every process it starts, which
    inherits the blocked signals (a git killed by the terminal's Ctrl-C would leave its commit undone)."""

    def __init__(self) -> None:
        self.stopping = False
        self.read_fd, self.write_fd = os.pipe()
        for fd in (self.read_fd, self.write_fd):
            os.set_blocking(fd, False)
        self.handlers = {sig: signal.signal(sig, self._handle) for sig in SIGNALS}
        self.wakeup_fd = signal.set_wakeup_fd(self.write_fd, warn_on_full_buffer=False)

    def _handle(self, signum: int, frame: Any) -> None:
        self.stopping = True

    def sleep(self, seconds: float, fds: tuple[int, ...] = ()) -> set[int]:
        """Wait up to `seconds` for one of `fds` to be readable or a signal; returns the readable fds."""
        if self.stopping:
            return set()
        ready = select.select([self.read_fd, *fds], [], [], max(0.0, seconds))[0]
        if self.read_fd in ready:
            with contextlib.suppress(OSError):
                while os.read(self.read_fd, 512):
                    pass
        return {fd for fd in ready if fd != self.read_fd}

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """The signals wait until the block is done (then the handler runs, and `stopping` is set)."""
        before = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)

    def close(self) -> None:
        signal.set_wakeup_fd(self.wakeup_fd)
        for sig, handler in self.handlers.items():
            signal.signal(sig, handler)
        os.close(self.read_fd)
        os.close(self.write_fd)


class Log:
    """The watch's log: a line per run that did something on `out`, errors on `err`, each with a
    time stamp, flushed at once (a journal or a pipe shows them as they happen)."""

    def __init__(self, out: TextIO, err: TextIO) -> None:
        self.out, self.err = out, err

    def say(self, text: str) -> None:
        print(f"{stamp()} {text}", file=self.out, flush=True)

    def error(self, text: str) -> None:
        print(f"{stamp()} {text}", file=self.err, flush=True)


# -- the inbox, watched ------------------------------------------------------------------------------

class Source(Protocol):
    def describe(self) -> str: ...
    def open(self) -> None: ...
    def snapshot(self) -> None: ...
    def wait(self, wake: Wake) -> str: ...
    def close(self) -> None: ...


def imap_where(section: dict[str, Any]) -> str:
    """host:port of an IMAP inbox section."""
    return f"{section['host']}:{section.get('port', 993 if section.get('security', 'tls') == 'tls' else 143)}"


def imap_connect(config: Config, timeout: float = 60.0) -> imaplib.IMAP4:
    """A logged-in connection to the configured IMAP account, made as a run makes it
    (pbem.mail.boxes.imap_connect); a HostFailure names the cause and its fix."""
    from pbem.mail.boxes import imap_connect as connect

    return connect(config, timeout)


def imap_text(exc: BaseException) -> str:
    """An imaplib error as the server said it (its bytes decoded, not their repr)."""
    arg = exc.args[0] if exc.args else exc
    if isinstance(arg, bytes):
        return arg.decode("utf-8", "replace")
    return str(arg)


def imap_quote(folder: str) -> str:
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


def imap_examine(imap: imaplib.IMAP4, config: Config, folder: str) -> None:
    """Select `folder` read-only (watching changes nothing in it); a HostFailure if it cannot be opened."""
    from pbem.mail.boxes import imap_select

    imap_select(imap, config, folder, readonly=True)


def imap_has(imap: imaplib.IMAP4, capability: str) -> bool:
    status, data = imap.capability()
    words = b" ".join(d for d in data if isinstance(d, bytes)).upper().split() if status == "OK" else []
    return capability.encode().upper() in words


class ImapWatch:
    """An IMAP folder watched over a connection of its own: IDLE where the server has it (imaplib has
    none: the command and its DONE are written here), else a NOOP every IMAP_POLL seconds. Mail is new
    when its UID is above the highest UID the last run could see; mail a run left in the folder (its
    game did not commit) wakes nobody. A dropped connection is made again after 1, 2, 4 ... 60 s."""

    def __init__(self, config: Config, stopper: Stopper, log: Log, poll: float) -> None:
        self.config, self.stopper, self.log, self.poll = config, stopper, log, poll
        self.where = imap_where(config.inbox)
        self.folder = config.inbox.get("folder", "INBOX")
        self.imap: imaplib.IMAP4 | None = None
        self.idle = False
        self.validity: bytes | None = None
        self.known = 0  # the highest UID the last run could see
        self.failures = 0
        self.retry_at = 0.0
        self.said: str | None = None  # the failure logged last
        self.tags = 0

    def describe(self) -> str:
        how = "IDLE" if self.idle else f"NOOP every {IMAP_POLL:g}s" if self.imap else "not connected yet"
        return f"IMAP {self.where} folder {self.folder} ({how})"

    def open(self) -> None:
        """Connect (now, or when the back-off allows); a failure is logged and tried again later."""
        if self.imap is not None or time.monotonic() < self.retry_at:
            return
        try:
            imap = imap_connect(self.config, WATCH_TIMEOUT)
            try:
                imap_examine(imap, self.config, self.folder)
                self.idle = imap_has(imap, "IDLE")
                validity = (imap.response("UIDVALIDITY")[1] or [None])[0]
            except BaseException:
                with contextlib.suppress(Exception):
                    imap.shutdown()
                raise
        except PbemError as exc:  # a HostFailure: the words of `pbem advance` and `pbem doctor`
            self._failed(str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - imaplib's errors, and whatever a broken server makes it raise
            from pbem.hostfail import classify

            self._failed(str(classify(exc, "IMAP", self.config.inbox, "connect", WATCH_TIMEOUT)))
            return
        if validity != self.validity:
            if self.validity is not None:
                self.known = 0  # the folder was made anew: every UID in it is new
            self.validity = validity
        if self.failures:
            self.log.error(f"IMAP {self.where}: connected again")
        self.imap, self.failures, self.said = imap, 0, None

    def _failed(self, why: str) -> None:
        """Try again after the back-off; the line is logged when it says something new (a server away
        all night is one line, not one a minute)."""
        delay = BACKOFF[min(self.failures, len(BACKOFF) - 1)]
        self.failures += 1
        self.retry_at = time.monotonic() + delay
        if why != self.said:
            self.log.error(f"{why}; connecting again in {delay}s")
            self.said = why

    def _drop(self, why: str) -> None:
        imap, self.imap = self.imap, None
        if imap is not None:
            with contextlib.suppress(Exception):
                imap.shutdown()
        self._failed(f"IMAP {self.where}: the connection was lost ({why})")

    def _uids(self) -> list[int]:
        """The UIDs in the folder; searched again where the server told of new mail beside its answer
        (an EXISTS): the answer may be of the folder before that mail, and the server tells of a mail
        once, so an IDLE begun after would not hear of it."""
        assert self.imap is not None
        for _ in range(SEARCHES):
            self.imap.untagged_responses.clear()  # what came before the search, the search sees
            status, data = self.imap.uid("SEARCH", None, "UNDELETED")
            told = "EXISTS" in self.imap.untagged_responses
            self.imap.untagged_responses.clear()  # EXPUNGEs of the runs' moves: imaplib would keep them all
            if status != "OK":
                raise OSError(f"SEARCH refused: {data}")
            if not told:
                break
        return [int(u) for u in (data[0] or b"").split()]

    def snapshot(self) -> None:
        """Everything in the folder now is the run's to read."""
        self.open()
        if self.imap is None:
            return
        try:
            self.known = max(self._uids(), default=self.known)
        except Exception as exc:  # noqa: BLE001 - any failure is a lost connection, made again
            self._drop(imap_text(exc))

    def wait(self, wake: Wake) -> str:
        while True:
            reason = wake()
            if reason:
                return reason
            self.open()
            if self.imap is None:
                self.stopper.sleep(min(self.poll, max(0.0, self.retry_at - time.monotonic())))
                continue
            try:
                self.imap.noop()  # the session learns of the mail that came during the run (SEARCH alone may not)
                if any(uid > self.known for uid in self._uids()):
                    return "mail"
                if self.idle:
                    reason = self._idle(wake)
                    if reason:
                        return reason
                else:
                    until = time.monotonic() + IMAP_POLL
                    while not reason and time.monotonic() < until:
                        self.stopper.sleep(min(self.poll, until - time.monotonic()))
                        reason = wake()
                    if reason:
                        return reason
                    self.imap.noop()
            except Exception as exc:  # noqa: BLE001 - EOF, a reset, a timeout, a BYE: connect again
                self._drop(imap_text(exc) or type(exc).__name__)

    def _pending(self) -> bool | None:
        """Whether a line from the server waits in imaplib's buffers (True), nothing does (False), or the
        socket gave b"" (None: nothing, or the end of the connection when select said it was readable).
        Read without blocking: the buffered reader and the TLS layer hold bytes select cannot see."""
        import ssl

        assert self.imap is not None
        sock = self.imap.sock
        timeout = sock.gettimeout()
        sock.settimeout(0.0)
        try:
            return True if self.imap.file.peek(1) else None
        except (ssl.SSLWantReadError, BlockingIOError):
            return False
        finally:
            sock.settimeout(timeout)

    def _line(self) -> bytes:
        assert self.imap is not None
        line = self.imap.readline()
        if not line:
            raise EOFError("the server closed the connection")
        if line.startswith(b"* BYE"):
            raise EOFError(line.decode("utf-8", "replace").strip())
        return line

    def _idle(self, wake: Wake) -> str | None:
        """One IDLE: until the server tells of new mail (EXISTS), `wake` has a reason, or IDLE_RENEW
        passes; then DONE and its tagged answer. Returns the reason to wake, None to look again."""
        assert self.imap is not None
        self.tags += 1
        tag = f"PBW{self.tags}".encode()
        self.imap.send(tag + b" IDLE\r\n")
        news = False
        while True:
            line = self._line()
            if line.startswith(b"+"):
                break
            if line.startswith(tag + b" "):
                self.idle = False  # it said it has IDLE, then refused it: NOOPs from now on
                return None
            # the server may tell of mail that came meanwhile before it says it idles
            news = news or re.match(rb"^\* \d+ (EXISTS|RECENT)\b", line, re.I) is not None
        renew = time.monotonic() + IDLE_RENEW
        reason = None
        while not news and time.monotonic() < renew:
            reason = wake()
            if reason:
                break
            pending = self._pending()
            if not pending:
                if not self.stopper.sleep(min(self.poll, renew - time.monotonic()), (self.imap.sock.fileno(),)):
                    continue
                pending = self._pending()
                if pending is None:
                    raise EOFError("the server closed the connection")
                if not pending:
                    continue  # a TLS record with no data in it
            news = re.match(rb"^\* \d+ (EXISTS|RECENT)\b", self._line(), re.I) is not None
        self.imap.send(b"DONE\r\n")
        while True:
            line = self._line()
            if line.startswith(tag + b" "):
                if not line[len(tag) + 1:].upper().startswith(b"OK"):
                    raise OSError(f"IDLE ended with {line.decode('utf-8', 'replace').strip()}")
                return reason

    def close(self) -> None:
        imap, self.imap = self.imap, None
        if imap is not None:
            with contextlib.suppress(Exception):
                imap.logout()


class LocalWatch:
    """A mailbox on disk, looked at every `poll` seconds: a stat (`_signature`), and only when it
    changed (or changed so recently that its mtime cannot tell) a list of what it holds (`_contents`).
    Mail is new when it was not there when the last run began."""

    kind = ""

    def __init__(self, path: Path, stopper: Stopper, poll: float) -> None:
        self.path, self.stopper, self.poll = path, stopper, poll
        self.known: set[str] = set()
        self.seen: Any = ()

    def describe(self) -> str:
        return f"{self.kind} {self.path} (looked at every {self.poll:g}s)"

    def open(self) -> None:
        pass

    def _contents(self) -> set[str]:
        raise NotImplementedError

    def _signature(self) -> tuple[Any, ...]:
        raise NotImplementedError

    def _mtimes(self, signature: tuple[Any, ...]) -> list[int]:
        raise NotImplementedError

    def snapshot(self) -> None:
        self.known = self._contents()

    def wait(self, wake: Wake) -> str:
        while True:
            signature = self._signature()
            racy = any(time.time_ns() - mtime < RACY for mtime in self._mtimes(signature))
            if signature != self.seen or racy:
                self.seen = signature
                if self._contents() - self.known:
                    return "mail"
            reason = wake()
            if reason:
                return reason
            self.stopper.sleep(self.poll)

    def close(self) -> None:
        pass


class MaildirWatch(LocalWatch):
    """A Maildir: a stat of new/ and cur/, then their names (without the flags)."""

    kind = "Maildir"

    def _contents(self) -> set[str]:
        found: set[str] = set()
        for sub in ("new", "cur"):
            with contextlib.suppress(FileNotFoundError, NotADirectoryError):
                found.update(name.split(":", 1)[0] for name in os.listdir(self.path / sub) if not name.startswith("."))
        return found

    def _signature(self) -> tuple[Any, ...]:
        out = []
        for sub in ("new", "cur"):
            try:
                st = os.stat(self.path / sub)
                out.append((st.st_ino, st.st_mtime_ns))
            except OSError:
                out.append(None)
        return tuple(out)

    def _mtimes(self, signature: tuple[Any, ...]) -> list[int]:
        return [s[1] for s in signature if s is not None]


class MboxWatch(LocalWatch):
    """An mbox file: a stat, then its mails' Message-IDs."""

    kind = "mbox"

    def _contents(self) -> set[str]:
        import mailbox

        from pbem import digests

        if not self.path.is_file():
            return set()
        box = mailbox.mbox(self.path, factory=None, create=False)
        found = set()
        try:
            for key in box.keys():
                raw = box.get_bytes(key)
                head = raw.split(b"\n\n", 1)[0]
                m = re.search(rb"(?im)^message-id:[ \t]*(<[^>\r\n]*>)", head)
                found.add(m.group(1).decode("ascii", "replace") if m else digests.sha256(raw).hexdigest())
        except (OSError, mailbox.Error):
            pass  # rewritten while read: the next look reads it again
        finally:
            box.close()
        return found

    def _signature(self) -> tuple[Any, ...]:
        try:
            st = os.stat(self.path)
        except OSError:
            return (None,)
        return (st.st_ino, st.st_size, st.st_mtime_ns)

    def _mtimes(self, signature: tuple[Any, ...]) -> list[int]:
        return [] if signature[0] is None else [signature[2]]


def mail_source(config: Config, stopper: Stopper, log: Log, poll: float) -> Source:
    from pbem.mail.boxes import inbox_path

    path = inbox_path(config)
    if path is None:
        return ImapWatch(config, stopper, log, poll)
    if config.inbox["type"] == "maildir":
        return MaildirWatch(path, stopper, poll)
    return MboxWatch(path, stopper, poll)


# -- deadlines ---------------------------------------------------------------------------------------

def pending_moment(state: dict[str, Any]) -> datetime | None:
    """The next moment a run must act on this game: its reminder, if not yet sent for this decision,
    or the end of its deadline and grace (a substitute move, or the GM told once that it waits)."""
    from pbem.deadlines import remind_at, substitute_at

    rule = state.get("deadline")
    if not rule or state.get("status") != "active":
        return None
    turn = state["engine"]["turn"]
    moments = []
    remind = remind_at(state)
    if remind is not None and state.get("reminded") != turn:
        moments.append(remind)
    end = substitute_at(state)
    if end is not None and (rule.get("policy") != "wait" or state.get("overdue") != turn):
        moments.append(end)
    return min(moments, default=None)


def pending_moments(root: Path) -> dict[str, datetime]:
    """Each game's next moment a run must act on (games without one, or that cannot be read, left out)."""
    gd = GamesDir(root)
    try:
        games = gd.games()
    except PbemError:
        return {}  # git cannot be asked now; the interval's run says why
    found = {}
    for game in games:
        try:
            when = pending_moment(gd.load(game))
        except (PbemError, KeyError, TypeError, ValueError):
            continue  # a broken game is `pbem status`'s to show
        if when is not None:
            found[game] = when
    from pbem import lobby
    from pbem.deadlines import moment

    for entry in lobby.entries(gd):  # a challenge's invitations lapse on time too
        if entry.get("lapses"):
            found[entry["game"]] = moment(entry["lapses"])
        if entry.get("bots_at"):  # and bots take an open game's free seats
            found[entry["game"]] = moment(entry["bots_at"])
    return found


def head_signature(root: Path) -> tuple[Any, ...]:
    """What changes whenever anyone commits in the games dir: git's HEAD and the branch it names."""
    git = root / ".git"
    paths = [git / "HEAD", git / "packed-refs"]
    with contextlib.suppress(OSError):
        head = (git / "HEAD").read_text("utf-8").strip()
        if head.startswith("ref: "):
            paths.append(git / head[5:])
    out = []
    for path in paths:
        try:
            st = os.stat(path)
            out.append((st.st_ino, st.st_mtime_ns, st.st_size))
        except OSError:
            out.append(None)
    return tuple(out)


# -- the runs ----------------------------------------------------------------------------------------

def run_lines(run: Run, warnings: list[str]) -> tuple[list[str], list[str]]:
    """What `pbem advance` prints for a run, split for the log: what it did, and what went wrong. The
    lines that say nothing happened are left out, as `--quiet` leaves them out."""
    done: list[str] = []
    wrong = [f"Warning: {w}" for w in warnings]
    for line in run.mail:
        (wrong if line.startswith(("Warning: ", "mail could not be read")) else done).append(line)
    for outcome in run.outcomes:
        summary = outcome.summary()
        if outcome.error:
            wrong.append(summary)
        elif summary != f"{outcome.game}: nothing to do":
            done.append(summary)
    if run.sent:
        done.append(f"{run.sent} mail{'s' if run.sent != 1 else ''} {run.delivery}")
    wrong += [f"Not sent (retried by the next run): {e}" for e in run.send_errors]
    wrong += [str(f) for f in run.host_failures]  # the words of `pbem advance` and `pbem doctor`
    wrong += run.errors
    return done, wrong


class Watcher:
    """The loop: wait (for mail, a deadline, the interval, a retry), then a run; until a signal."""

    def __init__(self, root: Path, interval: float, poll: float, jobs: int, log: Log, stopper: Stopper) -> None:
        self.root, self.interval, self.poll, self.jobs = root, interval, poll, jobs
        self.log, self.stopper = log, stopper
        self.config_signature = self._config_signature()
        self.config = load_config(root)
        self.source = mail_source(self.config, stopper, log, poll)
        self.next_run = time.monotonic() + interval
        self.retry_at: float | None = None
        self.failures = 0
        self.deadline: datetime | None = None
        self.tried: set[tuple[str, datetime]] = set()  # moments a run was due to act on and did not
        self.games_signature: tuple[Any, ...] = ()
        self.plan()

    def _config_signature(self) -> tuple[Any, ...]:
        try:
            st = os.stat(self.root / CONFIG_FILE)
        except OSError:
            return (None,)
        return (st.st_ino, st.st_mtime_ns, st.st_size)

    def plan(self, run_at: datetime | None = None) -> None:
        """The next deadline, read again from the games (after a run, or a commit by someone else). A
        moment still pending after a run that began later (its game is broken, or its engine failed) is
        left to the interval's runs, not run for again and again; a moment the GM changes is new."""
        self.games_signature = head_signature(self.root)
        moments = pending_moments(self.root)
        if run_at is not None:
            self.tried = {(game, when) for game, when in moments.items() if when <= run_at}
        self.deadline = min((when for game, when in moments.items() if (game, when) not in self.tried), default=None)

    def wake(self) -> str | None:
        """Why to stop waiting now, if anything: called every `poll` seconds at least, so cheap."""
        from pbem.gm import parse_now

        if self.stopper.stopping:
            return "stop"
        now = time.monotonic()
        if now >= self.next_run:
            return "interval"
        if self.retry_at is not None and now >= self.retry_at:
            return "retry"
        if self._config_signature() != self.config_signature:
            return "config"
        if head_signature(self.root) != self.games_signature:
            self.plan()
        if self.deadline is not None and parse_now() >= self.deadline + DEADLINE_MARGIN:
            return "deadline"
        return None

    def reconfigure(self) -> None:
        """pbem.yaml changed: watch the inbox it names now (a broken file: keep the old, say why)."""
        self.config_signature = self._config_signature()
        try:
            config = load_config(self.root)
        except PbemError as exc:
            self.log.error(f"{CONFIG_FILE} changed and cannot be used (still watching as before): {exc}")
            return
        if (config.inbox, config.gm_address) != (self.config.inbox, self.config.gm_address):
            self.source.close()
            self.config = config
            self.source = mail_source(config, self.stopper, self.log, self.poll)
            self.source.open()
            self.log.say(f"{CONFIG_FILE} changed: now watching {self.source.describe()}")
        self.config = config

    def lock_free(self) -> bool:
        """Wait while another pbem command holds the games dir (a GM at work); False if told to stop."""
        gd = GamesDir(self.root)
        gd.check()
        with open(self.root / ".pbem.lock", "a") as f:
            while True:
                try:
                    fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    if self.stopper.stopping:
                        return False
                    self.stopper.sleep(0.2)
                    continue
                fcntl.flock(f, fcntl.LOCK_UN)
                return True

    def run(self) -> None:
        """One `pbem advance`, with the signals held until it is done; its lines to the log."""
        from pbem import advance as batch
        from pbem.gm import parse_now

        self.source.snapshot()
        began = parse_now()
        gd = GamesDir(self.root)
        failed = False
        with self.stopper.held():
            try:
                run = batch.advance(gd, jobs=self.jobs)
            except PbemError as exc:
                self.log.error(f"the run failed: {exc}")
                failed, run = True, None
            except Exception:  # a bug must not end the watch: the next run starts afresh
                self.log.error("the run failed with an internal error:\n" + traceback.format_exc().rstrip())
                failed, run = True, None
        if run is not None:
            done, wrong = run_lines(run, gd.warnings)
            for line in wrong:
                self.log.error(line)
            if done:
                self.log.say("; ".join(done))
            failed = bool(run.send_errors or run.errors or run.host_failures
                          or any(line.startswith("mail could not be read") for line in run.mail))
        self.next_run = time.monotonic() + self.interval
        if failed:
            self.retry_at = time.monotonic() + min(RETRY[min(self.failures, len(RETRY) - 1)], self.interval)
            self.failures += 1
        else:
            self.retry_at, self.failures = None, 0
        self.plan(began)

    def loop(self, once: bool) -> None:
        """Run at the start (the mail and deadlines of while nobody watched), then on every wake. With
        `once`: no run at the start, one wait, one run."""
        self.source.open()
        if not once:
            if not self.lock_free():
                return
            self.run()
        self.log.say(f"watching {self.root}: mail in {self.source.describe()}, a run at least every "
                     f"{_minutes(self.interval)}; deadlines: {self._next_deadline_text()}")
        while not self.stopper.stopping:
            reason = self.source.wait(self.wake)
            if reason == "stop" or self.stopper.stopping:
                break
            if reason == "config":
                self.reconfigure()
                continue
            if not self.lock_free():
                break
            self.run()
            if once:
                break

    def _next_deadline_text(self) -> str:
        from pbem.deadlines import stamp as deadline_stamp

        return f"the next at {deadline_stamp(self.deadline)}" if self.deadline else "none ahead"

    def close(self) -> None:
        self.source.close()


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:g} min" if seconds >= 60 else f"{seconds:g}s"


def watch(root: Path, interval: float, poll: float, jobs: int, once: bool = False,
          out: TextIO | None = None, err: TextIO | None = None) -> None:
    """`pbem watch` until SIGTERM or SIGINT (then after the run at work). `interval`, `poll`: seconds.
    A pbem.yaml that cannot be read at the start raises PbemError; later it is logged."""
    log = Log(out or sys.stdout, err or sys.stderr)
    stopper = Stopper()
    try:
        watcher = Watcher(root, interval, poll, jobs, log, stopper)
        try:
            watcher.loop(once)
        finally:
            watcher.close()
    finally:
        stopper.close()
