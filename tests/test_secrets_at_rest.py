"""A running game's secrets stay out of git, and every file pbem writes with a secret or a player's
mail is its owner's alone.

The games dir may be pushed to a public remote at any time: a clone made mid-game holds no seed, no
hidden card, no hand, no report and no token hash, and no word of it replays the game; once the game
is over, git gets everything, the seed with it. A games dir of an older pbem is changed over by its
first command that writes. Files: 0600, in folders of 0700.
"""

from __future__ import annotations

import copy
import json
import os
import stat
import subprocess
from pathlib import Path
from typing import Any, Iterator

import pytest

from conftest import Pbem
from conftest_mail import FilesOut, MaildirDrop, MailGames, MboxDrop, address, player_mail
from helpers import bot_move, git, send_turn
from pbem import bots
from pbem.game import new_game
from pbem.store import GamesDir, dump_yaml
from pbem.store.seen import digest
from rooms import GAMES, QUICK, need
from test_archive import TABLES, play, start

SEED = "a-long-secret-seed-0123456789"


@pytest.fixture
def umask() -> Iterator[None]:
    """The umask most systems give (files 0644, folders 0755 unless pbem says otherwise)."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def objects(repo: Path) -> bytes:
    """Every object git holds in `repo`, its content, one after the other."""
    return subprocess.run(["git", "cat-file", "--batch-all-objects", "--batch"], cwd=repo, capture_output=True,
                          check=True).stdout


def paths_ever(repo: Path) -> set[str]:
    """Every path any commit of `repo` touched."""
    out = git(repo, "log", "--all", "--name-only", "--format=")
    return {line for line in out.splitlines() if line}


def clone(games: Path, to: Path) -> Path:
    subprocess.run(["git", "clone", "-q", str(games), str(to)], check=True)
    return to


def mid_game(gd: GamesDir, game: str, orders: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A game the bots played `orders` orders of: (as it began, as it is)."""
    state, _ = start(gd, game, f"{SEED}-{game}")
    began = copy.deepcopy(state)
    return began, play(gd, state, orders=orders, commit_every=3)


@pytest.mark.parametrize("game", GAMES)
def test_a_clone_made_mid_game_tells_nothing_hidden(game: str, tmp_path: Path) -> None:
    gd = GamesDir(tmp_path / "games", create=True)
    began, state = mid_game(gd, game, need(game, "MID_GAME"))
    assert state["status"] == "active"
    copy = clone(gd.root, tmp_path / "clone")
    everything = objects(copy)
    # what git has of the game: its public file alone
    assert paths_ever(copy) == {".gitignore", f"{game}/public.yaml"}
    assert state["seed_sha256"].encode() in everything  # the commitment, published from the start
    secrets = [state["seed"], *(p["token_sha256"] for p in state["players"])]
    if need(game, "HIDES"):  # a game that hides nothing but its seed shows its whole engine in its public file
        secrets += [dump_yaml(state["engine"]), *(dump_yaml(v) for v in state["engine"].values()
                                                  if isinstance(v, (list, dict)) and len(dump_yaml(v)) > 40)]
    private = [e for e in state["events"] if "to" in e]
    secrets += [dump_yaml(e) for e in private]
    assert private or not need(game, "PRIVATE_EVENTS")  # (events to one player: plan cards, hands)
    for secret in secrets:
        assert secret.encode() not in everything, secret[:200]
    if not need(game, "RANDOM_START"):
        return  # its start is the same whatever the seed: no replay can tell a word of the clone from it
    # no word of the clone is the seed: replayed from each, the game's chance comes out otherwise
    ruleset, names, options = TABLES[game]
    players = [(n, f"{n}@example.org") for n in names]
    scratch = GamesDir(tmp_path / "scratch", create=True)
    started, _ = new_game(scratch, ruleset, game, players, options, state["seed"])
    assert started["engine"] == began["engine"]  # the real seed does set it up again: the check can tell
    words = set(everything.decode("utf-8", "replace").split())
    assert len(words) > 50
    for word in words:
        tried, _ = new_game(scratch, ruleset, game, players, options, word)
        assert tried["engine"] != began["engine"], word


def test_verify_of_a_running_game_needs_the_gms_files(tmp_path: Path) -> None:
    """`pbem verify` replays a running game where its files are (the GM's games dir); a clone has none."""
    gd = GamesDir(tmp_path / "games", create=True)
    mid_game(gd, "medici", 6)
    r = Pbem(gd.root)("verify", "medici")
    assert r.exit_code == 0, r.output
    copy = clone(gd.root, tmp_path / "clone")
    r = Pbem(copy)("verify", "medici")
    assert r.exit_code == 1
    assert r.stderr == (f"Error: medici: the state file {copy.resolve()}/medici/state.yaml is missing; while a game "
                        f"runs git does not hold it (its seed and what is hidden stay out of git): restore it from a "
                        f"backup of the games dir\n")


