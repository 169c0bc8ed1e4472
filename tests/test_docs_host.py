"""The host the GM's guide sets up, the systemd unit it ships and `pbem init` agree: one service user,
one games dir, one path of `pbem`, one password file (and, for `password_env`, one file of variables);
and the guide's `pbem-host` functions, which run pbem by hand as the unit runs it, find the games dir
and hand pbem its password (a plain `sudo -u pbem pbem` elsewhere would find neither)."""

from __future__ import annotations

import configparser
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from docs_pages import DOCS, blocks
from pbem.init import PASSWORD_FILE

GUIDE = DOCS / "gm-guide.md"
UNIT = DOCS / "pbem-watch.service"
PBEM = Path(sys.executable).parent / "pbem"


def unit() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(UNIT.read_text())
    return parser["Service"]


def guide_shell() -> str:
    return "\n".join(b.text for b in blocks(GUIDE) if b.language in ("sh", "console"))


def pbem_hosts() -> list[str]:
    """The bodies of the guide's `pbem-host` functions: the password file's, then password_env's."""
    found = re.findall(r"^pbem-host\(\) \{ (.*) \}$", guide_shell(), re.MULTILINE)
    assert len(found) == 2, "the guide defines pbem-host for each way of keeping the password"
    return found


def unit_paths() -> tuple[str, str, str]:
    """The unit's user, games dir and pbem."""
    service = unit()
    argv = shlex.split(service["ExecStart"])
    return service["User"], argv[argv.index("--games-dir") + 1], argv[0]


def test_the_unit_init_and_the_guide_name_the_same_user_games_dir_pbem_and_password_file() -> None:
    service, shell, text = unit(), guide_shell(), GUIDE.read_text()
    name, games, pbem = unit_paths()
    user = re.search(r"useradd .* --home-dir (\S+) .* (\w+)$", shell, re.MULTILINE)
    assert user, "the guide makes the service user"
    home, made = user.groups()
    assert service["Group"] == name == made == "pbem"
    assert f"| the service user, who owns every file of the games | `{name}` (home `{home}`, no login shell) |" in text

    assert service["WorkingDirectory"] == games
    assert shlex.split(service["ExecStart"])[1] == "watch"
    assert f"install -d -o {name} -g {name} -m 0700 {games}\n" in shell
    assert f"sudo -u {name} {pbem} init --games-dir {games}\n" in shell
    assert f"| the games dir (a git repository of its own) | `{games}` |" in text

    assert f"python3 -m venv {Path(pbem).parent.parent}\n" in shell  # the venv route
    assert f"PIPX_BIN_DIR={Path(pbem).parent} pipx install" in shell  # the pipx route
    assert f"`{pbem}` |" in text
    assert f"{pbem} advance --quiet --games-dir {games}\n" in shell  # the cron line

    assert f"`{games}/{PASSWORD_FILE}` (mode 0600, owned by `{name}`, ignored by git)" in text
    env_file = service["EnvironmentFile"].removeprefix("-")
    assert service["EnvironmentFile"].startswith("-"), "the file of variables is needed only for password_env"
    assert f"install -m 0600 /dev/null {env_file}\n" in shell
    assert f"| `{env_file}` (mode 0600, owned by root) |" in text

    by_file, by_env = pbem_hosts()
    assert by_file.startswith(f"sudo -H -u {name} sh -c 'cd {games} && exec {pbem} \"$@\"' ")
    assert f". {env_file} && cd {games} && exec runuser -u {name} -- {pbem} " in by_env


def run_pbem_host(body: str, games: Path, cwd: Path, *args: str) -> str:
    """A guide's pbem-host, as the service user would run it (without sudo or runuser here, the test
    being that user), on the test's games dir and its pbem; what it printed."""
    name, unit_games, pbem = unit_paths()
    body = body.replace(f"sudo -H -u {name} ", "").replace(f"runuser -u {name} -- ", "").replace("sudo ", "")
    body = body.replace(unit_games, str(games)).replace(pbem, str(PBEM))
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    run = subprocess.run(["bash", "-c", f"pbem-host() {{ {body} }}; pbem-host {shlex.join(args)}"], cwd=cwd,
                         env=env, capture_output=True, text=True, timeout=120)
    return run.stdout + run.stderr


def init_games(games: Path, *password: str, stdin: str | None = None) -> None:
    """A games dir as `pbem init` writes it for a server of this machine that does not run (port 9)."""
    subprocess.run([str(PBEM), "init", "--games-dir", str(games), "--address", "gm@example.org", "--provider",
                    "own", "--imap-host", "localhost", "--imap-port", "9", "--imap-security", "none",
                    "--smtp-host", "localhost", "--smtp-port", "9", "--smtp-security", "none", "--no-test",
                    *password], input=stdin, check=True, capture_output=True, text=True, timeout=120)


def test_pbem_host_runs_pbem_in_the_games_dir_with_the_password_file_init_wrote(tmp_path: Path) -> None:
    """From a folder outside the games dir, without --games-dir: the function finds the games dir and
    pbem reads the password from the file pbem init wrote, then tries to log in."""
    games, elsewhere = tmp_path / "games", tmp_path / "home"
    elsewhere.mkdir()
    init_games(games, "--password-file", "-", stdin="secret words $1\n")
    assert (games / PASSWORD_FILE).read_text() == "secret words $1\n"
    output = run_pbem_host(pbem_hosts()[0], games, elsewhere, "doctor")
    assert "ok   config: pbem.yaml is valid" in output, output
    assert "there is no password" not in output, output
    assert "FAIL inbox: the IMAP server localhost:9 refused the connection" in output, output  # it tried to log in
    (games / PASSWORD_FILE).unlink()
    assert "there is no password for the IMAP server localhost:9" in run_pbem_host(pbem_hosts()[0], games, elsewhere,
                                                                                   "doctor")


def test_pbem_host_of_password_env_hands_pbem_the_passwords_of_the_units_file(tmp_path: Path) -> None:
    """The function of the password_env route reads the unit's file of variables (its values in single
    quotes, as the guide writes them, which systemd and the shell read alike) and hands them to pbem,
    which a plain run does not get."""
    games = tmp_path / "games"
    init_games(games, "--password-command", "echo unused")
    config = games / "pbem.yaml"
    config.write_text(config.read_text().replace('password_command: "echo unused"', "password_env: PBEM_IMAP_PASSWORD"))
    env_file = tmp_path / "watch.env"
    env_file.write_text("PBEM_IMAP_PASSWORD='secret words $1'\n")
    body = pbem_hosts()[1].replace(unit()["EnvironmentFile"].removeprefix("-"), str(env_file))
    output = run_pbem_host(body, games, tmp_path, "doctor")
    assert "ok   config: pbem.yaml is valid" in output, output
    assert "not set in the environment" not in output, output
    assert "FAIL inbox: the IMAP server localhost:9 refused the connection" in output, output
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    without = subprocess.run([str(PBEM), "doctor"], cwd=games, env=env, capture_output=True, text=True, timeout=120)
    assert "inbox.password_env names 'PBEM_IMAP_PASSWORD', which is not set" in without.stdout + without.stderr


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
