"""`pbem init`: a games dir set up to read and send the GM's mail.

The GM gives his address and his mail provider (or server); pbem fills in what it knows of the
provider (pbem.providers), logs in to IMAP and SMTP, each with a line a person understands

    IMAP imap.fastmail.com:993: connected, password accepted, 3 mails in INBOX
    SMTP smtp.fastmail.com:465: connected, password accepted

sends the GM a test mail (to gm+init.<random>@ where the provider has plus-addressing) and reads it
back from the inbox, and only then writes pbem.yaml. The password goes to `.pbem-password` in the
games dir (mode 0600, ignored by git), or pbem.yaml names a `password_command` that prints it (or an
OAuth2 token); pbem.yaml itself, which git keeps, never holds it.
"""

from __future__ import annotations

import contextlib
import re
import secrets
import socket
import ssl
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from pbem.config import CONFIG_FILE, Config, starter_config
from pbem.errors import PbemError
from pbem.providers import OWN_SERVER, Provider, provider_named

PASSWORD_FILE = ".pbem-password"  # in the games dir: a game id never starts with a dot
STEP_TIMEOUT = 20.0  # seconds for a server to answer each step
DEFAULT_PORTS = {"imap": {"tls": 993, "starttls": 143, "none": 143}, "smtp": {"tls": 465, "starttls": 587, "none": 25}}
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
# an address pbem can write to: a local part without spaces or brackets, a domain of DNS labels
LABEL = r"[^\W_](?:[\w-]{0,61}[^\W_])?"  # a DNS label (letters of any script: an IDN as its user writes it)
ADDRESS = re.compile(rf"^[^@\s<>()\[\]\\,;:\"]{{1,64}}@(?=.{{1,253}}$){LABEL}(?:\.{LABEL})*$")
HOST = re.compile(rf"^(?=.{{1,253}}$){LABEL}(?:\.{LABEL})*$|^[0-9a-fA-F:]+$")


def check_address(address: str) -> str:
    """The GM's address, or a PbemError saying it is none."""
    address = address.strip()
    if not ADDRESS.match(address):
        raise PbemError(f"{address!r} is not a mail address (name@example.org)")
    return address


def check_host(host: str, what: str) -> str:
    host = host.strip()
    if not HOST.match(host):
        raise PbemError(f"{what} {host!r} is not a host name (such as mail.example.org)")
    return host


@dataclass
class Secret:
    """Where the password (or token) comes from: typed now (`text`, written to PASSWORD_FILE), a file
    of the GM's (`file`), or a command (`command`)."""

    text: str | None = None
    file: Path | None = None
    command: str | None = None

    def keys(self, root: Path) -> dict[str, str]:
        """What pbem.yaml says of it."""
        if self.command is not None:
            return {"password_command": self.command}
        path = self.file if self.file is not None else root / PASSWORD_FILE
        shown = path.resolve()
        return {"password_file": str(shown.relative_to(root) if shown.is_relative_to(root) else shown)}

    def in_memory(self) -> dict[str, str]:
        """What the test connections use before anything is written."""
        if self.text is not None:
            return {"password": self.text}
        if self.command is not None:
            return {"password_command": self.command}
        return {"password_file": str(self.file)}


