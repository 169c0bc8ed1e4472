"""Games not begun: an open game players join, and a challenge whose invitees accept or decline.

Each lives as `lobby/GAME.yaml` in the games dir (in git, like the games) until it starts, when it
becomes a game folder like any other, or ends unstarted (withdrawn, declined, lapsed). Nothing here
sends mail; `pbem.mail.lobby` reads the players' commands and writes them their answers.

Git holds an entry by its seats' names: the addresses of those seated and invited, and the
challenger's, are kept in `mail/lobby/GAME.json` (out of git, the GM's alone), and `load` puts them
back. So the history never names an address, not even of a stranger invited who never answered. An
entry an older pbem wrote (or the GM by hand) with its addresses in it is read as it is, and its next
write moves them out.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import yaml

from pbem.config import Config
from pbem.deadlines import moment, stamp
from pbem.errors import PbemError, Refusal, SetupError
from pbem.i18n import N_
from pbem.refusals import refuse
from pbem.store import GAME_ID, GamesDir, dump_yaml, write_atomic

LOBBY_DIR = "lobby"
FORMAT = 1
OPEN, CHALLENGE = "open", "challenge"
PENDING, ACCEPTED, DECLINED = "pending", "accepted", "declined"


class LobbyError(PbemError):
    """A lobby command that cannot be carried out: an English format and its values, so that the
    player reads it in his language (`text`)."""

    def __init__(self, fmt: str, **values: Any) -> None:
        self.fmt, self.values = fmt, values
        super().__init__(fmt % values)

    def text(self, lang: str) -> str:
        from pbem.i18n import translator

        values = self.values
        if any(isinstance(v, Refusal) for v in values.values()):  # a refusal it holds, in the same language
            from pbem.report import refusal_text

            values = {k: refusal_text(v, lang) if isinstance(v, Refusal) else v for k, v in values.items()}
        return translator(lang).gettext(self.fmt) % values


DAMAGED = N_("game %(game)r cannot be read on this host just now; the GM has been told, try again later")


class DamagedEntry(LobbyError):
    """An entry whose file is damaged: the player reads that it cannot be read now, the GM (`str`) what
    is wrong with the file."""

    def __init__(self, game: str, detail: str) -> None:
        super().__init__(DAMAGED, game=game)
        self.args = (detail,)


@dataclass(frozen=True)
class Seat:
    """Someone who will play: the seat's name, his address, his language (None: the host's)."""

    name: str
    email: str
    language: str | None = None


# -- the entries --------------------------------------------------------------------------------------

def lobby_path(gd: GamesDir, game: str) -> Path:
    return gd.root / LOBBY_DIR / f"{game}.yaml"


ADDRESSES_DIR = ("mail", "lobby")  # the entries' addresses, by game: out of git, the GM's alone
SEAT_LISTS = ("seated", "invited")


def addresses_path(root: Path, game: str) -> Path:
    return root.joinpath(*ADDRESSES_DIR, f"{game}.json")


def addresses_of(entry: dict[str, Any]) -> dict[str, Any]:
    """What of an entry stays out of git: each seat's and invitation's address, by the seat's name,
    and the challenger's (with the entry's nonce, which ties them to this entry of the game's id)."""
    kept: dict[str, Any] = {"nonce": entry.get("nonce")}
    if entry.get("by") not in (None, "gm"):
        kept["by"] = entry["by"]
    for part in SEAT_LISTS:
        kept[part] = {s["name"]: s["email"] for s in entry.get(part, []) if isinstance(s, dict) and "email" in s}
    return kept


def challenger_name(entry: dict[str, Any]) -> str | None:
    """The seat's name of whoever made a challenge (None: an open game, the GM's)."""
    if entry.get("challenger"):
        return str(entry["challenger"])
    return next((str(s["name"]) for s in entry.get("seated", []) if s.get("email") == entry.get("by")), None)


