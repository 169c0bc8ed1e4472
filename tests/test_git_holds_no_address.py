"""Git holds no address and no secret of anyone: a host's whole life by mail through `pbem advance`
over a Maildir inbox (an open game joined by strangers, an observer, table talk to one player and to
all, a challenge with one invitation declined, one answered `stop` and one never answered, a seat
resigned by `stop`, the game played to its end, a rematch accepted, the challenge lapsed) leaves in no
blob and no commit message of git's history a player's or an invitee's address, a token or its hash,
a reply key, the Message-ID of a mail, the words said to one player, nor a running game's seed. What
needs the addresses (the lobby's answers, the start of a game from it, the lapse) still finds them."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from helpers import git_history
import yaml

from conftest import Pbem
from conftest_mail import FilesOut, MaildirDrop, MailGames, mail_lines, player_mail, to
from pbem import lobby
from pbem.mail.ids import split_key
from pbem.rules.base import order_text

pytestmark = pytest.mark.usefixtures("pictures_unexamined")

UNA, VIC, WIL = "una.tester@far.test", "vic@far.test", "wil@far.test"
XENA, YURI = "xena@strangers.test", "yuri@strangers.test"  # invited, never playing here
ZED = "zed@far.test"
OLGA = "olga@watchers.test"
EVERYONE = (UNA, VIC, WIL, XENA, YURI, ZED, OLGA)
PRIVATE = "the key is under the mat, zq-private-41c7"
PUBLIC = "good luck to the table"



class Host:
    """A games dir run by mail, which remembers every mail it read and sent (for their secrets)."""

    def __init__(self, pbem: Pbem) -> None:
        self.g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
        self.g.write_config()
        (pbem.games / "mail").mkdir()
        self.received: list[bytes] = []
        self.sent: list[Any] = []
        self.latest: dict[str, Any] = {}  # the latest mail pbem sent each address
        self.serial = 0

    def run(self, *mails: bytes) -> tuple[list[str], list[Any]]:
        for raw in mails:
            self.received.append(raw)
            self.g.inbox.deliver(raw)
        r = self.g.advance()
        sent = self.g.outbox.new()
        self.sent += sent
        for m in sent:
            self.latest[to(m)] = m
        return mail_lines(r.output), sent

    def mail(self, sender: str, body: str, reply_to: Any = None) -> bytes:
        """A mail of `sender`'s, a reply to `reply_to` (a mail of pbem's), else a fresh one; its
        Message-ID, as many clients make it, holds the sender's address."""
        self.serial += 1
        mid = f"<{self.serial}.{sender}>"
        if reply_to is None:
            return player_mail(sender, body, subject="hello", message_id=mid)
        refs = str(reply_to.get("References", "")).split() + [str(reply_to["Message-ID"])]
        return player_mail(sender, body, subject=f"Re: {reply_to['Subject']}", in_reply_to=str(reply_to["Message-ID"]),
                           references=refs, message_id=mid)

    def reply(self, sender: str, body: str) -> tuple[list[str], list[Any]]:
        """`sender`'s reply to the latest mail pbem sent him."""
        return self.run(self.mail(sender, body, self.latest[sender]))

    def secrets(self) -> dict[str, str]:
        """Every secret the host's mail carried, by what it is."""
        found = {f"address {a}": a for a in EVERYONE}
        found["the words to one player"] = PRIVATE
        for raw in self.received:
            mid = re.search(rb"^Message-ID: (<[^>]+>)", raw, re.M | re.I)
            assert mid
            found[f"the Message-ID {mid.group(1).decode()}"] = mid.group(1).decode()
        for m in self.sent:
            mid = str(m["Message-ID"])
            found[f"the Message-ID {mid}"] = mid
            _, key = split_key(mid)
            if key:
                found[f"the reply key of {mid}"] = key
            for header in ("Reply-To", "List-Unsubscribe"):
                for key in re.findall(r"\+[a-z]+\.([a-z2-7]{8,})@", str(m.get(header, ""))):
                    found[f"the key in {header} {key}"] = key
            for token in re.findall(r"Your secret token is:\s+(\S+)", m.get_body(("plain",)).get_content()):
                found[f"the token of {to(m)} in {m['Subject']}"] = token
                found[f"the token's hash of {to(m)} in {m['Subject']}"] = hashlib.sha256(token.encode()).hexdigest()
        secret = (self.g.root / "mail" / "reply-key.secret").read_text().strip()
        found["the reply-key secret"] = secret
        return found

    def assert_git_holds_none(self, also: dict[str, str] | None = None) -> None:
        everything = git_history(self.g.root).lower()
        held = [what for what, secret in {**self.secrets(), **(also or {})}.items()
                if secret.lower().encode() in everything]
        assert held == [], held

    def seeds_of_running_games(self) -> dict[str, str]:
        return {f"the seed of {game}, not over": self.g.gd.load(game)["seed"] for game in self.g.gd.games()
                if self.g.gd.load(game)["status"] != "finished"}

    def report(self, game: str, player: str) -> Any:
        """The latest report of `game` to `player`'s seat."""
        return [m for m in self.sent if str(m["Message-ID"]).startswith(f"<pbem.{game}.{player}.")][-1]

    def play(self, game: str, turns: int | None = None) -> None:
        """`game`'s orders, each the mover's reply to the latest mail he got, `turns` of them (None: to
        the end)."""
        addresses = {p["name"]: p["email"] for p in self.g.gd.load(game)["players"]}
        for n in range(500):
            shown = self.g.pbem.show(game)
            if shown["status"] != "active" or n == turns:
                return
            player = shown["waiting_for"][0]
            lines, _ = self.run(self.mail(addresses[player], order_text(self.g.legal_order(player, game)),
                                          self.report(game, player)))
            assert any("queued" in line or "applied" in line for line in lines), lines
        raise AssertionError(f"{game} did not end")