@dataclass
class MailSetup:
    """Everything `pbem init` needs to write pbem.yaml for an IMAP inbox and an SMTP outbox."""

    name: str
    address: str
    provider: Provider
    imap_host: str
    imap_port: int
    imap_security: str
    smtp_host: str
    smtp_port: int
    smtp_security: str
    user: str
    secret: Secret
    ca_file: Path | None = None
    folder: str = "INBOX"
    plus: bool | None = None  # what the test mail showed (None: not tested)
    notes: list[str] = field(default_factory=list)

    @property
    def auth(self) -> str:
        return "xoauth2" if self.provider.oauth2 else "password"

    def sections(self, secret: dict[str, str]) -> tuple[dict[str, Any], dict[str, Any]]:
        """The inbox and outbox sections of pbem.yaml, with `secret` as their password keys."""
        extra: dict[str, Any] = {"auth": "xoauth2"} if self.auth == "xoauth2" else {}
        ca = {"ca_file": str(self.ca_file)} if self.ca_file is not None else {}
        inbox = {"type": "imap", "host": self.imap_host, "port": self.imap_port, "security": self.imap_security,
                 "user": self.user, **secret, **extra, "folder": self.folder, **ca}
        outbox = {"type": "smtp", "host": self.smtp_host, "port": self.smtp_port, "security": self.smtp_security,
                  "user": self.user, **secret, **extra, **ca}
        return inbox, outbox

    def config(self, root: Path) -> Config:
        """The configuration the tests connect with (the password, if typed, in memory alone)."""
        inbox, outbox = self.sections(self.secret.in_memory())
        return Config(root=root, gm_name=self.name, gm_address=self.address, inbox=inbox, outbox=outbox,
                      reply_address="plus" if self.plus is not False else "none")

    def check(self) -> None:
        """Refuse what cannot work before anything is tried: plain text to a server elsewhere."""
        for what, host, security in (("IMAP", self.imap_host, self.imap_security),
                                     ("SMTP", self.smtp_host, self.smtp_security)):
            if security == "none" and host not in LOCAL_HOSTS:
                raise PbemError(f"{what} security 'none' would send the password in clear text to {host!r}; "
                                f"it is allowed only for localhost")
        if self.ca_file is not None and not self.ca_file.is_file():
            raise PbemError(f"the CA file {str(self.ca_file)!r} does not exist")
        if self.secret.file is not None:
            from pbem.config import read_password_file

            read_password_file(self.secret.file, "--password-file")


def setup_for(provider: Provider, name: str, address: str, secret: Secret, *, imap_host: str | None = None,
              imap_port: int | None = None, imap_security: str | None = None, smtp_host: str | None = None,
              smtp_port: int | None = None, smtp_security: str | None = None, user: str | None = None,
              ca_file: Path | None = None, folder: str | None = None) -> MailSetup:
    """The provider's settings, with what the GM gave instead; a PbemError for what is missing or wrong."""
    address = check_address(address)
    imap_security = imap_security or provider.imap_security
    smtp_security = smtp_security or provider.smtp_security
    hosts = {}
    for what, given, known in (("IMAP", imap_host, provider.imap_host), ("SMTP", smtp_host, provider.smtp_host)):
        host = given or known
        if not host:
            raise PbemError(f"--provider {provider.key} needs --{what.lower()}-host: pbem does not know your "
                            f"server's name")
        hosts[what] = check_host(host, f"the {what} host")
    imap_port = imap_port or (provider.imap_port if imap_security == provider.imap_security and not imap_host
                              else DEFAULT_PORTS["imap"][imap_security])
    smtp_port = smtp_port or (provider.smtp_port if smtp_security == provider.smtp_security and not smtp_host
                              else DEFAULT_PORTS["smtp"][smtp_security])
    if provider.oauth2 and secret.command is None:
        raise PbemError(f"{provider.title} takes OAuth2 alone: give --password-command, a command that prints an "
                        f"access token")
    setup = MailSetup(name=name, address=address, provider=provider, imap_host=hosts["IMAP"], imap_port=imap_port,
                      imap_security=imap_security, smtp_host=hosts["SMTP"], smtp_port=smtp_port,
                      smtp_security=smtp_security, user=(user or address).strip(), secret=secret,
                      ca_file=ca_file.resolve() if ca_file is not None else None, folder=folder or "INBOX")
    setup.check()
    return setup


# -- the steps, each a line -------------------------------------------------------------------------

@dataclass
class Step:
    ok: bool
    line: str
    found: str | None = None  # read back: the folder the test mail was in


def _server_said(exc: BaseException) -> str:
    import smtplib

    if isinstance(exc, smtplib.SMTPResponseException):
        text = exc.smtp_error.decode("utf-8", "replace") if isinstance(exc.smtp_error, bytes) else str(exc.smtp_error)
        return f"{exc.smtp_code} {' '.join(text.split())}"
    arg = exc.args[0] if exc.args else exc
    text = arg.decode("utf-8", "replace") if isinstance(arg, bytes) else str(arg)
    return " ".join(text.split()) or type(exc).__name__