def without_addresses(entry: dict[str, Any]) -> dict[str, Any]:
    """An entry as git holds it: its seats and invitations by name, the challenger by his seat's name."""
    body = {k: v for k, v in entry.items() if k != "by" or v == "gm"}
    if "by" not in body and challenger_name(entry):
        body["challenger"] = challenger_name(entry)
    for part in SEAT_LISTS:
        if part in entry:
            body[part] = [{k: v for k, v in s.items() if k != "email"} for s in entry[part]]
    return body


def read_addresses(root: Path, game: str) -> dict[str, Any]:
    """The addresses kept apart for an entry ({} when there are none here: a clone, or none kept)."""
    try:
        value = json.loads(addresses_path(root, game).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _write_addresses(root: Path, game: str, kept: dict[str, Any]) -> None:
    write_atomic(addresses_path(root, game), json.dumps(kept, sort_keys=True, ensure_ascii=False) + "\n")


class AddressesLost(PbemError):
    """An entry whose addresses are not kept here (a clone, or mail/lobby/ lost): nobody in it can be
    written to, so it cannot be used."""


def put_back(root: Path, game: str, entry: dict[str, Any]) -> None:
    """Give a loaded entry back the addresses kept apart (in place); AddressesLost, naming the file,
    when one is not there."""
    lists = [entry.get(part) if isinstance(entry.get(part), list) else [] for part in SEAT_LISTS]
    missing = any(isinstance(s, dict) and "email" not in s for seats in lists for s in seats)
    if not missing and (entry.get("kind") != CHALLENGE or "by" in entry):
        return  # written by an older pbem or by hand: its addresses are in it
    kept = read_addresses(root, game)
    where = "/".join((*ADDRESSES_DIR, f"{game}.json"))
    if kept.get("nonce") != entry.get("nonce"):
        raise AddressesLost(f"{LOBBY_DIR}/{game}.yaml cannot be used: the addresses of its players are not in {where}")
    for part, seats in zip(SEAT_LISTS, lists):
        known = kept.get(part) if isinstance(kept.get(part), dict) else {}
        for s in seats:
            if isinstance(s, dict) and "email" not in s:
                if not isinstance(known.get(s.get("name")), str):
                    raise AddressesLost(f"{LOBBY_DIR}/{game}.yaml cannot be used: {where} has no address for "
                                        f"{s.get('name')!r}")
                s["email"] = known[s.get("name")]
    if entry.get("kind") == CHALLENGE and "by" not in entry:
        if not isinstance(kept.get("by"), str):
            raise AddressesLost(f"{LOBBY_DIR}/{game}.yaml cannot be used: {where} has no address for the challenger")
        entry["by"] = kept["by"]


INDEX_FILE = ("mail", "lobby-index.json")  # the entries as last read, by the stamp of their file (out of git)
_index: dict[str, dict[str, Any]] = {}  # per games dir, in this process


def entries(gd: GamesDir) -> list[dict[str, Any]]:
    """Every game not begun, by id: read through an index of the entries kept beside them (an entry
    is parsed again only when its file changed), so that a lobby of hundreds of entries costs a look
    at each file's stamp, not a parse of each."""
    import copy
    import json
    import os

    folder = gd.root / LOBBY_DIR
    if not folder.is_dir():
        return []
    root = str(gd.root.resolve())
    index_path = gd.root.joinpath(*INDEX_FILE)
    known = _index.get(root)
    if known is None:
        known = _read_index(index_path, gd.root)
    fresh: dict[str, Any] = {}
    changed = False
    with os.scandir(folder) as found_files:
        names = sorted(f.name for f in found_files if f.name.endswith(".yaml"))
    found = []
    for name in names:
        game = name[:-len(".yaml")]
        if not GAME_ID.match(game):
            continue
        try:
            st = os.stat(folder / name)
        except OSError:
            continue
        stamp = [st.st_size, st.st_mtime_ns, *_stamp_of(addresses_path(gd.root, game))]  # its addresses too
        kept = known.get(game)
        if isinstance(kept, dict) and kept.get("stamp") == stamp and _damage(kept.get("entry"), game) is None:
            entry = kept["entry"]
        else:
            try:
                entry = load(gd, game)
            except (LobbyError, AddressesLost):  # damaged or its addresses lost (the GM is told, as
                continue                           # `pbem doctor` tells him), or gone since
            changed = True
        fresh[game] = {"stamp": stamp, "entry": entry}
        found.append(copy.deepcopy(entry))
    changed = changed or set(fresh) != set(known)
    _index[root] = fresh
    from pbem.mail.addresses import writing_allowed

    if changed and index_path.parent.is_dir() and writing_allowed():
        try:
            write_atomic(index_path, json.dumps(fresh, sort_keys=True, default=str), durable=False)
        except OSError:
            pass  # the index is a help, never a need
    return found


def _read_index(path: Path, root: Path) -> dict[str, Any]:
    """The index of the entries as last written; damaged, it is read as empty (every entry is parsed
    again from its file) and the GM is told."""
    import json

    from pbem.mended import mended

    again = "every entry is read from its file again"
    try:
        known = json.loads(path.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, RecursionError) as exc:
        mended(path, root, f"cannot be read ({type(exc).__name__})", again)
        return {}
    if not isinstance(known, dict):
        mended(path, root, "is not an index of pbem's", again)
        return {}
    return known


def _damage(value: Any, game: str) -> str | None:
    """What makes `value` no entry of the lobby as pbem writes it (for `game`), or None."""
    if not isinstance(value, dict) or value.get("format") != FORMAT or value.get("game") != game:
        return "is not a pbem lobby file"
    kinds = {"kind": (OPEN, CHALLENGE)}
    texts = ("ruleset", "nonce", "created")
    if value.get("kind") not in kinds["kind"] or any(not isinstance(value.get(k), str) for k in texts) \
            or not isinstance(value.get("by", ""), str):
        return "is not a pbem lobby file (kind, ruleset, nonce, created or by is missing or wrong)"
    if not isinstance(value.get("seats"), int) or isinstance(value.get("seats"), bool) \
            or not isinstance(value.get("options"), dict):
        return "is not a pbem lobby file (seats or options is wrong)"
    people = {"seated": ("name", "email"), "invited": ("name", "email", "answer")}
    for key, fields in people.items():
        listed = value.get(key)
        if not isinstance(listed, list) or not all(isinstance(p, dict) and all(isinstance(p.get(f), str)
                                                                             for f in fields) for p in listed):
            return f"is not a pbem lobby file ({key} is wrong)"
    if not all(isinstance(value.get(k), (str, type(None))) for k in ("lapses", "bots_at", "language")) \
            or not isinstance(value.get("bots", []), list) \
            or not isinstance(value.get("deadline"), (dict, type(None))):
        return "is not a pbem lobby file (lapses, bots, language or deadline is wrong)"
    return None


def _stamp_of(path: Path) -> list[int]:
    try:
        st = path.stat()
    except OSError:
        return []
    return [st.st_size, st.st_mtime_ns]


def load(gd: GamesDir, game: str) -> dict[str, Any]:
    path = lobby_path(gd, game)
    try:
        value = yaml.safe_load(path.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        if GAME_ID.match(game) and gd.exists(game):
            raise LobbyError(N_("game %(game)r has begun; it takes no more players"), game=game) from None
        raise LobbyError(N_("there is no open game or challenge %(game)r"), game=game) from None
    except UnicodeDecodeError as exc:
        raise _damaged(gd, game, f"cannot be read: it is not UTF-8 text (byte {exc.start})") from None
    except (OSError, yaml.YAMLError, ValueError, RecursionError) as exc:
        why = getattr(exc, "strerror", None) or str(exc).splitlines()[0][:120]
        raise _damaged(gd, game, f"cannot be read: {why}") from None
    if not isinstance(value, dict) or value.get("format") != FORMAT or value.get("game") != game:
        raise _damaged(gd, game, "is not a pbem lobby file")
    put_back(gd.root, game, value)  # the addresses first: the checks below ask for them
    wrong = _damage(value, game)
    if wrong is not None:
        raise _damaged(gd, game, wrong)
    return value


def _damaged(gd: GamesDir, game: str, wrong: str) -> DamagedEntry:
    """The error of a damaged entry, and the GM's line for the run."""
    from pbem.mended import mended

    path = lobby_path(gd, game)
    mended(path, gd.root, wrong, "it is left out of the lobby until it is mended (restore it from git)")
    return DamagedEntry(game, f"{path} {wrong}")


def save(gd: GamesDir, entry: dict[str, Any]) -> str:
    """Write an entry atomically, its addresses to mail/lobby/ and the rest to lobby/ (for git); its
    path relative to the games dir (for the commit)."""
    game = entry["game"]
    path = lobby_path(gd, game)
    path.parent.mkdir(exist_ok=True)
    now, before = addresses_of(entry), read_addresses(gd.root, game)
    both = now
    if before.get("nonce") == now["nonce"]:  # a run that dies between the writes leaves a file that reads whole
        both = dict(now, **{part: {**(before.get(part) if isinstance(before.get(part), dict) else {}), **now[part]}
                            for part in SEAT_LISTS})
    if _any_address(both) and both != before:
        _write_addresses(gd.root, game, both)
    write_atomic(path, dump_yaml(without_addresses(entry)))
    if not _any_address(now):
        forget_addresses(gd, game)
    elif both != now:  # who left the entry leaves the file too
        _write_addresses(gd.root, game, now)
    return f"{LOBBY_DIR}/{game}.yaml"


def _any_address(kept: dict[str, Any]) -> bool:
    return bool(kept.get("by") or any(kept.get(part) for part in SEAT_LISTS))


def remove(gd: GamesDir, game: str, addresses: bool = True) -> str:
    """Take an entry out; its path for the commit. `addresses`: its addresses go too (a game started
    from it keeps them until it is saved: see `forget_addresses`)."""
    lobby_path(gd, game).unlink(missing_ok=True)
    if addresses:
        forget_addresses(gd, game)
    return f"{LOBBY_DIR}/{game}.yaml"


def forget_addresses(gd: GamesDir, game: str) -> None:
    addresses_path(gd.root, game).unlink(missing_ok=True)


def exists(gd: GamesDir, game: str) -> bool:
    return lobby_path(gd, game).is_file()


def taken(gd: GamesDir, game: str) -> bool:
    """Whether a game id is in use: a game, what is left of one, or an entry of the lobby."""
    return gd.exists(game) or gd.is_game_folder(game) or exists(gd, game)


def free_id(gd: GamesDir, base: str) -> str:
    """The first of BASE-1, BASE-2, ... that no game or entry uses."""
    base = re.sub(r"-\d+\Z", "", base)[:34] or "game"
    n = 1
    while taken(gd, f"{base}-{n}"):
        n += 1
    return f"{base}-{n}"


# -- who may do what ----------------------------------------------------------------------------------

def plays_here(gd: GamesDir, address: str) -> bool:
    """Whether `address` is a seat's registered address in a game of this host, begun or ended."""
    from pbem.mail.seats import games_of

    return bool(games_of(gd, address.lower(), active_only=False))


def plays(gd: GamesDir, address: str) -> bool:
    """Whether `address` plays here: a seat in a game not finished (running or paused), or in a game
    not begun. The one answer to "does he play" (a mail's own handling asks its `Sender.plays`)."""
    from pbem.mail.addresses import playing_seats

    return bool(playing_seats(gd, address.lower())) or seated_here(gd, address)


def seated_here(gd: GamesDir, address: str) -> bool:
    """Whether `address` holds a seat in a game not begun (bounded by its seats, unlike invitations)."""
    return any(s["email"] == address.lower() for e in entries(gd) for s in e["seated"])


def may_create(gd: GamesDir, config: Config, address: str, played: bool | None = None) -> bool:
    """Whether pbem.yaml's `lobby.create` lets `address` challenge others (`played`: whether it holds a
    seat in a game here, begun or ended, when the caller knows it)."""
    rule = config.lobby_create
    address = address.lower()
    if rule == "anyone":
        return True
    if rule == "nobody":
        return False
    if rule == "players":
        return plays_here(gd, address) if played is None else played
    domain = "@" + address.rpartition("@")[2]
    return any(allowed.lower() in (address, domain) for allowed in rule)


def seat_name(address: str, names: list[str]) -> str:
    """A seat's name from an address: its local part in the letters a name may have, made unique."""
    local = address.partition("@")[0].lower().split("+")[0]
    name = re.sub(r"[^a-z0-9_-]", "", local.replace(".", "-"))
    name = re.sub(r"\A[^a-z]+", "", name)[:20] or "player"
    unique, n = name, 2
    while unique in names:
        unique, n = f"{name}{n}", n + 1
    return unique


def check_name(name: str) -> str:
    """A name a player typed (`join GAME as NAME`), as pbem.names has it; refused by its id."""
    from pbem.names import NameRefused, check_name as checked

    try:
        return checked(name, fold=True)
    except NameRefused as exc:
        raise LobbyError(exc.fmt, **exc.values) from None


# -- making them ---------------------------------------------------------------------------------------

def new_entry(gd: GamesDir, kind: str, ruleset: str, game: str, options: dict[str, str],
              deadline: dict[str, Any] | None, by: str, at: datetime, seats: int, bots: int = 0) -> dict[str, Any]:
    """An entry checked as `pbem new` checks a game (ruleset, options, the number of seats: `seats` for
    players and `bots` for the game's bot)."""
    from pbem.rules.base import get_ruleset

    rules = get_ruleset(ruleset)
    if not GAME_ID.match(game):
        raise SetupError(f"{game!r} is not a game id (lower-case letters, digits, '-' and '_', at most 40, "
                         f"starting with a letter or digit)")
    gd.game_dir(game)  # refuses a name pbem uses for its own folders
    if taken(gd, game):
        raise SetupError(refuse("game-taken", game=game, where=str(gd.root)))
    refusal = rules.players_refusal(seats + bots)
    if refusal is not None:
        raise SetupError(refusal)
    import secrets

    return {"format": FORMAT, "game": game, "nonce": secrets.token_hex(4), "ruleset": rules.name, "kind": kind,
            "options": rules.check_options(options), "deadline": deadline, "seats": seats,
            "created": stamp(at), "by": by, "seated": [], "invited": []}


def open_game(gd: GamesDir, ruleset: str, game: str, seats: int, options: dict[str, str],
              deadline: dict[str, Any] | None, at: datetime) -> dict[str, Any]:
    """A game the GM opens for anyone to join by mail."""
    return new_entry(gd, OPEN, ruleset, game, options, deadline, "gm", at, seats)


def challenge(gd: GamesDir, config: Config, ruleset: str, game: str | None, challenger: Seat,
              invitees: list[str], options: dict[str, str], deadline: dict[str, Any] | None,
              language: str | None, at: datetime, bots: int = 0) -> dict[str, Any]:
    """A player's challenge: he holds the first seat, each invitee's answer is awaited (and `bots`
    seats are the game's bot's). Refused when the host's limits forbid it (see `check_invitations`)."""
    invitees = list(dict.fromkeys(check_address(a) for a in invitees))
    if challenger.email in invitees:
        invitees.remove(challenger.email)
    if not invitees:
        raise LobbyError(N_("name at least one other player's address to challenge"))
    check_invitations(gd, config, challenger.email, invitees)
    game = game or free_id(gd, ruleset)
    entry = new_entry(gd, CHALLENGE, ruleset, game, options, deadline, challenger.email, at, len(invitees) + 1, bots)
    entry["language"] = language
    entry["challenger"] = challenger.name
    entry["lapses"] = stamp(at + timedelta(hours=config.lobby_lapse_hours))
    entry["seated"] = [seat_entry(challenger, at)]
    names = [challenger.name]
    for address in invitees:
        names.append(seat_name(address, names))
        invite = {"email": address, "name": names[-1], "answer": PENDING}
        if language or challenger.language:  # the challenge's language: what the invitee reads until he chooses
            invite["language"] = language or challenger.language
        entry["invited"].append(invite)
    if bots:
        from pbem.tablebots import bot_names

        entry["bots"] = bot_names(bots, names)
    return entry


def check_invitations(gd: GamesDir, config: Config, by: str, invitees: list[str]) -> None:
    """The host's limits: how many unanswered challenges one address may have, and nobody invited
    again while an invitation to him is unanswered."""
    waiting = [e for e in entries(gd) if e["kind"] == CHALLENGE]
    mine = [e for e in waiting if e["by"] == by]
    if len(mine) >= config.lobby_invitations:
        raise LobbyError(N_("you have %(count)s challenges waiting for answers (%(games)s), the most this host "
                            "allows; wait for their answers or withdraw one with 'withdraw GAME'"),
                         count=len(mine), games=", ".join(e["game"] for e in mine))
    for address in invitees:
        if any(i["email"] == address and i["answer"] == PENDING for e in waiting for i in e["invited"]):
            raise LobbyError(N_("%(address)s has an invitation not answered yet; the address can be invited again "
                                "once it is answered or has lapsed"), address=address)


TODAY_FILE = ("mail", "challenges-today.txt")  # the challenges made today: who made them, whom they invited


def today(gd: GamesDir, day: str, by: str) -> tuple[dict[str, int], dict[str, int]]:
    """How many challenges each address made on `day`, and every address `by` invited on it
    (withdrawn or ended challenges count: the day's limits are never given back), how often."""
    from pbem.mended import read_lines

    path = gd.root.joinpath(*TODAY_FILE)
    made: dict[str, int] = {}
    invited: dict[str, int] = {}
    for line in read_lines(path, gd.root, "its readable lines count") or []:
        parts = line.split(" ")
        if len(parts) >= 2 and parts[0] == day:
            made[parts[1]] = made.get(parts[1], 0) + 1
            if parts[1] == by:
                for address in parts[2:]:
                    invited[address] = invited.get(address, 0) + 1
    return made, invited


def note_challenge(gd: GamesDir, day: str, by: str, invitees: list[str]) -> None:
    """Count a challenge against its day's limits (older days are forgotten)."""
    path = gd.root.joinpath(*TODAY_FILE)
    from pbem.mended import read_lines

    kept = [line for line in read_lines(path, gd.root, "its readable lines count") or []
            if line.split(" ", 1)[0] >= day and "\ufffd" not in line]
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, "".join(f"{line}\n" for line in [*kept, " ".join([day, by, *invitees])]))


ADDRESS = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
                     r"@[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?)+")


