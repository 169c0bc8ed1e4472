"""Files pbem writes and reads: canonical YAML, atomic replacement (temp, fsync, rename), a file
written over in place, one sync for a whole file system."""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
from pathlib import Path
from typing import Any

import yaml

from pbem.errors import StoreError
from pbem.history import History
from pbem.turnfile import yaml_problem

_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

_Dumper.add_representer(History, lambda dumper, history: dumper.represent_list(list(history)))


def dump_yaml(value: Any) -> str:
    """Canonical YAML: the same data always gives the same bytes."""
    return yaml.dump(value, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=False,
                     width=100)


def write_atomic(path: Path, text: str | bytes, durable: bool = True) -> None:
    """Write a file so that readers see the old or the new content, never a mix: temp, fsync, rename.
    Without `durable`, no fsync: the caller syncs the whole file system later (see GamesDir.sync)."""
    try:
        fd, tmp = _temp_beside(path)
    except FileNotFoundError:  # the folder is made when it is first written to, not asked after each time
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = _temp_beside(path)
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    if not durable:
        return
    dirfd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dirfd)
    finally:
        os.close(dirfd)


_TEMP_NUMBER = itertools.count()


def _temp_beside(path: Path) -> tuple[int, str]:
    """A new file `.<name>.<pid>-<n>.tmp` in `path`'s folder (ignored by git), open for writing, as
    tempfile.mkstemp makes (mode 0600, never an existing file), without importing tempfile."""
    while True:
        tmp = str(path.parent / f".{path.name}.{os.getpid()}-{next(_TEMP_NUMBER)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600), tmp
        except FileExistsError:  # left by a killed process that had the same pid
            continue


def _write_over(path: Path, data: bytes) -> None:
    """Replace a file's bytes where it is (its folder made when missing); not atomic, not synced."""
    try:
        f = open(path, "wb")
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        f = open(path, "wb")
    with f:
        f.write(data)


def read_yaml_file(path: Path, what: str) -> Any:
    """A YAML file pbem wrote itself; one that cannot be read is a StoreError naming `what` and where."""
    return parse_yaml(read_text_file(path, what), what)


def read_text_file(path: Path, what: str) -> str:
    try:
        return path.read_text("utf-8")
    except UnicodeDecodeError:
        raise StoreError(f"{what} is corrupt: not UTF-8 text") from None


def parse_yaml(text: str, what: str) -> Any:
    try:
        return yaml.load(text, Loader=_SafeLoader)
    except yaml.YAMLError as exc:
        line, problem = yaml_problem(text, exc)
        raise StoreError(f"{what} is corrupt{f' at line {line}' if line else ''}: {problem}") from None


@functools.cache
def _syncfs() -> Any:
    """libc's syncfs(2): one file system, not all of them as os.sync (None where there is none)."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):
        return None
