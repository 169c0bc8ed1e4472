"""What pbem found wrong in a file of its own that it reads back, and what it did instead of stopping.

Files beside the games (the never-mail list, the address index, the seen log, the lobby's entries, the
absences) can be damaged by a bad pull, a full disk or a hand that edited them. Their readers are
called deep inside a run that must go on answering mail, so a reader never raises for such a file: it
keeps what it can read, and notes here one line for the GM naming the file, what was wrong and what
pbem did. `pbem advance` prints the lines noted during the run as warnings (`told`).
"""

from __future__ import annotations

from pathlib import Path

#: the lines noted, each with the games dir it concerns ("" where the reader did not say)
_noted: list[tuple[str, str]] = []


def shown_path(path: Path, root: Path | None = None) -> str:
    """A file as the GM's line names it: relative to the games dir where it lies in it."""
    if root is not None:
        try:
            return path.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    return str(path)


def mended(path: Path, root: Path | None, wrong: str, done: str) -> None:
    """Note for the GM that `path` was `wrong` and what pbem `done` about it (once a run)."""
    noted = (_key(root), f"{shown_path(path, root)}: {wrong}; {done}")
    if noted not in _noted:
        _noted.append(noted)


def told(root: Path | None = None) -> list[str]:
    """The lines noted since they were last told, in the order they were noted, and forget them: those
    of the games dir `root` (and those that name none), or with no `root`, all. A process that reads
    several games dirs (a watch, the tests) tells each run of its own files alone."""
    key = None if root is None else _key(root)
    mine = [noted for noted in _noted if key is None or noted[0] in (key, "")]
    _noted[:] = [noted for noted in _noted if noted not in mine]
    return [line for _, line in mine]


def _key(root: Path | None) -> str:
    return "" if root is None else str(root.resolve())


def read_lines(path: Path, root: Path | None, done: str) -> list[str] | None:
    """The lines of a text file of pbem's (None: there is none). Bytes that are not UTF-8 become
    U+FFFD, so that a reader's own checks drop the lines they spoil; the GM is told, with `done`."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        mended(path, root, f"cannot be read ({exc.strerror})", done)
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        mended(path, root, f"is not UTF-8 text (byte {exc.start})", done)
        text = raw.decode("utf-8", errors="replace")
    return text.splitlines()
