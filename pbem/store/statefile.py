"""The state file: its format, its validation against schemas/ (the history lines too), its text and
the checksum that ends it (a file whose checksum is right is one pbem wrote, and is not walked again)."""

from __future__ import annotations

from typing import Any

from pbem import digests
from pbem.errors import StoreError
from pbem.history import HISTORIES
from pbem.store.files import dump_yaml

FORMAT = 2
OLD_FORMAT = 1  # the events and the order log inside the state file
STATE_FILE = "state.yaml"


def check_state(state: dict[str, Any], where: str) -> None:
    """Validate a game state in memory: the state file it would be and every line of its history."""
    check_state_file(state_body(state, {key: [len(state[key]), 0] for key in HISTORIES}), where)
    for key in HISTORIES:
        check_history(key, list(state[key]), where)


def check_state_file(state: dict[str, Any], where: str) -> None:
    """Validate a state file's content (format 2, `history` recording the history files) against
    schemas/state and its game's engine schema."""
    if not isinstance(state, dict) or state.get("format") != FORMAT:
        found = state.get("format") if isinstance(state, dict) else None
        raise StoreError(f"{where}: state file format {found!r} is not one this pbem reads ({OLD_FORMAT} or {FORMAT})")
    problems = _errors(state, "state")
    if not problems:
        problems = _errors(state["engine"], f"{state['ruleset']}.state", prefix="engine")
    if problems:
        raise StoreError(f"{where}: the state file is not valid: " + "; ".join(problems[:5]))


SCHEMA_OF = {"events": "event", "log": "log-entry"}  # the schema of each history file's lines


def check_history(key: str, items: list[Any], where: str, first: int = 0) -> None:
    """Validate history lines about to be written (items `first`... of `key`)."""
    from pbem.turnfile import fits, state_validator

    name = SCHEMA_OF[key]
    for i, item in enumerate(items, start=first):
        if fits(item, name):
            continue
        for err in state_validator(name).iter_errors(item):
            path = ".".join(str(p) for p in [key, i] + list(err.absolute_path))
            raise StoreError(f"{where}: the state file is not valid: {path}: {err.message}")


def from_old_format(state: dict[str, Any], where: str) -> dict[str, Any]:
    """A format-1 state (the history inside it) checked and turned into a format-2 state in memory;
    the next save writes the history files."""
    history = {}
    for key in HISTORIES:
        if not isinstance(state.get(key), list):
            raise StoreError(f"{where}: the state file is not valid: {key}: missing, or not a list")
        history[key] = state.pop(key)
        check_history(key, history[key], where)
    rest = {k: v for k, v in state.items() if k != "format"}
    check_state_file({"format": FORMAT, **rest, "history": {key: [0, 0] for key in HISTORIES}}, where)
    return {"format": FORMAT, **rest, **history}


def state_body(state: dict[str, Any], recorded: dict[str, list[int]]) -> dict[str, Any]:
    """What the state file holds for `state`: everything but the history, which it records."""
    body: dict[str, Any] = {}
    for key, value in state.items():
        if key == "events":
            body["history"] = recorded
        elif key not in HISTORIES:
            body[key] = value
    return body


def state_file_text(body: dict[str, Any]) -> str:
    """The state file's text: the body, and last a checksum of it (see `checksum`)."""
    text = dump_yaml(body)
    return f"{text}{CHECKSUM}{checksum(text)}\n"


CHECKSUM = "checksum: "


def checksum(text: str) -> str:
    """What the last line of a state file says of the lines before it. A state file whose checksum is
    right is one pbem validated and wrote itself, unchanged since: its load skips the schema walk. One
    edited by hand (or by another tool) is validated in full."""
    return digests.sha256(f"pbem state format {FORMAT}\n{text}".encode("utf-8")).hexdigest()


def written_by_pbem(text: str) -> bool:
    body, _, last = text.rstrip("\n").rpartition("\n")
    return last.startswith(CHECKSUM) and last[len(CHECKSUM):] == checksum(body + "\n")


def _errors(value: Any, name: str, prefix: str = "") -> list[str]:
    from pbem.turnfile import fits, state_validator

    try:
        if fits(value, name):  # the usual case, answered without jsonschema
            return []
    except FileNotFoundError:
        return [f"there is no schema {name!r}"]
    out = []
    for err in state_validator(name).iter_errors(value):
        path = ".".join(str(p) for p in ([prefix] if prefix else []) + list(err.absolute_path))
        out.append(f"{path or 'top level'}: {err.message}")
    return out
