"""A game's history, the events and the order log, in files that are only ever appended to.

    m1/events.yaml    one event per line, as `- {"type": ..., "turn": ...}`
    m1/log.yaml       one accepted order per line, the same way

Each line is a JSON object behind `- `, so the whole file is also a YAML list a GM can read. The state
file records how many items and bytes each history file holds (`history: {events: [n, bytes], ...}`);
bytes beyond that were appended by a run that died before it saved the state, do not exist for pbem,
and are cut off by the next save. So the state file's atomic rename still decides, alone, what the game
is. A run reads only the items it asks for, from the end of the file (a report's unread events), so one
order costs the same at decision 150 as at decision 10; `verify` and `rollback` read everything.
"""

from __future__ import annotations

import copy
import json
import marshal
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, overload

from pbem.errors import StoreError

HISTORIES = ("events", "log")  # the state keys kept in history files, each in <key>.yaml
_CHUNK = 16384


def history_file(folder: Path, key: str) -> Path:
    return folder / f"{key}.yaml"


def encode(item: dict[str, Any]) -> bytes:
    """One history line: canonical JSON (the same item always gives the same bytes) behind `- `."""
    return b"- " + json.dumps(item, ensure_ascii=False, separators=(", ", ": ")).encode("utf-8") + b"\n"


def _decode(line: bytes, path: Path) -> dict[str, Any]:
    try:
        if not line.startswith(b"- "):
            raise ValueError("not a history line")
        item = json.loads(line[2:])
        if not isinstance(item, dict):
            raise ValueError("not an object")
        return item
    except (ValueError, UnicodeDecodeError):
        raise StoreError(f"{path.parent.name}: the history file {path.name} is corrupt: "
                         f"{line[:60].decode('utf-8', 'replace')!r} is not a history line") from None


def last_lines(path: Path, end: int, n: int) -> list[bytes]:
    """The last `n` lines of the first `end` bytes of a file, reading backwards only as far as needed."""
    if n <= 0:
        return []
    try:
        with open(path, "rb") as f:
            pos, buf, chunk = end, b"", _CHUNK
            while pos > 0 and buf.count(b"\n") <= n:
                step = min(chunk, pos)
                pos -= step
                f.seek(pos)
                buf = f.read(step) + buf
                chunk *= 2
    except FileNotFoundError:
        raise StoreError(f"{path.parent.name}: the history file {path.name} is missing; "
                         f"`git checkout -- {path.parent.name}/{path.name}` restores the last committed one") from None
    if len(buf) != end - pos:
        raise StoreError(f"{path.parent.name}: the history file {path.name} is shorter than the state file says")
    if not buf.endswith(b"\n"):
        raise StoreError(f"{path.parent.name}: the history file {path.name} does not end where the state file says")
    lines = buf.split(b"\n")[:-1]  # with pos > 0 the first may be cut: the loop read one line more
    if len(lines) < n:
        raise StoreError(f"{path.parent.name}: the history file {path.name} holds fewer items than the state file says")
    return lines[-n:]


class History(Sequence[dict[str, Any]]):
    """The events or the order log of a game loaded from disk: a list whose stored items are read from
    the file only when asked for, and to which a run appends. Compares equal to a list of the same
    items; a deep copy copies only what was read and added."""

    def __init__(self, path: Path, stored: int, size: int) -> None:
        self.path, self.stored, self.size = path, stored, size
        self._first = stored  # the stored items from this index on are in _read
        self._read: list[dict[str, Any]] = []
        self.added: list[dict[str, Any]] = []  # what the next save appends

    def _need(self, index: int) -> None:
        if index < self._first:
            # at least double what was read: reading backwards item by item stays linear
            index = max(0, min(index, self._first - max(32, self.stored - self._first)))
            self._read = [_decode(line, self.path) for line in last_lines(self.path, self.size, self.stored - index)]
            self._first = index

    def __len__(self) -> int:
        return self.stored + len(self.added)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            picked = range(start, stop, step)
            if not picked:
                return []
            self._need(min(picked))
            every = self._read + self.added
            return [every[i - self._first] for i in picked]
        size = len(self)
        i = index + size if index < 0 else index
        if not 0 <= i < size:
            raise IndexError("history index out of range")
        if i >= self.stored:
            return self.added[i - self.stored]
        self._need(i)
        return self._read[i - self._first]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        self._need(0)
        yield from self._read
        yield from self.added

    def append(self, item: dict[str, Any]) -> None:
        self.added.append(item)

    def extend(self, items: Iterable[dict[str, Any]]) -> None:
        self.added.extend(items)

    def __iadd__(self, items: Iterable[dict[str, Any]]) -> History:
        self.extend(items)
        return self

    def __add__(self, other: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
        return list(self) + list(other)

    def same_file(self, other: History) -> bool:
        return (self.path, self.stored, self.size) == (other.path, other.stored, other.size)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History) and self.same_file(other):
            return self.added == other.added
        if isinstance(other, (History, list)):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # type: ignore[assignment]

    def __deepcopy__(self, memo: dict[int, Any]) -> History:
        twin = History(self.path, self.stored, self.size)
        twin._first, twin._read = self._first, plain_copy(self._read)
        twin.added = plain_copy(self.added)
        return twin

    def __repr__(self) -> str:
        return f"<History {self.path.name}: {self.stored} stored, {len(self.added)} added>"