def connect_failure(exc: BaseException, port: int, security: str, protocol: str) -> str:
    """Why a connection failed, in words, with what to change."""
    if isinstance(exc, ssl.SSLCertVerificationError):
        return (f"connected, but its certificate is not trusted ({exc.verify_message or exc.reason}); give the "
                f"certificate of the CA that signed it (a self-signed server: its own) with --ca-file")
    if isinstance(exc, ssl.SSLError):
        other = "starttls" if security == "tls" else "tls"
        return (f"TLS failed ({exc.reason or exc}): does port {port} take security {security}? "
                f"{protocol} usually has {security} on {DEFAULT_PORTS[protocol.lower()][security]}, "
                f"{other} on {DEFAULT_PORTS[protocol.lower()][other]}")
    if isinstance(exc, socket.gaierror):
        return "no such host (is the name right?)"
    if isinstance(exc, ConnectionRefusedError):
        return "nothing answers on that port (connection refused: is the port right, the server running?)"
    if isinstance(exc, (socket.timeout, TimeoutError)):
        return f"no answer within {STEP_TIMEOUT:g}s (is the host or port right, or a firewall in the way?)"
    if isinstance(exc, OSError) and exc.strerror:
        return f"cannot connect: {exc.strerror}"
    return f"cannot connect: {_server_said(exc)}"


def _refused(setup: MailSetup, said: str) -> str:
    what = "token" if setup.auth == "xoauth2" else "password"
    hint = f" ({setup.provider.note})" if setup.provider.key != OWN_SERVER else ""
    return f"connected, {what} refused for {setup.user}: {said}{hint}"


def _context(section: dict[str, Any]) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=section.get("ca_file"))


@contextlib.contextmanager
def imap_session(setup: MailSetup, config: Config) -> Iterator[Any]:
    """A logged-in IMAP connection; a PbemError with the line saying what failed."""
    import imaplib

    from pbem.mail.login import imap_login

    section = config.inbox
    where = f"IMAP {setup.imap_host}:{setup.imap_port}"
    try:
        if setup.imap_security == "tls":
            imap: imaplib.IMAP4 = imaplib.IMAP4_SSL(setup.imap_host, setup.imap_port,
                                                    ssl_context=_context(section), timeout=STEP_TIMEOUT)
        else:
            imap = imaplib.IMAP4(setup.imap_host, setup.imap_port, timeout=STEP_TIMEOUT)
            if setup.imap_security == "starttls":
                imap.starttls(ssl_context=_context(section))
    except (OSError, imaplib.IMAP4.error) as exc:
        raise PbemError(f"{where}: {connect_failure(exc, setup.imap_port, setup.imap_security, 'IMAP')}") from None
    try:
        try:
            imap_login(imap, config, section)
        except imaplib.IMAP4.error as exc:
            raise PbemError(f"{where}: {_refused(setup, _server_said(exc))}") from None
        except OSError as exc:
            raise PbemError(f"{where}: the connection broke at the login: {exc}") from None
        yield imap
    finally:
        with contextlib.suppress(Exception):
            imap.logout()


def _examine(imap: Any, folder: str) -> int:
    """Select a folder read-only; how many mails it holds (a PbemError: it cannot be opened)."""
    from pbem.mail.boxes import _quote

    status, data = imap.select(_quote(folder), readonly=True)
    if status != "OK":
        raise PbemError(" ".join(b" ".join(d for d in data if isinstance(d, bytes)).decode("utf-8", "replace").split()))
    return int(data[0]) if data and data[0] and data[0].isdigit() else 0


def try_imap(setup: MailSetup, config: Config) -> Step:
    """Log in and count the mails in the folder pbem reads."""
    import imaplib

    where = f"IMAP {setup.imap_host}:{setup.imap_port}"
    accepted = "token accepted" if setup.auth == "xoauth2" else "password accepted"
    try:
        with imap_session(setup, config) as imap:
            try:
                count = _examine(imap, setup.folder)
            except (PbemError, imaplib.IMAP4.error) as exc:
                return Step(False, f"{where}: connected, {accepted}, but the folder {setup.folder} cannot be "
                                   f"opened: {_server_said(exc)}")
    except PbemError as exc:
        return Step(False, str(exc))
    return Step(True, f"{where}: connected, {accepted}, {count} mail{'' if count == 1 else 's'} in {setup.folder}")


