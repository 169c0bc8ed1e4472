"""`python -m benchmarks.bench --only scale`: a games dir of 10,000 games with 100,000 commits of history
against one of 1,000 games with a short history, each goal beside its measured figure.

The games are real (Medici games played by bots to a mid-game decision, a few distinct ones copied
under other ids); the history is written straight into a git pack, not made by 100,000 runs: each
commit changes one game's files, as a run's commit does, and the last commit of each game writes the
files it has on disk. A commit's top tree (one entry a game) differs from its parent's by one entry,
so it is stored as a delta of a few bytes on the one before (a full one every `DEPTH`): building the
history costs what hashing the top trees costs, some seconds, where `git fast-import` would take
minutes (it writes each top tree out anew).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import click

from pbem import bots
from pbem.store import CHECKSUM, GITIGNORE, PUBLIC_FILE, STATE_FILE, GamesDir, checksum, dump_yaml, parse_yaml

DEPTH = 50  # the longest chain of top-tree deltas in the pack, as `git fast-import` and `git gc` make them
PEOPLE = [(f"p{i}", f"p{i}@example.org") for i in range(4)]
IDENT = b"pbem <pbem@localhost>"
_TYPE = {b"commit": 1, b"tree": 2, b"blob": 3}
_OFS_DELTA = 6


# -- a git pack written by hand ------------------------------------------------------------------------

class Pack:
    """A pack file and its index (version 2), written object by object; the objects' names are
    SHA-1s, as git computes them. Objects are zlib'd at level 1: the bench builds, git reads."""

    def __init__(self, git_dir: Path) -> None:
        self.folder = git_dir / "objects" / "pack"
        self.folder.mkdir(parents=True, exist_ok=True)
        self.tmp = self.folder / f"tmp-bench-{os.getpid()}.pack"
        self.f = open(self.tmp, "wb")
        self.f.write(b"PACK" + (2).to_bytes(4, "big") + b"\0\0\0\0")  # the count is filled in at the end
        self.entries: list[tuple[bytes, int, int]] = []  # name, crc32, offset
        self.known: set[bytes] = set()
        self.offset = 12

    @staticmethod
    def _header(kind: int, size: int) -> bytes:
        out = bytearray()
        byte = (kind << 4) | (size & 0x0F)
        size >>= 4
        while size:
            out.append(byte | 0x80)
            byte = size & 0x7F
            size >>= 7
        out.append(byte)
        return bytes(out)

    def _write(self, name: bytes, raw: bytes) -> int:
        at = self.offset
        self.f.write(raw)
        self.entries.append((name, zlib.crc32(raw), at))
        self.known.add(name)
        self.offset += len(raw)
        return at

    def add(self, kind: bytes, data: bytes | bytearray, name: bytes | None = None) -> bytes:
        """Store an object whole; returns its name (a known one is not stored twice)."""
        if name is None:
            name = hashlib.sha1(b"%s %d\0%s" % (kind, len(data), data)).digest()
        if name not in self.known:
            self._write(name, self._header(_TYPE[kind], len(data)) + zlib.compress(data, 1))
        return name

    def add_delta(self, name: bytes, base_at: int, delta: bytes) -> int:
        """Store an object as a delta on the entry at `base_at`; returns where it is."""
        distance = self.offset - base_at
        back = [distance & 0x7F]
        distance >>= 7
        while distance:
            distance -= 1
            back.append(0x80 | (distance & 0x7F))
            distance >>= 7
        return self._write(name, self._header(_OFS_DELTA, len(delta)) + bytes(reversed(back)) + zlib.compress(delta, 1))

    def add_tree_at(self, data: bytearray, name: bytes) -> int:
        """A whole tree whose name is known; returns where it is."""
        at = self.offset
        self.add(b"tree", data, name)
        return at

    def close(self) -> None:
        """Write the object count and the checksum, then the index; the pack is git's from then on."""
        self.f.close()
        with open(self.tmp, "r+b") as f:
            f.seek(8)
            f.write(len(self.entries).to_bytes(4, "big"))
            f.seek(0)
            h = hashlib.sha1()
            while chunk := f.read(1 << 22):
                h.update(chunk)
            trailer = h.digest()
            f.seek(0, os.SEEK_END)
            f.write(trailer)
        self.entries.sort()
        fanout = [0] * 256
        for name, _, _ in self.entries:
            fanout[name[0]] += 1
        idx = bytearray(b"\377tOc" + (2).to_bytes(4, "big"))
        total = 0
        for count in fanout:
            total += count
            idx += total.to_bytes(4, "big")
        idx += b"".join(name for name, _, _ in self.entries)
        idx += b"".join(crc.to_bytes(4, "big") for _, crc, _ in self.entries)
        large: list[int] = []
        for _, _, at in self.entries:
            if at < 0x80000000:
                idx += at.to_bytes(4, "big")
            else:
                idx += (0x80000000 | len(large)).to_bytes(4, "big")
                large.append(at)
        idx += b"".join(at.to_bytes(8, "big") for at in large)
        idx += trailer
        idx += hashlib.sha1(idx).digest()
        base = self.folder / f"pack-{trailer.hex()}"
        (base.with_suffix(".idx")).write_bytes(bytes(idx))
        os.replace(self.tmp, base.with_suffix(".pack"))


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _copy(offset: int, size: int) -> bytes:
    """A delta's instruction: copy `size` bytes of the base from `offset`."""
    out, flags = bytearray(), 0x80
    for i in range(4):
        if (offset >> (8 * i)) & 0xFF:
            flags |= 1 << i
            out.append((offset >> (8 * i)) & 0xFF)
    for i in range(3):
        if (size >> (8 * i)) & 0xFF:
            flags |= 1 << (4 + i)
            out.append((size >> (8 * i)) & 0xFF)
    return bytes([flags]) + bytes(out)