@pytest.mark.parametrize("game", GAMES)
def test_once_the_game_is_over_git_holds_all_its_files_and_the_seed(tmp_path: Path, game: str) -> None:
    gd = GamesDir(tmp_path / "games", create=True)
    state, _ = start(gd, game, SEED)
    state = play(gd, state, commit_every=7)
    assert state["status"] == "finished"
    copy = clone(gd.root, tmp_path / "clone")
    folder = gd.root / game
    on_disk = sorted(str(p.relative_to(gd.root)) for p in folder.rglob("*") if p.is_file())
    assert sorted(git(copy, "ls-files", game).split()) == on_disk
    assert SEED in (copy / game / "state.yaml").read_text()
    # nothing left out but who sat there: the seats' addresses and token hashes stay on the GM's machine
    assert git(gd.root, "status", "--porcelain", "--untracked-files=all", "--ignored") == f"!! mail/seats/{game}.json\n"
    everything = objects(copy)
    for p in state["players"]:
        assert p["email"].encode() not in everything and p["token_sha256"].encode() not in everything
    assert gd.load(game)["players"] == state["players"]  # pbem on the GM's machine reads them back
    # the finished game verifies from the clone alone, and the archive has its record
    r = Pbem(copy)("verify", game)
    assert r.exit_code == 0, r.output
    out = tmp_path / "site"
    r = Pbem(copy)("archive", "--out", str(out))
    assert r.exit_code == 0, r.output
    r = Pbem(copy)("verify", "--log", str(out / game / "game.yaml"))
    assert r.exit_code == 0, r.output


def test_a_game_played_by_mail_to_its_end_reveals_its_seed_in_its_last_commit(pbem: Pbem, tmp_path: Path) -> None:
    """Through `pbem new`, `submit` and `advance`: every commit before the end holds the public file
    alone; the run that ends the game commits every file, the seed in the state file. (The first 12
    decisions and the last are turn files; the bots play those between, saved as a run saves, and
    the next run commits them.)"""
    r = pbem("new", QUICK, "m1", "--player", "anna=anna@example.org", "--player", "ben=ben@example.org",
             "--seed", SEED, "--json")
    assert r.exit_code == 0, r.output
    tokens = {p["name"]: p["token"] for p in json.loads(r.stdout)["players"]}
    turns = 0
    while True:
        shown = pbem.show("m1")
        if shown["status"] == "finished":
            break
        player = shown["waiting_for"][0]
        seen = pbem.show("m1", player)
        order = bots.choose(QUICK, seen["view"], player, seen["legal_orders"])
        send_turn(pbem, tmp_path / "turn.yaml", "m1", player, tokens[player], seen["turn"], [order])
        turns += 1
        if turns == 3:  # mid-game: neither the seed nor a word of any report is in git
            everything = objects(pbem.games)
            assert SEED.encode() not in everything
            reports = [p.read_bytes() for p in (pbem.games / "m1" / "reports").rglob("*.txt")]
            assert len(reports) >= 4 and not any(text in everything for text in reports)
        if turns == 12:  # the bots play on to the last decision; the next run commits what they played
            gd = GamesDir(pbem.games)
            ahead = gd.load("m1")
            while (after := bot_move(ahead))["status"] == "active":
                ahead = after
            gd.save("m1", ahead)
            assert pbem("advance").exit_code == 0
    log = git(pbem.games, "log", "--format=%H", "--", "m1").split()
    last, before = log[0], log[1:]
    for sha in before:
        assert git(pbem.games, "show", "--name-only", "--format=", sha).split() == ["m1/public.yaml"]
    assert "m1/state.yaml" in git(pbem.games, "show", "--name-only", "--format=", last).split()
    assert SEED in git(pbem.games, "show", f"{last}:m1/state.yaml")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_files_with_secrets_or_mail_are_the_owners_alone(pbem: Pbem, umask: None) -> None:
    """With an mbox inbox and .eml files out, after a run that read a player's mail: pbem's folders
    are 0700 and its files 0600 (the parsed-state cache, the read mail, the state, history and reports,
    the outbox, the secrets, the ids read)."""
    g = MailGames(pbem, MboxDrop(pbem.games), FilesOut(pbem.games))
    tokens = g.new()
    player, turn = g.mover()
    g.inbox.deliver(player_mail(address(player), f"----- pbem orders begin -----\ntoken: {tokens[player]}\n"
                                                 f"turn: {turn}\ndraw\n----- pbem orders end -----\n"))
    idle = next(p for p in tokens if p != player)  # orders out of his turn: refused, kept in rejected/
    GamesDir(g.root).enqueue("m1", {"player": idle, "turn": turn, "orders": ["pass"],
                                    "received": "2026-11-21T12:00:00Z", "source": "file"})
    g.advance()
    root = g.root
    assert (root / "mail" / "read.mbox").is_file() and list((root / "m1" / "rejected").iterdir())
    folders = [root / "mail", root / "mail" / "outbox", root / "mail" / "sent", root / "mail" / "outgoing",
               root / ".git" / "pbem-parsed", root / "m1", root / "m1" / "reports", root / "m1" / "rejected",
               *[p for p in (root / "m1" / "reports").iterdir()]]
    files = [root / "mail" / "read.mbox", root / "mail" / "reply-key.secret", root / "mail" / "seen.log",
             *(root / ".git" / "pbem-parsed").iterdir(), *(root / "m1").glob("*.yaml"),
             *(root / "m1" / "reports").rglob("*.txt"), *(root / "mail" / "outbox").iterdir(),
             *(root / "m1" / "rejected").iterdir()]
    assert len(files) > 10
    for folder in folders:
        assert mode(folder) == 0o700, folder
    for file in files:
        assert mode(file) == 0o600, file


