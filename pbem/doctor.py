"""`pbem doctor`: whether a games dir can run unattended, one line per check.

    ok   inbox: IMAP imap.example.org:993 opens, folder INBOX has 3 mails (IDLE)
    FAIL smtp: the SMTP server smtp.example.org:587 refused the password for gm@example.org (535 5.7.8
         Authentication failed): check the password in mail/smtp-password (outbox.password_file ...)

Nothing is changed: no mail is read, moved or sent, no folder is made, git is only asked. With
`send`, one test mail goes to the GM through the configured outbox (to gm+doctor.<random>@ where
replies use plus-addressing) and is looked for in the inbox; the next run sets it aside, as it sets
aside all mail from the GM's own address.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path
from typing import Any, Iterator

from pbem.config import CONFIG_FILE, Config, load_config
from pbem.errors import PbemError
from pbem.store import GamesDir

MIN_FREE = 100 * 1024 * 1024  # bytes: a run writes reports, mail and git objects
CHECK_TIMEOUT = 20.0  # seconds for a server to answer each step


class Check:  # not a dataclass, nor secrets and shutil below: each costs `pbem doctor` a millisecond of start
    """One line of the doctor's answer; `status` is ok, FAIL or skip (not checked, and why)."""

    __slots__ = ("name", "status", "text")

    def __init__(self, name: str, status: str, text: str) -> None:
        self.name, self.status, self.text = name, status, text

    def __repr__(self) -> str:
        return f"Check({self.name!r}, {self.status!r}, {self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Check) and (self.name, self.status, self.text) == (other.name, other.status, other.text)

    @property
    def failed(self) -> bool:
        return self.status == "FAIL"

    def line(self) -> str:
        return f"{self.status:<4} {self.name}: {self.text}"


def ok(name: str, text: str) -> Check:
    return Check(name, "ok", text)


def fail(name: str, text: str) -> Check:
    return Check(name, "FAIL", text)


def skip(name: str, text: str) -> Check:
    return Check(name, "skip", text)


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def shown(path: Path, root: Path) -> str:
    """A path as the GM wrote it in pbem.yaml: relative to the games dir when it lies inside."""
    return str(path.relative_to(root)) if path.is_relative_to(root) and path != root else str(path)


def can_make(path: Path) -> Path | None:
    """The folder that stops `path` from being made (None: it can be made): its nearest existing
    ancestor, when that is no folder or not writable."""
    for parent in path.parents:
        if parent.exists():
            return None if parent.is_dir() and os.access(parent, os.W_OK | os.X_OK) else parent
    return path.parents[-1]


# -- the checks --------------------------------------------------------------------------------------

def check_config(root: Path) -> tuple[Check, Config | None]:
    if not (root / CONFIG_FILE).is_file():
        return ok("config", f"no {CONFIG_FILE}: the defaults (a Maildir mail/inbox in, .eml files to "
                            f"mail/outbox out)"), Config(root=root)
    try:
        config = load_config(root)
    except PbemError as exc:
        one_line = str(exc).replace(":\n  - ", ": ", 1).replace("\n  - ", "; ").replace("\n", " ")
        return fail("config", one_line), None
    return ok("config", f"{CONFIG_FILE} is valid"), config


def check_password(config: Config) -> Check | None:
    """No password written into pbem.yaml (None: no section logs in, there is none to keep)."""
    from pbem.config import password_problem

    problem = password_problem(config)
    if problem:
        return fail("password", problem)
    logins = [name for name, section in (("inbox", config.inbox), ("outbox", config.outbox))
              if section.get("type") == "imap" or section.get("type") == "smtp" and section.get("user")]
    if not logins:
        return None
    return ok("password", f"none written in {CONFIG_FILE} ({', '.join(logins)} take theirs from elsewhere)")


