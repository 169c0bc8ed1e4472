"""The GM's configuration: `pbem.yaml` in the games dir, checked against schemas/config.schema.json.

Without the file, pbem reads mail from the Maildir `mail/inbox` and writes outgoing mail as .eml files
to `mail/outbox`, both in the games dir; nothing leaves the machine.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pbem.errors import PbemError

CONFIG_FILE = "pbem.yaml"

STARTER = """\
# pbem.yaml: the game master's settings for this games dir (checked against schemas/config.schema.json).
# Paths are relative to the games dir. No password belongs in this file (git keeps it): name a file
# with password_file (mode 0600, which git ignores), a command whose output is the password or an OAuth2
# token with password_command, or an environment variable with password_env.

gm:
  name: {name}
  address: {address}    # players' mail from this address is never read as orders

subject_prefix: "[pbem]"
max_mail_bytes: 262144       # larger mail is set aside unread
pictures: true               # a picture of the board in each report (false: text alone, ~3 KB a mail)
reply_keys: true             # a player replies with his order alone; his mail proves itself by a key
reply_address: plus          # the key in Reply-To as gm+KEY@...; none: only in the Message-ID
# The players' language and time zone where a seat sets none (`pbem new --language anna=de
# --timezone anna=Europe/Berlin`, `pbem set`, or the player's reply `language de`):
# language: de               # en (the default) | de | nl
# timezone: Europe/Amsterdam # an IANA time zone; without one, English mail writes times in UTC as ISO

# Players start games by mail: `join GAME` takes a seat in a game opened with `pbem open`, and
# `new medici with ben@example.org, cleo@example.org` challenges others.
lobby:
  create: players            # who may challenge: players (who play or played here) | anyone | nobody
                             # | a list of addresses and @domains
  invitations: 3             # challenges one address may make a day (withdrawn ones count)
  strangers_per_day: 30      # mails a day to addresses that never wrote to pbem, all senders together
  lapse: 7d                  # an invitation unanswered this long lapses
  bots: true                 # who may start a game against bots (`new medici with bot, bot`):
                             # true: whoever may challenge | false | players | anyone | a list

# A player's `away until 3 Dec` holds the clock of his decisions until he is back, for at most
# `max` at a time, and for at most `total` in any `window` (renewed absences count together):
absence:
  max: 14d
  total: 30d
  window: 90d

# Where orders come in. The default is a Maildir in the games dir:
inbox:
  type: maildir              # maildir | mbox | imap
  path: mail/inbox
# An IMAP account instead:
# inbox:
#   type: imap
#   host: imap.example.org
#   port: 993
#   security: tls            # tls | starttls | none (none only on localhost)
#   user: gm@example.org
#   password_env: PBEM_IMAP_PASSWORD
#   folder: INBOX
#   set_aside_folder: pbem-set-aside

# How mail goes out. The default writes .eml files for you to send:
outbox:
  type: files                # files | smtp
  path: mail/outbox
