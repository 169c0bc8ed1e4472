"""Files pbem reads back, damaged (a bad pull, a full disk, a hand that edited them): not UTF-8, JSON or
YAML cut short, values of the wrong type, a line of megabytes. Each goes through the real `pbem
advance` over a Maildir: the run tells the GM, in one warning line, which file was wrong, how, and what
pbem did; and the player's mail is still answered, never set aside."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import FilesOut, MaildirDrop, MailGames, mail_lines, player_mail, to

BAD_BYTES = b"\xff\xfe\x80 not text \xc3\x28\n"


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    from pbem.mended import told

    told()  # what a test read after its run is no part of the next test's run
    games = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    games.new("m1", ["anna", "ben", "cleo"])
    games.outbox.skip()
    return games


def reply(g: MailGames, body: str, player: str = "anna", **kw: Any) -> tuple[Any, list[str], list[Any]]:
    """`body` in a reply of `player` to his welcome mail, read by a run: the run, its mail lines, and
    the mails pbem wrote him."""
    welcome = g.welcome[player]
    g.inbox.deliver(player_mail(f"{player}@players.test", body, subject=f"Re: {welcome['Subject']}",
                                in_reply_to=str(welcome["Message-ID"]), **kw))
    r = g.advance()
    mine = [m for m in g.outbox.new() if to(m) == f"{player}@players.test"]
    return r, mail_lines(r.output), mine


def warnings(r: Any) -> list[str]:
    return [line for line in r.stderr.splitlines() if line.startswith("Warning: ")]


def answered(g: MailGames, r: Any, mine: list[Any]) -> None:
    """The player's mail was answered and taken out of the inbox, not set aside."""
    assert len(mine) == 1, r.output
    assert g.inbox.set_aside() == [] and g.inbox.waiting() == []
    assert "set aside" not in r.output


def write(g: MailGames, rel: str, data: bytes) -> Path:
    path = g.root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_a_never_mail_list_that_is_not_utf8_keeps_its_readable_addresses(g: MailGames) -> None:
    """A bad pull of lobby/never-mail.txt: every mail was set aside unanswered before."""
    from pbem.config import load_config
    from pbem.donotmail import address_hash, never_mail

    config = load_config(g.root)
    listed = f"{address_hash(config, 'dora@far.test')}\n".encode()
    write(g, "lobby/never-mail.txt", listed + BAD_BYTES)
    r, lines, mine = reply(g, "status")
    answered(g, r, mine)
    kept = ("the addresses it could read are kept; an address on a spoiled line may be mailed until the list is "
            "mended (restore it from git)")
    assert warnings(r) == [f"Warning: lobby/never-mail.txt: is not UTF-8 text (byte {len(listed)}); {kept}",
                           f"Warning: lobby/never-mail.txt: 4 of its entries are no address hash; {kept}"]
    assert lines == ["mail from anna@players.test: m1: answered 'status'"]
    assert never_mail(config, "dora@far.test")


def test_a_never_mail_list_with_a_line_of_megabytes(g: MailGames) -> None:
    write(g, "lobby/never-mail.txt", b"x" * 3_000_000 + b"\n")
    r, lines, mine = reply(g, "status")
    answered(g, r, mine)
    assert warnings(r) == ["Warning: lobby/never-mail.txt: 1 of its entries are no address hash; the addresses it "
                           "could read are kept; an address on a spoiled line may be mailed until the list is mended "
                           "(restore it from git)"]


@pytest.mark.parametrize("data,wrong", [
    (b'{"format": 1, "games": {"m1": {"sta', "is not JSON (Unterminated string starting at: line 1 column 32 "
                                             "(char 31))"),
    (BAD_BYTES, "is not UTF-8 text (byte 0)"),
    (b'[1, 2]', "is not an index of pbem's (no 'format' 1 and 'games')"),
    (json.dumps({"format": 1, "games": {"m1": {"stamp": [1, 2], "status": "active",
                                               "seats": {"anna@players.test": "anna"}}}}).encode(),
     "1 of its games are not as pbem writes them")])
def test_a_damaged_address_index_is_built_again(g: MailGames, data: bytes, wrong: str) -> None:
    from pbem.mail import addresses

    addresses._memory.clear()  # as a new process reads it
    write(g, "mail/addresses.json", data)
    r, lines, mine = reply(g, "games")
    answered(g, r, mine)
    assert warnings(r) == [f"Warning: mail/addresses.json: {wrong}; the seats it lacks are read from the games' "
                           f"state files again"]
    assert json.loads((g.root / "mail" / "addresses.json").read_text("utf-8"))["games"]["m1"]["seats"] == {
        f"{p}@players.test": [p] for p in ("anna", "ben", "cleo")}