def check_inbox(config: Config) -> Check:
    from pbem.mail.boxes import inbox_path

    path = inbox_path(config)
    if path is None:
        return check_imap(config)
    kind = config.inbox["type"]
    what = f"{'Maildir' if kind == 'maildir' else 'mbox'} {shown(path, config.root)}"
    if not path.exists():
        blocker = can_make(path)
        if blocker is not None:
            return fail("inbox", f"{what} does not exist and cannot be made: {blocker} is not a writable folder")
        return ok("inbox", f"{what} does not exist yet and can be made (nothing to read until mail is delivered)")
    if kind == "maildir":
        if not path.is_dir():
            return fail("inbox", f"{what} is not a folder")
        missing = [sub for sub in ("new", "cur", "tmp") if not (path / sub).is_dir()]
        if missing:
            return fail("inbox", f"{what} is not a Maildir (no {', '.join(sub + '/' for sub in missing)})")
        locked = [sub for sub in ("new", "cur") if not os.access(path / sub, os.W_OK | os.X_OK)]
        if locked:
            return fail("inbox", f"{what}: {', '.join(sub + '/' for sub in locked)} not writable: pbem could "
                                 f"not move the mail it read out of it")
        count = sum(1 for sub in ("new", "cur") for name in os.listdir(path / sub) if not name.startswith("."))
        return ok("inbox", f"{what} has {plural(count, 'mail')}")
    if not path.is_file():
        return fail("inbox", f"{what} is not a file")
    if not os.access(path, os.R_OK | os.W_OK):
        return fail("inbox", f"{what} is not readable and writable: pbem takes the mail it read out of it")
    if not os.access(path.parent, os.W_OK | os.X_OK):
        return fail("inbox", f"{what}: its folder is not writable: pbem could not lock it (a dot lock)")
    import mailbox

    try:
        box = mailbox.mbox(path, factory=None, create=False)
        try:
            count = len(box.keys())
        finally:
            box.close()
    except (OSError, mailbox.Error) as exc:
        return fail("inbox", f"{what} cannot be read: {exc}")
    return ok("inbox", f"{what} has {plural(count, 'mail')}")


def check_imap(config: Config) -> Check:
    """The IMAP account logs in and its folder opens, in the words `pbem advance` says a failure in."""
    from pbem.hostfail import classify
    from pbem.watch import imap_connect, imap_examine, imap_has, imap_where

    section = config.inbox
    folder = section.get("folder", "INBOX")
    try:
        imap = imap_connect(config, CHECK_TIMEOUT)
    except PbemError as exc:
        return fail("inbox", str(exc))
    where = imap_where(section)
    try:
        imap_examine(imap, config, folder)
        status, data = imap.uid("SEARCH", None, "UNDELETED")
        count = len((data[0] or b"").split()) if status == "OK" else 0
        idle = "IDLE: pbem watch hears of mail at once" if imap_has(imap, "IDLE") else \
            "no IDLE: pbem watch asks every 10s"
    except PbemError as exc:
        return fail("inbox", str(exc))
    except Exception as exc:  # noqa: BLE001 - imaplib's errors and a broken connection alike
        return fail("inbox", str(classify(exc, "IMAP", section, "connect", CHECK_TIMEOUT)))
    finally:
        try:
            imap.logout()  # no CLOSE: it would expunge
        except Exception:  # noqa: BLE001
            pass
    return ok("inbox", f"IMAP {where} opens, folder {folder} has {plural(count, 'mail')} ({idle})")


def smtp_where(section: dict[str, Any]) -> tuple[str, str, int]:
    security = section.get("security", "starttls")
    port = section.get("port", {"tls": 465, "starttls": 587, "none": 25}[security])
    return f"{section['host']}:{port}", security, port


def smtp_text(exc: BaseException) -> str:
    """An smtplib error as the server said it: `535 5.7.8 ...`, not a tuple of bytes."""
    import smtplib

    if isinstance(exc, smtplib.SMTPResponseException):
        said = exc.smtp_error.decode("utf-8", "replace") if isinstance(exc.smtp_error, bytes) else str(exc.smtp_error)
        return f"{exc.smtp_code} {' '.join(said.split())}"
    return str(exc) or type(exc).__name__