@contextlib.contextmanager
def smtp_session(setup: MailSetup, config: Config) -> Iterator[Any]:
    import smtplib

    from pbem.mail.login import smtp_login

    section = config.outbox
    where = f"SMTP {setup.smtp_host}:{setup.smtp_port}"
    try:
        if setup.smtp_security == "tls":
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(setup.smtp_host, setup.smtp_port, context=_context(section),
                                                  timeout=STEP_TIMEOUT)
        else:
            smtp = smtplib.SMTP(setup.smtp_host, setup.smtp_port, timeout=STEP_TIMEOUT)
    except (OSError, smtplib.SMTPException) as exc:
        raise PbemError(f"{where}: {connect_failure(exc, setup.smtp_port, setup.smtp_security, 'SMTP')}") from None
    try:
        if setup.smtp_security == "starttls":
            try:
                smtp.starttls(context=_context(section))
            except smtplib.SMTPNotSupportedError:
                raise PbemError(f"{where}: the server does not offer STARTTLS (is the port right? SMTP "
                                f"usually has starttls on 587, tls on 465)") from None
            except (OSError, smtplib.SMTPException) as exc:
                raise PbemError(f"{where}: {connect_failure(exc, setup.smtp_port, 'starttls', 'SMTP')}") from None
        try:
            smtp_login(smtp, config, section)
        except smtplib.SMTPNotSupportedError:
            raise PbemError(f"{where}: connected, but the server offers no login here (is it the server for "
                            f"sending, the port the one for programs?)") from None
        except smtplib.SMTPException as exc:
            raise PbemError(f"{where}: {_refused(setup, _server_said(exc))}") from None
        except OSError as exc:
            raise PbemError(f"{where}: the connection broke at the login: {exc}") from None
        yield smtp
    finally:
        with contextlib.suppress(Exception):
            smtp.quit()


def try_smtp(setup: MailSetup, config: Config) -> Step:
    where = f"SMTP {setup.smtp_host}:{setup.smtp_port}"
    try:
        with smtp_session(setup, config):
            pass
    except PbemError as exc:
        return Step(False, str(exc))
    return Step(True, f"{where}: connected, {'token' if setup.auth == 'xoauth2' else 'password'} accepted")


def send_test(setup: MailSetup, config: Config, to: str) -> tuple[Step, str]:
    import smtplib

    from pbem.doctor import trial_mail

    mid, raw = trial_mail(config, to, secrets.token_hex(6), "init", "to read it back from the inbox")
    try:
        with smtp_session(setup, config) as smtp:
            try:
                smtp.sendmail(setup.address, [to], raw)
            except (OSError, smtplib.SMTPException) as exc:
                return Step(False, f"Test mail to {to}: refused by {setup.smtp_host}: {_server_said(exc)}"), mid
    except PbemError as exc:
        return Step(False, str(exc)), mid
    return Step(True, f"Test mail to {to}: sent"), mid


def read_back(setup: MailSetup, config: Config, mid: str, to: str, wait: float) -> Step:
    """Look for the test mail in the inbox folder, every second for `wait` seconds; where it is not
    there, look through every folder once (a spam filter moves it)."""
    begun = time.monotonic()
    try:
        with imap_session(setup, config) as imap:
            while True:
                _examine(imap, setup.folder)  # selected anew: what arrived since shows
                status, data = imap.uid("SEARCH", None, "HEADER", "Message-ID", f'"{mid}"')
                if status == "OK" and (data[0] or b"").split():
                    return Step(True, f"Test mail to {to}: read back from {setup.folder} after "
                                      f"{time.monotonic() - begun:.1f}s", found=setup.folder)
                if time.monotonic() - begun >= wait:
                    break
                time.sleep(1.0)
            elsewhere = _find_elsewhere(imap, mid, setup.folder)
    except PbemError as exc:
        return Step(False, f"Test mail to {to}: cannot look for it: {exc}")
    if elsewhere:
        return Step(False, f"Test mail to {to}: it arrived in the folder {elsewhere}, not in {setup.folder}: a "
                           f"filter or the spam check moved it; pbem reads {setup.folder} alone", found=elsewhere)
    return Step(False, f"Test mail to {to}: not in {setup.folder} after {wait:g}s")


def _find_elsewhere(imap: Any, mid: str, inbox: str) -> str | None:
    status, data = imap.list()
    if status != "OK":
        return None
    for line in data:
        if not isinstance(line, bytes):
            continue
        m = re.match(rb'^\((?P<flags>[^)]*)\) (?:"(?:[^"\\]|\\.)*"|NIL) (?P<name>.*)$', line)
        if not m or b"\\noselect" in m.group("flags").lower():
            continue
        name = m.group("name").decode("utf-8", "replace")
        name = name[1:-1].replace('\\"', '"').replace("\\\\", "\\") if name.startswith('"') else name
        if name == inbox:
            continue
        try:
            _examine(imap, name)
            status, found = imap.uid("SEARCH", None, "HEADER", "Message-ID", f'"{mid}"')
        except Exception:  # noqa: BLE001 - a folder that cannot be read is not where it is
            continue
        if status == "OK" and (found[0] or b"").split():
            return name
    return None