# An SMTP server instead:
# outbox:
#   type: smtp
#   host: smtp.example.org
#   port: 587
#   security: starttls       # starttls | tls | none (none only on localhost)
#   user: gm@example.org
#   password_env: PBEM_SMTP_PASSWORD
"""


class Config:  # not a dataclass: one costs its module's import ~3M instructions, compiling its methods
    """The settings of a games dir, pbem.yaml's or their defaults."""

    def __init__(self, root: Path, gm_name: str = "pbem", gm_address: str = "pbem@localhost",
                 subject_prefix: str = "[pbem]", max_mail_bytes: int = 262144, pictures: bool = True,
                 reply_keys: bool = True, reply_address: str = "plus", language: str = "en",
                 timezone: str | None = None, lobby_create: str | list[str] = "players", lobby_invitations: int = 3,
                 lobby_strangers_per_day: int = 30, lobby_lapse_hours: float = 7 * 24,
                 lobby_bots: bool | str | list[str] = True, absence_max_days: int = 14,
                 archive: dict[str, Any] | None = None, absence_total_days: int = 30, absence_window_days: int = 90,
                 inbox: dict[str, Any] | None = None, outbox: dict[str, Any] | None = None) -> None:
        self.root = root
        self.gm_name = gm_name
        self.gm_address = gm_address
        self.subject_prefix = subject_prefix
        self.max_mail_bytes = max_mail_bytes
        self.pictures = pictures  # a picture of the board in report mails
        self.reply_keys = reply_keys  # mail to a player carries his reply key; a reply with it needs no token
        self.reply_address = reply_address  # plus: the key also in Reply-To (gm+KEY@host); none: Message-ID only
        self.language = language  # the players' language where a seat sets none
        self.timezone = timezone  # the players' time zone where a seat sets none (None: UTC)
        # who may challenge others by mail: "players" (addresses that play or played here), "anyone",
        # "nobody", or a list of addresses and @domains
        self.lobby_create = lobby_create
        self.lobby_invitations = lobby_invitations  # unanswered challenges one address may have at once
        self.lobby_strangers_per_day = lobby_strangers_per_day  # mails a day to addresses that never wrote to pbem, all senders together
        self.lobby_lapse_hours = lobby_lapse_hours  # an invitation unanswered this long lapses
        # who may start a game against bots by mail: True (whoever lobby_create lets challenge), False, or
        # a rule as lobby_create's
        self.lobby_bots = lobby_bots
        self.absence_max_days = absence_max_days  # the longest absence a player may set (`away until ...`)
        self.archive = {} if archive is None else archive  # out, update (auto | manual), language, commit_url
        self.absence_total_days = absence_total_days  # the days a player may be away in any `absence_window_days`, all together
        self.absence_window_days = absence_window_days
        self.inbox = {"type": "maildir", "path": "mail/inbox"} if inbox is None else inbox
        self.outbox = {"type": "files", "path": "mail/outbox"} if outbox is None else outbox
        # the secrets a password_command gave, with when: asked again after SECRET_KEPT seconds
        self._secrets: dict[str, tuple[float, str]] = {}

    def __repr__(self) -> str:
        return f"Config(root={self.root!r}, gm_address={self.gm_address!r})"

    def path(self, relative: str) -> Path:
        return (self.root / relative).resolve()

    @property
    def domain(self) -> str:
        return self.gm_address.rpartition("@")[2] or "localhost"

    def password(self, section: dict[str, Any], what: str) -> str | None:
        """The secret an inbox or outbox logs in with (a password, or an OAuth2 token where `auth` is
        xoauth2): from the file `password_file` names, the output of `password_command`, the environment
        variable `password_env` names, or pbem.yaml itself; None where none is set."""
        if "password_file" in section:
            return read_password_file(self.path(section["password_file"]), f"pbem.yaml: {what}.password_file")
        if "password_command" in section:
            import time

            kept = self._secrets.get(section["password_command"])
            if kept is not None and time.monotonic() - kept[0] < SECRET_KEPT:
                return kept[1]
            secret = run_password_command(section["password_command"], self.root, f"{what}.password_command")
            self._secrets[section["password_command"]] = (time.monotonic(), secret)
            return secret
        if "password_env" in section:
            value = os.environ.get(section["password_env"])
            if value is None:
                raise PbemError(f"pbem.yaml: {what}.password_env names {section['password_env']!r}, "
                                f"which is not set in the environment")
            return value
        return section.get("password")


SECRET_KEYS = ("password", "password_env", "password_file", "password_command")
SECRET_KEPT = 60.0  # seconds: one run asks a password_command once; a watch's new connection later anew
PASSWORD_COMMAND_TIMEOUT = 60.0  # seconds: a keyring may ask for its own unlock, an OAuth2 helper fetch a token


def read_password_file(path: Path, what: str) -> str:
    """The password in a file: its first line, without the line end. A file every user may read is
    refused (`what` names where it was given, for the message)."""
    try:
        mode = path.stat().st_mode & 0o777
        if mode & 0o006:
            raise PbemError(f"{what}: {path} is mode {mode:04o}: every user of the machine can read "
                            f"the password; chmod 600 {path}")
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise PbemError(f"{what}: {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PbemError(f"{what}: {path} cannot be read: "
                        f"{getattr(exc, 'strerror', None) or exc}") from None
    password = text.split("\n", 1)[0].rstrip("\r")
    if not password:
        raise PbemError(f"{what}: {path} is empty")
    return password