def splice_delta(base_size: int, at: int, cut: int, new: bytes) -> bytes:
    """The delta that makes of a base its bytes with `cut` bytes at `at` replaced by `new`."""
    assert base_size - at - cut < 0x10000 * 0x100 and len(new) < 0x80
    out = bytearray(_varint(base_size) + _varint(base_size - cut + len(new)))
    if at:
        out += _copy(0, at)
    out += bytes([len(new)]) + new
    if base_size - at - cut:
        out += _copy(at + cut, base_size - at - cut)
    return bytes(out)


def _tree_key(item: tuple[str, Any]) -> bytes:
    name, value = item
    return name.encode() + (b"/" if isinstance(value, dict) else b"")


def write_tree(pack: Pack, files: dict[str, Any]) -> bytes:
    """A tree of `files` (name: blob name, or a dict for a folder) in the pack; returns its name."""
    data = bytearray()
    for name, value in sorted(files.items(), key=_tree_key):
        if isinstance(value, dict):
            data += b"40000 %s\0%s" % (name.encode(), write_tree(pack, value))
        else:
            data += b"100644 %s\0%s" % (name.encode(), value)
    return pack.add(b"tree", data)


# -- the games ---------------------------------------------------------------------------------------

@dataclass
class Seed:
    """A game played by bots to a mid-game decision: its files, as pbem wrote them."""
    name: str
    state_text: str
    body: dict[str, Any]
    files: dict[str, bytes]  # path in the game folder: bytes, the state file and the public file aside
    tokens: dict[str, str]
    public_text: str


