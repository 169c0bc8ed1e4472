"""What git holds of a game while it runs: only what every player may know.

A running game's state file holds its seed and what chance has set but not shown (the order of a
deck or bag, a player's hand); its events, order log, reports and refused orders hold what one player
alone saw or sent. All of these stay in the game's folder, kept out of git (the games dir's
.gitignore names them, and every one is readable by its owner alone), and git holds `public.yaml`
instead: the game, its players, its turn and status, how much history there is and the seed's
commitment. So the games dir may be pushed to a public remote at any time and tells no one what is
still hidden. When the game is over the seed is revealed, and the next commit takes every file of
the game into git (state, history, reports), as the final report shows them to every player; but
not who sat there: the state file of a finished game holds its seats by name, their addresses and
token hashes kept under mail/ (see pbem.store.seats), and no report file holds table talk.

A games dir of an older pbem, where every file of a game was in git, is changed over by the first
command that writes (`change_over`): the running games' private files leave git's index (the history
made before keeps them: a GM who published that history has published their seeds), the Message-IDs
read move out of git (see pbem.store.seen), and the files and folders that hold secrets or players'
mail become their owner's alone.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from pbem import digests
from pbem.patterns import Pattern
from pbem.store.files import _SafeLoader, dump_yaml, make_private, write_atomic
from pbem.store.statefile import CHECKSUM, STATE_FILE

if TYPE_CHECKING:
    from pbem.store.gamesdir import GamesDir

PUBLIC_FILE = "public.yaml"
# the parts of a game folder that stay out of git while the game runs (queue/ never enters it)
PRIVATE_PARTS = (STATE_FILE, "events.yaml", "log.yaml", "reports", "rejected")
# the games dir's .gitignore lines for them; a lobby file (lobby/GAME.yaml) is never one of them
PRIVATE_IGNORED = "".join(f"/*/{part}{'/' if '.' not in part else ''}\n" for part in PRIVATE_PARTS) \
    + "!/lobby/*.yaml\n"
OLD_SEEN_LINE = "!mail/seen.txt"
TEMP_FILE = Pattern(r"^\..+\.tmp\Z")
HEADER = ("# What every player may know of this game. Its state (the seed, what is still hidden), history\n"
          "# and reports stay out of git until the game is over; then git gets them all.\n")


def stamp_of(text: str) -> str:
    """What names a state file's very text: its checksum line, else (edited by hand) its SHA-256."""
    last = text.rstrip("\n").rpartition("\n")[2]
    return last[len(CHECKSUM):] if last.startswith(CHECKSUM) else digests.sha256(text.encode("utf-8")).hexdigest()


def public_text(state: dict[str, Any], recorded: dict[str, list[int]], stamp: str) -> str:
    """The public file of a game whose state file (named by `stamp`) records `recorded` history."""
    players = [p["name"] for p in state["players"]]
    body = {"game": state["game"], "ruleset": state["ruleset"], "options": state.get("options", {}),
            "status": state["status"], "created": state.get("created"), "players": players,
            "turn": state["engine"].get("turn", 1), "seed_sha256": state["seed_sha256"],
            "history": {key: count for key, (count, _) in recorded.items()}, "state": stamp}
    return HEADER + dump_yaml(body)


def read_public(text: str) -> dict[str, Any] | None:
    """A public file's content, or None when it cannot be read as one."""
    try:
        value = yaml.load(text, Loader=_SafeLoader)
    except yaml.YAMLError:
        return None
    return value if isinstance(value, dict) and isinstance(value.get("history"), dict) else None


def is_private(path: str) -> bool:
    """Whether a path (relative to the games dir, in a game's folder) stays out of git while the game runs."""
    parts = path.split("/")
    return len(parts) > 1 and parts[1] in PRIVATE_PARTS


