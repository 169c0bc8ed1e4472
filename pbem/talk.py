"""Table talk: a line `say: ...` (`sag:`, `zeg:`) in a player's reply is passed on by the host to every
other player of the game as "anna says: ...", naming no address; `say to ben: ...` (`sag zu ben:`,
`zeg tegen ben:`) to one player, where the game allows it (`--talk public|private|none`).

Who speaks is the seat a key of a mail of this game (or the token) proves, never the From: and never
the text: a line cannot speak for another seat, a seat that resigned no longer speaks, and a game that
is over has no more talk. One mail's talk reaches each hearer as one mail, its lines in order, a line
said to one player in his mail alone. Talk is kept with the game, outside the state the
engine reads: public talk in the game's folder (in git: the archive shows it once the game is over),
talk to one player under mail/ (out of git: a secret of its two players). Each player's next report
shows what was said to him since his last one; the report file pbem keeps (which git takes once the
game is over) holds none of it.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import TYPE_CHECKING, Any
from pbem.patterns import Pattern

if TYPE_CHECKING:  # the store is imported where it is used: `pbem --help` reads only the choices
    from pbem.store import GamesDir

TABLE_FILE = "table.json"  # a game's table settings: talk and observers (in git, with the game)
TALK_CHOICES = ("public", "private", "none")
OBSERVER_CHOICES = ("yes", "no")
DEFAULT_TABLE = {"talk": "public", "observers": "no"}
PUBLIC_FILE = "talk.jsonl"  # in the game's folder
PRIVATE_DIR = ("mail", "talk")  # <game>.jsonl (talk to one player) and <game>.read.json (what each has read)
MAX_LENGTH = 500  # characters of one line of talk
PER_DAY = 20  # lines of talk one seat may say in one game in a day

TALK_LINE = Pattern(r"^\s*(?:say|sag|sage|zeg)(?:\s+(?:to|zu|an|tegen|aan)\s+([^\s:]+))?\s*:\s*(.*)$",
                       re.IGNORECASE)

def table_of(gd: GamesDir, game: str) -> dict[str, str]:
    """A game's table settings (talk: public, private or none; observers: yes or no)."""
    path = gd.game_dir(game) / TABLE_FILE
    try:
        value = json.loads(path.read_bytes().decode("utf-8"))
    except (FileNotFoundError, ValueError):
        return dict(DEFAULT_TABLE)
    if not isinstance(value, dict):
        return dict(DEFAULT_TABLE)
    return {k: str(value.get(k, v)) for k, v in DEFAULT_TABLE.items()}


def write_table(gd: GamesDir, game: str, talk: str | None, observers: str | None) -> None:
    """Write a game's table settings into its folder (before its first commit)."""
    from pbem.store import write_atomic

    value = dict(DEFAULT_TABLE, **{k: v for k, v in (("talk", talk), ("observers", observers)) if v})
    if value == DEFAULT_TABLE and not (gd.game_dir(game) / TABLE_FILE).exists():
        return
    folder = gd.game_dir(game)
    folder.mkdir(parents=True, exist_ok=True)
    write_atomic(folder / TABLE_FILE, json.dumps(value, sort_keys=True) + "\n")


def split_talk(lines: list[str]) -> tuple[list[tuple[str | None, str]], list[str]]:
    """The lines of talk a reply gives (to whom, None: everyone; what) and its other lines."""
    said, rest = [], []
    for line in lines:
        found = TALK_LINE.match(line)
        if found:
            said.append((found.group(1), found.group(2)))
        else:
            rest.append(line)
    return said, rest


