"""The lobby attacked through `pbem advance` over a Maildir inbox: a forged From: alone mails nobody
else and changes no seat; the day's limits hold whatever is withdrawn; a challenge with one bad
address is refused whole; nothing from a mail reaches the console, git or a file unescaped; no path
of the host, no token in a subject, no 150 KB address in a commit.
"""

from __future__ import annotations

import re
import time
from datetime import datetime, timezone
from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import FilesOut, MaildirDrop, MailGames, address, player_mail
from pbem import lobby

VICTIMS = [f"v{n}@victim.test" for n in range(1, 6)]


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    games = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    games.new("m0")
    games.outbox.skip()
    return games


def to(msg: Any) -> str:
    return msg["To"].addresses[0].addr_spec


def run(g: MailGames, *mails: bytes) -> tuple[list[str], list[Any], Any]:
    for raw in mails:
        g.inbox.deliver(raw)
    r = g.advance()
    lines = [line for line in r.output.splitlines() if "mail from " in line]
    return lines, g.outbox.new(), r


def forged(sender: str, body: str) -> bytes:
    """A fresh mail with a forged From: (no key, no token: anyone can write it)."""
    return player_mail(sender, body, subject="hello")


def reply(msg: Any, sender: str, body: str, **kw: Any) -> bytes:
    return player_mail(sender, body, subject=f"Re: {msg['Subject']}", in_reply_to=str(msg["Message-ID"]), **kw)


def opened(g: MailGames, seats: int = 3) -> None:
    assert g.pbem("open", "medici", "g1", "--seats", str(seats)).exit_code == 0


# -- a forged From: mails nobody else ------------------------------------------------------------------

def test_lb3_a_forged_challenge_in_a_players_name_invites_nobody(g: MailGames) -> None:
    """LB3: `new medici with v1..v5` From a player's address, no key: no invitation, no entry; the
    player's address gets one answer saying how to send it."""
    lines, sent, _ = run(g, forged("anna@players.test", f"new medici with {', '.join(VICTIMS)}"))
    assert [to(m) for m in sent] == ["anna@players.test"]
    assert lobby.entries(g.gd) == []
    assert lines[0].startswith("mail from anna@players.test: refused 'new': 'new medici with v1@victim.test")
    assert "counts only in a reply to a mail pbem sent you" in lines[0]


def test_lb4_lb9_forged_challenges_and_withdrawals_in_three_names_mail_no_stranger(g: MailGames) -> None:
    """LB4, LB9: new, withdraw, new again, from three players' forged addresses, in one run: no
    stranger gets a mail, and each forged address at most one."""
    mails = []
    for player in ("anna", "ben", "cleo"):
        for n in range(3):
            mails.append(forged(address(player), f"new medici with x{n}{player}@victim.test, y{n}{player}@victim.test"))
            mails.append(forged(address(player), "withdraw medici-1"))
    lines, sent, _ = run(g, *mails)
    assert sorted(to(m) for m in sent) == [address(p) for p in ("anna", "ben", "cleo")]
    assert lobby.entries(g.gd) == []


def test_lb5_a_forged_leave_unseats_nobody(g: MailGames) -> None:
    """LB5: a seated player's seat in an open game stays when a forged `leave` comes From him."""
    opened(g)
    first, sent, _ = run(g, forged("una@far.test", "join g1"))
    confirm = sent[0]
    lines, _, _ = run(g, reply(confirm, "una@far.test", "join g1"))
    assert lines == ["g1: mail from una@far.test: g1: joined as una"]
    lines, sent, _ = run(g, forged("una@far.test", "leave g1"))
    assert "refused 'leave'" in lines[0]
    assert [s["email"] for s in lobby.load(g.gd, "g1")["seated"]] == ["una@far.test"]


def test_lb5b_a_forged_leave_does_not_unseat_an_invitee_who_accepted(g: MailGames) -> None:
    report = g.last_report("anna")
    _, sent, _ = run(g, reply(report, "anna@players.test", "new medici with dan@x.test, eve@x.test"))
    invitation = next(m for m in sent if to(m) == "dan@x.test")
    run(g, reply(invitation, "dan@x.test", "accept"))
    lines, _, _ = run(g, forged("dan@x.test", "leave medici-1"))
    assert "refused 'leave'" in lines[0]
    assert "dan@x.test" in [s["email"] for s in lobby.load(g.gd, "medici-1")["seated"]]


def test_lb1_lb2_a_forged_join_seats_nobody_and_its_address_hears_once(g: MailGames) -> None:
    """LB1, LB2: a join in a stranger's name takes no seat (no squatting with fake players); the
    address is asked once to confirm by a reply; a second forged join that day gets no mail."""
    opened(g)
    lines, sent, _ = run(g, forged("victim@far.test", "join g1"))
    assert lines == ["g1: mail from victim@far.test: g1: asked to confirm 'join g1' by a reply"]
    assert [to(m) for m in sent] == ["victim@far.test"]
    body = " ".join(sent[0].get_body(("plain",)).get_content().split())
    assert "to take a seat in game g1, reply to this mail with 'join g1'" in body
    assert lobby.load(g.gd, "g1")["seated"] == []
    lines, sent, _ = run(g, forged("victim@far.test", "join g1"), forged("victim@far.test", "leave g1"))
    assert sent == [] and lobby.load(g.gd, "g1")["seated"] == []


