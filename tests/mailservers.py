"""Real mail servers on localhost for the mail tests, started and stopped by the tests themselves.

- `SmtpServer`: aiosmtpd in a thread, with STARTTLS (required) or implicit TLS, AUTH LOGIN/PLAIN
  checked by an authenticator; every mail it accepts is kept in `messages`.
- `Dovecot`: Debian's dovecot 2.3 with a private configuration in a temporary folder, IMAP with
  STARTTLS and IMAPS on free ports of 127.0.0.1, users in a passwd-file with plain passwords; test mail
  is delivered with IMAP APPEND.
- `Certs`: a test CA and a certificate for localhost/127.0.0.1 from trustme; pbem trusts the CA
  through `ca_file` in pbem.yaml.

Nothing here uses a fixed port or a shared folder, so the tests run under `pytest -n 2` too.
Import the fixtures into a test module (`from mailservers import certs, dovecot, ...`).
"""

from __future__ import annotations

import contextlib
import grp
import imaplib
import logging
import os
import pwd
import re
import shutil
import socket
import ssl
import subprocess
import tempfile
import threading
import time
import warnings
from dataclasses import dataclass
from functools import cached_property
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Iterator

import pytest

HOST = "127.0.0.1"
logging.getLogger("mail.log").setLevel(logging.ERROR)  # aiosmtpd's chatter


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now (the kernel's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def wait_for_port(port: int, timeout: float = 15.0, alive: Any = None) -> None:
    """Until something accepts connections on the port (or fail, with what `alive()` says)."""
    deadline = time.monotonic() + timeout
    while True:
        if alive is not None:
            alive()
        try:
            with socket.create_connection((HOST, port), timeout=1.0):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise TimeoutError(f"nothing listens on {HOST}:{port} after {timeout}s") from None
            time.sleep(0.05)


def parse(raw: bytes) -> EmailMessage:
    """A mail as a client reads it: conftest_mail's parse (email's default policy, its headers parsed once)."""
    from conftest_mail import parse as read

    return read(raw)


# -- certificates ---------------------------------------------------------------------------------------

@dataclass
class Certs:
    """A trustme CA and a server certificate for localhost and 127.0.0.1, as files and contexts."""

    folder: Path
    ca_file: Path
    cert_file: Path   # the key and the certificate chain, PEM
    key_file: Path
    chain_file: Path  # the certificate chain alone

    def server_context(self) -> ssl.SSLContext:
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(str(self.chain_file), str(self.key_file))
        return ctx

    def client_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.ca_file))


def make_certs(folder: Path) -> Certs:
    import trustme

    folder.mkdir(parents=True, exist_ok=True)
    ca = trustme.CA()
    cert = ca.issue_cert("localhost", "127.0.0.1")
    certs = Certs(folder, folder / "ca.pem", folder / "server.pem", folder / "server.key", folder / "chain.pem")
    ca.cert_pem.write_to_path(str(certs.ca_file))
    cert.private_key_and_cert_chain_pem.write_to_path(str(certs.cert_file))
    cert.private_key_pem.write_to_path(str(certs.key_file))
    certs.chain_file.write_bytes(b"".join(blob.bytes() for blob in cert.cert_chain_pems))
    return certs


# -- SMTP ------------------------------------------------------------------------------------------------

@dataclass
class Received:
    """One mail the SMTP server accepted."""

    mail_from: str
    rcpt_tos: list[str]
    raw: bytes
    tls: bool
    login: str | None
    mechanism: str | None

    @cached_property
    def message(self) -> EmailMessage:
        """The mail, parsed once (a test reads the server's mails again after every run)."""
        return parse(self.raw)


def _controller_class() -> Any:
    from aiosmtpd.controller import Controller

    class Quiet(Controller):
        def factory(self) -> Any:
            with warnings.catch_warnings():
                # implicit TLS with AUTH: aiosmtpd warns since it counts only STARTTLS as TLS
                warnings.filterwarnings("ignore", message="Requiring AUTH while not requiring TLS")
                return super().factory()
    return Quiet