def check_outbox(config: Config) -> Check:
    section = config.outbox
    if section["type"] == "files":
        folder = config.path(section.get("path", "mail/outbox"))
        what = f".eml files into {shown(folder, config.root)}"
        if folder.is_dir():
            if os.access(folder, os.W_OK | os.X_OK):
                return ok("outbox", f"{what} (the folder is writable; you send them)")
            return fail("outbox", f"{what}: the folder is not writable")
        if folder.exists():
            return fail("outbox", f"{what}: it is not a folder")
        blocker = can_make(folder)
        if blocker is not None:
            return fail("outbox", f"{what}: the folder cannot be made: {blocker} is not a writable folder")
        return ok("outbox", f"{what} (the folder does not exist yet and can be made)")
    return check_smtp(config)


def check_smtp(config: Config) -> Check:
    """The SMTP server answers and takes the login (no mail sent), in the words of `pbem advance`."""
    import smtplib

    from pbem.mail.boxes import smtp_connect

    section = config.outbox
    where, security, port = smtp_where(section)
    try:
        smtp = smtp_connect(config, CHECK_TIMEOUT)
    except PbemError as exc:
        return fail("smtp", str(exc))
    try:
        smtp.quit()
    except (OSError, smtplib.SMTPException):
        smtp.close()
    if not section.get("user"):
        return ok("smtp", f"{where} ({security}) answers; no login set, no mail sent")
    return ok("smtp", f"{where} ({security}) accepts the login of {section['user']}; no mail sent")


def trial_mail(config: Config, to: str, token: str, tool: str = "doctor",
              why: str = "to see it arrive in the inbox") -> tuple[str, bytes]:
    """A test message of `pbem TOOL`: from the GM (so a run sets it aside without an answer), to `to`."""
    from datetime import datetime, timezone
    from email import policy
    from email.message import EmailMessage
    from email.utils import format_datetime, formataddr

    mid = f"<pbem-{tool}.{token}@{config.domain}>"
    msg = EmailMessage(policy=policy.SMTP)
    msg["From"] = formataddr((config.gm_name, config.gm_address))
    msg["To"] = to
    msg["Subject"] = f"{config.subject_prefix} pbem {tool}: a test mail".strip()
    msg["Date"] = format_datetime(datetime.now(timezone.utc))
    msg["Message-ID"] = mid
    msg["Auto-Submitted"] = "auto-generated"
    msg.set_content(f"pbem {tool} sent this mail to {to} {why}.\n"
                    f"pbem sets it aside unanswered: it comes from the GM's own address.\n")
    return mid, msg.as_bytes()


def send_test(config: Config, to: str, token: str) -> tuple[Check, str | None]:
    """The test mail through the configured outbox, as a run sends its mail (pbem.mail.boxes); only it,
    not the mail waiting in mail/outgoing (that is a run's to send, under the games dir's lock)."""
    from pbem.mail.boxes import _sender

    mid, raw = trial_mail(config, to, token)
    sender = _sender(config)
    try:
        send = sender.__enter__()
    except PbemError as exc:
        return fail("send", str(exc)), None
    try:
        send(f"doctor-{token}.eml", raw)
    except sender.errors as exc:
        return fail("send", f"the test mail to {to} was refused: {smtp_text(exc)}"), None
    finally:
        sender.__exit__(None, None, None)
    if config.outbox["type"] == "files":
        folder = config.path(config.outbox.get("path", "mail/outbox"))
        return ok("send", f"the test mail {mid} to {to} is written to {shown(folder, config.root)}/"
                          f"doctor-{token}.eml (files: it goes nowhere by itself)"), None
    where = smtp_where(config.outbox)[0]
    return ok("send", f"the test mail {mid} went to {to} through {where}"), mid


