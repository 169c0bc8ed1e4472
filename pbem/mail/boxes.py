"""Where mail comes from (a Maildir, an mbox file, an IMAP account) and where it goes (.eml files or
an SMTP server), behind two small interfaces. Outgoing mail waits in `mail/outgoing/` of the games dir
until it is sent, so a run that dies before sending sends it the next time.

Filing a handled mail (`done`) is safe to repeat after a run that died half way: a Maildir file is
moved by one rename, an IMAP mail by MOVE (or COPY once, found again by its Message-ID), and a mail
already appended to read.mbox is not appended again.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # the mail stack is imported where it is used: most runs read no IMAP and send no SMTP
    from email.message import EmailMessage
    import imaplib
    import mailbox
    import smtplib
    import ssl

from pbem import digests
from pbem.config import Config
from pbem.errors import PbemError
from pbem.store import crash_point, private_file, private_folder, process_start, write_atomic

READ_FOLDER = "pbem-read"
SET_ASIDE_FOLDER = "pbem-set-aside"


class Inbox(Protocol):
    def keys(self) -> list[str]: ...
    def read(self, key: str) -> bytes: ...
    def done(self, key: str, set_aside: bool) -> None: ...
    def close(self) -> None: ...


class MaildirInbox:
    """A Maildir; read mail moves to mail/read, mail set aside to mail/set-aside (both Maildirs)."""

    def __init__(self, path: Path, root: Path) -> None:
        import mailbox

        self.box = mailbox.Maildir(path, factory=None, create=True)
        self.path = path
        self.folders = {False: root / "mail" / "read", True: root / "mail" / "set-aside"}
        for folder in self.folders.values():
            mailbox.Maildir(folder, factory=None, create=True)  # new/, cur/, tmp/

    def keys(self) -> list[str]:
        """In order of delivery: a Maildir name starts with the time (seconds, then M and microseconds
        that are not zero-padded), so the names are compared as numbers."""
        def delivered(key: str) -> tuple[int, int, str]:
            m = re.match(r"^(\d+)\.(?:M(\d+))?", key)
            return (int(m.group(1)), int(m.group(2) or 0), key) if m else (0, 0, key)
        return sorted(self.box.keys(), key=delivered)

    def read(self, key: str) -> bytes:
        return self.box.get_bytes(key)

    def _file(self, key: str) -> Path:
        """The file of a mail: new/<key>, or cur/<key>:<flags>."""
        import glob  # a mail read: a run that reads none does not load it

        for sub in ("new", "cur"):
            folder = self.path / sub
            if (folder / key).is_file():
                return folder / key
            found = sorted(glob.glob(glob.escape(str(folder / key)) + self.box.colon + "*"))
            if found:
                return Path(found[0])
        raise PbemError(f"mail {key} is no longer in {self.path}")

    def done(self, key: str, set_aside: bool) -> None:
        """Move the mail's own file (same name) into mail/read or mail/set-aside: one rename, so a run
        that dies finds it in one place or the other, never in both."""
        source = self._file(key)
        target = self.folders[set_aside] / source.parent.name / source.name
        if target.exists():  # filed already by a copy that the run did not live to finish
            source.unlink()
            return
        try:
            os.rename(source, target)
        except OSError as exc:
            if exc.errno != errno.EXDEV:
                raise
            write_atomic(target, source.read_bytes())  # another file system: copy, then take out
            crash_point("unlink-mail")
            source.unlink()
        _sync_folder(target.parent)

    def close(self) -> None:
        pass


def _sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


STALE_DOT_LOCK = 1024.0  # seconds (procmail's locktimeout): an older dot lock was left by a dead program
DOT_LOCK_MARK = "pbem"  # what pbem writes into the dot locks it holds


def _lock_mbox(box: mailbox.mbox, path: Path, warnings: list[str]) -> None:
    """Lock an mbox file (lockf and a dot lock, marked as pbem's). A dot lock left by a killed program
    is removed with a warning: pbem's own when it is older than this process (under the games dir's
    lock no other pbem runs), another program's after STALE_DOT_LOCK. A held lock is a PbemError."""
    import mailbox

    dot = Path(f"{path}.lock")
    try:
        made = dot.stat().st_mtime
        ours = dot.read_text("utf-8", errors="replace").startswith(DOT_LOCK_MARK)
        if made < process_start() and (ours or made < time.time() - STALE_DOT_LOCK):
            dot.unlink()
            warnings.append(f"removed a stale dot lock {dot} left by a killed "
                            f"{'pbem' if ours else 'program'}")
    except FileNotFoundError:
        pass
    try:
        box.lock()
    except (mailbox.ExternalClashError, OSError) as exc:
        box.close()
        raise PbemError(f"the mbox {path} is locked by another program ({exc}); it is read by the next run") from None
    try:
        dot.write_text(f"{DOT_LOCK_MARK} {os.getpid()}\n")
    except OSError:
        pass  # a dot lock pbem cannot mark is only removed after STALE_DOT_LOCK


