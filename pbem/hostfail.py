"""When the host's mail fails: one line naming the cause and its fix, one exit code per cause, and the
health of the last run kept in `mail/last-run.json` (out of git).

Every way the IMAP or SMTP server can fail pbem goes through `classify`, so `pbem advance`, `pbem
doctor` and `pbem watch` say the same words:

    the IMAP server mail.example.org:993 refused the password for pbem@example.org ([AUTHENTICATIONFAILED]
    Authentication failed.): check the password in mail/imap-password (inbox.password_file in pbem.yaml)

`pbem advance` prints that line (under `--quiet` too, on stderr) and exits with the code of its kind
(EXIT_CODES, the table the command reference is made from). A host whose runs have failed for an hour
mails the GM once, where mail still goes out (the inbox fails, the outbox does not); once a run works
again the next failure counts anew.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.errors import PbemError
from pbem.patterns import Pattern

if TYPE_CHECKING:
    from pbem.config import Config


class Kind:  # not a dataclass: one costs its module's import ~3M instructions, compiling its methods
    """One cause of a failing host: its name, the exit code of `pbem advance`, and what it means."""

    __slots__ = ("name", "code", "meaning")

    def __init__(self, name: str, code: int, meaning: str) -> None:
        self.name, self.code, self.meaning = name, code, meaning

    def __repr__(self) -> str:
        return f"Kind({self.name!r}, {self.code}, {self.meaning!r})"


#: every exit code of pbem's commands; the host failures are `pbem advance`'s (the first one wins)
EXIT_CODES: tuple[Kind, ...] = (
    Kind("ok", 0, "success"),
    Kind("error", 1, "a domain error, said in words (a game skipped, a check failed)"),
    Kind("usage", 2, "an unknown option, or a value that cannot be read"),
    Kind("unreachable", 3, "nothing listens at the mail server's host and port"),
    Kind("unknown-host", 4, "the mail server's host name cannot be looked up"),
    Kind("timeout", 5, "the mail server did not answer in time"),
    Kind("certificate", 6, "its certificate is not trusted, or ca_file cannot be read"),
    Kind("security", 7, "TLS, STARTTLS or AUTH does not match the server's port"),
    Kind("password", 8, "the mail server refused the user name and password"),
    Kind("no-password", 9, "the password's variable, file or command fails"),
    Kind("folder", 10, "the IMAP folder does not exist or cannot be opened"),
    Kind("broken", 11, "the server broke off, or answered what pbem cannot read"),
)
CODES = {kind.name: kind.code for kind in EXIT_CODES}


def exit_codes_help() -> str:
    """The exit codes of `pbem advance`, as its help (and so the command reference) lists them."""
    lines = [f"{kind.code:>3}  {kind.name}: {kind.meaning}" for kind in EXIT_CODES]
    return ("Exit codes (a mail server's failure is one line on stderr, under --quiet too, naming the cause and "
            "its fix; with several, the first gives the code):\n\n\b\n" + "\n".join(lines))

LAST_RUN = ("mail", "last-run.json")  # in the games dir; mail/ is ignored by git
ALERT_AFTER = timedelta(hours=1)  # failing runs this long mail the GM once


class HostFailure(PbemError):
    """A mail server that failed pbem: `kind` (a name of EXIT_CODES), the service (IMAP or SMTP), its
    host:port, and the line (the exception's text) that names the cause and its fix. `public` says it
    without host, user or address (the archive's front page shows it)."""

    def __init__(self, kind: str, service: str, where: str, line: str) -> None:
        super().__init__(line)
        self.kind, self.service, self.where, self.line = kind, service, where, line

    @property
    def code(self) -> int:
        return CODES[self.kind]

    @property
    def public(self) -> str:
        return f"the {self.service} server: {PUBLIC[self.kind]}"

    def record(self) -> dict[str, str]:
        return {"kind": self.kind, "service": self.service, "where": self.where, "line": self.line,
                "public": self.public}


#: each kind in few words, without host or user
PUBLIC = {"unreachable": "cannot be reached", "unknown-host": "its host name is not known",
          "timeout": "does not answer", "certificate": "its certificate is not trusted",
          "security": "the connection's security does not match", "password": "the password is refused",
          "no-password": "no password to log in with", "folder": "the folder cannot be opened",
          "broken": "breaks off the connection"}


# -- the words -------------------------------------------------------------------------------------

def _section_name(service: str) -> str:
    return "inbox" if service == "IMAP" else "outbox"


def _ports(service: str) -> str:
    return "tls: 993, starttls: 143" if service == "IMAP" else "tls: 465, starttls: 587"


def password_source(section: dict[str, Any], name: str) -> str:
    """Where a section's password comes from, as a fix names it."""
    if "password_file" in section:
        return f"the password in {section['password_file']} ({name}.password_file in pbem.yaml)"
    if "password_command" in section:
        return f"what {name}.password_command in pbem.yaml prints"
    if "password_env" in section:
        return f"the password in ${section['password_env']} ({name}.password_env in pbem.yaml)"
    if "password" in section:
        return f"{name}.password in pbem.yaml (better kept in a password_file)"
    return f"{name}.user in pbem.yaml: no password is set for it"


TIMING = Pattern(r" \((?:\d+\.\d+ \+ )*\d+\.\d+ secs\)\.?$")


def said(exc: BaseException) -> str:
    """What a server or the system said, in one line (imaplib's bytes decoded, smtplib's code kept)."""
    import smtplib

    if isinstance(exc, smtplib.SMTPResponseException):
        text = exc.smtp_error.decode("utf-8", "replace") if isinstance(exc.smtp_error, bytes) else str(exc.smtp_error)
        return f"{exc.smtp_code} {' '.join(text.split())}"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    arg = exc.args[0] if exc.args else ""
    if isinstance(arg, bytes):
        arg = arg.decode("utf-8", "replace")
    text = TIMING.sub("", " ".join(str(arg).split()))  # dovecot's "(0.001 + 0.000 secs)." says nothing to the GM
    return text or type(exc).__name__


def classify(exc: BaseException, service: str, section: dict[str, Any], step: str,
             timeout: float = 60.0) -> HostFailure:
    """The HostFailure an exception from talking to a mail server means. `step` is where it came:
    `ca_file`, `password` (pbem's own password source), `connect` (including implicit TLS and
    STARTTLS), `login`, `select`."""
    import imaplib
    import smtplib
    import socket
    import ssl

    name = _section_name(service)
    host = section.get("host", "?")
    port = section.get("port") or _default_port(service, section)
    where = f"{host}:{port}"
    server = f"the {service} server {where}"
    user = section.get("user", "")
    fix_place = f"check {name}.host, {name}.port and {name}.security in pbem.yaml"

    def failure(kind: str, line: str) -> HostFailure:
        return HostFailure(kind, service, where, line)

    if step == "ca_file":
        return failure("certificate", f"the ca_file {section.get('ca_file')} of {server} cannot be read "
                                      f"({said(exc)}): set {name}.ca_file in pbem.yaml to the file (PEM) of the "
                                      f"certificate that signed the server's")
    if step == "password":
        return failure("no-password", f"there is no password for {server}: {str(exc).removeprefix('pbem.yaml: ')}")
    if step == "select":
        folder = section.get("folder", "INBOX")
        return failure("folder", f"{server} has no folder {folder!r} for {user} that pbem can open ({said(exc)}): "
                                 f"check {name}.folder in pbem.yaml (most servers call the inbox INBOX)")
    if isinstance(exc, ssl.SSLCertVerificationError):
        code = getattr(exc, "verify_code", 0)
        if code == 10:
            return failure("certificate", f"the certificate of {server} has expired: the server's certificate "
                                          f"must be renewed on the server")
        if code == 62:
            return failure("certificate", f"the certificate of {server} is made for another name than {host}: "
                                          f"set {name}.host in pbem.yaml to the name the certificate names")
        return failure("certificate", f"the certificate of {server} is not trusted (self-signed?): set "
                                      f"{name}.ca_file in pbem.yaml to the file (PEM) of the certificate that "
                                      f"signed it")
    if isinstance(exc, ssl.SSLError):
        return failure("security", f"TLS with {server} failed ({exc.reason or said(exc)}): check {name}.security "
                                   f"and {name}.port in pbem.yaml ({_ports(service)})")
    if isinstance(exc, socket.gaierror):
        return failure("unknown-host", f"the host name {host} of the {service} server cannot be looked up "
                                       f"({said(exc)}): check {name}.host in pbem.yaml, and the host's DNS")
    if isinstance(exc, ConnectionRefusedError):
        return failure("unreachable", f"{server} refused the connection (nothing listens on port {port}): "
                                      f"{fix_place}, and that the server runs")
    if isinstance(exc, TimeoutError):
        return failure("timeout", f"{server} did not answer within {timeout:g}s: {fix_place}, and that no "
                                  f"firewall stands between")
    if isinstance(exc, smtplib.SMTPAuthenticationError):
        return failure("password", f"{server} refused the password for {user} ({said(exc)}): check "
                                   f"{password_source(section, name)}")
    if isinstance(exc, smtplib.SMTPNotSupportedError):
        what = "STARTTLS" if step == "connect" else "a login (AUTH)"
        return failure("security", f"{server} does not offer {what}: check {name}.security and {name}.port in "
                                   f"pbem.yaml ({_ports(service)})")
    if isinstance(exc, imaplib.IMAP4.abort) or isinstance(exc, (EOFError, smtplib.SMTPServerDisconnected,
                                                                 ConnectionError)):
        return failure("broken", f"{server} broke off the connection ({said(exc)}): {fix_place}")
    if isinstance(exc, imaplib.IMAP4.error):
        text = said(exc)
        if "STARTTLS" in text.upper() and step == "connect":
            return failure("security", f"{server} does not offer STARTTLS: check {name}.security and {name}.port "
                                       f"in pbem.yaml ({_ports(service)})")
        if step == "login" and any(w in text.upper() for w in ("PRIVACYREQUIRED", "LOGINDISABLED")):
            return failure("security", f"{server} takes no login without TLS ({text}): set {name}.security in "
                                       f"pbem.yaml to tls or starttls")
        if step == "login":
            return failure("password", f"{server} refused the password for {user} ({text}): check "
                                       f"{password_source(section, name)}")
        return failure("broken", f"{server} answered what pbem cannot use ({text}): {fix_place}")
    if isinstance(exc, OSError):
        return failure("unreachable", f"{server} cannot be reached ({said(exc)}): {fix_place}, and the network")
    return failure("broken", f"{server} answered what pbem cannot use ({said(exc)}): {fix_place}")


def _default_port(service: str, section: dict[str, Any]) -> int:
    if service == "IMAP":
        return 993 if section.get("security", "tls") == "tls" else 143
    return {"tls": 465, "starttls": 587, "none": 25}[section.get("security", "starttls")]


# -- the last run's health -------------------------------------------------------------------------

def last_run_path(root: Path) -> Path:
    return root.joinpath(*LAST_RUN)


def last_run(root: Path) -> dict[str, Any] | None:
    """What the last `pbem advance` left in mail/last-run.json (None: none yet, or it cannot be read)."""
    try:
        value = json.loads(last_run_path(root).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def failing_since(root: Path, failures: list[HostFailure], now: datetime) -> tuple[str | None, bool, int]:
    """Since when the host has failed (the first of the failing runs in a row, this one counted), whether
    the GM has been mailed about it, and how many runs in a row failed."""
    from pbem.clock import stamp

    if not failures:
        return None, False, 0
    before = last_run(root) or {}
    if before.get("failing_since"):
        return str(before["failing_since"]), bool(before.get("mailed")), int(before.get("failing_runs", 0)) + 1
    return stamp(now), False, 1


def alert_due(since: str | None, mailed: bool, now: datetime) -> bool:
    """Whether this run mails the GM: the host has failed for ALERT_AFTER, and he was not told yet."""
    from pbem.clock import moment

    return since is not None and not mailed and now - moment(since) >= ALERT_AFTER


def alert_mail(config: Config, failures: list[HostFailure], since: str, runs: int) -> Any:
    """The mail to the GM: what fails since when, and how to mend it (the lines of the console)."""
    from datetime import timezone
    from email import policy
    from email.message import EmailMessage
    from email.utils import format_datetime, formataddr, make_msgid
    import textwrap

    from pbem.clock import now_moment

    msg = EmailMessage(policy=policy.SMTP)
    msg["From"] = formataddr((config.gm_name, config.gm_address))
    msg["To"] = config.gm_address
    msg["Subject"] = f"{config.subject_prefix} pbem: the host's mail fails since {since}".strip()
    msg["Date"] = format_datetime(now_moment().astimezone(timezone.utc))
    msg["Message-ID"] = make_msgid("pbem-host", config.domain)
    msg["Auto-Submitted"] = "auto-generated"
    body = [f"pbem on this host has failed since {since},", f"{runs} runs in a row:", ""]
    for f in failures:
        body += textwrap.wrap(f.line, 72, initial_indent="- ", subsequent_indent="  ", break_on_hyphens=False) + [""]
    body += ["The games go on with what reaches them; mail waits. You get this mail",
             "once; another only after a run has worked and the host fails anew.",
             "`pbem doctor` checks the setup; `pbem status` shows the failure."]
    msg.set_content("\n".join(body) + "\n")
    return msg


def host_lines(record: dict[str, Any] | None, public: bool = False) -> tuple[list[str], list[str]]:
    """What `pbem status` says of the last run: the host's failure (first, before the games) and the
    run's other problems (after them). `public`: in the words of the archive, without host or user."""
    if not record:
        return [], []
    failing: list[str] = []
    failures = [f for f in record.get("failures", []) if isinstance(f, dict)]
    if failures:
        runs = record.get("failing_runs", 1)
        mailed = "; the GM was mailed" if record.get("mailed") else ""
        failing.append(f"THE HOST FAILS since {record.get('failing_since')} ({runs} run{'s' if runs != 1 else ''} "
                       f"in a row{mailed}):")
        failing += [f"  {f.get('public' if public else 'line', '?')}" for f in failures]
    problems = []
    aside = record.get("set_aside", 0)
    if aside:
        problems.append(f"{aside} mail{'s' if aside != 1 else ''} set aside unread"
                        + ("" if public else " (mail/set-aside: `pbem advance` said why)"))
    skipped = record.get("games_skipped") or []
    if skipped:
        problems.append(f"skipped: {', '.join(skipped)}")
    if problems:
        problems = [f"\nThe last run ({record.get('at')}):"] + [f"  {p}" for p in problems]
    return failing, problems


def write_last_run(root: Path, record: dict[str, Any]) -> None:
    from pbem.store import write_atomic

    write_atomic(last_run_path(root), json.dumps(record, indent=1, ensure_ascii=False) + "\n")