def test_lb7b_join_and_leave_cycled_in_a_strangers_name_mail_him_once_a_day(g: MailGames) -> None:
    """LB7b: join/leave, over and over in two runs of one day: one mail to the stranger in all."""
    opened(g)
    told = 0
    for _ in range(2):
        mails = [forged("victim@far.test", word) for _ in range(3) for word in ("join g1", "leave g1")]
        told += len(run(g, *mails)[1])
    assert told == 1


def test_r8_backscatter_to_forged_strangers_is_bounded_for_the_whole_host(pbem: Pbem) -> None:
    """R8: mails from 8 forged stranger addresses: with `lobby.strangers_per_day: 5`, 5 answers."""
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games), lobby={"strangers_per_day": 5})
    g.new("m0")
    g.outbox.skip()
    _, sent, _ = run(g, *(forged(f"s{n}@forged.test", "hello?") for n in range(8)))
    assert len(sent) == 5


# -- a proven player's limits ---------------------------------------------------------------------------

def test_rm1_rematch_and_withdraw_cannot_invite_one_opponent_without_end(g: MailGames) -> None:
    """RM1: a real player's challenge, withdrawn, made again, and again: the same address is invited
    at most `lobby.invitations` (3) times a day; withdrawing re-arms nothing."""
    report = g.last_report("anna")
    invited = 0
    for n in range(4):
        _, sent, _ = run(g, reply(report, "anna@players.test", "new medici with opp@x.test, other@x.test"))
        invited += sum(1 for m in sent if to(m) == "opp@x.test")
        ours = [e["game"] for e in lobby.entries(g.gd)]
        if ours:
            run(g, reply(report, "anna@players.test", f"withdraw {ours[0]}"))
    assert invited == 3
    lines, _, _ = run(g, reply(report, "anna@players.test", "new medici with opp@x.test, other@x.test"))
    assert lines == ["m0: mail from anna@players.test: refused 'new': you have invited opp@x.test 3 times today, the "
                     "most this host allows; you can invite that address again tomorrow"]


def test_lb11_a_host_bound_on_invitations_to_strangers_whatever_the_senders(pbem: Pbem) -> None:
    """LB11: with `create: anyone`, challengers together may mail at most `strangers_per_day` new
    addresses a day."""
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games),
                  lobby={"create": "anyone", "strangers_per_day": 5})
    g.new("m0")
    g.outbox.skip()
    mailed = set()
    for n, player in enumerate(("anna", "ben", "cleo")):
        report = g.last_report(player)
        _, sent, _ = run(g, reply(report, address(player), f"new medici with a{n}@new.test, b{n}@new.test"))
        mailed |= {to(m) for m in sent if to(m).endswith("@new.test")}
    assert len(mailed) == 4
    assert len([e for e in lobby.entries(g.gd)]) == 2


def test_lb12_an_invitation_shows_addresses_only(g: MailGames) -> None:
    """LB12: the challenger's display name (attacker text) appears in no invitation."""
    report = g.last_report("anna")
    _, sent, _ = run(g, reply(report, "anna@players.test", "new medici with dan@x.test, eve@x.test",
                              sender_name="Bank Alert call 555"))
    invitation = next(m for m in sent if to(m) == "dan@x.test")
    assert "Bank Alert" not in invitation.as_string()
    assert "anna@players.test invites you" in " ".join(invitation.get_body(("plain",)).get_content().split())


# -- addresses, escapes, paths ----------------------------------------------------------------------------

@pytest.mark.parametrize("bad", ['a"b@x.org', "a\x1b[2Jb@x.org", "a\u202eb@x.org", "x" * 300 + "@x.org"])
def test_lb13_j7_la2_j5_a_bad_address_refuses_the_whole_challenge(g: MailGames, bad: str) -> None:
    """LB13, J7, LA2, J5: a challenge naming one address no mail can go to is refused whole, naming
    it (its control characters written out); nothing is saved or committed; the good invitee gets no
    mail and can be invited at once."""
    report = g.last_report("anna")
    commits = g.git("rev-list", "--count", "HEAD")
    lines, sent, r = run(g, reply(report, "anna@players.test", f"new medici with real@x.test, {bad}"))
    assert [to(m) for m in sent] == ["anna@players.test"]
    assert lobby.entries(g.gd) == []
    assert "is not an email address pbem can write to; nothing was sent" in lines[0]
    assert "\x1b" not in r.output and "\u202e" not in r.output
    assert "\x1b" not in g.git("log", "--format=%B") and "\u202e" not in g.git("log", "--format=%B")
    assert g.git("rev-list", "--count", "HEAD") == commits  # nothing committed (the mail read is not in git)
    lines, sent, _ = run(g, reply(report, "anna@players.test", "new medici with real@x.test, dan@x.test"))
    assert sorted(to(m) for m in sent) == ["anna@players.test", "dan@x.test", "real@x.test"]