class MboxInbox:
    """An mbox file, locked while pbem reads it; handled mail is appended to mail/read.mbox or
    mail/set-aside.mbox and removed from the inbox when the run closes it. A mail that a run which died
    half way appended already (the same bytes) is not appended again."""

    def __init__(self, path: Path, root: Path) -> None:
        import mailbox

        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.warnings: list[str] = []
        self.box = mailbox.mbox(path, factory=None, create=True)
        _lock_mbox(self.box, path, self.warnings)
        self.root = root
        self.filed: dict[Path, set[str]] = {}  # what each target mbox holds (sha256 of each mail)

    def keys(self) -> list[str]:
        return [str(k) for k in sorted(self.box.keys())]

    def read(self, key: str) -> bytes:
        return self.box.get_bytes(int(key))

    def done(self, key: str, set_aside: bool) -> None:
        import mailbox

        path = self.root / "mail" / ("set-aside.mbox" if set_aside else "read.mbox")
        raw = self.box.get_bytes(int(key))
        digest = digests.sha256(raw).hexdigest()
        private_file(path)  # players' mail, tokens in it: the mailbox package would make it 0644
        target = mailbox.mbox(path, factory=None, create=True)
        _lock_mbox(target, path, self.warnings)
        try:
            if path not in self.filed:
                self.filed[path] = {digests.sha256(target.get_bytes(k)).hexdigest() for k in target.keys()}
            if digest not in self.filed[path]:
                target.add(raw)
                target.flush()
                self.filed[path].add(digest)
        finally:
            target.unlock()
            target.close()
        self.box.remove(int(key))

    def close(self) -> None:
        import mailbox

        try:
            crash_point("unlink-mail")
            self.box.flush()
        except mailbox.Error as exc:  # the file changed under the lock: the mail stays, read before
            raise PbemError(f"the mbox {self.path} could not be rewritten ({exc}); the mail read stays "
                            f"in it until the next run") from None
        finally:
            self.box.unlock()
            self.box.close()


def _ready(config: Config, section: dict[str, Any], what: str, server: str) -> ssl.SSLContext:
    """What a connection to the server of `section` needs before it is made: its secret (one that
    cannot be had fails here, before a connection; an SMTP server without a user needs none) and the
    TLS context of its `ca_file`; each failure a HostFailure."""
    import ssl

    from pbem.hostfail import classify

    try:
        if what == "inbox" or section.get("user"):
            config.password(section, what)
    except PbemError as exc:
        raise classify(exc, server, section, "password") from None
    try:
        return ssl.create_default_context(cafile=section.get("ca_file"))
    except OSError as exc:
        raise classify(exc, server, section, "ca_file") from None


def imap_connect(config: Config, timeout: float = 60.0) -> imaplib.IMAP4:
    """A logged-in connection to the configured IMAP account; a HostFailure names the cause and its fix."""
    import imaplib

    from pbem.hostfail import classify

    section = config.inbox
    security = section.get("security", "tls")
    port = section.get("port", 993 if security == "tls" else 143)
    context = _ready(config, section, "inbox", "IMAP")
    step = "connect"
    imap: imaplib.IMAP4 | None = None
    try:
        if security == "tls":
            imap = imaplib.IMAP4_SSL(section["host"], port, ssl_context=context, timeout=timeout)
        else:
            imap = imaplib.IMAP4(section["host"], port, timeout=timeout)
            if security == "starttls":
                imap.starttls(ssl_context=context)
        step = "login"
        from pbem.mail.login import imap_login

        imap_login(imap, config, section)
    except Exception as exc:  # noqa: BLE001 - imaplib's errors, the socket's and TLS's alike: classified
        if imap is not None:
            with contextlib.suppress(Exception):
                imap.shutdown()
        raise classify(exc, "IMAP", section, step, timeout) from None
    return imap