def check_address(address: str) -> str:
    """An address a mail can go to (as written in a challenge), in lower case; a LobbyError naming it
    when it is not one: plain letters of an address, at most 254 of them."""
    if len(address) > 254 or not ADDRESS.fullmatch(address):
        shown = address if len(address) <= 80 else address[:77] + "..."
        raise LobbyError(N_("%(address)r is not an email address pbem can write to; nothing was sent"),
                         address=shown)
    return address.lower()


def seat_entry(seat: Seat, at: datetime) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": seat.name, "email": seat.email.lower(), "joined": stamp(at)}
    if seat.language:
        entry["language"] = seat.language
    return entry


def rematch_invitees(state: dict[str, Any], address: str) -> tuple[Seat, list[Seat]]:
    """The sender's seat and the other players of a finished game, for its rematch."""
    if state["status"] != "finished":
        raise LobbyError(N_("game %(game)r is not over yet; 'rematch' is for a game that has ended"), game=state["game"])
    seats = [Seat(p["name"], str(p["email"]).lower(), p.get("language")) for p in state["players"] if not p.get("bot")]
    me = next((s for s in seats if s.email == address), None)
    if me is None:
        raise LobbyError(N_("you hold no seat in game %(game)r"), game=state["game"])
    return me, [s for s in seats if s.email != address]