def game_files(root: Path, game: str) -> list[str]:
    """Every file of a game's folder that git takes once the game is over (not its queue, nor the
    temporary files of a write)."""
    out = []
    folder = root / game
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not (Path(here) == folder and d == "queue"))
        out += [str(Path(here, name).relative_to(root)) for name in sorted(files) if not TEMP_FILE.match(name)]
    return out


def private_ignored(gitignore: str) -> bool:
    """Whether a games dir's .gitignore keeps the running games' private files out of git."""
    lines = gitignore.splitlines()
    return all(line in lines for line in PRIVATE_IGNORED.splitlines())


def change_over(gd: GamesDir) -> list[str]:
    """Bring a games dir of an older pbem to this layout (see the module's text); returns what it did,
    for the GM. Called under pbem's lock by every command that writes; costs one read of .gitignore
    where there is nothing to do."""
    path = gd.root / ".gitignore"
    try:
        old = path.read_text("utf-8")
    except OSError:
        return []
    if private_ignored(old) or not (gd.root / ".git").is_dir():
        return []
    from pbem.store.seen import take_over_old_list

    kept = [line for line in old.splitlines() if line != OLD_SEEN_LINE]
    write_atomic(path, "".join(f"{line}\n" for line in kept) + PRIVATE_IGNORED)
    paths = [".gitignore"]
    from datetime import date

    from pbem.clock import now

    if take_over_old_list(gd.root, date.fromisoformat(now()[:10])):
        paths.append("mail/seen.txt")
    private = []
    for game in gd.games():
        try:
            state = gd.load(game)
        except Exception:  # a game that cannot be read needs the GM first; its files stay as they are
            continue
        secure_game(gd.root, game)
        gd.write_public(game, state)
        paths.append(game)
        if state["status"] != "finished":  # a finished game's files stay in git: its seed is revealed
            private += [f"{game}/{part}" for part in PRIVATE_PARTS]
    secure_mail(gd.root)
    if (gd.root / ".git" / "pbem-parsed").is_dir():
        secure_tree(gd.root / ".git" / "pbem-parsed")
    if private:
        gd.untrack(private)
    gd.commit_staged(paths, "pbem: the running games' seeds, hidden state, history and reports leave git\n\n"
                           "While a game runs, git holds only its public.yaml: what every player may know.\n"
                           "Its other files stay in its folder, out of git, until the game is over.\n"
                           "The Message-IDs read are kept in mail/seen.log, out of git.\n"
                           "The history before this commit still holds what it held.\n")
    return ["the running games' seeds, hidden state, history and reports are kept out of git from now on "
            "(the history made before still holds them)"] * bool(private)


def secure_game(root: Path, game: str) -> None:
    """A game's folder and what it holds: its owner's alone."""
    folder = root / game
    if folder.is_dir():
        secure_tree(folder)


MAIL_OWN = ("outgoing", "outbox", "sent", "read", "set-aside", "read.mbox", "set-aside.mbox", "seen.log",
            "reply-key.secret", "seats", "lobby")  # what pbem itself keeps in mail/ (an inbox is the MDA's)


def secure_mail(root: Path) -> None:
    """mail/ and pbem's own files in it: their owner's alone (an inbox delivered there keeps its modes,
    behind the folder's)."""
    mail = root / "mail"
    if not mail.is_dir():
        return
    make_private(mail)
    for name in MAIL_OWN:
        part = mail / name
        if part.is_dir() and not part.is_symlink():
            secure_tree(part)
        elif part.is_file() and not part.is_symlink():
            with contextlib.suppress(OSError):
                os.chmod(part, 0o600)


def secure_tree(folder: Path) -> None:
    """Every folder under `folder` 0700 and every file 0600 (its owner's alone)."""
    make_private(folder)
    for here, dirs, files in os.walk(folder):
        for name in dirs:
            with contextlib.suppress(OSError):
                os.chmod(os.path.join(here, name), 0o700)
        for name in files:
            with contextlib.suppress(OSError):
                full = os.path.join(here, name)
                if not os.path.islink(full):
                    os.chmod(full, 0o600)