class SmtpServer:
    """aiosmtpd on a free port of 127.0.0.1.

    security: "starttls" (STARTTLS required before anything else), "tls" (implicit TLS) or "none".
    With a user, AUTH is required (LOGIN and PLAIN; `exclude` leaves one out to force the other)."""

    def __init__(self, certs: Certs, security: str = "starttls", user: str | None = "gm-smtp",
                 password: str = "smtp-secret-1", exclude: tuple[str, ...] = ()) -> None:
        self.certs = certs
        self.security = security
        self.user = user
        self.password = password
        self.exclude = exclude
        self.messages: list[Received] = []
        self.auth_attempts: list[tuple[str, str, bool]] = []  # (mechanism, login, success)
        self.lock = threading.Lock()
        self.controller: Any = None
        self.port = 0

    # aiosmtpd hooks
    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        tls = bool(session.ssl) or (server.transport is not None
                                     and server.transport.get_extra_info("ssl_object") is not None)
        login = mech = None
        if session.authenticated and isinstance(session.auth_data, dict):
            login, mech = session.auth_data["login"], session.auth_data["mechanism"]
        with self.lock:
            self.messages.append(Received(envelope.mail_from, list(envelope.rcpt_tos), bytes(envelope.content),
                                          tls, login, mech))
        return "250 OK"

    def authenticator(self, server: Any, session: Any, envelope: Any, mechanism: str, auth_data: Any) -> Any:
        from aiosmtpd.smtp import AuthResult, LoginPassword

        if not isinstance(auth_data, LoginPassword):
            return AuthResult(success=False, handled=False)
        login = auth_data.login.decode("utf-8", "replace")
        ok = login == self.user and auth_data.password == self.password.encode("utf-8")
        self.auth_attempts.append((mechanism, login, ok))
        if not ok:
            return AuthResult(success=False, handled=False)
        return AuthResult(success=True, auth_data={"login": login, "mechanism": mechanism})

    def start(self) -> "SmtpServer":
        kwargs: dict[str, Any] = {}
        if self.user:
            kwargs.update(authenticator=self.authenticator, auth_required=True, auth_require_tls=True)
            if self.exclude:
                kwargs["auth_exclude_mechanism"] = list(self.exclude)
        if self.security == "starttls":
            kwargs.update(tls_context=self.certs.server_context(), require_starttls=True)
        elif self.security == "tls":
            # aiosmtpd counts only STARTTLS as TLS for auth_require_tls; this connection is TLS from the start
            kwargs.update(ssl_context=self.certs.server_context(), auth_require_tls=False)
        elif self.user:
            kwargs["auth_require_tls"] = False
        last: Exception | None = None
        for _ in range(5):  # a port taken between free_port() and the bind: take another
            port = free_port()
            controller = _controller_class()(self, hostname=HOST, port=port, ready_timeout=10.0,
                                    server_hostname="localhost", **kwargs)
            try:
                controller.start()
            except Exception as exc:  # noqa: BLE001 - retried with another port
                last = exc
                with contextlib.suppress(Exception):
                    controller.stop()
                continue
            self.controller, self.port = controller, port
            wait_for_port(port)
            return self
        raise RuntimeError(f"aiosmtpd did not start: {last}")

    def stop(self) -> None:
        if self.controller is not None:
            with contextlib.suppress(Exception):
                self.controller.stop()
            self.controller = None

    def outbox(self, password_env: str | None = None, **overrides: Any) -> dict[str, Any]:
        """The `outbox:` section of pbem.yaml for this server."""
        section: dict[str, Any] = {"type": "smtp", "host": HOST, "port": self.port, "security": self.security,
                                   "ca_file": str(self.certs.ca_file)}
        if self.user:
            section["user"] = self.user
            if "password" not in overrides:  # a password in pbem.yaml is a test's own, and warned of
                section["password_env"] = password_env or _password_variable("SMTP", self.user, self.password)
        section.update(overrides)
        return {k: v for k, v in section.items() if v is not None}

    def to(self, address: str) -> list[Received]:
        with self.lock:
            return [m for m in self.messages if address.lower() in (r.lower() for r in m.rcpt_tos)]

    def take(self) -> list[Received]:
        """The mails received since the last call."""
        with self.lock:
            out, self.messages = self.messages, []
        return out


# -- IMAP (dovecot) ------------------------------------------------------------------------------------

ACCOUNTS = 200  # per dovecot, i.e. per test module
DOVECOT = shutil.which("dovecot") or ("/usr/sbin/dovecot" if os.path.exists("/usr/sbin/dovecot") else None)

CONF = """\
# a private dovecot for the pbem tests; nothing here touches the system's instance
base_dir = {base}/run
state_dir = {base}/state
log_path = {base}/dovecot.log
info_log_path = {base}/dovecot.log
instance_name = pbem-test-{tag}
protocols = imap
listen = 127.0.0.1
ssl = required
ssl_cert = <{cert}
ssl_key = <{key}
disable_plaintext_auth = yes
auth_mechanisms = plain login
auth_failure_delay = 0
default_internal_user = {internal_user}
default_internal_group = {internal_group}
default_login_user = {login_user}
first_valid_uid = {uid}
first_valid_gid = {gid}
{chroot}mail_location = maildir:~/Maildir
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {base}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={home}
}}
# no auth penalty (a delay of seconds before the next login after a failed one from the same address)
service anvil {{
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port_starttls}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {port_tls}
    ssl = yes
  }}
}}
"""