OLD_GITIGNORE = ".pbem.lock\n*/queue/\n.*.tmp\nmail/*\n!mail/seen.txt\n"


def test_a_games_dir_of_an_older_pbem_is_changed_over_at_its_first_run(pbem: Pbem, umask: None) -> None:
    """The running game's files leave git's index (its history keeps them), the Message-IDs read
    leave git for mail/seen.log (a mail read before is still known), a finished game stays in git,
    the files with secrets become the owner's alone; once."""
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    g.new()
    root = g.root
    gd = GamesDir(root)
    over, _ = start(gd, QUICK, SEED)
    play(gd, over, commit_every=50)
    # what an older pbem left: everything of a game in git, the ids read in mail/seen.txt, 0644 files
    (root / ".gitignore").write_text(OLD_GITIGNORE)
    (root / "mail" / "seen.txt").write_text("<old-1@players.test>\n<old-2@players.test>\n")
    git(root, "add", "-f", "m1/state.yaml", "m1/events.yaml", "m1/log.yaml", "m1/reports", "mail/seen.txt",
        ".gitignore")
    git(root, "rm", "-q", "--cached", "m1/public.yaml", f"{QUICK}/public.yaml")
    (root / "m1" / "public.yaml").unlink()
    (root / QUICK / "public.yaml").unlink()
    git(root, "commit", "-q", "-m", "as an older pbem left it")
    for path in [root / "m1" / "state.yaml", *(root / ".git" / "pbem-parsed").iterdir()]:
        path.chmod(0o644)
    for path in (root / "mail", root / ".git" / "pbem-parsed", root / "m1"):
        path.chmod(0o755)
    assert g.state()["seed"] in git(root, "show", "HEAD:m1/state.yaml")

    g.inbox.deliver(player_mail(address("anna"), "again\n", message_id="<old-1@players.test>"))
    r = g.advance()
    assert "mail <old-1@players.test>: read before; taken out of the inbox" in r.output
    assert r.stderr == ("Warning: the running games' seeds, hidden state, history and reports are kept out of git "
                        "from now on (the history made before still holds them)\n")
    tree = git(root, "ls-tree", "-r", "--name-only", "HEAD").split()
    assert [p for p in tree if p.startswith("m1/")] == ["m1/public.yaml"]
    assert "mail/seen.txt" not in tree and not (root / "mail" / "seen.txt").exists()
    assert {f"{QUICK}/state.yaml", f"{QUICK}/public.yaml"} <= set(tree)  # its seed is public already
    assert git(root, "log", "--format=%s", "--", "m1/state.yaml").splitlines()[0] == \
        "pbem: the running games' seeds, hidden state, history and reports leave git"
    assert git(root, "show", "HEAD~1:m1/state.yaml")  # the history before keeps what it had
    assert (root / "mail" / "seen.log").read_text().count("\n") == 2  # the two of seen.txt
    assert digest("<old-2@players.test>") in (root / "mail" / "seen.log").read_text()
    gitignore = (root / ".gitignore").read_text()
    assert "!mail/seen.txt" not in gitignore and "/*/state.yaml\n" in gitignore
    assert git(root, "status", "--porcelain", "--", "m1", QUICK, "mail", ".gitignore") == ""
    assert mode(root / "mail") == mode(root / "m1") == mode(root / ".git" / "pbem-parsed") == 0o700
    assert mode(root / "m1" / "state.yaml") == 0o600
    assert all(mode(p) == 0o600 for p in (root / ".git" / "pbem-parsed").iterdir())
    assert Pbem(root)("verify", "m1").exit_code == 0
    # once: the next run changes nothing over again
    head = git(root, "rev-parse", "HEAD")
    r = g.advance()
    assert r.stderr == "" and git(root, "rev-parse", "HEAD") == head