def plain_copy(value: Any) -> Any:
    """A deep copy of plain data (dicts, lists, strings, numbers) through marshal, a third of deepcopy's
    time; anything marshal does not know is copied by deepcopy."""
    try:
        return marshal.loads(marshal.dumps(value))
    except ValueError:
        return copy.deepcopy(value)


def attach(state: dict[str, Any], folder: Path, recorded: dict[str, list[int]]) -> None:
    """Put the history a state file records into the loaded state, unread; a history file missing or
    shorter than recorded is named now (one stat each), not when a run first reads it."""
    for key in HISTORIES:
        count, size = recorded[key]
        path = history_file(folder, key)
        try:
            found = path.stat().st_size
        except FileNotFoundError:
            if size:
                raise StoreError(f"{folder.name}: the history file {path.name} is missing; `git checkout -- "
                                 f"{folder.name}/{path.name}` restores the last committed one") from None
            found = 0
        if found < size:
            raise StoreError(f"{folder.name}: the history file {path.name} is shorter than the state file says")
        state[key] = History(path, count, size)


def append_at(path: Path, start: int, data: bytes, durable: bool = True) -> int:
    """Write `data` at byte `start` of a file (cutting off what lay beyond: a dead run's leftovers),
    flushed to disk if `durable`; returns the new size."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if os.fstat(fd).st_size != start:
            os.ftruncate(fd, start)
        os.lseek(fd, start, os.SEEK_SET)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if durable:
            os.fsync(fd)
    finally:
        os.close(fd)
    return start + len(data)


def write_histories(state: dict[str, Any], folder: Path, check: Callable[[str, list[Any]], None],
                    write_whole: Callable[[Path, bytes], None], durable: bool = True) -> dict[str, list[int]]:
    """Append what a run added to each history, or write it whole with `write_whole` (atomically) when
    it is a new list: a new game, a rollback, a state of the old format. `check(key, items)` validates
    the items written. Returns the counts and sizes the state file records. Runs before the state file
    is replaced: until then the old state file sees the old history."""
    plans: list[tuple[str, Path, int | None, list[Any]]] = []  # key, file, where to append (None: whole)
    for key in HISTORIES:
        value = state[key]
        path = history_file(folder, key)
        if isinstance(value, History) and value.path == path and _intact(path, value.size):
            plans.append((key, path, value.size, value.added))
        else:
            plans.append((key, path, None, list(value)))
    for key, _, _, items in plans:  # everything is checked before anything is written
        check(key, items)
    recorded = {}
    for key, path, start, items in plans:
        data = b"".join(encode(item) for item in items)
        if start is None:
            write_whole(path, data)
            size = len(data)
        else:
            size = append_at(path, start, data, durable) if data else start
        recorded[key] = [len(state[key]), size]
    return recorded


def _intact(path: Path, size: int) -> bool:
    try:
        return path.stat().st_size >= size
    except FileNotFoundError:
        return size == 0


def settle(state: dict[str, Any], recorded: dict[str, list[int]]) -> None:
    """After a save: the added items are now stored; the state goes on as if loaded again."""
    for key in HISTORIES:
        value = state[key]
        if isinstance(value, History):
            value._read += value.added
            value.added = []
            value.stored, value.size = recorded[key]