# -- changing them --------------------------------------------------------------------------------------

def free_seats(entry: dict[str, Any]) -> int:
    return entry["seats"] - len(entry["seated"]) - sum(1 for i in entry["invited"] if i["answer"] == PENDING)


def join(entry: dict[str, Any], address: str, name: str | None, language: str | None, at: datetime) -> str:
    """Seat `address` in an open game; the seat's name."""
    address = address.lower()
    if entry["kind"] != OPEN:
        raise LobbyError(N_("game %(game)r is a challenge; only those invited play it"), game=entry["game"])
    names = [s["name"] for s in entry["seated"]]
    mine = next((s for s in entry["seated"] if s["email"] == address), None)
    if mine is not None:
        raise LobbyError(N_("you already hold the seat %(name)r in game %(game)r"), name=mine["name"], game=entry["game"])
    if free_seats(entry) <= 0:
        raise LobbyError(N_("game %(game)r has no free seat"), game=entry["game"])
    if name is not None:
        name = check_name(name)
        if name in names:
            raise LobbyError(N_("the name %(name)r is taken in game %(game)r; choose another with "
                                "'join %(game)s as NAME'"), name=name, game=entry["game"])
    else:
        name = seat_name(address, names)
    entry["seated"].append(seat_entry(Seat(name, address, language), at))
    return name