def imap_select(imap: imaplib.IMAP4, config: Config, folder: str, readonly: bool = False) -> None:
    """Select `folder` (read-only: watching or looking changes nothing); a folder that does not exist
    or cannot be opened is a HostFailure."""
    import imaplib

    from pbem.hostfail import classify

    try:
        status, data = imap.select(_quote(folder), readonly=readonly)
    except imaplib.IMAP4.abort:
        raise
    except imaplib.IMAP4.error as exc:
        raise classify(exc, "IMAP", dict(config.inbox, folder=folder), "select") from None
    if status != "OK":
        words = b" ".join(d for d in data if isinstance(d, bytes)).decode("utf-8", "replace")
        raise classify(imaplib.IMAP4.error(words or status), "IMAP", dict(config.inbox, folder=folder), "select")


class ImapInbox:
    """An IMAP folder over TLS (or STARTTLS); handled mail is moved to pbem-read or the set-aside folder."""

    def __init__(self, config: Config) -> None:
        import imaplib

        from pbem.hostfail import classify

        section = config.inbox
        self.imap = imap_connect(config)
        self.folder = section.get("folder", "INBOX")
        self.aside = section.get("set_aside_folder", SET_ASIDE_FOLDER)
        try:
            imap_select(self.imap, config, self.folder)
        except (PbemError, OSError, imaplib.IMAP4.error) as exc:
            with contextlib.suppress(Exception):
                self.imap.logout()
            if isinstance(exc, PbemError):
                raise
            raise classify(exc, "IMAP", section, "connect") from None
        self.created: set[str] = set()
        self.move: bool | None = None

    def keys(self) -> list[str]:
        status, data = self.imap.uid("SEARCH", None, "UNDELETED")
        if status != "OK":
            raise PbemError("the IMAP server refused to list the inbox")
        return [uid.decode() for uid in (data[0] or b"").split()]

    def read(self, key: str) -> bytes:
        status, data = self.imap.uid("FETCH", key, "(BODY.PEEK[])")
        for item in data:
            if isinstance(item, tuple):
                return item[1]
        raise PbemError(f"the IMAP server did not return mail {key}")

    def can_move(self) -> bool:
        """The server moves mail in one step (RFC 6851 MOVE); asked once, after the login."""
        if self.move is None:
            status, data = self.imap.capability()
            caps = b" ".join(d for d in data if isinstance(d, bytes)).upper().split() if status == "OK" else []
            self.move = b"MOVE" in caps
        return self.move

    def _filed_already(self, key: str, folder: str) -> bool:
        """Whether `folder` holds this mail (by its Message-ID) from a run that died after the COPY."""
        status, data = self.imap.uid("FETCH", key, "(BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])")
        header = b"".join(item[1] for item in data if isinstance(item, tuple)) if status == "OK" else b""
        m = re.search(rb"<[^<>\s\"]+>", header)
        if not m:
            return False
        try:
            status, _ = self.imap.select(_quote(folder), readonly=True)
            if status != "OK":
                return False
            status, found = self.imap.uid("SEARCH", None, "HEADER", "Message-ID", f'"{m.group().decode()}"')
            return status == "OK" and bool((found[0] or b"").split())
        finally:
            self.imap.select(_quote(self.folder))

    def done(self, key: str, set_aside: bool) -> None:
        """Move the mail to its folder: MOVE where the server has it (one step); else COPY, unless a run
        that died after its COPY left it there already, then mark it deleted (expunged at close)."""
        folder = self.aside if set_aside else READ_FOLDER
        if folder not in self.created:
            self.imap.create(_quote(folder))  # fails harmlessly when it exists
            self.created.add(folder)
        if self.can_move():
            status, _ = self.imap.uid("MOVE", key, _quote(folder))
            if status != "OK":
                raise PbemError(f"the IMAP server refused to move mail {key} to {folder!r}")
            return
        if not self._filed_already(key, folder):
            status, _ = self.imap.uid("COPY", key, _quote(folder))
            if status != "OK":
                raise PbemError(f"the IMAP server refused to move mail {key} to {folder!r}")
            crash_point("unlink-mail")
        self.imap.uid("STORE", key, "+FLAGS", "(\\Deleted)")

    def close(self) -> None:
        import imaplib

        try:
            self.imap.expunge()
            self.imap.close()
            self.imap.logout()
        except (OSError, imaplib.IMAP4.error):
            pass