def plus_address(address: str, tag: str) -> str:
    local, _, domain = address.rpartition("@")
    return f"{local}+{tag}@{domain}"


def mail_round(setup: MailSetup, root: Path, wait: float) -> Iterator[Step]:
    """Send the GM a test mail and read it back: to gm+init.<random>@ first where the provider may
    have plus-addressing; where that one does not arrive, to gm@ itself. Sets `setup.plus`."""
    config = setup.config(root)
    tries = [True, False] if setup.provider.plus is not False else [False]
    for plus in tries:
        to = plus_address(setup.address, f"init.{secrets.token_hex(4)}") if plus else setup.address
        sent, mid = send_test(setup, config, to)
        yield sent
        if not sent.ok:
            return
        back = read_back(setup, config, mid, to, wait)
        if back.ok:
            setup.plus = plus
            if not plus and setup.provider.plus is not False:
                setup.notes.append("mail to gm+anything@ does not reach this inbox: replies carry their key in "
                                   "the Message-ID alone (reply_address: none)")
            elif not plus:
                setup.notes.append(f"{setup.provider.title} has no plus-addressing: replies carry their key in "
                                   f"the Message-ID alone (reply_address: none)")
            yield Step(True, back.line + (": plus-addressing works" if plus else ""))
            return
        if plus and back.found is None:
            yield Step(True, back.line + ": no plus-addressing here, it seems; now to "
                             f"{setup.address} itself")
            continue
        yield back
        return


# -- writing it ---------------------------------------------------------------------------------------

def mail_config_text(setup: MailSetup, root: Path) -> str:
    """pbem.yaml for the setup, commented, checked against the schema."""
    inbox, outbox = setup.sections(setup.secret.keys(root))
    return starter_config(setup.name, setup.address, inbox=inbox, outbox=outbox,
                          reply_address="none" if setup.plus is False else "plus")


def ignore_line(root: Path, path: Path) -> str | None:
    """The .gitignore line that keeps `path` out of git (None: it lies outside the games dir)."""
    path = path.resolve()
    if not path.is_relative_to(root) or path == root:
        return None
    return "/" + path.relative_to(root).as_posix()


def write_setup(gd: Any, text: str, setup: MailSetup | None) -> list[str]:
    """Write pbem.yaml (and the typed password, mode 0600, with its line in .gitignore) and commit
    pbem.yaml and .gitignore; the caller holds the games dir's lock. Returns what it wrote, for the GM."""
    from pbem.store import write_atomic

    root = gd.root
    said = []
    paths = [CONFIG_FILE]
    if setup is not None and setup.secret.command is None:
        path = root / PASSWORD_FILE if setup.secret.file is None else setup.secret.file
        if setup.secret.text is not None:
            write_atomic(path, setup.secret.text + "\n")  # written as mkstemp makes it: mode 0600
            path.chmod(0o600)
        line = ignore_line(root, path)
        if line is not None and add_ignored(root, line):
            paths.append(".gitignore")
        where = f"{path} (mode 0600, git ignores it)" if line else str(path)
        said.append(f"the password is in {where}" if setup.secret.text is not None
                    else f"the password is read from {where}")
    elif setup is not None:
        said.append(f"the {'token' if setup.auth == 'xoauth2' else 'password'} comes from the command "
                    f"{setup.secret.command}")
    write_atomic(root / CONFIG_FILE, text)
    gd.commit_paths(paths, "pbem.yaml: the GM's settings\n")
    return said


def add_ignored(root: Path, line: str) -> bool:
    """Add a line to the games dir's .gitignore; False when it is there already."""
    from pbem.store import write_atomic

    path = root / ".gitignore"
    old = path.read_text("utf-8") if path.is_file() else ""
    if line in old.splitlines():
        return False
    write_atomic(path, old + ("\n" if old and not old.endswith("\n") else "") + line + "\n")
    return True


__all__ = ["PASSWORD_FILE", "MailSetup", "Secret", "Step", "check_address", "mail_config_text", "mail_round",
           "provider_named", "setup_for", "try_imap", "try_smtp", "write_setup"]


# -- asking in a terminal -------------------------------------------------------------------------------

LOCAL = "local"  # no mail server: a Maildir in the games dir, .eml files out