def test_a_seen_log_with_spoiled_lines(g: MailGames) -> None:
    write(g, "mail/seen.log", b"2026-11-20 " + b"ab" * 16 + b"\n" + BAD_BYTES + b"z" * 2_000_000 + b"\n2026-11")
    r, lines, mine = reply(g, "status")
    answered(g, r, mine)
    lost = "the lines it cannot read are skipped (a mail they named is read again if it is still in the inbox)"
    assert warnings(r) == [f"Warning: mail/seen.log: is not UTF-8 text (byte 44); {lost}",
                           f"Warning: mail/seen.log: 2 of its lines are not 'day digest'; {lost}"]
    assert re.fullmatch(r"2026-11-21 [0-9a-f]{32}", (g.root / "mail" / "seen.log").read_text("utf-8", "replace")
                        .splitlines()[-1])  # the mail read, on a line of its own after the one cut short


def test_a_loop_guard_file_that_is_not_utf8(g: MailGames) -> None:
    kept = b"anna@players.test 2026-11-21 0123456789abcdef\n"
    write(g, "mail/refused.txt", kept + BAD_BYTES)
    r, lines, mine = reply(g, "status")
    answered(g, r, mine)
    assert warnings(r) == [
        f"Warning: mail/refused.txt: is not UTF-8 text (byte {len(kept)}); its readable lines are kept, the rest "
        f"forgotten",
        "Warning: mail/refused.txt: 1 of its lines are not 'address day digest proof'; they are forgotten"]


def test_the_resign_questions_file_that_is_not_utf8(g: MailGames) -> None:
    write(g, "mail/resign-asked.txt", BAD_BYTES)
    r, lines, mine = reply(g, "stop")
    answered(g, r, mine)
    assert warnings(r) == ["Warning: mail/resign-asked.txt: is not UTF-8 text (byte 0); its readable lines are kept"]
    assert lines == ["mail from anna@players.test: m1: stop: asked anna to confirm the resignation"]


@pytest.mark.parametrize("data,wrong", [
    (b"format: 1\ngame: g7\nkind: open\nseated: [\n", "cannot be read: while parsing a flow node"),
    (BAD_BYTES, "cannot be read: it is not UTF-8 text (byte 0)"),
    (b"format: 1\ngame: g7\nkind: open\nruleset: medici\nnonce: ab\ncreated: x\nby: gm\nseats: 3\noptions: {}\n"
     b"seated: 7\ninvited: []\n", "is not a pbem lobby file (seated is wrong)")])
def test_a_damaged_lobby_entry_is_left_out_and_the_mail_answered(g: MailGames, data: bytes, wrong: str) -> None:
    write(g, "lobby/g7.yaml", data)
    r, lines, mine = reply(g, "join g7")
    answered(g, r, mine)
    assert warnings(r) == [f"Warning: lobby/g7.yaml: {wrong}; it is left out of the lobby until it is mended "
                           f"(restore it from git)"]
    assert lines == [f"mail from anna@players.test: refused 'join': {g.root / 'lobby' / 'g7.yaml'} {wrong}"]
    assert "game 'g7' cannot be read on this host just now; the GM has been told, try again later" in \
        " ".join(mine[0].get_body(("plain",)).get_content().split())


def test_a_lobby_index_that_is_not_json(g: MailGames) -> None:
    from pbem import lobby

    assert g.pbem("open", "medici", "g7", "--seats", "3").exit_code == 0
    lobby._index.clear()  # as a new process reads it
    write(g, "mail/lobby-index.json", b'{"g7": {"stamp": [1')
    r, lines, mine = reply(g, "join g7")
    answered(g, r, mine)
    assert warnings(r) == ["Warning: mail/lobby-index.json: cannot be read (JSONDecodeError); every entry is read "
                           "from its file again"]
    assert lines == ["mail from anna@players.test: g7: joined as anna"]


def test_the_lobbys_count_of_challenges_that_is_not_utf8(g: MailGames) -> None:
    write(g, "mail/challenges-today.txt", BAD_BYTES)
    r, lines, mine = reply(g, "new medici with dora@far.test, erik@far.test")
    answered(g, r, mine)
    assert warnings(r) == ["Warning: mail/challenges-today.txt: is not UTF-8 text (byte 0); its readable lines count"]
    assert lines == ["mail from anna@players.test: medici-1: challenged dora@far.test, erik@far.test"]


@pytest.mark.parametrize("rel,done", [("mail/answered.txt", "its readable lines count"),
                                      ("mail/strangers-mailed.txt", "today's count starts again from it")])
def test_the_counts_of_mail_to_strangers_that_are_not_utf8(g: MailGames, rel: str, done: str) -> None:
    write(g, rel, BAD_BYTES)
    g.inbox.deliver(player_mail("dora@far.test", "games", subject="games?"))
    r = g.advance()
    assert [to(m) for m in g.outbox.new()] == ["dora@far.test"]
    assert g.inbox.set_aside() == []
    assert warnings(r) == [f"Warning: {rel}: is not UTF-8 text (byte 0); {done}"]