class Finder:
    """Where the mail with a given Message-ID is: in the inbox, or where a run has filed it already
    (a watch sets the test mail aside within seconds). IMAP: one connection for all the looks."""

    def __init__(self, config: Config, mid: str) -> None:
        from pbem.mail.boxes import SET_ASIDE_FOLDER, inbox_path

        self.config, self.mid = config, mid
        self.pattern = re.compile(rb"(?im)^message-id:[ \t]*" + re.escape(mid.encode()) + rb"[ \t]*\r?$")
        self.imap: Any = None
        self.path = inbox_path(config)
        root = config.root
        if self.path is None:
            self.folders = [config.inbox.get("folder", "INBOX"), config.inbox.get("set_aside_folder", SET_ASIDE_FOLDER)]
        elif config.inbox["type"] == "maildir":
            self.places = [(self.path, f"Maildir {shown(self.path, root)}"),
                           (root / "mail" / "set-aside", "Maildir mail/set-aside")]
        else:
            self.places = [(self.path, f"mbox {shown(self.path, root)}"),
                           (root / "mail" / "set-aside.mbox", "mbox mail/set-aside.mbox")]

    def look(self) -> str | None:
        if self.path is None:
            return self._imap()
        if self.config.inbox["type"] == "maildir":
            return self._maildir()
        for file, name in self.places:
            try:
                if self.pattern.search(file.read_bytes()):
                    return name
            except OSError:
                continue
        return None

    def _maildir(self) -> str | None:
        for folder, name in self.places:
            for sub in ("new", "cur"):
                try:
                    files = os.listdir(folder / sub)
                except OSError:
                    continue
                for file in files:
                    try:
                        with open(folder / sub / file, "rb") as f:
                            head = f.read(16384).split(b"\n\n", 1)[0]
                    except OSError:
                        continue
                    if self.pattern.search(head):
                        return name
        return None

    def _imap(self) -> str | None:
        from pbem.watch import imap_connect, imap_examine, imap_where

        where = imap_where(self.config.inbox)
        if self.imap is None:
            self.imap = imap_connect(self.config, CHECK_TIMEOUT)
        for folder in self.folders:
            try:
                imap_examine(self.imap, self.config, folder)  # selected anew: what arrived since shows
            except PbemError:
                continue  # the set-aside folder before the first mail set aside
            status, data = self.imap.uid("SEARCH", None, "HEADER", "Message-ID", f'"{self.mid}"')
            if status == "OK" and (data[0] or b"").split():
                return f"IMAP folder {folder}"
        return None

    def close(self) -> None:
        if self.imap is not None:
            try:
                self.imap.logout()
            except Exception:  # noqa: BLE001
                pass


def check_arrival(name: str, config: Config, mid: str, to: str, wait: float) -> Check:
    finder = Finder(config, mid)
    begun = time.monotonic()
    try:
        while True:
            try:
                where = finder.look()
            except PbemError as exc:
                return fail(name, f"cannot look for the test mail: {exc}")
            except Exception as exc:  # noqa: BLE001 - imaplib's errors and a broken connection alike
                return fail(name, f"cannot look for the test mail: {type(exc).__name__}: {exc}")
            if where is not None:
                return ok(name, f"the test mail to {to} arrived in {where} after {time.monotonic() - begun:.1f}s")
            if time.monotonic() - begun >= wait:
                break
            time.sleep(0.5)
    finally:
        finder.close()
    hint = " (does the provider take gm+anything@ for gm@, and file it in the inbox, not a folder of its own?)" \
        if name == "plus" else ""
    return fail(name, f"the test mail to {to} did not arrive in the inbox within {wait:g}s{hint}")