def _checked(check: Any) -> Any:
    """A click value_proc: a PbemError becomes click's error, and the question is asked again."""
    import click

    def proc(value: str) -> Any:
        try:
            return check(value)
        except PbemError as exc:
            raise click.UsageError(str(exc)) from None
    return proc


def ask_address(default: str | None) -> str:
    import click

    return click.prompt("Your mail address (the GM's: players write to it, pbem sends from it)",
                        default=default, value_proc=_checked(check_address))


def ask_provider(address: str, default: str | None) -> str:
    """The provider's key (or LOCAL), from a list; the default is the one the address's domain tells."""
    import click

    from pbem.providers import PROVIDERS, provider_of

    click.echo("Where is this mailbox? pbem knows these:")
    for p in PROVIDERS:
        click.echo(f"  {p.key:<13} {p.title}")
    click.echo(f"  {LOCAL:<13} no mail server yet: a Maildir in the games dir, .eml files out (to try pbem)")
    guess = default or (provider_of(address).key if provider_of(address) else OWN_SERVER)
    keys = [p.key for p in PROVIDERS] + [LOCAL]
    return click.prompt("Provider", default=guess, type=click.Choice(keys, case_sensitive=False))


def ask_secret(setup_user: str, provider: Provider, given: Secret | None) -> Secret:
    import click

    if provider.oauth2:
        command = click.prompt(f"{provider.title} takes OAuth2 alone. A command that prints an access token for "
                               f"{setup_user}", default=given.command if given else None)
        return Secret(command=command)
    if given is not None:
        return given
    kind = "app password" if provider.login == "app password" else "password"
    typed = click.prompt(f"The {kind} of {setup_user} (not shown; or !COMMAND: a command that prints it)",
                         hide_input=True)
    if typed.startswith("!") and len(typed) > 1:
        return Secret(command=typed[1:].strip())
    return Secret(text=typed)


def ask_servers(setup: MailSetup) -> MailSetup:
    """The servers, port, security and login, each with what is known as the default."""
    import click

    security = click.Choice(["tls", "starttls", "none"])
    port = click.IntRange(1, 65535)
    imap_host = click.prompt("IMAP server", default=setup.imap_host or None,
                             value_proc=_checked(lambda h: check_host(h, "the IMAP host")))
    imap_security = click.prompt("IMAP security", default=setup.imap_security, type=security)
    imap_port = click.prompt("IMAP port", default=setup.imap_port if imap_security == setup.imap_security
                             else DEFAULT_PORTS["imap"][imap_security], type=port)
    smtp_host = click.prompt("SMTP server", default=setup.smtp_host or imap_host,
                             value_proc=_checked(lambda h: check_host(h, "the SMTP host")))
    smtp_security = click.prompt("SMTP security", default=setup.smtp_security, type=security)
    smtp_port = click.prompt("SMTP port", default=setup.smtp_port if smtp_security == setup.smtp_security
                             else DEFAULT_PORTS["smtp"][smtp_security], type=port)
    user = click.prompt("Login (user name) at both", default=setup.user)
    setup.imap_host, setup.imap_security, setup.imap_port = imap_host, imap_security, imap_port
    setup.smtp_host, setup.smtp_security, setup.smtp_port = smtp_host, smtp_security, smtp_port
    setup.user = user
    return setup


def ask_ca_file(setup: MailSetup) -> None:
    import click

    def check(text: str) -> Path | None:
        if not text.strip():
            return None
        path = Path(text.strip()).expanduser().resolve()
        if not path.is_file():
            raise PbemError(f"{text.strip()!r} is not a file")
        return path
    setup.ca_file = click.prompt("The CA certificate that signed the server's (a PEM file; empty: none)",
                                 default=str(setup.ca_file or ""), show_default=False, value_proc=_checked(check))


# -- the whole of it ----------------------------------------------------------------------------------

@dataclass
class Given:
    """What the command line gave (None: not given)."""

    name: str | None = None
    address: str | None = None
    provider: str | None = None
    imap_host: str | None = None
    imap_port: int | None = None
    imap_security: str | None = None
    smtp_host: str | None = None
    smtp_port: int | None = None
    smtp_security: str | None = None
    user: str | None = None
    folder: str | None = None
    secret: Secret | None = None
    ca_file: Path | None = None
    test: bool = True
    wait: float = 60.0


DEFAULT_NAME = "Game Master"
DEFAULT_ADDRESS = "gm@example.org"  # without a provider and without asking: the local starting file