def make_seeds(scratch: Path, distinct: int, decision: int) -> list[Seed]:
    from pbem.advance import write_reports
    from pbem.game import apply_orders, new_game, show, waiting_for

    gd = GamesDir(scratch, create=True)
    scratch.mkdir(parents=True, exist_ok=True)
    seeds = []
    for k in range(distinct):
        name = f"s{k}"
        state, tokens = new_game(gd, "medici", name, PEOPLE, {}, f"bench-scale-seed-{k:04d}")
        while state["status"] == "active" and state["engine"]["turn"] < decision:
            p = waiting_for(state)[0]
            mine = show(state, p)
            state, _ = apply_orders(state, p, state["engine"]["turn"],
                                    [bots.choose("medici", mine["view"], p, mine["legal_orders"])])
        write_reports(gd, state)
        gd.save(name, dict(state, events=list(state["events"]), log=list(state["log"])))
        folder = scratch / name
        text = (folder / STATE_FILE).read_text("utf-8")
        body = parse_yaml(text, name)
        body.pop("checksum", None)
        files = {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
                 if p.is_file() and p.name not in (STATE_FILE, PUBLIC_FILE) and "queue" not in p.parts}
        seeds.append(Seed(name, text, body, files, tokens, (folder / PUBLIC_FILE).read_text("utf-8")))
    return seeds


def state_text_for(seed: Seed, game: str) -> str:
    """The seed's state file under another game id (its checksum made anew)."""
    body = seed.state_text.rpartition(CHECKSUM)[0]
    old, new = f"\ngame: {seed.name}\n", f"\ngame: {game}\n"
    assert body.count(old) == 1
    body = body.replace(old, new)
    return f"{body}{CHECKSUM}{checksum(body)}\n"


def public_text_for(seed: Seed, game: str, state_text: str) -> str:
    """The seed's public file under another game id, naming that game's state file."""
    body = seed.public_text.rstrip("\n").rpartition("\n")[0]
    old, new = f"\ngame: {seed.name}\n", f"\ngame: {game}\n"
    assert body.count(old) == 1
    return f"{body.replace(old, new)}\nstate: {state_text.rstrip().rpartition(CHECKSUM)[2]}\n"


