"""A game's state as the modules below the game's pipeline read and note on it: whose decision it
waits for, its ruleset, a notice to the players, a token's hash, the seats whose players resigned.

It imports only the rules' base, so that the absences, the deadlines and the table's bots (which the
pipeline in pbem.game imports) use them without importing pbem.game back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem import digests
from pbem.errors import Refusal
from pbem.refusals import NOTICE_IDS
from pbem.rules.base import Ruleset, get_ruleset

if TYPE_CHECKING:
    from pbem.store import GamesDir

RESIGNED_FILE = "resigned.txt"  # a game's resigned seats, one a line (in git, with the game)


def token_hash(token: str) -> str:
    """The SHA-256 of a token, as the state keeps it."""
    return digests.sha256(token.encode("utf-8")).hexdigest()


def ruleset_of(state: dict[str, Any]) -> Ruleset:
    """The rules the game is played by."""
    return get_ruleset(state["ruleset"])


def waiting_for(state: dict[str, Any]) -> list[str]:
    """The players the current decision waits for (none when the game is over)."""
    decision = ruleset_of(state).decision(state["engine"])
    return list(decision.players) if decision else []


def notice(state: dict[str, Any], text: str, kind: str = "notice", to: list[str] | None = None,
           args: dict[str, Any] | None = None) -> None:
    """Something the pipeline (not the rules) tells every player (or those `to`): a substitute move, a
    new player, a standing order dropped... `text` is one of `pbem.refusals.NOTICES`, with its `args`:
    the event keeps the English and the notice's id with its values (a refusal among them as data)."""
    event: dict[str, Any] = {"type": kind, "pipeline": True, "text": text % args if args else text,
                             "turn": state["engine"]["turn"]}
    if text in NOTICE_IDS:
        event.update(msg=NOTICE_IDS[text], values={k: as_data(v) for k, v in (args or {}).items()})
    if to is not None:
        event["to"] = list(to)
    state["events"].append(event)


def as_data(value: Any) -> Any:
    """A value of a notice as the state keeps it: a refusal as its id, format and values."""
    if isinstance(value, Refusal):
        return {"msg": value.msg, "fmt": value.fmt, "values": {k: as_data(v) for k, v in value.values.items()}}
    return str(value) if isinstance(value, str) else value


def from_data(msg: str, fmt: str, values: dict[str, Any]) -> Refusal:
    """A notice (or a refusal in it) as the state keeps it, as a `Refusal` to write it from."""
    return Refusal(msg, fmt, **{k: from_data(v["msg"], v["fmt"], v["values"]) if isinstance(v, dict) and "fmt" in v
                                else v for k, v in values.items()})


def resigned_seats(gd: GamesDir, game: str) -> list[str]:
    """The seats of a game whose players resigned by mail (`stop`, confirmed)."""
    from pbem.mended import mended, read_lines
    from pbem.names import NAME

    path = gd.game_dir(game) / RESIGNED_FILE
    names = [w for line in read_lines(path, gd.root, "the seat names it could read are kept") or [] for w in line.split()]
    kept = [n for n in names if NAME.fullmatch(n)]
    if len(kept) != len(names):
        mended(path, gd.root, f"{len(names) - len(kept)} of its words are no seat's name", "they are left out")
    return kept