def tried(setup: MailSetup, root: Path, wait: float, echo: Any) -> Step | None:
    """IMAP, SMTP, then the test mail, each line echoed as it comes; the step that failed (None: all
    went well)."""
    config = setup.config(root)
    for attempt in (try_imap, try_smtp):
        step = attempt(setup, config)
        echo(step.line)
        if not step.ok:
            return step
    last = None
    for step in mail_round(setup, root, wait):
        echo(step.line)
        last = step
        if not step.ok:
            return step
    return None if last is not None and last.ok else last


def set_up(given: Given, root: Path, interactive: bool) -> tuple[str, str, MailSetup | None]:
    """Ask (in a terminal) or take from `given` what pbem.yaml says, and try it; returns the GM's name,
    his address and the mail setup (None: mail stays on this machine). A PbemError: nothing is to be
    written."""
    import click

    if interactive:
        return _asked(given, root)
    if given.provider in (None, LOCAL):
        mail_flags = [flag for flag, value in (("--imap-host", given.imap_host), ("--smtp-host", given.smtp_host),
                                               ("--password-file", given.secret and given.secret.file),
                                               ("--password-command", given.secret and given.secret.command))
                      if value is not None]
        if mail_flags and given.provider is None:
            raise PbemError(f"{mail_flags[0]} needs --provider (one of the known ones, or own for your own server)")
        return given.name or DEFAULT_NAME, check_address(given.address or DEFAULT_ADDRESS), None
    if given.address is None:
        raise PbemError(f"--provider {given.provider} needs --address, the GM's mail address")
    if given.secret is None:
        raise PbemError("give the password with --password-file FILE ('-': read it from standard input) or "
                        "--password-command COMMAND")
    setup = setup_for(provider_named(given.provider), given.name or DEFAULT_NAME, given.address, given.secret,
                      imap_host=given.imap_host, imap_port=given.imap_port, imap_security=given.imap_security,
                      smtp_host=given.smtp_host, smtp_port=given.smtp_port, smtp_security=given.smtp_security,
                      user=given.user, ca_file=given.ca_file, folder=given.folder)
    if given.test:
        failed = tried(setup, root, given.wait, click.echo)
        if failed is not None:
            raise PbemError("nothing is written: mend what the line above says and run pbem init again "
                            "(--no-test writes pbem.yaml untried)")
    return setup.name, setup.address, setup


def _asked(given: Given, root: Path) -> tuple[str, str, MailSetup | None]:
    import click

    address = ask_address(given.address)
    name = click.prompt("Your name in mail", default=given.name or DEFAULT_NAME)
    key = ask_provider(address, given.provider)
    if key == LOCAL:
        return name, address, None
    provider = provider_named(key)
    click.echo(provider.note)
    setup = MailSetup(name=name, address=address, provider=provider,
                      imap_host=given.imap_host or provider.imap_host,
                      imap_port=given.imap_port or provider.imap_port,
                      imap_security=given.imap_security or provider.imap_security,
                      smtp_host=given.smtp_host or provider.smtp_host,
                      smtp_port=given.smtp_port or provider.smtp_port,
                      smtp_security=given.smtp_security or provider.smtp_security,
                      user=given.user or address, secret=Secret(), folder=given.folder or "INBOX",
                      ca_file=given.ca_file.resolve() if given.ca_file else None)
    if not setup.imap_host:
        setup.imap_host = f"mail.{address.rpartition('@')[2]}"
    if key == OWN_SERVER or given.imap_host or given.smtp_host:
        ask_servers(setup)
    setup.secret = ask_secret(setup.user, provider, given.secret)
    while True:
        try:
            setup.check()
        except PbemError as exc:
            click.echo(f"Error: {exc}")
            ask_servers(setup)
            continue
        if not given.test:
            return name, address, setup
        failed = tried(setup, root, given.wait, click.echo)
        if failed is None:
            return name, address, setup
        if failed.line.startswith("Test mail") and "read back" not in failed.line:
            if click.confirm("Write pbem.yaml all the same (pbem doctor --send tries the mail again)?",
                             default=False):
                return name, address, setup
        if not click.confirm("Change the settings and try again?", default=True):
            raise PbemError("nothing is written")
        ask_servers(setup)
        if "not trusted" in failed.line:
            ask_ca_file(setup)
        if " refused for " in failed.line:
            setup.secret = ask_secret(setup.user, provider, None)
