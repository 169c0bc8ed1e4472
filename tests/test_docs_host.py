"""The host the GM's guide sets up and the systemd unit it ships agree: one service user, one games
dir, one path of `pbem`, one file of passwords; and the guide's `pbem-host`, which runs pbem by hand as
the unit runs it, hands pbem the passwords of that file (a plain `sudo -u pbem pbem` would drop them)."""

from __future__ import annotations

import configparser
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from docs_pages import DOCS, blocks

GUIDE = DOCS / "gm-guide.md"
UNIT = DOCS / "pbem-watch.service"


def unit() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(UNIT.read_text())
    return parser["Service"]


def guide_shell() -> str:
    return "\n".join(b.text for b in blocks(GUIDE) if b.language in ("sh", "console"))


def pbem_host() -> str:
    found = re.search(r"^pbem-host\(\) \{ (.*) \}$", guide_shell(), re.MULTILINE)
    assert found, "the guide defines pbem-host"
    return found.group(1)


def test_the_unit_and_the_guide_name_the_same_user_games_dir_pbem_and_password_file() -> None:
    service, shell, text = unit(), guide_shell(), GUIDE.read_text()
    user = re.search(r"useradd .* --home-dir (\S+) .* (\w+)$", shell, re.MULTILINE)
    assert user, "the guide makes the service user"
    home, name = user.groups()
    assert service["User"] == service["Group"] == name == "pbem"
    assert re.search(r"sudo -u (\w+) ", pbem_host()).group(1) == name  # type: ignore[union-attr]

    argv = shlex.split(service["ExecStart"])
    games = argv[argv.index("--games-dir") + 1]
    assert service["WorkingDirectory"] == games == f"{home}/games"
    assert f"PBEM_GAMES_DIR={games}" in shell
    assert f"install -d -o {name} -g {name} -m 0700 {games}" in shell
    assert f"| the games dir (a git repository of its own) | `{games}` |" in text

    pbem = argv[0]
    assert argv[1] == "watch"
    assert f"ln -sf /opt/pbem/bin/pbem {pbem}" in shell  # the venv route
    assert f"PIPX_BIN_DIR={Path(pbem).parent} pipx install" in shell  # the pipx route
    assert f"exec {pbem} " in pbem_host()

    env_file = service["EnvironmentFile"]
    assert not env_file.startswith("-"), "a missing password file must stop the unit, not start it without"
    assert f". {env_file} &&" in pbem_host()
    assert f"install -o {name} -g {name} -m 0600 /dev/null {env_file}" in shell
    assert f". {env_file};" in shell  # the cron line reads it too
    assert env_file == f"{home}/pbem.env"


def test_pbem_host_hands_pbem_the_passwords_of_the_units_file(tmp_path: Path) -> None:
    """The guide's function, as the service user would run it (without sudo here): pbem finds the
    games dir and the password named by password_env in the one file the unit reads (its value in
    single quotes, as the guide writes it, which systemd and the shell read alike)."""
    games = tmp_path / "games"
    env_file = tmp_path / "pbem.env"
    pbem = Path(sys.executable).parent / "pbem"
    subprocess.run([str(pbem), "init", "--games-dir", str(games), "--address", "gm@example.org"], check=True,
                   capture_output=True)
    config = games / "pbem.yaml"
    config.write_text(config.read_text().replace(
        "inbox:\n  type: maildir              # maildir | mbox | imap\n  path: mail/inbox\n",
        "inbox:\n  type: imap\n  host: localhost\n  port: 9\n  security: none\n  user: gm\n"
        "  password_env: PBEM_IMAP_PASSWORD\n"))
    env_file.write_text(f"PBEM_GAMES_DIR={games}\nPBEM_IMAP_PASSWORD='secret words $1'\n")
    body = pbem_host().replace("sudo -u pbem ", "").replace(str(unit()["EnvironmentFile"]), str(env_file))
    body = body.replace(shlex.split(unit()["ExecStart"])[0], str(pbem))
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    run = subprocess.run(["bash", "-c", f"pbem-host() {{ {body} }}; pbem-host doctor"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    output = run.stdout + run.stderr
    assert "ok   config: pbem.yaml is valid" in output, output  # the games dir came from the file
    assert "not set in the environment" not in output, output
    assert "FAIL inbox: IMAP localhost:9" in output, output  # it tried to log in, with the password
    without = subprocess.run(["bash", "-c", f"PBEM_GAMES_DIR={games} {pbem} doctor"], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=120)
    assert "PBEM_IMAP_PASSWORD" in without.stdout + without.stderr  # what a plain sudo -u would meet


def test_a_server_with_the_guides_self_signed_certificate_is_trusted_through_ca_file(tmp_path: Path) -> None:
    """The certificate docs/mailbox.md makes with openssl, served on localhost: pbem's TLS (the context
    its inbox and outbox make with `ca_file`) trusts it for mail.example.org, and without `ca_file`
    refuses it."""
    import socket
    import ssl
    import threading

    made = [b for b in blocks(DOCS / "mailbox.md") if b.marker == "run" and "openssl req" in b.text]
    assert len(made) == 1
    subprocess.run(["bash", "-euc", made[0].text], cwd=tmp_path, check=True, capture_output=True, timeout=120)
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(tmp_path / "mail.example.org.pem", tmp_path / "mail.example.org.key")
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def serve() -> None:
        for _ in range(2):
            conn, _ = listener.accept()
            try:
                with server.wrap_socket(conn, server_side=True) as tls:
                    tls.sendall(b"* OK\r\n")
            except (ssl.SSLError, OSError):
                pass
    threading.Thread(target=serve, daemon=True).start()

    def hello(cafile: Path | None) -> bytes:
        context = ssl.create_default_context(cafile=str(cafile) if cafile else None)  # as pbem.mail.boxes does
        with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
            with context.wrap_socket(raw, server_hostname="mail.example.org") as tls:
                return tls.recv(10)

    assert hello(tmp_path / "mail.example.org.pem") == b"* OK\r\n"
    try:
        hello(None)
    except ssl.SSLCertVerificationError:
        pass
    else:
        raise AssertionError("a self-signed certificate was trusted without ca_file")
    listener.close()
