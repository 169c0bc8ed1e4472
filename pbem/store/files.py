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
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from pbem.errors import StoreError
from pbem.history import History

_CSafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SafeDumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

_STR, _INT, _BOOL, _NULL = (f"tag:yaml.org,2002:{kind}" for kind in ("str", "int", "bool", "null"))
_MAP, _SEQ = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
class _KeptTags:
    """A resolver that keeps the tag each plain scalar's words resolve to (PyYAML's resolver asks its
    patterns anew for each scalar, and a game's state says the same names, cards and numbers again
    and again)."""

    DEFAULT_SCALAR_TAG: str
    yaml_path_resolvers: dict[Any, Any]
    tags: dict[str, str]  # each class's own: the words' tag, by the words (of at most SHORT characters)
    SHORT = 80

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if kind is not ScalarNode or self.yaml_path_resolvers:
            return super().resolve(kind, value, implicit)  # type: ignore[misc]
        if not implicit[0]:  # (what PyYAML's resolver gives words it may not read as another type)
            return self.DEFAULT_SCALAR_TAG
        tag = self.tags.get(value)
        if tag is None:
            tag = super().resolve(kind, value, implicit)  # type: ignore[misc]
            if len(value) <= self.SHORT:
                if len(self.tags) >= 65536:
                    self.tags.clear()
                self.tags[value] = tag
        return tag


class _SafeLoader(_KeptTags, _CSafeLoader):  # type: ignore[misc, valid-type]
    """PyYAML's safe loader (C where it has it), with `_KeptTags`."""

    tags: dict[str, str] = {}


class _Dumper(_KeptTags, _SafeDumper):  # type: ignore[misc, valid-type]
    """PyYAML's safe dumper, which represents what a game's state is made of (dicts, lists, words,
    whole numbers, booleans, None) without asking for each value which of its representers to call and
    whether it may be an alias: the same nodes, hence the same text. A dict or a list met twice is
    still one node, as PyYAML's (written with an alias)."""

    tags: dict[str, str] = {}

    def represent_data(self, data: Any) -> Any:
        kind = type(data)
        if kind is str:
            return ScalarNode(_STR, data, style=self.default_style)
        if kind is int:
            return ScalarNode(_INT, str(data), style=self.default_style)
        if kind is bool:
            return ScalarNode(_BOOL, "true" if data else "false", style=self.default_style)
        if data is None:
            return ScalarNode(_NULL, "null", style=self.default_style)
        if (kind is not dict and kind is not list and kind is not History) or self.sort_keys:
            return super().represent_data(data)
        node = self.represented_objects.get(id(data))
        if node is not None:
            return node
        self.object_keeper.append(data)  # (its id is not another's while the dump lasts)
        value: list[Any] = []
        best = True
        if kind is dict:
            node = self.represented_objects[id(data)] = MappingNode(_MAP, value)
            for key, item in data.items():
                key, item = self.represent_data(key), self.represent_data(item)
                if best and (type(key) is not ScalarNode or key.style or type(item) is not ScalarNode or item.style):
                    best = False
                value.append((key, item))
        else:  # a list, or a history file's entries (written as the list of them)
            node = self.represented_objects[id(data)] = SequenceNode(_SEQ, value)
            for item in data:
                item = self.represent_data(item)
                if best and (type(item) is not ScalarNode or item.style):
                    best = False
                value.append(item)
        node.flow_style = self.default_flow_style if self.default_flow_style is not None else best
        return node


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
        private_folder(path.parent)
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
    """Replace a file's bytes where it is (its folder made when missing); not atomic, not synced. The
    file is its owner's alone (0600), also one an older pbem made readable to all."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, 0o600)
    except FileNotFoundError:
        private_folder(path.parent)
        fd = os.open(path, flags, 0o600)
    with open(fd, "wb") as f:
        os.fchmod(fd, 0o600)
        f.write(data)


def private_folder(path: Path) -> None:
    """Make a folder and the missing ones above it, each its owner's alone (0700): pbem's files hold
    secrets and players' mail. A folder that is there already is left as it is."""
    missing = []
    while not path.is_dir():
        missing.append(path)
        if path.parent == path:
            break
        path = path.parent
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):
            os.mkdir(folder, 0o700)
        os.chmod(folder, 0o700)  # mkdir's mode passes through the umask; 0700 is what is meant


def private_file(path: Path) -> None:
    """A file (made empty when missing, its folder too) that only its owner may read."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
    except FileNotFoundError:
        private_folder(path.parent)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        os.fchmod(fd, 0o600)
    finally:
        os.close(fd)


def make_private(path: Path) -> None:
    """A folder (made when missing) that only its owner may enter, also one that was open to others."""
    private_folder(path)
    if path.stat().st_mode & 0o077:
        os.chmod(path, 0o700)


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
        from pbem.turnfile import yaml_problem

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