def plain(text: str) -> str:
    """Talk as plain text on one line: no control characters, blanks run together."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


def _private_path(gd: GamesDir, game: str, suffix: str) -> Any:
    return gd.root.joinpath(*PRIVATE_DIR, f"{game}{suffix}")


def _read_lines(path: Any, root: Any = None) -> list[dict[str, Any]]:
    """The entries of a talk log; a line that is no entry (a file cut short, spoiled bytes) is skipped
    and the GM told."""
    from pbem.mended import mended, read_lines

    entries, spoiled = [], 0
    for line in read_lines(path, root, "the lines it cannot read are skipped") or []:
        try:
            entry = json.loads(line) if line.strip() else None
        except ValueError:
            entry = False
        if entry is None:
            continue
        if isinstance(entry, dict) and isinstance(entry.get("n"), int) and isinstance(entry.get("at"), str) \
                and isinstance(entry.get("from"), str) and isinstance(entry.get("to"), (str, type(None))) \
                and isinstance(entry.get("text"), str):
            entries.append(entry)
        else:
            spoiled += 1
    if spoiled:
        mended(path, root, f"{spoiled} of its lines are no line of talk as pbem writes it", "they are skipped")
    return entries


def talk_of(gd: GamesDir, game: str, public_only: bool = False) -> list[dict[str, Any]]:
    """Every line said in a game, in order (`public_only`: what was said to everyone)."""
    said = _read_lines(gd.game_dir(game) / PUBLIC_FILE, gd.root)
    if not public_only:
        said += _read_lines(_private_path(gd, game, ".jsonl"), gd.root)
    return sorted(said, key=lambda e: e["n"])


def say_all(gd: GamesDir, game: str, speaker: str, lines: list[tuple[str | None, str]],
            at: datetime) -> tuple[list[dict[str, Any]], list[str]]:
    """Keep the lines of one mail's talk (to whom, None: everyone; what), in order: their entries, and
    the files git is to hold (the public talk's, relative to the games dir; talk to one player is kept
    under mail/, out of git)."""
    from pbem.store import write_atomic

    n = len(talk_of(gd, game))
    entries = []
    for to, text in lines:
        n += 1
        entries.append({"n": n, "at": at.isoformat(timespec="seconds"), "from": speaker, "to": to, "text": text})
    public = gd.game_dir(game) / PUBLIC_FILE
    committed = []
    for path, kept in ((public, [e for e in entries if e["to"] is None]),
                       (_private_path(gd, game, ".jsonl"), [e for e in entries if e["to"] is not None])):
        if not kept:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        old = path.read_bytes().decode("utf-8", errors="replace") if path.is_file() else ""
        old += "\n" if old and not old.endswith("\n") else ""  # after a line cut short: the new one on its own
        write_atomic(path, old + "".join(json.dumps(e, ensure_ascii=False, sort_keys=True) + "\n" for e in kept))
        if path == public:
            committed.append(str(path.relative_to(gd.root)))
    return entries, committed


def said_today(gd: GamesDir, game: str, speaker: str, day: str) -> int:
    return sum(1 for e in talk_of(gd, game) if e["from"] == speaker and e["at"].startswith(day))


def heard_by(entry: dict[str, Any], player: str) -> bool:
    """Whether `player` is told a line: said to everyone, or to him (not by him)."""
    return entry["from"] != player and entry["to"] in (None, player)


def since_last_report(gd: GamesDir, state: dict[str, Any], player: str, lang: str) -> str:
    """The talk said to `player` since his last report, as his next report shows it (marked read)."""
    from pbem.i18n import translator
    from pbem.store import write_atomic

    game = state["game"]
    path = _private_path(gd, game, ".read.json")
    try:
        read = json.loads(path.read_bytes().decode("utf-8"))
    except (FileNotFoundError, ValueError):
        read = {}
    seen = read.get(player, 0) if isinstance(read, dict) and isinstance(read.get(player, 0), int) else 0
    said = [e for e in talk_of(gd, game) if e["n"] > seen]
    if not said:
        return ""
    read[player] = said[-1]["n"]
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(read, sort_keys=True) + "\n")
    heard = [e for e in said if heard_by(e, player)]
    if not heard:
        return ""
    _ = translator(lang).gettext
    lines = [_("Table talk since your last report:")]
    lines += ["  " + line_text(e, lang) for e in heard]
    return "\n".join(lines) + "\n"


def line_text(entry: dict[str, Any], lang: str) -> str:
    """One line of talk as its hearer reads it."""
    from pbem.i18n import translator

    _ = translator(lang).gettext
    if entry["to"] is None:
        return _("%(player)s says: %(text)s") % {"player": entry["from"], "text": entry["text"]}
    return _("%(player)s says to you: %(text)s") % {"player": entry["from"], "text": entry["text"]}