def leave(entry: dict[str, Any], address: str) -> str:
    """Give back `address`'s seat in an open game (or his accepted seat in a challenge he did not
    make); the seat's name."""
    address = address.lower()
    mine = next((s for s in entry["seated"] if s["email"] == address), None)
    if mine is None:
        raise LobbyError(N_("you hold no seat in game %(game)r"), game=entry["game"])
    if entry["kind"] == CHALLENGE and entry["by"] == address:
        raise LobbyError(N_("game %(game)r is your own challenge; withdraw it with 'withdraw %(game)s'"),
                         game=entry["game"])
    entry["seated"].remove(mine)
    if entry["kind"] == CHALLENGE:  # he declines after all: his seat goes
        entry["seats"] -= 1
        entry["invited"] = [dict(i, answer=DECLINED) if i["email"] == address else i for i in entry["invited"]]
    return str(mine["name"])


def answer(entry: dict[str, Any], address: str, accept: bool, at: datetime) -> str:
    """An invitee's answer; the seat's name."""
    address = address.lower()
    invite = next((i for i in entry["invited"] if i["email"] == address), None)
    if invite is None or entry["kind"] != CHALLENGE:
        raise LobbyError(N_("you are not invited to game %(game)r"), game=entry["game"])
    if invite["answer"] != PENDING:
        raise LobbyError(N_("you have already answered the invitation to game %(game)r"), game=entry["game"])
    invite["answer"] = ACCEPTED if accept else DECLINED
    if accept:
        entry["seated"].append(seat_entry(Seat(invite["name"], address, invite.get("language") or entry.get("language")), at))
    else:
        entry["seats"] -= 1
    return str(invite["name"])