def _mail_user() -> tuple[int, int, str, str, str]:
    """(uid, gid, internal user, internal group, login user) the mail processes run as.

    As root, dovecot refuses to run mail processes as root and imap-login as root: mail runs as the
    `dovecot` user (chrooted into the mail folder, so the root-only temporary folders above it do not
    matter) and logins as `dovenull`. Otherwise dovecot runs everything as the user who starts it."""
    if os.getuid() != 0:
        me = pwd.getpwuid(os.getuid()).pw_name
        group = grp.getgrgid(os.getgid()).gr_name
        return os.getuid(), os.getgid(), me, group, me
    for name in ("dovecot", "nobody"):
        with contextlib.suppress(KeyError):
            entry = pwd.getpwnam(name)
            login = "dovenull" if _has_user("dovenull") else name
            return entry.pw_uid, entry.pw_gid, "root", "root", login
    raise RuntimeError("no unprivileged user to run dovecot's mail processes as")


def _die_with_parent() -> None:
    """In the child before exec: SIGTERM when the test process dies, so no dovecot outlives a killed run."""
    with contextlib.suppress(Exception):
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


class Dovecot:
    """A dovecot IMAP server of its own, in `folder` (which it removes on stop)."""

    def __init__(self, certs: Certs, folder: Path) -> None:
        self.certs = certs
        self.folder = folder
        self.proc: subprocess.Popen[bytes] | None = None
        self.port_tls = self.port_starttls = 0
        self.passwords: dict[str, str] = {}
        self.uid, self.gid, self.internal_user, self.internal_group, self.login_user = _mail_user()
        self.chroot = os.getuid() == 0
        self.mailroot = folder / "mailroot"

    @property
    def log(self) -> str:
        path = self.folder / "dovecot.log"
        return path.read_text("utf-8", "replace") if path.exists() else "(no log)"

    def _alive(self) -> None:
        if self.proc is not None and self.proc.poll() is not None:
            out = self.proc.stdout.read().decode("utf-8", "replace") if self.proc.stdout else ""
            raise RuntimeError(f"dovecot exited with {self.proc.returncode}: {out}\n{self.log}")

    def start(self) -> "Dovecot":
        if DOVECOT is None:
            pytest.skip("dovecot is not installed (make test installs it: tests/install-dovecot.sh)")
        self.mailroot.mkdir(parents=True, exist_ok=True)
        os.chown(self.mailroot, self.uid, self.gid)
        # every account there will be, written before the start: dovecot rereads a changed passwd-file
        # at most once a second, so accounts added while it runs may not log in at once
        self.passwords = {f"gm{n}": f"pw-gm{n}-{n * 7919 % 10007}x" for n in range(1, ACCOUNTS + 1)}
        (self.folder / "passwd").write_text("".join(f"{u}:{{PLAIN}}{p}\n" for u, p in self.passwords.items()))
        self.free = iter(self.passwords)
        last = ""
        for attempt in range(3):
            self.port_tls, self.port_starttls = free_port(), free_port()
            if self.port_tls == self.port_starttls:
                continue
            conf = CONF.format(
                base=self.folder, tag=f"{os.getpid()}-{attempt}", cert=self.certs.chain_file, key=self.certs.key_file,
                internal_user=self.internal_user, internal_group=self.internal_group, login_user=self.login_user,
                uid=self.uid, gid=self.gid,
                chroot=f"mail_chroot = {self.mailroot}\n" if self.chroot else "",
                home="/%u" if self.chroot else f"{self.mailroot}/%u",
                port_tls=self.port_tls, port_starttls=self.port_starttls)
            path = self.folder / "dovecot.conf"
            path.write_text(conf)
            self.proc = subprocess.Popen([DOVECOT, "-F", "-c", str(path)], stdin=subprocess.DEVNULL,
                                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
                                         preexec_fn=_die_with_parent)
            try:
                wait_for_port(self.port_tls, alive=self._alive)
                wait_for_port(self.port_starttls, alive=self._alive)
                self._ready()
                return self
            except (RuntimeError, TimeoutError, OSError, imaplib.IMAP4.error) as exc:
                last = str(exc)
                self.stop(remove=False)
        raise RuntimeError(f"dovecot did not start: {last}\n{self.log}")

    def _ready(self) -> None:
        """The greeting over TLS, with the test CA trusted: the server is up and its certificate good."""
        deadline = time.monotonic() + 15
        while True:
            try:
                imap = imaplib.IMAP4_SSL(HOST, self.port_tls, ssl_context=self.certs.client_context(), timeout=5)
                imap.logout()
                return
            except (OSError, imaplib.IMAP4.error):
                self._alive()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def stop(self, remove: bool = True) -> None:
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            proc.terminate()  # the master stops its own children
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, 9)  # its own session: only what this test started
                proc.wait(timeout=15)
        if proc is not None and proc.stdout:
            proc.stdout.close()
        if remove:
            shutil.rmtree(self.folder, ignore_errors=True)

    # -- accounts and mail ------------------------------------------------------------------------

    def new_account(self) -> str:
        """An account no test has used yet, with its home folder; returns its name."""
        name = next(self.free)
        home = self.mailroot / name
        home.mkdir(parents=True, exist_ok=True)
        os.chown(home, self.uid, self.gid)
        return name

    @contextlib.contextmanager
    def connect(self, user: str) -> Iterator[imaplib.IMAP4_SSL]:
        imap = imaplib.IMAP4_SSL(HOST, self.port_tls, ssl_context=self.certs.client_context(), timeout=30)
        try:
            typ, _ = imap.login(user, self.passwords[user])
            assert typ == "OK"
            yield imap
        finally:
            with contextlib.suppress(Exception):
                imap.logout()

    def append(self, user: str, raw: bytes, folder: str = "INBOX") -> None:
        """Deliver a mail into the user's folder (IMAP APPEND)."""
        with self.connect(user) as imap:
            typ, data = imap.append(_quote(folder), None, None, raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
            assert typ == "OK", data

    def folder_messages(self, user: str, folder: str = "INBOX") -> list[bytes]:
        """The mails in one of the user's folders, oldest first ([] when the folder does not exist)."""
        with self.connect(user) as imap:
            typ, _ = imap.select(_quote(folder), readonly=True)
            if typ != "OK":
                return []
            typ, data = imap.uid("SEARCH", None, "UNDELETED")
            out = []
            for uid in (data[0] or b"").split():
                typ, parts = imap.uid("FETCH", uid, "(BODY.PEEK[])")
                out += [p[1] for p in parts if isinstance(p, tuple)]
            return out

    def folders(self, user: str) -> list[str]:
        with self.connect(user) as imap:
            typ, data = imap.list()
            names = []
            for line in data:
                m = re.match(r'^\((?P<flags>[^)]*)\) (?:"(?:[^"\\]|\\.)*"|NIL) (?P<name>.*)$', line.decode())
                assert m, line
                name = m.group("name")
                names.append(name[1:-1].replace('\\"', '"').replace("\\\\", "\\") if name.startswith('"') else name)
            return sorted(names)

    def inbox(self, user: str, security: str = "tls", password_env: str | None = None,
              **overrides: Any) -> dict[str, Any]:
        """The `inbox:` section of pbem.yaml for this user."""
        section: dict[str, Any] = {"type": "imap", "host": HOST,
                                   "port": self.port_tls if security == "tls" else self.port_starttls,
                                   "security": security, "user": user, "ca_file": str(self.certs.ca_file)}
        if "password" not in overrides:  # a password in pbem.yaml is a test's own, and warned of
            section["password_env"] = password_env or _password_variable("IMAP", user, self.passwords[user])
        section.update(overrides)
        return {k: v for k, v in section.items() if v is not None}


def _password_variable(service: str, user: str, password: str) -> str:
    """An environment variable that holds the password, as pbem.yaml names it (`password_env`): a
    password written into pbem.yaml is what pbem warns of. Set in this process, and so in every `pbem`
    it starts."""
    name = f"PBEM_TEST_{service}_PASSWORD_{re.sub(r'[^A-Za-z0-9]', '_', user).upper()}"
    os.environ[name] = password
    return name


def _quote(folder: str) -> str:
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


# -- fixtures ------------------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Certs:
    return make_certs(tmp_path_factory.mktemp("certs"))


@pytest.fixture(scope="module")
def dovecot(certs: Certs) -> Iterator[Dovecot]:
    """One dovecot per test module (each test takes accounts of its own). Its folder is a short path
    of its own under /tmp: dovecot's sockets live there, and a unix socket path has at most 107 bytes."""
    folder = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    server = Dovecot(certs, folder)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def imap_user(dovecot: Dovecot) -> str:
    """A fresh IMAP account for one test: the GM's inbox."""
    return dovecot.new_account()


@pytest.fixture
def smtp(certs: Certs) -> Iterator[SmtpServer]:
    """An SMTP server with STARTTLS and AUTH, for one test."""
    server = SmtpServer(certs, "starttls").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def smtp_tls(certs: Certs) -> Iterator[SmtpServer]:
    """An SMTP server with implicit TLS and AUTH LOGIN only, for one test."""
    server = SmtpServer(certs, "tls", exclude=("PLAIN",)).start()
    try:
        yield server
    finally:
        server.stop()