def check_gm(gd: GamesDir, config: Config, games: list[str] | None = None) -> Check:
    gm = config.gm_address.lower()
    clashes, unread, count = [], [], 0
    for game in gd.games() if games is None else games:
        try:
            state = gd.load(game)
        except PbemError:
            unread.append(game)
            continue
        count += 1
        clashes += [f"{p['name']} in {game}" for p in state["players"] if str(p.get("email", "")).lower() == gm]
    if clashes:
        return fail("gm", f"{config.gm_address}, the GM's address in {CONFIG_FILE}, is the address of "
                          f"{', '.join(clashes)}: pbem sets mail from it aside, so those orders by mail never count")
    note = f"; {', '.join(unread)} could not be read (pbem status)" if unread else ""
    return ok("gm", f"{config.gm_address} is no player's address ({plural(count, 'game')}){note}")


def check_lobby(gd: GamesDir, config: Config) -> Check | None:
    """The games not begun (None where there has never been one): each file readable, and who may
    challenge by mail."""
    from pbem import lobby

    folder = gd.root / lobby.LOBBY_DIR
    if not folder.is_dir():
        return None
    broken, kinds = [], {lobby.OPEN: 0, lobby.CHALLENGE: 0}
    for path in sorted(folder.glob("*.yaml")):
        try:
            kinds[lobby.load(gd, path.stem)["kind"]] += 1
        except lobby.AddressesLost as exc:
            return fail("lobby", f"{exc}: nobody in it can be written to (restore mail/lobby/ from a backup, "
                                 f"or remove the entry)")
        except (PbemError, KeyError):
            broken.append(f"{lobby.LOBBY_DIR}/{path.name}")
    if broken:
        return fail("lobby", f"{', '.join(broken)} cannot be read: players can neither join nor answer there "
                             f"(restore it from git, or remove it)")
    who = config.lobby_create if isinstance(config.lobby_create, str) else ", ".join(config.lobby_create)
    return ok("lobby", f"{plural(kinds[lobby.OPEN], 'open game')}, {plural(kinds[lobby.CHALLENGE], 'challenge')} "
                       f"waiting; who may challenge by mail: {who}")