def _quote(folder: str) -> str:
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


def inbox_path(config: Config) -> Path | None:
    """Where the configured local inbox is (None: an IMAP account)."""
    kind = config.inbox["type"]
    if kind == "imap":
        return None
    return config.path(config.inbox.get("path", "mail/inbox" if kind == "maildir" else "mail/inbox.mbox"))


def inbox_exists(config: Config) -> bool:
    """Whether there is an inbox to read: an IMAP account, or a local inbox that exists."""
    path = inbox_path(config)
    return path is None or path.exists()


def inbox_empty(config: Config) -> bool:
    """Whether the inbox is a local one that holds no mail: missing, a Maildir with nothing in new/ or
    cur/ (names beginning with a dot are not mail, as for the mailbox module), an empty mbox. An IMAP
    inbox is never known to be empty without logging in."""
    path = inbox_path(config)
    if path is None:
        return False
    if config.inbox["type"] != "maildir":
        return not path.exists() or path.stat().st_size == 0
    for folder in (path / "new", path / "cur"):
        try:
            if any(not name.startswith(".") for name in os.listdir(folder)):
                return False
        except FileNotFoundError:
            continue
    return True


def open_inbox(config: Config) -> Inbox | None:
    """The configured inbox, or None when a local one does not exist yet (nothing to read)."""
    kind = config.inbox["type"]
    path = inbox_path(config)
    if path is None:
        return ImapInbox(config)
    if not path.exists():
        return None
    if kind == "maildir":
        return MaildirInbox(path, config.root)
    return MboxInbox(path, config.root)


# -- outgoing -----------------------------------------------------------------------------------------

SAFE_NAME = re.compile(r"^[A-Za-z0-9._-]{1,120}$")


def held_back(config: Config, msg: EmailMessage) -> bool:
    """Whether a mail is not to be sent: its address asked this host never to write to it (every mail
    pbem sends passes here)."""
    from pbem.donotmail import never_mail

    to = msg["To"]
    addresses = [a.addr_spec for a in getattr(to, "addresses", ())] if to is not None else []
    return any(never_mail(config, a) for a in addresses)


