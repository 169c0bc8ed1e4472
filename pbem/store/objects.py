"""git's objects, read and written by pbem itself: the few a run's commits need (a blob for each file,
the trees above it, the commit), written as the loose objects `git fast-import` leaves of a small run
(it unpacks a pack of fewer than 100 objects into loose ones), without starting git for them. They
build on objects git wrote, loose or in a pack, read as git keeps them. What pbem does not read
itself (another object format, a pack it does not know, an object elsewhere) is left to git:
`LeftToGit`. Every object read is checked against its name (SHA-1), so a misreading is never built on."""

from __future__ import annotations

import bisect
import contextlib
import itertools
import mmap
import os
import zlib

from pbem import digests

TREE_MODE = b"40000"
FILE_MODE = b"100644"
SHA_HEX = 40  # SHA-1, git's default object format; a repository of another one is left to git
KINDS = {1: b"commit", 2: b"tree", 3: b"blob", 4: b"tag"}  # a pack's object types; 6 and 7 are deltas
OFS_DELTA, REF_DELTA = 6, 7
DELTA_DEPTH = 100  # git's own limit is 50 (pack.depth); a longer chain is left to git
_TEMP_NUMBER = itertools.count()


class LeftToGit(Exception):
    """An object pbem does not read itself (missing, in a form it does not know, of another kind)."""


class Objects:
    """The object folder of a repository (.git/objects), read and written as git does: a loose object
    is zlib-deflated "KIND SIZE\\0BODY" in objects/XX/YYYY..., named by its SHA-1, written to a
    temporary file beside it first (one git's prune removes when a killed process left it), at git's
    level for loose objects (core.looseCompression: 1); a packed one is found through its pack's
    index (version 2) and undeltified."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.written = 0  # objects this process wrote
        self.bytes = 0  # and their size, deflated
        self._packs: list[_Pack] | None = None

    def read(self, hexsha: str, kind: bytes) -> bytes:
        """The body of the object `hexsha`, which must be of `kind`; LeftToGit where pbem cannot
        read it."""
        found_kind, body = self._read(bytes.fromhex(hexsha), 0)
        if found_kind != kind or digests.sha1(b"%s %d\0%s" % (kind, len(body), body)).hexdigest() != hexsha:
            raise LeftToGit(hexsha)
        return body

    def _read(self, sha: bytes, depth: int) -> tuple[bytes, bytes]:
        """An object's kind and body, loose or packed (not checked against its name)."""
        hexsha = sha.hex()
        try:
            with open(f"{self.folder}/{hexsha[:2]}/{hexsha[2:]}", "rb") as f:
                raw = zlib.decompress(f.read())
        except FileNotFoundError:
            return self._packed(sha, depth)
        except (OSError, zlib.error):
            raise LeftToGit(hexsha) from None
        header, _, body = raw.partition(b"\0")
        kind, _, size = header.partition(b" ")
        if size != b"%d" % len(body):
            raise LeftToGit(hexsha)
        return kind, body

    def _packed(self, sha: bytes, depth: int) -> tuple[bytes, bytes]:
        if self._packs is None:
            self._packs = []
            folder = f"{self.folder}/pack"
            with contextlib.suppress(OSError):
                for name in sorted(os.listdir(folder)):
                    if name.endswith(".idx") and os.path.exists(f"{folder}/{name[:-4]}.pack"):
                        with contextlib.suppress(OSError, ValueError, LeftToGit):
                            self._packs.append(_Pack(f"{folder}/{name[:-4]}"))
        for pack in self._packs:
            try:
                at = pack.find(sha)
                if at is not None:
                    return pack.read(at, self, depth)
            except (IndexError, ValueError, OSError):  # a pack not as pbem reads it
                raise LeftToGit(sha.hex()) from None
        raise LeftToGit(sha.hex())

    def close(self) -> None:
        for pack in self._packs or ():
            pack.close()
        self._packs = None

    def write(self, kind: bytes, body: bytes) -> str:
        """Store an object (unless it is there already: then its time is renewed, as git does, so that
        a prune does not take it as old and unreachable); its SHA-1 in hex."""
        data = b"%s %d\0%s" % (kind, len(body), body)
        hexsha = digests.sha1(data).hexdigest()
        folder = f"{self.folder}/{hexsha[:2]}"
        path = f"{folder}/{hexsha[2:]}"
        try:
            os.utime(path)
            return hexsha
        except FileNotFoundError:
            pass
        deflated = _deflate(data)
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
    def load(cls, objects: Objects, hexsha: str) -> Tree:
        body = objects.read(hexsha, b"tree")
        entries = {}
        at, end = 0, len(body)
        try:
            while at < end:
                space = body.index(b" ", at)
                nul = body.index(b"\0", space)
                entries[body[space + 1:nul]] = (body[at:space], body[nul + 1:nul + 21])
                at = nul + 21
        except ValueError:
            raise LeftToGit(hexsha) from None
        return cls(entries, bytes.fromhex(hexsha))

    def reach(self, objects: Objects, parts: list[bytes]) -> None:
        """Read the trees on the way to the file at `parts` that there are (`put` then needs none),
        changing nothing."""
        tree = self
        for name in parts[:-1]:
            sub = tree.subtrees.get(name)
            if sub is None:
                entry = tree.entries.get(name)
                if entry is None or not _is_tree(entry[0]):
                    return
                sub = tree.subtrees[name] = Tree.load(objects, entry[1].hex())
            tree = sub

    def put(self, objects: Objects, parts: list[bytes], sha: bytes) -> None:
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

    def write(self, objects: Objects) -> bytes:
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