def check_git(root: Path) -> Check:
    from pbem.store import _git_env  # the identity pbem commits with

    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, env=_git_env())

    def said(r: subprocess.CompletedProcess[str]) -> str:
        return (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[0]

    try:
        top = git("rev-parse", "--show-toplevel")
    except OSError as exc:
        return fail("git", f"git cannot be run ({exc.strerror}); pbem commits every turn with it")
    if top.returncode != 0:
        return fail("git", f"{root} is not a git repository (the next `pbem advance` makes it one)")
    if Path(top.stdout.strip()).resolve() != root.resolve():
        return fail("git", f"{root} is inside the git repository {top.stdout.strip()}, not one of its own "
                           f"(the next `pbem advance` makes it one of its own)")
    status = git("status", "--porcelain")
    if status.returncode != 0:
        return fail("git", f"git status fails: {said(status)}")
    ident = git("var", "GIT_COMMITTER_IDENT")
    if ident.returncode != 0:
        return fail("git", f"no identity to commit with: {said(ident)}")
    who = re.sub(r"\s+\d+\s+[+-]\d{4}$", "", ident.stdout.strip())
    return ok("git", f"a repository of its own, git status runs, commits as {who}")


def size(n: float) -> str:
    return f"{n / 1024 ** 3:.1f} GB" if n >= 1024 ** 3 else f"{n / 1024 ** 2:.0f} MB"


def check_disk(root: Path) -> Check:
    found = os.statvfs(root)
    free = found.f_bavail * found.f_frsize  # what an unprivileged user may write
    if free < MIN_FREE:
        return fail("disk", f"only {size(free)} free on {root}; a run needs room for reports, mail and git "
                            f"(at least {size(MIN_FREE)})")
    return ok("disk", f"{size(free)} free")


def check_secret(root: Path, config: Config | None) -> Check:
    from pbem.mail.ids import SECRET_FILE

    path = root.joinpath(*SECRET_FILE)
    name = "/".join(SECRET_FILE)
    if not path.exists():
        if config is not None and not getattr(config, "reply_keys", True):
            return ok("secret", "no reply-key secret (reply_keys: false)")
        return ok("secret", f"no {name} yet (pbem makes it, mode 0600, for the first mail)")
    mode = path.stat().st_mode & 0o777
    if mode & 0o077:
        return fail("secret", f"{name} is mode {mode:04o}: whoever reads it can forge players' replies; "
                              f"chmod 600 {name}")
    return ok("secret", f"{name} is mode {mode:04o}")


def check_private(gd: GamesDir, games: list[str] | None = None) -> Check:
    """No running game's private file in git's index, and none of pbem's files with secrets or
    players' mail open to other users (see pbem.store.public)."""
    from pbem.store.public import MAIL_OWN, is_private

    root = gd.root
    r = gd._git("ls-files", "-z", check=False)
    tracked = [p for p in r.stdout.split("\0") if p and is_private(p)] if r.returncode == 0 else []
    over: dict[str, bool] = {}
    for path in tracked:
        game = path.split("/", 1)[0]
        if game not in over:
            try:
                over[game] = gd.load(game)["status"] == "finished"
            except PbemError:
                over[game] = True  # a game that cannot be read: the games check says so
        if not over[game]:
            return fail("private", f"{path} is in git while {game} runs: whoever reads the repository learns "
                                   f"its secrets; `git rm -r -q --cached {path} && git commit` takes it out "
                                   f"(the history keeps it)")
    games = gd.games() if games is None else games
    places = [root / "mail", root / ".git" / "pbem-parsed", *(root / g for g in games)]
    for place in places:
        if not place.exists():
            continue
        walk = [place] if place.name == "mail" else [place, *place.rglob("*")]
        if place.name == "mail":
            walk += [part for name in MAIL_OWN for part in [place / name, *(place / name).rglob("*")]
                     if part.exists()]
        for path in walk:
            if path.is_symlink():
                continue
            mode = path.stat().st_mode & 0o777
            if mode & 0o077:
                name = shown(path, root)
                return fail("private", f"{name} is mode {mode:04o}: other users can read what it holds; "
                                       f"chmod -R go-rwx {shown(place, root)}")
    return ok("private", "no running game's secrets in git; pbem's files are the GM's alone")


def checks(gd: GamesDir, send: bool = False, wait: float = 30.0) -> Iterator[Check]:
    """Every check, in order, each as soon as it is done."""
    root = gd.root
    games = gd.games()  # listed once for the checks that go through every game
    first, config = check_config(root)
    yield first
    if config is None:
        for name in ("inbox", "outbox", "gm"):
            yield skip(name, f"{CONFIG_FILE} is not valid")
    else:
        password = check_password(config)
        if password is not None:
            yield password
        inbox = check_inbox(config)
        yield inbox
        outbox = check_outbox(config)
        yield outbox
        plus = getattr(config, "reply_keys", True) and getattr(config, "reply_address", "plus") == "plus"
        local, _, domain = config.gm_address.rpartition("@")
        if send:
            import secrets

            token = secrets.token_hex(6)
            to = f"{local}+doctor.{token}@{domain}" if plus else config.gm_address
            name = "plus" if plus else "arrival"
            if outbox.failed:
                yield skip("send", f"the {outbox.name} check failed")
            else:
                sent, mid = send_test(config, to, token)
                yield sent
                if sent.failed:
                    yield skip(name, "the test mail was not sent")
                elif mid is None:
                    yield skip(name, "the outbox is files: nothing arrives until you send them")
                elif inbox.failed:
                    yield skip(name, "the inbox check failed")
                else:
                    yield check_arrival(name, config, mid, to, wait)
        elif plus:
            yield skip("plus", f"players reply to {local}+TURN.KEY@{domain}; `pbem doctor --send` checks that "
                               f"such mail arrives")
        yield check_gm(gd, config, games)
        lobby_check = check_lobby(gd, config)
        if lobby_check is not None:
            yield lobby_check
    yield check_git(root)
    yield check_disk(root)
    yield check_secret(root, config)
    yield check_private(gd, games)
