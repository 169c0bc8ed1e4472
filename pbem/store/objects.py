"""git's loose objects, read and written by pbem itself: the few a run's commits need (a blob for each
file, the trees above it, the commit), as `git fast-import` would have left them for a small run
(it unpacks a pack of fewer than 100 objects into loose ones), without starting git for them. What
pbem cannot read itself (a packed object, another object format) is left to git: `NotLoose`."""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import os
import zlib

TREE_MODE = b"40000"
FILE_MODE = b"100644"
SHA_HEX = 40  # SHA-1, git's default object format; a repository of another one is left to git
_TEMP_NUMBER = itertools.count()


class NotLoose(Exception):
    """An object pbem does not read itself (packed, missing, of another kind): git must."""


class LooseObjects:
    """The object folder of a repository (.git/objects), read and written as git does: zlib-deflated
    "KIND SIZE\\0BODY" in objects/XX/YYYY..., named by its SHA-1, written to a temporary file beside
    it first (one git's prune removes when a killed process left it), at git's level for loose
    objects (core.looseCompression: 1)."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.written = 0  # objects this process wrote
        self.bytes = 0  # and their size, deflated

    def read(self, hexsha: str, kind: bytes) -> bytes:
        """The body of the object `hexsha`, which must be of `kind`; NotLoose where it is not a loose
        object pbem can read."""
        try:
            with open(f"{self.folder}/{hexsha[:2]}/{hexsha[2:]}", "rb") as f:
                raw = zlib.decompress(f.read())
        except (OSError, zlib.error):
            raise NotLoose(hexsha) from None
        header, _, body = raw.partition(b"\0")
        if header != b"%s %d" % (kind, len(body)):
            raise NotLoose(hexsha)
        return body

    def write(self, kind: bytes, body: bytes) -> str:
        """Store an object (unless it is there already: then its time is renewed, as git does, so that
        a prune does not take it as old and unreachable); its SHA-1 in hex."""
        data = b"%s %d\0%s" % (kind, len(body), body)
        hexsha = hashlib.sha1(data).hexdigest()
        folder = f"{self.folder}/{hexsha[:2]}"
        path = f"{folder}/{hexsha[2:]}"
        try:
            os.utime(path)
            return hexsha
        except FileNotFoundError:
            pass
        deflated = zlib.compress(data, 1)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
        while True:
            temporary = f"{folder}/tmp_obj_{os.getpid()}_{next(_TEMP_NUMBER)}"
            try:
                fd = os.open(temporary, flags, 0o444)
                break
            except FileNotFoundError:
                os.makedirs(folder, exist_ok=True)
            except FileExistsError:
                continue
        try:
            with open(fd, "wb") as f:
                f.write(deflated)
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
        self.written += 1
        self.bytes += len(deflated)
        return hexsha


class Tree:
    """A tree of the commit being made: its entries (name: mode and SHA-1, raw), and the subtrees a
    change went into, loaded; `write` stores what changed, bottom up."""

    __slots__ = ("entries", "subtrees", "changed", "added", "sha")

    def __init__(self, entries: dict[bytes, tuple[bytes, bytes]], sha: bytes = b"") -> None:
        self.entries = entries  # in git's order while nothing is added
        self.subtrees: dict[bytes, Tree] = {}
        self.changed = False
        self.added = False  # a name added: the entries are sorted again when written
        self.sha = sha  # as last loaded or written

    @classmethod
    def load(cls, objects: LooseObjects, hexsha: str) -> Tree:
        body = objects.read(hexsha, b"tree")
        entries = {}
        at, end = 0, len(body)
        while at < end:
            space = body.index(b" ", at)
            nul = body.index(b"\0", space)
            entries[body[space + 1:nul]] = (body[at:space], body[nul + 1:nul + 21])
            at = nul + 21
        return cls(entries, bytes.fromhex(hexsha))

    def put(self, objects: LooseObjects, parts: list[bytes], sha: bytes) -> None:
        """Set the file at `parts` (its folders, then its name) to the blob `sha`, as fast-import's
        `M 100644` does: a folder missing on the way is made, a file or link in its place replaced, a
        folder where the file goes replaced by it."""
        tree = self
        for name in parts[:-1]:
            sub = tree.subtrees.get(name)
            if sub is None:
                entry = tree.entries.get(name)
                sub = Tree.load(objects, entry[1].hex()) if entry is not None and _is_tree(entry[0]) else Tree({})
                if entry is None or not _is_tree(entry[0]):
                    tree.added = True  # a new name, or one whose place in the order moves
                tree.entries[name] = (TREE_MODE, sub.sha)
                tree.subtrees[name] = sub
            tree.changed = True
            tree = sub
        name = parts[-1]
        entry = tree.entries.get(name)
        if entry is None or _is_tree(entry[0]):
            tree.added = True
        tree.subtrees.pop(name, None)
        tree.entries[name] = (FILE_MODE, sha)
        tree.changed = True

    def write(self, objects: LooseObjects) -> bytes:
        """Store this tree and the subtrees that changed; its SHA-1."""
        for name, sub in self.subtrees.items():
            if sub.changed:
                self.entries[name] = (TREE_MODE, sub.write(objects))
        if self.added:  # git's order: names as bytes, a folder's as if it ended in "/"
            self.entries = dict(sorted(self.entries.items(),
                                       key=lambda kv: kv[0] + b"/" if _is_tree(kv[1][0]) else kv[0]))
            self.added = False
        body = b"".join(b"%s %s\0%s" % (mode, name, sha) for name, (mode, sha) in self.entries.items())
        self.changed = False
        self.sha = bytes.fromhex(objects.write(b"tree", body))
        return self.sha


def _is_tree(mode: bytes) -> bool:
    return mode.lstrip(b"0") == TREE_MODE