def _deflate(data: bytes) -> bytes:
    """`data` zlib-deflated at git's level for loose objects, with a window no bigger than it needs:
    zlib's default state (some 256 KB) is allocated and handed back to the kernel for each object, which
    cost ten times the deflating of a small one."""
    stream = zlib.compressobj(1, zlib.DEFLATED, min(15, max(12, len(data).bit_length())), 6)
    return stream.compress(data) + stream.flush()


def _is_tree(mode: bytes) -> bool:
    return mode.lstrip(b"0") == TREE_MODE


class _Pack:
    """One pack of objects and its index (version 2), mapped into memory."""

    def __init__(self, stem: str) -> None:
        with open(f"{stem}.idx", "rb") as f:
            self.index = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        try:
            with open(f"{stem}.pack", "rb") as f:
                self.pack = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except BaseException:
            self.index.close()
            raise
        if self.index[:8] != b"\377tOc\0\0\0\2" or self.pack[:4] != b"PACK":
            self.close()
            raise LeftToGit(stem)
        self.count = int.from_bytes(self.index[8 + 255 * 4:8 + 256 * 4], "big")
        self.names = 8 + 256 * 4  # where the sorted SHA-1s begin

    def find(self, sha: bytes) -> int | None:
        """Where the object `sha` begins in the pack, or None."""
        first = sha[0]
        lo = int.from_bytes(self.index[8 + (first - 1) * 4:8 + first * 4], "big") if first else 0
        hi = int.from_bytes(self.index[8 + first * 4:12 + first * 4], "big")
        names = _Names(self.index, self.names)
        at = bisect.bisect_left(names, sha, lo, hi)
        if at >= hi or names[at] != sha:
            return None
        offsets = self.names + self.count * 24  # past the names and their CRCs
        offset = int.from_bytes(self.index[offsets + at * 4:offsets + at * 4 + 4], "big")
        if offset & 0x80000000:  # in the table of large offsets
            large = offsets + self.count * 4 + (offset & 0x7FFFFFFF) * 8
            offset = int.from_bytes(self.index[large:large + 8], "big")
        return offset

    def read(self, at: int, objects: Objects, depth: int) -> tuple[bytes, bytes]:
        """The kind and body of the object that begins at `at`, its deltas applied."""
        if depth > DELTA_DEPTH:
            raise LeftToGit(f"a delta chain longer than {DELTA_DEPTH}")
        pack, begins = self.pack, at
        byte = pack[at]
        kind, size, shift = (byte >> 4) & 7, byte & 15, 4
        at += 1
        while byte & 0x80:
            byte = pack[at]
            size |= (byte & 0x7F) << shift
            shift += 7
            at += 1
        if kind in KINDS:
            return KINDS[kind], _inflate(pack, at, size)
        if kind == OFS_DELTA:
            byte = pack[at]
            back = byte & 0x7F
            at += 1
            while byte & 0x80:
                byte = pack[at]
                back = ((back + 1) << 7) | (byte & 0x7F)
                at += 1
            start = at
            base_kind, base = self.read(begins - back, objects, depth + 1)
        elif kind == REF_DELTA:
            base_kind, base = objects._read(bytes(pack[at:at + 20]), depth + 1)
            at += 20
            start = at
        else:
            raise LeftToGit(f"a pack object of type {kind}")
        return base_kind, _apply_delta(base, _inflate(pack, start, size))

    def close(self) -> None:
        self.pack.close()
        self.index.close()


class _Names:
    """A pack index's sorted SHA-1s, as a sequence `bisect` searches without copying them out."""

    __slots__ = ("index", "at")

    def __init__(self, index: mmap.mmap, at: int) -> None:
        self.index, self.at = index, at

    def __getitem__(self, i: int) -> bytes:
        return self.index[self.at + i * 20:self.at + i * 20 + 20]

    def __len__(self) -> int:
        raise TypeError  # bisect is always given its bounds


def _inflate(data: mmap.mmap, at: int, size: int) -> bytes:
    """The `size` bytes of the zlib stream that begins at `at`."""
    stream = zlib.decompressobj()
    out = []
    step = max(size + 64, 4096)
    try:
        while not stream.eof:
            piece = data[at:at + step]
            if not piece:
                raise LeftToGit("a pack object cut short")
            out.append(stream.decompress(piece))
            at += len(piece)
    except zlib.error:
        raise LeftToGit("a pack object git would not read either") from None
    body = b"".join(out)
    if len(body) != size:
        raise LeftToGit("a pack object of another size")
    return body


def _varint(delta: bytes, at: int) -> tuple[int, int]:
    value, shift = 0, 0
    while True:
        byte = delta[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, at


def _apply_delta(base: bytes, delta: bytes) -> bytes:
    """The object a git delta makes of `base`: copies from it and inserted bytes."""
    try:
        source, at = _varint(delta, 0)
        target, at = _varint(delta, at)
        if source != len(base):
            raise LeftToGit("a delta of another base")
        out = []
        end = len(delta)
        while at < end:
            op = delta[at]
            at += 1
            if op & 0x80:  # copy: offset in up to 4 bytes, size in up to 3 (none: 0x10000)
                offset = size = 0
                for bit in range(4):
                    if op & (1 << bit):
                        offset |= delta[at] << (8 * bit)
                        at += 1
                for bit in range(3):
                    if op & (0x10 << bit):
                        size |= delta[at] << (8 * bit)
                        at += 1
                size = size or 0x10000
                out.append(base[offset:offset + size])
            elif op:  # insert the next `op` bytes
                out.append(delta[at:at + op])
                at += op
            else:
                raise LeftToGit("a delta with a reserved instruction")
    except IndexError:
        raise LeftToGit("a delta cut short") from None
    result = b"".join(out)
    if len(result) != target:
        raise LeftToGit("a delta of the wrong size")
    return result