def test_a_hosts_whole_life_by_mail_leaves_no_address_or_secret_in_git(pbem: Pbem,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    host = Host(pbem)
    g = host.g
    r = pbem("open", "medici", "g1", "--seats", "3", "--talk", "private", "--observers", "yes")
    assert r.exit_code == 0, r.output
    # three strangers join: a fresh `join`, confirmed by a reply to its answer
    for address in (UNA, VIC, WIL):
        lines, _ = host.run(host.mail(address, "join g1"))
        assert "asked to confirm" in lines[0], lines
        lines, _ = host.reply(address, "join g1")
        assert f"g1: joined as {address.partition('@')[0].partition('.')[0]}" in lines[0], lines
    assert lines[0].endswith("g1 starts")
    assert sorted(p["email"] for p in g.state("g1")["players"]) == sorted([UNA, VIC, WIL])
    assert not lobby.exists(g.gd, "g1")
    host.assert_git_holds_none(host.seeds_of_running_games())

    # an observer, and talk to one player and to the table
    host.run(host.mail(OLGA, "watch g1"))
    lines, _ = host.reply(OLGA, "watch g1")
    assert lines == [f"mail from {OLGA}: watch g1: watching"]
    lines, sent = host.reply(UNA, f"say to vic: {PRIVATE}\nsay: {PUBLIC}")
    assert "said 2 line(s) of talk" in lines[0], lines
    assert PRIVATE in next(m for m in sent if to(m) == VIC).as_string()
    host.play("g1", 3)

    # una challenges vic and two strangers: xena declines, yuri answers `stop`, vic accepts
    lines, sent = host.reply(UNA, f"new medici with {VIC}, {XENA}, {YURI}")
    assert lines[-1].endswith(f"medici-1: challenged {VIC}, {XENA}, {YURI}"), lines
    entry = lobby.load(g.gd, "medici-1")
    assert entry["by"] == UNA and [i["email"] for i in entry["invited"]] == [VIC, XENA, YURI]
    assert sorted(to(m) for m in sent) == sorted([UNA, VIC, XENA, YURI])
    lines, _ = host.reply(XENA, "decline")
    assert lines == [f"mail from {XENA}: medici-1: {XENA} declined"], lines
    lines, _ = host.reply(YURI, "stop")
    assert lines == [f"mail from {YURI}: stop: never mailed again"], lines
    lines, _ = host.reply(VIC, "accept")
    assert lines == [f"mail from {VIC}: medici-1: {VIC} accepted"], lines
    committed = g.git("show", "HEAD:lobby/medici-1.yaml")
    assert "medici-1" in committed and "@" not in committed
    host.assert_git_holds_none(host.seeds_of_running_games())

    # a challenge withdrawn, a game against bots; in an open game a seat given back and taken again,
    # and the game started by the GM with fewer than its seats
    lines, _ = host.reply(UNA, f"new medici with {VIC}, {ZED}")
    assert lines[-1].endswith(f"medici-2: challenged {VIC}, {ZED}"), lines
    lines, _ = host.reply(UNA, "withdraw medici-2")
    assert lines[-1].endswith("medici-2: challenge withdrawn"), lines
    lines, _ = host.reply(UNA, "new medici with 2 bots")
    assert lines[-1].endswith("the game starts"), lines
    assert g.pbem("open", "medici", "g2", "--seats", "4").exit_code == 0
    host.run(host.mail(ZED, "join g2"))
    lines, _ = host.reply(ZED, "join g2")
    assert lines == [f"mail from {ZED}: g2: joined as zed"], lines
    lines, _ = host.reply(ZED, "leave g2")
    assert lines == [f"mail from {ZED}: g2: zed left"], lines
    for address in (ZED, UNA, VIC):
        host.run(host.mail(address, "join g2"))
        lines, _ = host.reply(address, "join g2")
        assert "g2: joined as" in lines[-1], lines
    r = g.pbem("start", "g2")
    assert r.exit_code == 0, r.output
    host.sent += g.outbox.new()
    assert sorted(p["email"] for p in g.state("g2")["players"]) == sorted([ZED, UNA, VIC])
    host.assert_git_holds_none(host.seeds_of_running_games())

    host.play("g1")
    assert g.state("g1")["status"] == "finished"
    lines, sent = host.run(host.mail(UNA, "rematch", host.report("g1", "una-tester")))
    assert lines[-1].endswith(f"g1-1: challenged {VIC}, {WIL}"), lines
    host.reply(VIC, "accept")
    lines, _ = host.reply(WIL, "accept")
    assert lines[-1].endswith("g1-1 starts"), lines
    host.play("g1-1", 2)
    # wil resigns by `stop`, confirmed by his reply to the question
    host.reply(WIL, "stop")
    lines, _ = host.reply(WIL, "stop")
    assert lines[0].endswith("stop: wil resigned; never mailed again"), lines
    host.play("g1-1", 2)
    assert lobby.exists(g.gd, "medici-1")  # yuri never answered
    monkeypatch.setenv("PBEM_NOW", "2026-11-28T12:00:00+00:00")
    r = g.advance()
    assert f"medici-1: the invitations lapsed (unanswered: {YURI})" in r.output
    told = g.outbox.new()
    host.sent += told
    assert sorted(to(m) for m in told) == sorted([UNA, VIC])
    assert not lobby.exists(g.gd, "medici-1")
    assert lobby.entries(g.gd) == [] and not any((g.root / "mail" / "lobby").iterdir())

    host.assert_git_holds_none(host.seeds_of_running_games())
    tracked = g.git("ls-files").split()
    assert "lobby/never-mail.txt" in tracked and not any(p.startswith("mail/") for p in tracked)


def test_an_entry_an_older_pbem_wrote_with_its_addresses_is_read_and_its_next_write_moves_them_out(
        pbem: Pbem) -> None:
    """A challenge in git as an older pbem wrote it (every address in lobby/GAME.yaml): the host
    reads it as before, the next answer takes the addresses out of the file git holds, and the game
    starts from it with every seat's address."""
    host = Host(pbem)
    g = host.g
    assert pbem("open", "medici", "g1", "--seats", "3").exit_code == 0
    for address in (UNA, VIC, WIL):
        host.run(host.mail(address, "join g1"))
        host.reply(address, "join g1")
    lines, _ = host.run(host.mail(UNA, f"new medici with {XENA}, {YURI}", host.report("g1", "una-tester")))
    assert lines[-1].endswith(f"medici-1: challenged {XENA}, {YURI}"), lines
    path = g.root / "lobby" / "medici-1.yaml"
    kept = g.root / "mail" / "lobby" / "medici-1.json"
    assert kept.stat().st_mode & 0o777 == 0o600 and kept.parent.stat().st_mode & 0o777 == 0o700
    old = lobby.load(g.gd, "medici-1")  # as an older pbem wrote it: addresses in the file, no challenger
    del old["challenger"]
    path.write_text(yaml.safe_dump(old, sort_keys=False), "utf-8")
    kept.unlink()
    g.git("commit", "-q", "-m", "medici-1: as an older pbem wrote it", "--", "lobby/medici-1.yaml")
    assert XENA in g.git("show", "HEAD:lobby/medici-1.yaml")

    r = pbem("status")
    assert f"challenge of {UNA}: waiting for {XENA}, {YURI}" in r.stdout, r.output
    lines, _ = host.reply(XENA, "accept")
    assert lines == [f"mail from {XENA}: medici-1: {XENA} accepted"], lines
    held = g.git("show", "HEAD:lobby/medici-1.yaml")
    assert "@" not in held and "challenger: una-tester" in held
    assert g.git("log", "-1", "--format=%s") == "medici-1: xena accepts the invitation\n"
    assert sorted(json.loads(kept.read_text("utf-8"))["invited"].values()) == [XENA, YURI]
    lines, _ = host.reply(YURI, "accept")
    assert lines[-1].endswith("medici-1 starts"), lines
    assert [(p["name"], p["email"]) for p in g.state("medici-1")["players"]] == \
        [("una-tester", UNA), ("xena", XENA), ("yuri", YURI)]
    assert g.git("log", "-1", "--format=%s") == \
        "medici-1: new medici game for una-tester, xena, yuri (a challenge of una-tester)\n"
    assert not path.exists() and not kept.exists()


def test_an_entry_whose_addresses_are_lost_is_named_and_used_by_nobody(pbem: Pbem) -> None:
    """A clone, or mail/lobby/ lost: the entry in git names no address, so nobody can be written to
    from it; `pbem doctor` names it, and a mail about it is refused as for no entry."""
    host = Host(pbem)
    assert pbem("open", "medici", "g1", "--seats", "3").exit_code == 0
    host.run(host.mail(UNA, "join g1"))
    host.reply(UNA, "join g1")
    (host.g.root / "mail" / "lobby" / "g1.json").unlink()
    r = pbem("doctor")
    assert ("FAIL lobby: lobby/g1.yaml cannot be used: the addresses of its players are not in mail/lobby/g1.json: "
            "nobody in it can be written to (restore mail/lobby/ from a backup, or remove the entry)") \
        in r.stdout.splitlines(), r.output
    assert lobby.entries(host.g.gd) == []
    r = pbem("start", "g1")
    assert (r.exit_code, r.stderr) == (1, "Error: lobby/g1.yaml cannot be used: the addresses of its players are "
                                          "not in mail/lobby/g1.json\n")


def test_a_lobby_file_the_gm_writes_with_addresses_starts_and_git_never_holds_them(pbem: Pbem) -> None:
    """The GM may write an open game's file by hand, addresses in it: `pbem start` seats them, and
    what pbem commits names none of them (what the GM commits himself is his to decide)."""
    host = Host(pbem)
    g = host.g
    assert pbem("open", "medici", "g1", "--seats", "3").exit_code == 0
    entry = yaml.safe_load((g.root / "lobby" / "g1.yaml").read_text("utf-8"))
    entry["seated"] = [{"name": n, "email": a, "joined": "2026-11-21T12:00:00Z"}
                       for n, a in (("una", UNA), ("vic", VIC), ("wil", WIL))]
    (g.root / "lobby" / "g1.yaml").write_text(yaml.safe_dump(entry, sort_keys=False), "utf-8")
    r = pbem("start", "g1")
    assert r.exit_code == 0, r.output
    host.sent += g.outbox.new()
    assert sorted(to(m) for m in host.sent) == sorted([UNA, VIC, WIL])
    assert [p["email"] for p in g.state("g1")["players"]] == [UNA, VIC, WIL]
    host.assert_git_holds_none(host.seeds_of_running_games())