def can_go_on(entry: dict[str, Any]) -> bool:
    """Whether enough players are left (seated or still to answer) for the game."""
    from pbem.rules.base import get_ruleset

    return entry["seats"] + len(entry.get("bots", [])) >= get_ruleset(entry["ruleset"]).min_players


def ready(entry: dict[str, Any]) -> bool:
    """Whether the game can start by itself: every seat taken, every invitee's answer in."""
    return len(entry["seated"]) == entry["seats"] and can_go_on(entry)


def lapsed(entry: dict[str, Any], at: datetime) -> bool:
    return entry["kind"] == CHALLENGE and "lapses" in entry and at >= moment(entry["lapses"])


def pending(entry: dict[str, Any]) -> list[dict[str, Any]]:
    return [i for i in entry["invited"] if i["answer"] == PENDING]


def describe(entry: dict[str, Any]) -> str:
    """One line for the GM: what the entry waits for (control characters written out)."""
    from pbem.visible import visible

    if entry["kind"] == OPEN:
        fill = f"; bots take the free seats at {entry['bots_at']}" if entry.get("bots_at") else ""
        return f"open: {len(entry['seated'])} of {entry['seats']} seats taken{fill}"
    waiting = ", ".join(i["email"] for i in pending(entry))
    return visible(f"challenge of {entry['by']}: waiting for {waiting or 'nobody'}; lapses {entry.get('lapses', '-')}")