def test_a_talk_log_cut_short(g: MailGames) -> None:
    readable = (b'{"at": "2026-11-21T10:00:00+00:00", "from": "ben", "n": 1, "text": "hi", "to": null}\n'
                b'{"at": "2026-11-21T11:00:00+00:00", "fr\n')
    write(g, "m1/talk.jsonl", readable + BAD_BYTES + b'{"n": "x"}\n')
    r, lines, mine = reply(g, "say: good luck")
    assert lines == ["mail from anna@players.test: m1: anna said 1 line(s) of talk to ben, cleo"]
    assert warnings(r) == [
        f"Warning: m1/talk.jsonl: is not UTF-8 text (byte {len(readable)}); the lines it cannot read are skipped",
        "Warning: m1/talk.jsonl: 3 of its lines are no line of talk as pbem writes it; they are skipped"]
    from pbem import talk

    assert [e["text"] for e in talk.talk_of(g.gd, "m1")] == ["hi", "good luck"]


def test_an_absences_file_with_spoiled_lines(g: MailGames) -> None:
    write(g, "mail/absences.txt", b"k" + b"a" * 20 + b" 2026-11-01T00:00:00Z\n" + BAD_BYTES)
    r, lines, mine = reply(g, "away until 3 Dec")
    answered(g, r, mine)
    forgotten = "those absences no longer count against the players' total"
    assert warnings(r) == [f"Warning: mail/absences.txt: is not UTF-8 text (byte 43); {forgotten}",
                           f"Warning: mail/absences.txt: 2 of its lines are not 'address from until'; {forgotten}"]
    assert g.state()["away"] == {"anna": "2026-12-03T00:00:00Z"}


def test_a_parsed_cache_overwritten_is_not_believed(g: MailGames) -> None:
    """The cache of parsed states is sealed: a file cut short or overwritten is parsed again from the
    state file, which is what a run that died half way leaves; no warning is needed."""
    cache = g.root / ".git" / "pbem-parsed" / "m1.marshal"
    assert cache.is_file()
    cache.write_bytes(cache.read_bytes()[:40])
    r, lines, mine = reply(g, "status")
    answered(g, r, mine)
    assert warnings(r) == []
    assert lines == ["mail from anna@players.test: m1: answered 'status'"]


def test_a_resigned_list_that_is_not_utf8_keeps_its_seat_names(g: MailGames) -> None:
    """A game's resigned.txt spoiled: the seats it names readably stay resigned, the player's mail is
    answered, and the GM is told which file and what pbem did."""
    write(g, "m1/resigned.txt", b"ben\n" + BAD_BYTES + b"<b>x</b>\n")
    r, lines, mine = reply(g, "status")
    answered(g, r, mine)
    assert warnings(r)[:1] == ["Warning: m1/resigned.txt: is not UTF-8 text (byte 4); the seat names it could read "
                               "are kept"]
    assert "Warning: m1/resigned.txt: 3 of its words are no seat's name; they are left out" in warnings(r)
    r, lines, mine = reply(g, "status", player="ben")
    assert len(mine) == 1 and "you resigned from game m1" in mine[0].get_body(("plain",)).get_content(), r.output


@pytest.mark.parametrize("data,wrong", [
    (BAD_BYTES, "cannot be read (UnicodeDecodeError)"),
    (b'{"cut short', "cannot be read (JSONDecodeError)"),
    (b"[1, 2]", "is not a table of observers"),
])
def test_an_observers_file_spoiled_leaves_the_game_unwatched_and_the_mail_answered(
        g: MailGames, data: bytes, wrong: str) -> None:
    write(g, "mail/observers/m1.json", data)
    from pbem.rules.base import order_text

    mover, _ = g.mover()
    before = g.state()["engine"]["turn"]
    r, lines, mine = reply(g, order_text(g.legal_order(mover)), player=mover)
    assert g.inbox.set_aside() == [] and "set aside" not in r.output
    assert g.queued() == [] and g.state()["engine"]["turn"] == before + 1, r.output  # the order was applied
    assert f"Warning: mail/observers/m1.json: {wrong}; the game has no observers until it is restored" \
        in warnings(r), r.stderr


def test_a_damaged_file_is_told_in_the_run_of_its_own_games_dir_alone(tmp_path: Path) -> None:
    """What a command noted of one games dir (a `pbem doctor` that read a damaged lobby entry) is no
    warning of another games dir's run in the same process (a watch, the tests), and is told in its
    own dir's next run, once."""
    from pbem.mended import mended, told

    told()
    mine, other = tmp_path / "mine", tmp_path / "other"
    mended(mine / "lobby" / "g1.yaml", mine, "is not a pbem lobby file", "it is left out of the lobby")
    assert told(other) == []
    assert told(mine) == ["lobby/g1.yaml: is not a pbem lobby file; it is left out of the lobby"]
    assert told(mine) == []