class Postman:
    """Outgoing mail: written to mail/outgoing first (atomically, under a name pbem chooses), sent by
    `deliver` after the run has committed, then kept in mail/sent."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.failure: PbemError | None = None  # the HostFailure of the last delivery, if the server failed
        self.outgoing = config.root / "mail" / "outgoing"
        self.sent = config.root / "mail" / "sent"

    def post(self, name: str, msg: EmailMessage) -> Path:
        if not SAFE_NAME.match(name):
            raise ValueError(f"unsafe outgoing mail name {name!r}")
        from email import policy

        path = self.outgoing / f"{name}.eml"
        if held_back(self.config, msg):
            return path
        # SMTP's line ends; pbem's own policy (`compose`) keeps its one-id headers on one line
        smtp = msg.policy if msg.policy.linesep == "\r\n" else policy.SMTP
        write_atomic(path, msg.as_bytes(policy=smtp))
        return path

    def describe(self) -> str:
        section = self.config.outbox
        if section["type"] == "files":
            return f"written to {self.config.path(section.get('path', 'mail/outbox'))}"
        return f"sent through {section['host']}"

    def waiting(self) -> list[Path]:
        return sorted(self.outgoing.glob("*.eml")) if self.outgoing.is_dir() else []

    def deliver(self) -> tuple[int, list[str]]:
        """Send everything waiting; returns how many went and the errors (those stay to be retried)."""
        waiting = self.waiting()
        if not waiting:
            return 0, []
        sent, errors = 0, []
        try:
            sender = _sender(self.config)
            send = sender.__enter__()
        except PbemError as exc:  # the server is away: everything waits for the next run
            self.failure = exc
            return 0, [str(exc)]
        try:
            for path in waiting:
                try:
                    send(path.name, path.read_bytes())
                except sender.errors as exc:
                    errors.append(f"{path.name}: {exc}")
                    continue
                private_folder(self.sent)
                path.replace(self.sent / path.name)
                sent += 1
        finally:
            sender.__exit__(None, None, None)
        return sent, errors


def mailbox_message(raw: bytes) -> EmailMessage:
    import email
    from email import policy

    return email.message_from_bytes(raw, policy=policy.SMTP)  # type: ignore[return-value]


def smtp_connect(config: Config, timeout: float = 60.0) -> smtplib.SMTP:
    """A connection to the configured SMTP server, logged in where a user is set; a HostFailure names the
    cause and its fix."""
    import smtplib

    from pbem.hostfail import classify

    section = config.outbox
    security = section.get("security", "starttls")
    port = section.get("port", {"tls": 465, "starttls": 587, "none": 25}[security])
    context = _ready(config, section, "outbox", "SMTP")
    step = "connect"
    smtp: smtplib.SMTP | None = None
    try:
        if security == "tls":
            smtp = smtplib.SMTP_SSL(section["host"], port, context=context, timeout=timeout)
        else:
            smtp = smtplib.SMTP(section["host"], port, timeout=timeout)
            if security == "starttls":
                smtp.starttls(context=context)
        if section.get("user"):
            step = "login"
            from pbem.mail.login import smtp_login

            smtp_login(smtp, config, section)
    except (OSError, smtplib.SMTPException) as exc:
        if smtp is not None:
            with contextlib.suppress(Exception):
                smtp.close()
        raise classify(exc, "SMTP", section, step, timeout) from None
    return smtp


class _sender:
    """A context that yields `send(name, raw)` for the configured outbox."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.smtp: smtplib.SMTP | None = None
        self.errors: tuple[type[Exception], ...] = (OSError,)  # what a failed send raises

    def __enter__(self):  # type: ignore[no-untyped-def]
        section = self.config.outbox
        if section["type"] == "files":
            folder = self.config.path(section.get("path", "mail/outbox"))
            private_folder(folder)

            def to_file(name: str, raw: bytes) -> None:  # the bytes `post` wrote are the mail as sent
                write_atomic(folder / name, raw)
            return to_file
        import smtplib

        self.errors = (OSError, smtplib.SMTPException)
        self.smtp = smtp_connect(self.config)
        smtp = self.smtp

        def to_smtp(name: str, raw: bytes) -> None:
            from email.utils import getaddresses

            # the bytes `post` wrote, as they are: sent again through the email package, its headers
            # would be folded anew
            msg = mailbox_message(raw)
            to = [a for _, a in getaddresses([str(v) for v in msg.get_all("To", []) + msg.get_all("Cc", [])]) if a]
            smtp.sendmail(self.config.gm_address, to, raw)
        return to_smtp

    def __exit__(self, *exc: object) -> None:
        if self.smtp is not None:
            try:
                self.smtp.quit()
            except self.errors:
                pass


def peek_inbox(config: Config) -> list[tuple[str, bytes]]:
    """Every mail waiting in the configured inbox, in the order a run reads them, read without changing
    anything: nothing moved or flagged, no folder created, no IMAP expunge."""
    import imaplib
    import mailbox

    kind = config.inbox["type"]
    path = inbox_path(config)
    if path is None:
        inbox = ImapInbox(config)
        try:
            return [(key, inbox.read(key)) for key in inbox.keys()]
        finally:
            try:
                inbox.imap.logout()  # not close(): that expunges
            except (OSError, imaplib.IMAP4.error):
                pass
    if not path.exists():
        return []
    if kind == "maildir":
        box = mailbox.Maildir(path, factory=None, create=False)

        def delivered(key: str) -> tuple[int, int, str]:  # as MaildirInbox.keys orders them
            m = re.match(r"^(\d+)\.(?:M(\d+))?", key)
            return (int(m.group(1)), int(m.group(2) or 0), key) if m else (0, 0, key)
        return [(key, box.get_bytes(key)) for key in sorted(box.keys(), key=delivered)]
    mbox = mailbox.mbox(path, factory=None, create=False)
    mbox.lock()
    try:
        return [(str(k), mbox.get_bytes(k)) for k in sorted(mbox.keys())]
    finally:
        mbox.unlock()
        mbox.close()
