"""The GM's configuration: `pbem.yaml` in the games dir, checked against schemas/config.schema.json.

Without the file, pbem reads mail from the Maildir `mail/inbox` and writes outgoing mail as .eml files
to `mail/outbox`, both in the games dir; nothing leaves the machine.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.errors import PbemError
from pbem.turnfile import load_yaml, schema_errors

CONFIG_FILE = "pbem.yaml"

STARTER = """\
# pbem.yaml: the game master's settings for this games dir (checked against schemas/config.schema.json).
# Paths are relative to the games dir. Passwords may stay out of this file: name an environment
# variable with password_env instead of password.

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


@dataclass
class Config:
    root: Path
    gm_name: str = "pbem"
    gm_address: str = "pbem@localhost"
    subject_prefix: str = "[pbem]"
    max_mail_bytes: int = 262144
    pictures: bool = True  # a picture of the board in report mails
    reply_keys: bool = True  # mail to a player carries his reply key; a reply with it needs no token
    reply_address: str = "plus"  # plus: the key also in Reply-To (gm+KEY@host); none: Message-ID only
    language: str = "en"  # the players' language where a seat sets none
    timezone: str | None = None  # the players' time zone where a seat sets none (None: UTC)
    # who may challenge others by mail: "players" (addresses that play or played here), "anyone",
    # "nobody", or a list of addresses and @domains
    lobby_create: str | list[str] = "players"
    lobby_invitations: int = 3  # unanswered challenges one address may have at once
    lobby_strangers_per_day: int = 30  # mails a day to addresses that never wrote to pbem, all senders together
    lobby_lapse_hours: float = 7 * 24  # an invitation unanswered this long lapses
    # who may start a game against bots by mail: True (whoever lobby_create lets challenge), False, or
    # a rule as lobby_create's
    lobby_bots: bool | str | list[str] = True
    absence_max_days: int = 14  # the longest absence a player may set (`away until ...`)
    archive: dict[str, Any] = field(default_factory=dict)  # out, update (auto | manual), language, commit_url
    absence_total_days: int = 30  # the days a player may be away in any `absence_window_days`, all together
    absence_window_days: int = 90
    inbox: dict[str, Any] = field(default_factory=lambda: {"type": "maildir", "path": "mail/inbox"})
    outbox: dict[str, Any] = field(default_factory=lambda: {"type": "files", "path": "mail/outbox"})

    def path(self, relative: str) -> Path:
        return (self.root / relative).resolve()

    @property
    def domain(self) -> str:
        return self.gm_address.rpartition("@")[2] or "localhost"

    def password(self, section: dict[str, Any], what: str) -> str | None:
        """A password from the file or from the environment variable it names."""
        if "password_env" in section:
            value = os.environ.get(section["password_env"])
            if value is None:
                raise PbemError(f"pbem.yaml: {what}.password_env names {section['password_env']!r}, "
                                f"which is not set in the environment")
            return value
        return section.get("password")


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
            f"backup: move it to a password_file (mode 0600, under mail/, which git ignores) or a "
            f"password_command, then see with `git log -p {CONFIG_FILE}` whether a commit holds it (if so, "
            f"change the password)")


def starter_config(name: str, address: str) -> str:
    """The commented starting file; the values are written as quoted YAML strings."""
    import json

    text = STARTER.format(name=json.dumps(name), address=json.dumps(address))
    check_config_text(text, CONFIG_FILE)
    return text


def check_config_text(text: str | bytes, where: str) -> dict[str, Any]:
    value, lines = load_yaml(text.encode("utf-8") if isinstance(text, str) else text, f"the configuration {where!r}")
    value = {} if value is None else value
    problems = schema_errors(value, "config", lines)
    if problems:
        raise PbemError(f"{where} is not valid:\n" + "\n".join(f"  - {p}" for p in problems))
    return value
