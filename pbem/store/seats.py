"""Who sat at a finished game: its seats' addresses and token hashes, kept on the GM's machine alone.

Once a game is over, git takes every file of its folder (see pbem.store.public), the state file
with them. A player's address and his token's hash are no part of what the game was: the state file
of a finished game is written without them, and they are kept in `mail/seats/GAME.json` (mail/ is
out of git, its owner's alone), which `GamesDir.load` puts back into the seats. So standings,
rematches, the index of addresses and the answers to a finished game's players read them as
before, and a clone of the games dir (which has no mail/) holds the game's seats by name alone.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pbem.store.files import private_folder, write_atomic

SEATS_DIR = ("mail", "seats")
APART = ("email", "token_sha256")  # what of a seat stays on the GM's machine once the game is over


def seats_path(root: Path, game: str) -> Path:
    return root.joinpath(*SEATS_DIR, f"{game}.json")


def keep_apart(root: Path, game: str, body: dict[str, Any], durable: bool = True) -> dict[str, Any]:
    """A finished game's state-file body without its seats' addresses and token hashes, which are
    written to `mail/seats/GAME.json` first (a run that dies between the two leaves the old state
    file, whole, and a file it does not need)."""
    kept = {p["name"]: {k: p[k] for k in APART if k in p} for p in body["players"]}
    if any(kept.values()):
        path = seats_path(root, game)
        private_folder(path.parent)
        if read_seats(root, game) != kept:
            write_atomic(path, json.dumps(kept, sort_keys=True, ensure_ascii=False) + "\n", durable)
    players = [{k: v for k, v in p.items() if k not in APART} for p in body["players"]]
    return dict(body, players=players)


def read_seats(root: Path, game: str) -> dict[str, dict[str, str]]:
    """The addresses and token hashes kept apart for a finished game, by seat ({} when there are none
    here: a clone, or a game not finished)."""
    try:
        value = json.loads(seats_path(root, game).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(value, dict):
        return {}
    return {name: {k: v for k, v in seat.items() if k in APART and isinstance(v, str)}
            for name, seat in value.items() if isinstance(seat, dict)}


def put_back(root: Path, game: str, state: dict[str, Any]) -> None:
    """Give a loaded state's seats back the addresses and token hashes kept apart (in place)."""
    if not isinstance(state.get("players"), list) or \
            all(not isinstance(p, dict) or "email" in p for p in state["players"]):
        return
    kept = read_seats(root, game)
    for p in state["players"]:
        if isinstance(p, dict) and "email" not in p:
            p.update(kept.get(p.get("name"), {}))