def test_j5_control_characters_from_a_mail_are_shown_written_out(g: MailGames) -> None:
    """J5: an ESC and a U+202E in what a mail sends reach the console and git only written out."""
    raw = player_mail("anna@players.test", "new medici with a\x1b[41m@x.test", subject="x\u202ey")
    lines, _, r = run(g, raw)
    assert "\x1b" not in r.output and "\u202e" not in r.output
    assert "\\x1b" in r.output
    assert "\x1b" not in g.git("log", "--format=%B")


def test_s7_a_lobby_refusal_names_no_path_of_the_host(g: MailGames) -> None:
    """S7: a challenge of a game id in use is refused without the games dir's path."""
    report = g.last_report("anna")
    _, sent, _ = run(g, reply(report, "anna@players.test", "new medici m0 with dan@x.test, eve@x.test"))
    text = sent[0].as_string()
    assert str(g.root) not in text and str(g.root.resolve()) not in text
    assert "game 'm0' already exists" in " ".join(sent[0].get_body(("plain",)).get_content().split())


def test_s4_a_token_typed_into_a_keyed_replys_subject_is_not_echoed(g: MailGames) -> None:
    player = g.mover("m0")[0]
    report = g.last_report(player)
    token = g.tokens[player]
    _, sent, _ = run(g, reply(report, address(player), "status", ))
    raw = player_mail(address(player), "status", subject=f"Re: my token {token}", in_reply_to=str(report["Message-ID"]))
    _, sent, _ = run(g, raw)
    assert sent and all(token[:8] not in str(m["Subject"]) for m in sent)
    assert all(token[:8] not in m.as_string() for m in sent)


def test_la1_a_100_kb_from_address_is_set_aside_and_the_run_succeeds(g: MailGames) -> None:
    """LA1: a join From a 100 KB address: set aside, the run ends well, the line shows a cut address."""
    opened(g)
    huge = "x" * 100_000 + "@far.test"  # (its mail within the size a mail may have)
    lines, sent, r = run(g, forged(huge, "join g1"))
    assert r.exit_code == 0
    assert sent == [] and lobby.load(g.gd, "g1")["seated"] == []
    assert any("set aside: its sender's address is 100009 characters long" in line for line in lines), r.output[:3000]
    assert all(len(line) < 400 for line in r.output.splitlines())


def test_r11_games_with_750_open_challenges_is_fast(g: MailGames) -> None:
    """R11: 750 entries in the lobby: a player's `games` is answered in well under a second and a half
    (the entries are read through an index, not parsed anew for each mail)."""
    at = datetime(2026, 11, 21, tzinfo=timezone.utc)
    for n in range(750):
        entry = lobby.open_game(g.gd, "medici", f"o{n}", 3, {}, None, at)
        lobby.save(g.gd, entry)
    g.git("add", "lobby")
    g.git("commit", "-qm", "750 open games")
    report = g.last_report("anna")
    run(g, reply(report, "anna@players.test", "games"))  # the first run builds the index
    start = time.perf_counter()
    lines, sent, _ = run(g, reply(report, "anna@players.test", "games"))
    took = time.perf_counter() - start
    assert lines == ["m0: mail from anna@players.test: answered with the player's games (1)"]
    assert took < 3.0, took
    print(f"a run answering 'games' with 750 open games: {took:.2f} s")
    assert "o749" in sent[0].get_body(("plain",)).get_content()


def test_lb4_withdraw_gives_back_no_limit_of_the_day(g: MailGames) -> None:
    """LB4: a player's challenges, each withdrawn at once, to new addresses each time: the day allows
    twice `lobby.invitations` (6) challenges, withdrawn ones counted; the seventh is refused."""
    report = g.last_report("anna")
    made = 0
    for n in range(8):
        lines, sent, _ = run(g, reply(report, "anna@players.test", f"new medici with p{n}@x.test, q{n}@x.test"))
        if any("challenged" in line for line in lines):
            made += 1
            run(g, reply(report, "anna@players.test", f"withdraw {lobby.entries(g.gd)[0]['game']}"))
        last = lines
    assert made == 6
    assert last == ["m0: mail from anna@players.test: refused 'new': you have made 6 challenges today, the most this "
                    "host allows in a day (withdrawn ones count too); try again tomorrow"]


def test_j5_pbem_status_shows_a_lobby_entrys_control_characters_written_out(g: MailGames) -> None:
    """J5: an entry written before addresses were checked (or by hand), with ESC and U+202E in an
    invitee's address (kept out of git, in mail/lobby/): `pbem status` writes them out."""
    report = g.last_report("anna")
    run(g, reply(report, "anna@players.test", "new medici with dan@x.test, eve@x.test"))
    path = g.root / "mail" / "lobby" / "medici-1.json"
    path.write_text(path.read_text("utf-8").replace("dan@x.test", "d\\u001b[2Jan\\u202e@x.test"), "utf-8")
    r = g.pbem("status")
    assert r.exit_code == 0, r.output
    assert "\x1b" not in r.output and "\u202e" not in r.output
    assert "d\\x1b[2Jan\\u202e@x.test" in r.output