def run_password_command(command: str, root: Path, what: str) -> str:
    """What a command prints (its first line), as msmtp's passwordeval and isync's PassCmd take it: run
    by /bin/sh in the games dir (where `pbem init` runs it before there is one: where pbem was started)."""
    import subprocess

    try:
        r = subprocess.run(["/bin/sh", "-c", command], cwd=root if root.is_dir() else None, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=PASSWORD_COMMAND_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise PbemError(f"pbem.yaml: {what} gave no answer within {PASSWORD_COMMAND_TIMEOUT:g}s") from None
    except OSError as exc:
        raise PbemError(f"pbem.yaml: {what} cannot be run: {exc.strerror}") from None
    said = next((line.strip() for line in r.stderr.decode("utf-8", "replace").splitlines() if line.strip()), "")
    if r.returncode != 0:
        raise PbemError(f"pbem.yaml: {what} failed (exit status {r.returncode})" + (f": {said}" if said else ""))
    password = r.stdout.decode("utf-8", "replace").split("\n", 1)[0].rstrip("\r")
    if not password:
        raise PbemError(f"pbem.yaml: {what} printed nothing")
    return password


def load_config(root: Path) -> Config:
    """The games dir's configuration (the defaults when there is no pbem.yaml)."""
    path = root / CONFIG_FILE
    config = Config(root=root)
    if not path.is_file():
        return config
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise PbemError(f"cannot read {path}: {exc.strerror}") from None
    value = check_config_text(data, str(path))
    gm = value.get("gm", {})
    config.gm_name = gm.get("name", config.gm_name)
    config.gm_address = gm.get("address", config.gm_address)
    config.subject_prefix = value.get("subject_prefix", config.subject_prefix)
    config.max_mail_bytes = value.get("max_mail_bytes", config.max_mail_bytes)
    config.pictures = value.get("pictures", config.pictures)
    config.reply_keys = value.get("reply_keys", config.reply_keys)
    config.reply_address = value.get("reply_address", config.reply_address)
    config.language = value.get("language", config.language)
    config.timezone = value.get("timezone", config.timezone)
    if config.timezone is not None:
        from pbem.i18n import check_timezone

        try:
            check_timezone(config.timezone)
        except PbemError as exc:
            raise PbemError(f"{path}: timezone: {exc}") from None
    lobby = value.get("lobby", {})
    config.lobby_create = lobby.get("create", config.lobby_create)
    config.lobby_invitations = lobby.get("invitations", config.lobby_invitations)
    config.lobby_strangers_per_day = lobby.get("strangers_per_day", config.lobby_strangers_per_day)
    for key in ("invitations", "strangers_per_day"):
        value_of = getattr(config, f"lobby_{key}")
        if not isinstance(value_of, int) or isinstance(value_of, bool) or value_of < 0:
            raise PbemError(f"{path}: lobby.{key} must be a whole number, 0 or more, not {value_of!r}")
    config.lobby_bots = lobby.get("bots", config.lobby_bots)
    if "lapse" in lobby:
        from pbem.deadlines import parse_duration

        try:
            config.lobby_lapse_hours = parse_duration(lobby["lapse"], "lobby.lapse")
        except PbemError as exc:
            raise PbemError(f"{path}: {exc}") from None
    for key in ("max", "total", "window"):
        if key in value.get("absence", {}):
            from pbem.deadlines import parse_duration

            try:
                days = max(1, int(parse_duration(value["absence"][key], f"absence.{key}") // 24))
            except PbemError as exc:
                raise PbemError(f"{path}: {exc}") from None
            setattr(config, f"absence_{key}_days", days)
    if config.absence_total_days > config.absence_window_days:
        raise PbemError(f"{path}: absence.total ({config.absence_total_days}d) is longer than absence.window "
                        f"({config.absence_window_days}d), which holds it")
    config.archive = value.get("archive", config.archive)
    config.inbox = value.get("inbox", config.inbox)
    config.outbox = value.get("outbox", config.outbox)
    for section, what in ((config.inbox, "inbox"), (config.outbox, "outbox")):
        given = [key for key in SECRET_KEYS if key in section]
        if len(given) > 1:
            raise PbemError(f"{path}: {what} gives {' and '.join(given)}: give one of them")
        if section.get("security") == "none" and section.get("host") not in ("localhost", "127.0.0.1", "::1"):
            raise PbemError(f"{path}: {what}.security 'none' would send passwords in clear text to "
                            f"{section['host']!r}; it is allowed only for localhost")
    return config


def written_passwords(config: Config) -> list[str]:
    """The sections of pbem.yaml (inbox, outbox) that hold a password written out in the file."""
    return [name for name, section in (("inbox", config.inbox), ("outbox", config.outbox)) if "password" in section]


def password_problem(config: Config) -> str | None:
    """Why a password written into pbem.yaml must leave it, and how (None: none is written there)."""
    names = written_passwords(config)
    if not names:
        return None
    keys = " and ".join(f"{name}.password" for name in names)
    return (f"{CONFIG_FILE} holds a password ({keys}) and git keeps {CONFIG_FILE}, in every clone, push and "
            f"backup: move it to a password_file (such as .pbem-password, mode 0600, which git ignores) or a "
            f"password_command, then see with `git log -p {CONFIG_FILE}` whether a commit holds it (if so, "
            f"change the password)")


MAIL_COMMENTS = {
    "security": "tls | starttls | none (none only on localhost)",
    "password_file": "mode 0600, ignored by git; or password_command: a command that prints it",
    "password_command": "prints the password (or, with auth: xoauth2, an OAuth2 access token)",
    "auth": "password | xoauth2 (password_command prints an OAuth2 access token)",
    "folder": "where players' mail arrives",
    "ca_file": "the certificate of the CA the server's certificate is signed by",
}
LOCAL_MAIL_COMMENT = """\
# Mail on this machine instead (a Maildir in, .eml files out that you send yourself):
# inbox:
#   type: maildir
#   path: mail/inbox
# outbox:
#   type: files
#   path: mail/outbox
"""


def starter_config(name: str, address: str, inbox: dict[str, Any] | None = None,
                   outbox: dict[str, Any] | None = None, reply_address: str = "plus") -> str:
    """The commented starting file; the values are written as quoted YAML strings. With `inbox` and
    `outbox` (an IMAP account and an SMTP server, as `pbem init` tried them), those sections instead
    of the local ones."""
    import json

    text = STARTER.format(name=json.dumps(name), address=json.dumps(address))
    if inbox is not None and outbox is not None:
        head, _, _ = text.partition("# Where orders come in.")
        text = (head + "# Where orders come in (pbem init logged in there):\n" + _mail_section("inbox", inbox)
                + "\n# How mail goes out (pbem init sent the GM a test mail through it):\n"
                + _mail_section("outbox", outbox) + "\n" + LOCAL_MAIL_COMMENT)
    if reply_address != "plus":
        text = text.replace("reply_address: plus          # the key in Reply-To as gm+KEY@...; none: only in the Message-ID",
                            f"reply_address: {reply_address}          # the key in the Message-ID alone: mail to gm+KEY@ "
                            f"did not arrive")
    check_config_text(text, CONFIG_FILE)
    return text


def _mail_section(key: str, section: dict[str, Any]) -> str:
    import json

    lines = [f"{key}:"]
    for name, value in section.items():
        plain = name in ("type", "security", "auth") or not isinstance(value, str)
        shown = str(value).lower() if isinstance(value, bool) else str(value) if plain else json.dumps(value)
        comment = MAIL_COMMENTS.get(name)
        if comment:
            lines.append(f"  # {comment}")
        lines.append(f"  {name}: {shown}")
    return "\n".join(lines) + "\n"


def check_config_text(text: str | bytes, where: str) -> dict[str, Any]:
    from pbem.turnfile import load_yaml, schema_errors

    value, lines = load_yaml(text.encode("utf-8") if isinstance(text, str) else text, f"the configuration {where!r}")
    value = {} if value is None else value
    problems = schema_errors(value, "config", lines)
    if problems:
        raise PbemError(f"{where} is not valid:\n" + "\n".join(f"  - {p}" for p in problems))
    return value