def _nest(files: dict[str, bytes]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for path, value in files.items():
        *folders, name = path.split("/")
        at = out
        for folder in folders:
            at = at.setdefault(folder, {})
        at[name] = value
    return out


@dataclass
class Built:
    root: Path
    games: list[str]
    tokens: dict[str, dict[str, str]]
    commits: int
    seconds: float = 0.0
    parts: dict[str, float] = field(default_factory=dict)


def build(root: Path, games: int, commits: int, seeds: list[Seed], start: int | None = None) -> Built:
    """A games dir at `root` with `games` games and `commits` commits of history (at least one a
    game: the one that made it) on top of the first, which adds .gitignore: round r commits the r-th
    change of each game that has one more, the last of each game writes the files on disk. The games
    run: git holds each one's public file, the rest is on disk only. The pack holds the objects; git
    makes the index from HEAD."""
    assert commits >= games, "each game needs the commit that made it"
    if start is None:  # the history begins as the games do: each game's commits span all of it
        from pbem.deadlines import moment

        start = int(moment(seeds[0].body["created"]).timestamp())
    t0 = time.perf_counter()
    parts: dict[str, float] = {}
    width = max(5, len(str(games - 1)))
    ids = [f"g{i:0{width}d}" for i in range(games)]
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    git_dir = root / ".git"
    gd = GamesDir(root)
    pack = Pack(git_dir)

    # the files on disk, and the blobs of each game's last commit
    final: dict[str, dict[str, Any]] = {}
    tokens = {}
    texts = []
    publics = []
    for i, game in enumerate(ids):
        seed = seeds[i % len(seeds)]
        text = state_text_for(seed, game)
        texts.append(text)
        publics.append(public_text_for(seed, game, text))
        final[game] = {PUBLIC_FILE: pack.add(b"blob", publics[-1].encode("utf-8"))}
        tokens[game] = seed.tokens

    def write_game(i: int) -> None:
        game, seed, text = ids[i], seeds[i % len(seeds)], texts[i]
        folder = root / game
        for path, content in ((STATE_FILE, text.encode("utf-8")), (PUBLIC_FILE, publics[i].encode("utf-8")),
                              *seed.files.items()):
            target = folder / path
            try:
                f = open(target, "wb")
            except FileNotFoundError:
                target.parent.mkdir(parents=True, exist_ok=True)
                f = open(target, "wb")
            with f:
                f.write(content)
        gd._keep_parsed(game, dict(seed.body, game=game), text)

    # creating files costs the file system's time, not Python's: threads overlap it
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(write_game, range(games)))
    (root / ".gitignore").write_text(GITIGNORE)
    parts["files"] = time.perf_counter() - t0

    # the history
    t1 = time.perf_counter()
    stamp = start
    gitignore = pack.add(b"blob", GITIGNORE.encode())
    top = bytearray(b"100644 .gitignore\0" + gitignore)
    prefix = len(top)
    entry = len(b"40000 \0") + width + 1 + 20
    top_name = pack.add(b"tree", top)
    top_at = pack.entries[-1][2]
    chain = 0

    def commit(tree: bytes, parent: bytes | None, message: str) -> bytes:
        nonlocal stamp
        stamp += 30
        who = b"%s %d +0000" % (IDENT, stamp)
        data = b"tree %s\n%sauthor %s\ncommitter %s\n\n%s" % (
            tree.hex().encode(), b"parent %s\n" % parent.hex().encode() if parent else b"", who, who,
            message.encode("utf-8"))
        return pack.add(b"commit", data)

    head = commit(top_name, None, "pbem games repository\n")
    rounds = -(-commits // games)
    versions = [commits // games + (1 if i < commits % games else 0) for i in range(games)]
    made = 1
    for r in range(rounds):
        for i, game in enumerate(ids):
            if versions[i] <= r:
                continue
            last = r == versions[i] - 1
            if last:
                tree = write_tree(pack, final[game])
            else:
                tree = write_tree(pack, {
                    PUBLIC_FILE: pack.add(b"blob", f"game: {game}\nversion: {r}\n".encode())})
            at = prefix + i * entry
            if r == 0:  # a new game: its entry comes last (the ids sort as they are made)
                new, cut = b"40000 %s\0%s" % (game.encode(), tree), 0
                top += new
            else:
                at += entry - 20
                new, cut = tree, 20
                top[at:at + 20] = tree
            name = hashlib.sha1(b"tree %d\0%s" % (len(top), top)).digest()
            chain += 1
            if chain >= DEPTH:
                top_at, chain = pack.add_tree_at(top, name), 0
            else:
                top_at = pack.add_delta(name, top_at, splice_delta(len(top) - len(new) + cut, at, cut, new))
            subject = f"{game}: new medici game for p0, p1, p2, p3\n" if r == 0 else \
                f"{game}: turn {5 * r}: orders of p{r % 4}\n\n- p{r % 4} did something\nNow turn {5 * r + 1}.\n"
            head = commit(name, head, subject)
            made += 1
    pack.close()
    (git_dir / "refs" / "heads" / "main").write_text(head.hex() + "\n")
    parts["history"] = time.perf_counter() - t1

    t2 = time.perf_counter()
    subprocess.run(["git", "read-tree", "HEAD"], cwd=root, check=True)
    subprocess.run(["git", "update-index", "-q", "--refresh"], cwd=root, check=True)
    parts["index"] = time.perf_counter() - t2
    return Built(root, ids, tokens, made, time.perf_counter() - t0, parts)


# -- the measurements ----------------------------------------------------------------------------------

def best_ms(argv: list[str], cwd: Path, env: dict[str, str] | None = None, repeat: int = 5,
            before: Callable[[], None] | None = None) -> float:
    """The best of `repeat` runs of a command, in ms (`before` runs ahead of each, untimed)."""
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        t0 = time.perf_counter()
        subprocess.run(argv, cwd=cwd, env=env, capture_output=True, check=True)
        times.append(time.perf_counter() - t0)
    return min(times) * 1000


def turn_file(gd: GamesDir, game: str, tokens: dict[str, str]) -> bytes:
    """A turn file with the bot's order for the player whose move it is."""
    from pbem.game import show, waiting_for

    state = gd.load(game)
    p = waiting_for(state)[0]
    seen = show(state, p)
    order = bots.choose("medici", seen["view"], p, seen["legal_orders"])
    return dump_yaml({"game": game, "player": p, "token": tokens[p], "turn": seen["turn"], "orders": [order]}).encode()


def queue_orders(built: Built, games: list[str]) -> None:
    from pbem.game import submit

    gd = GamesDir(built.root)
    for game in games:
        submit(gd, turn_file(gd, game, built.tokens[game]))


@dataclass
class Figures:
    """What was measured in one games dir (ms)."""
    show: float = 0.0
    submit: float = 0.0
    log: float = 0.0
    archive: float = 0.0
    status: float = 0.0
    advance: float = 0.0  # per game with an order
    graph: float = 0.0  # the first commit-graph write (once)


def measure(built: Built, game: str, orders: int, repeat: int) -> Figures:
    """Each command from outside (a new process, as a GM or cron starts it) in one games dir."""
    root = built.root
    env = dict(os.environ, PBEM_GAMES_DIR=str(root))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    pbem = [sys.executable, "-m", "pbem"]
    f = Figures()
    gd = GamesDir(root)
    t0 = time.perf_counter()
    with gd.lock():  # as the first command that commits in a games dir of an older pbem does
        gd.index_history()
    f.graph = (time.perf_counter() - t0) * 1000
    # and the run's `git status` fills git's caches of the index (the untracked cache, the stat data
    # of the files the build wrote in the second it wrote the index): a games dir in use has them
    subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=root, capture_output=True,
                   check=True)
    scratch = Path(tempfile.mkdtemp(prefix="pbem-bench-scale-"))
    try:
        turnfile = scratch / "turn.yaml"
        turnfile.write_bytes(turn_file(gd, game, built.tokens[game]))
        subprocess.run(pbem + ["show", game], env=env, capture_output=True, check=True)  # writes the .pyc
        f.show = best_ms(pbem + ["show", game], root, env, repeat)
        f.submit = best_ms(pbem + ["submit", str(turnfile)], root, env, repeat)
        shutil.rmtree(root / game / "queue")
        f.log = best_ms(["git", "log", "--format=%H%x00%s", "--", f"{game}/"], root, env, repeat)
        f.archive = best_ms(pbem + ["archive", game, "--out", str(scratch / "site")], root, env, max(1, repeat // 2))
        queue_orders(built, built.games[:orders])
        t0 = time.perf_counter()
        r = subprocess.run(pbem + ["advance", "--quiet"], env=env, capture_output=True, text=True)
        f.advance = (time.perf_counter() - t0) * 1000 / orders
        if r.returncode != 0:
            click.echo(f"  pbem advance failed: {r.stderr.strip()[:300]}")
        f.status = best_ms(pbem + ["status"], root, env, max(1, repeat // 2))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return f


def before_graph(built: Built, game: str) -> tuple[float, float]:
    """`git log -- GAME` and `pbem archive GAME` (ms) as git walks the history without a commit-graph."""
    env = dict(os.environ, PBEM_GAMES_DIR=str(built.root), GIT_CONFIG_COUNT="1",
               GIT_CONFIG_KEY_0="core.commitGraph", GIT_CONFIG_VALUE_0="false")
    scratch = Path(tempfile.mkdtemp(prefix="pbem-bench-scale-"))
    try:
        log = best_ms(["git", "log", "--format=%H%x00%s", "--", f"{game}/"], built.root, env, 1)
        archive = best_ms([sys.executable, "-m", "pbem", "archive", game, "--out", str(scratch / "site")],
                          built.root, env, 1)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return log, archive


def shard_check(built: Built, games: int) -> str:
    """`pbem advance --shard 1/2` over the large games dir, orders queued in `games` games: how many of
    them it advanced (those of its shard) and what it cost a game."""
    from pbem.advance import in_shard

    picked = built.games[-games:]
    queue_orders(built, picked)
    env = dict(os.environ, PBEM_GAMES_DIR=str(built.root))
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "pbem", "advance", "--quiet", "--shard", "1/2"], env=env,
                       capture_output=True, text=True)
    took = (time.perf_counter() - t0) * 1000
    mine = [g for g in picked if in_shard(g, (1, 2))]
    done = [g for g in mine if not any((built.root / g / "queue").glob("*.yaml"))]
    left = [g for g in picked if g not in mine and any((built.root / g / "queue").glob("*.yaml"))]
    ok = r.returncode == 0 and len(done) == len(mine) and len(left) == len(picked) - len(mine)
    return (f"{len(done)} of its {len(mine)} games advanced, the other shard's {len(left)} left queued, "
            f"{took / max(len(mine), 1):.1f} ms/game ({'as it should' if ok else 'NOT as it should'})")


def line(goal: str, small: str, large: str, verdict: str) -> None:
    click.echo(f"  {goal:<46} {small:>12} {large:>12}  {verdict}")


def ratio(small: float, large: float, limit: float) -> str:
    r = large / small if small else float("inf")
    return f"ratio {r:5.2f}  goal <= {limit:.1f}  {'met' if r <= limit else 'NOT MET'}"


def scale(quick: bool = False) -> None:
    """Build the two games dirs, then measure each goal in both."""
    games, commits, orders = (1_000, 10_000, 100) if quick else (10_000, 100_000, 1_000)
    small_games = games // 10
    repeat = 3 if quick else 5
    base = Path(tempfile.mkdtemp(prefix="pbem-bench-scale-"))
    try:
        t0 = time.perf_counter()
        seeds = make_seeds(base / "seeds", 10 if quick else 20, 40)
        click.echo(f"scale: {len(seeds)} distinct Medici games played by bots to decision 40 "
                   f"({time.perf_counter() - t0:.1f} s)")
        small = build(base / "small", small_games, small_games, seeds)
        large = build(base / "large", games, commits, seeds)
        for b in (small, large):
            parts = ", ".join(f"{k} {v:.1f} s" for k, v in b.parts.items())
            click.echo(f"  built {len(b.games):,} games, {b.commits:,} commits in {b.seconds:.1f} s ({parts})")
        game_small, game_large = small.games[len(small.games) // 2], large.games[len(large.games) // 2]
        log_before, archive_before = before_graph(large, game_large)
        fs = measure(small, game_small, min(orders, small_games), repeat)
        fl = measure(large, game_large, orders, repeat)
        click.echo(f"  git's commit-graph with changed-path Bloom filters, written once for the whole history: "
                   f"{fs.graph / 1000:.1f} s / {fl.graph / 1000:.1f} s")
        click.echo(f"  {'':<46} {f'{small_games:,} games':>12} {f'{games:,} games':>12}")
        click.echo(f"  {'':<46} {f'{small.commits:,} commits':>12} {f'{large.commits:,} commits':>12}")
        line(f"pbem advance, 1 order in {min(orders, small_games):,} / {orders:,} games",
             f"{fs.advance:.1f} ms/g", f"{fl.advance:.1f} ms/g", ratio(fs.advance, fl.advance, 1.2))
        for label, a, b in (("pbem show GAME", fs.show, fl.show), ("pbem submit (one turn file)", fs.submit, fl.submit),
                            ("git log -- GAME", fs.log, fl.log), ("pbem archive GAME", fs.archive, fl.archive)):
            line(label, f"{a:.0f} ms", f"{b:.0f} ms", ratio(a, b, 1.2))
        line("  without the commit-graph (git log -- GAME)", "", f"{log_before:.0f} ms", "before")
        line("  without the commit-graph (pbem archive GAME)", "", f"{archive_before:.0f} ms", "before")
        line("pbem status, every game", f"{fs.status:.0f} ms", f"{fl.status:.0f} ms",
             f"goal <= 2000 ms at {games:,}  {'met' if fl.status <= 2000 else 'NOT MET'}")
        click.echo(f"  pbem advance --shard 1/2: {shard_check(large, 20)}")
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    scale("--quick" in sys.argv)
