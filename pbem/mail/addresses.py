"""Which seats an address holds: an index kept beside the games (in mail/, out of git), so that
finding a mail's sender does not load every game's state.

The index holds, for each game, the stamp of its state file (size and time of change) and the
addresses of its seats. A lookup reads the index once a process, looks at the stamps of the state
files (a `stat` each), and loads only the games whose state file changed since: a run over hundreds of
games loads the few that moved, not all of them, for every mail.
"""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from pbem.errors import PbemError
from pbem.store import GAME_ID, GamesDir, write_atomic

INDEX_FILE = ("mail", "addresses.json")
FORMAT = 1
STATE_FILE = "state.yaml"


PLAYING = ("active", "paused")  # the statuses of a game not finished: a seat in one is a seat he plays


@dataclass(frozen=True)
class SeatAt:
    """A seat an address holds: its game, the seat's name and the game's status."""

    game: str
    player: str
    status: str

    @property
    def playing(self) -> bool:
        """Whether its game is not finished (running, or paused by the GM)."""
        return self.status in PLAYING


_memory: dict[str, dict[str, Any]] = {}  # per games dir: the index as last read or written
_read_only = [0]  # > 0: the index is not written (a dry run changes no file)


def writing_allowed() -> bool:
    """Whether an index may be written now (not in a dry run)."""
    return not _read_only[0]


@contextmanager
def reading_only() -> Iterator[None]:
    """Look up addresses without writing the index (for a dry run)."""
    _read_only[0] += 1
    try:
        yield
    finally:
        _read_only[0] -= 1


def _stamp(path: str) -> list[int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def _read(path: Path, root: Path | None = None) -> dict[str, Any]:
    """The index's games as the file holds them; what is damaged in it is left out (and built again
    from the games' state files), and the GM is told."""
    from pbem.mended import mended

    rebuilt = "the seats it lacks are read from the games' state files again"
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        mended(path, root, f"cannot be read ({exc.strerror})", rebuilt)
        return {}
    try:
        value = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        mended(path, root, f"is not UTF-8 text (byte {exc.start})", rebuilt)
        return {}
    except (ValueError, RecursionError) as exc:
        mended(path, root, f"is not JSON ({str(exc)[:80]})", rebuilt)
        return {}
    if not isinstance(value, dict) or value.get("format") != FORMAT or not isinstance(value.get("games"), dict):
        if value != {}:
            mended(path, root, "is not an index of pbem's (no 'format' 1 and 'games')", rebuilt)
        return {}
    games = {game: entry for game, entry in value["games"].items() if _well_formed(entry)}
    if len(games) < len(value["games"]):
        mended(path, root, f"{len(value['games']) - len(games)} of its games are not as pbem writes them", rebuilt)
    return games


def _well_formed(entry: Any) -> bool:
    """Whether an entry of the index is as `_entry` writes it."""
    return isinstance(entry, dict) and isinstance(entry.get("stamp"), list) and isinstance(entry.get("status"), str) \
        and isinstance(entry.get("seats"), dict) \
        and all(isinstance(k, str) and isinstance(v, list) and all(isinstance(n, str) for n in v)
                for k, v in entry["seats"].items())


def _entry(gd: GamesDir, game: str, stamp: list[int]) -> dict[str, Any]:
    try:
        state = gd.load(game)
    except PbemError:
        return {"stamp": stamp, "status": "broken", "seats": {}}
    seats: dict[str, list[str]] = {}
    for p in state.get("players", []):
        seats.setdefault(str(p.get("email", "")).lower(), []).append(p["name"])
    return {"stamp": stamp, "status": state.get("status", "active"), "seats": seats}


def index(gd: GamesDir) -> dict[str, Any]:
    """The index of the games dir, brought up to date: {game: {stamp, status, seats: {address: [seat]}}}."""
    root = str(gd.root.resolve())
    path = gd.root.joinpath(*INDEX_FILE)
    known = _memory.get(root)
    if known is None:
        known = _read(path, gd.root)
    fresh: dict[str, Any] = {}
    changed = False
    reserved = gd.reserved()
    try:
        folders = [d.name for d in os.scandir(gd.root) if d.is_dir() and GAME_ID.match(d.name)
                   and d.name not in reserved]
    except OSError:
        folders = []
    for game in folders:
        stamp = _stamp(f"{gd.root}/{game}/{STATE_FILE}")
        if stamp is None:
            continue
        entry = known.get(game)
        if not isinstance(entry, dict) or entry.get("stamp") != stamp:
            entry, changed = _entry(gd, game, stamp), True
        fresh[game] = entry
    changed = changed or set(fresh) != set(known)
    _memory[root] = fresh
    if changed and path.parent.is_dir() and not _read_only[0]:
        try:
            write_atomic(path, json.dumps({"format": FORMAT, "games": fresh}, sort_keys=True), durable=False)
        except OSError:
            pass  # the index is a help, never a need: the next lookup builds it again
    return fresh


def playing_seats(gd: GamesDir, address: str) -> list[SeatAt]:
    """The seats `address` holds in the games not finished (a mail's own handling asks its
    `pbem.mail.sender.Sender` instead)."""
    return [s for s in seats_of(gd, address) if s.playing]


def seats_of(gd: GamesDir, address: str) -> list[SeatAt]:
    """Every seat `address` holds on this host, in games begun or ended, by game."""
    address = address.lower()
    if not address:
        return []
    found = []
    for game, entry in sorted(index(gd).items()):
        for player in entry["seats"].get(address, []):
            found.append(SeatAt(game, player, entry["status"]))
    return found
