"""Games players start by mail: an open game joined with `join GAME`, a challenge `new medici with ...`
answered by a reply to its invitation, `leave`, `withdraw`, `rematch`, the 7-day lapse; and what keeps a
forged From: from making pbem mail anyone: who may challenge, the limits on invitations, keys on every
answer, and one answer a day to an address that plays no game here.
"""

from __future__ import annotations

import re

from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import mail_host, GM, FilesOut, MaildirDrop, MailGames, answer, fast_forward, mail_lines, parse, player_mail, send, to
from helpers import assert_error
from pbem import bots, lobby
from pbem.mail.ids import split_key
from pbem.rules.base import order_text
from rooms import GAMES, QUICK

pytestmark = pytest.mark.usefixtures("pictures_unexamined")


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    return mail_host(pbem)


def plain(msg: Any) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def flat(msg: Any) -> str:
    """A mail's text with its lines joined, to look for a sentence wherever the lines break."""
    return " ".join(plain(msg).split())


def opened(g: MailGames, ruleset: str = "medici", seats: int = 3, *extra: str) -> None:
    r = g.pbem("open", ruleset, "g1", "--seats", str(seats), *extra)
    assert r.exit_code == 0, r.output
    assert r.stdout == f"Opened {lobby_title(ruleset)} game 'g1' with {seats} seats; players join by mailing " \
                       f"'join g1' to {GM}.\n"


def lobby_title(ruleset: str) -> str:
    from pbem.rules.base import get_ruleset

    return get_ruleset(ruleset).title


def players_of(g: MailGames, game: str) -> list[tuple[str, str]]:
    return [(p["name"], p["email"]) for p in g.state(game)["players"]]


def play_to_the_end(g: MailGames, latest: dict[str, Any], names: dict[str, str], by_mail: int | None = None) -> None:
    """Medici vs Strozzi game g1 played to its end, each order the mover's one-line reply to the
    latest mail he got (`latest`, by address, kept up to date); `names`: each seat's address.
    `by_mail`: only the first so many decisions and the last by mail; the bots play those between
    (saved as a run would), and the last mover asks for his report by `status` before he replies."""
    for n in range(500):
        shown = g.pbem.show("g1")
        if shown["status"] != "active":
            break
        if n == by_mail:
            player, order = fast_forward(g)
            lines, sent = answer(g, latest[names[player]], names[player], "status")
            assert lines == [f"mail from {names[player]}: g1: answered 'status'"] and len(sent) == 1, lines
            latest[names[player]] = sent[0]
            turn = g.pbem.show("g1")["turn"]
        else:
            player = shown["waiting_for"][0]
            seen = g.pbem.show("g1", player)
            order, turn = bots.choose(QUICK, seen["view"], player, seen["legal_orders"]), seen["turn"]
        words = " ".join(f"{k} {v}" for k, v in order.items()) if isinstance(order, dict) else str(order)
        lines, sent = answer(g, latest[names[player]], names[player], words)
        assert lines == [f"mail from {names[player]}: g1 turn {turn}: queued {order_text(order)}"]
        for m in sent:
            latest[to(m)] = m
    assert g.pbem.show("g1")["status"] == "finished"


# -- open games -----------------------------------------------------------------------------------------

def test_an_open_game_is_joined_by_mail_played_to_its_end_and_rematched(g: MailGames) -> None:
    """Two strangers join an open game by a fresh mail each; it starts when full; they play it by
    one-line replies (its first decisions and its last: whole games by such replies are
    tests/test_reply_keys.py's; the bots play those between); `rematch` in reply to the last report
    invites the other, who accepts."""
    opened(g, QUICK, 2)
    lines, sent = send(g, "una@far.test", "join g1")
    assert lines == ["mail from una@far.test: g1: joined as una"]
    assert [(to(m), m["Subject"]) for m in sent] == [("una@far.test", "[pbem] g1: you have a seat")]
    assert "Seats taken: 1 of 2 (una)." in plain(sent[0])
    assert not g.gd.exists("g1")
    lines, sent = send(g, "vic@far.test", "Join g1 as victor")
    assert lines == ["mail from vic@far.test: g1: joined as victor; g1 starts"]
    welcome = {to(m): m for m in sent if "welcome" in str(m["Subject"])}
    assert sorted(welcome) == ["una@far.test", "vic@far.test"]
    assert players_of(g, "g1") == [("una", "una@far.test"), ("victor", "vic@far.test")]
    assert not lobby.exists(g.gd, "g1")
    assert f"g1: new {QUICK} game for una, victor (opened by the GM)" in g.git("log", "--format=%s")
    latest = dict(welcome)
    names = {"una": "una@far.test", "victor": "vic@far.test"}
    play_to_the_end(g, latest, names, by_mail=12)
    lines, sent = answer(g, latest["una@far.test"], "una@far.test", "rematch")
    assert lines == ["mail from una@far.test: g1-1: challenged vic@far.test"]
    invitation = next(m for m in sent if to(m) == "vic@far.test")
    assert "una@far.test invites you to a game of Medici vs Strozzi by mail, game g1-1." in flat(invitation)
    lines, sent = answer(g, invitation, "vic@far.test", "accept")
    assert lines == ["mail from vic@far.test: g1-1: vic@far.test accepted; g1-1 starts"]
    assert players_of(g, "g1-1") == [("una", "una@far.test"), ("victor", "vic@far.test")]


def test_a_seat_is_named_as_asked_and_answered_in_the_joiners_language(g: MailGames) -> None:
    opened(g)
    assert send(g, "anna.maria@x.test", "join g1 as zoe")[0] == ["mail from anna.maria@x.test: g1: joined as zoe"]
    assert send(g, "bernd@x.test", "Mitspielen g1")[0] == ["mail from bernd@x.test: g1: joined as bernd"]
    lines, sent = send(g, "joost@x.test", "meedoen g1")
    assert lines == ["mail from joost@x.test: g1: joined as joost; g1 starts"]
    state = g.state("g1")
    assert [(p["name"], p.get("language")) for p in state["players"]] == [("zoe", None), ("bernd", "de"), ("joost", "nl")]
    subjects = {to(m): str(m["Subject"]) for m in sent if "g1 " in str(m["Subject"])}
    assert subjects["bernd@x.test"].startswith("[pbem] g1 Willkommen bei")
    assert subjects["joost@x.test"].startswith("[pbem] g1 welkom")


def test_a_seat_is_given_back_before_the_start(g: MailGames) -> None:
    opened(g)
    send(g, "ann@x.test", "join g1")
    lines, sent = send(g, "ann@x.test", "leave g1")
    assert lines == ["mail from ann@x.test: g1: ann left"]
    assert "You gave back the seat ann in game g1 (Medici)." in plain(sent[0])
    assert lobby.load(g.gd, "g1")["seated"] == []
    lines, sent = send(g, "ann@x.test", "leave g1")  # no longer seated; her reply proves her address: answered
    assert lines == ["mail from ann@x.test: refused 'leave': you hold no seat in game 'g1'"]
    assert [to(m) for m in sent] == ["ann@x.test"]
    lines, sent = send(g, "ann@x.test", "leave g1", proven=False)  # a fresh mail: answered once a day
    assert lines == ["mail from ann@x.test: refused 'leave': 'leave g1' changes a seat or sends mail to others, so it "
                     "counts only in a reply to a mail pbem sent you (a report, or a mail about the game), or with "
                     "your token: reply to this mail with it (not answered: a stranger hears from pbem once a day)"]
    assert sent == []


@pytest.mark.parametrize("body, refusal", [
    ("join g9", "there is no open game or challenge 'g9'"),
    ("join", "write 'join GAME' with the game's id; reply 'games' to see the open games"),
    ("join g1 as 9lives", "'9lives' cannot be a player's name: lower-case letters, digits, '-' or '_', starting with "
                          "a letter, at most 24 characters"),
    ("join g1 as ann", "the name 'ann' is taken in game 'g1'; choose another with 'join g1 as NAME'"),
    ("join g1 please now", "'join g1 please now' is not a command pbem knows; write 'join GAME' or 'join GAME as NAME'"),
])
def test_a_join_that_cannot_be_carried_out_is_refused_and_changes_nothing(g: MailGames, body: str, refusal: str) -> None:
    opened(g)
    send(g, "ann@x.test", "join g1")
    before = lobby.load(g.gd, "g1")
    lines, sent = send(g, "ben@x.test", body)
    verb = "unknown" if body.endswith("now") else "join"
    assert lines == [f"mail from ben@x.test: refused '{verb}': {refusal}"]
    assert [to(m) for m in sent] == ["ben@x.test"]
    assert refusal.split(";")[0][:40] in plain(sent[0]).replace("\n    ", " ")
    assert lobby.load(g.gd, "g1") == before


def test_joining_twice_and_a_full_game_are_refused(g: MailGames) -> None:
    opened(g, QUICK, 2)
    send(g, "ann@x.test", "join g1")
    assert send(g, "ann@x.test", "join g1")[0] == \
        ["mail from ann@x.test: refused 'join': you already hold the seat 'ann' in game 'g1'"]


def test_the_gm_starts_an_open_game_with_the_minimum(g: MailGames) -> None:
    opened(g, "medici", 5)
    send(g, "ann@x.test", "join g1")
    send(g, "ben@x.test", "join g1")
    assert_error(g.pbem("start", "g1"), "game 'g1' has 2 of the 3 players Medici needs at least")
    send(g, "cleo@x.test", "join g1")
    r = g.pbem("start", "g1")
    assert r.exit_code == 0, r.output
    first = g.pbem.show("g1")["waiting_for"][0]
    assert r.stdout == f"Started Medici game 'g1' for ann, ben, cleo; waiting for {first} (turn 1).\n"
    assert sorted(to(m) for m in g.outbox.new()) == ["ann@x.test", "ben@x.test", "cleo@x.test"]
    assert_error(g.pbem("start", "g1"), "game 'g1' has begun; it takes no more players")
    assert_error(g.pbem("start", "g2"), "there is no open game or challenge 'g2'")
    assert send(g, "dora@x.test", "join g1")[0] == ["mail from dora@x.test: refused 'join': game 'g1' has begun; it "
                                                   "takes no more players"]


@pytest.mark.parametrize("args, message", [
    (["chess", "g2", "--seats", "2"], f"unknown ruleset 'chess' (known: {', '.join(GAMES)})"),
    (["medici", "g2", "--seats", "9"], "Medici needs 3 to 6 players, not 9"),
    (["medici", "g1", "--seats", "3"], "game 'g1' already exists in {root}"),
    (["medici", "mail", "--seats", "3"], "'mail' is a name pbem uses for its own folder in the games dir; choose another game id"),
    (["medici", "g2", "--seats", "3", "--option", "edition=old"],
     "option edition='old' is not allowed for medici (choose one of: riogrande, amigo)"),
])
def test_pbem_open_refuses_what_pbem_new_refuses(g: MailGames, args: list[str], message: str) -> None:
    opened(g)
    r = g.pbem("open", *args)
    assert r.exit_code == 1 and message.format(root=g.root) in r.stderr, r.output


def test_status_and_games_list_the_open_games(g: MailGames) -> None:
    opened(g, "medici", 4)
    send(g, "ann@x.test", "join g1")
    r = g.pbem("status")
    assert "Not begun (1):\n  g1               medici           open: 1 of 4 seats taken\n" in r.stdout
    lines, sent = send(g, "zed@far.test", "games")
    assert lines == ["mail from zed@far.test: answered with the player's games (0) and the open games"]
    assert "  g1 (Medici): 3 of 4 seats free" in plain(sent[0])


# -- challenges ------------------------------------------------------------------------------------------

def a_player(g: MailGames, address: str = "anna@players.test") -> None:
    """A host where anna plays (so that she may challenge)."""
    g.new("m0")
    g.outbox.skip()


def test_a_challenge_is_accepted_by_every_invitee_and_starts(g: MailGames) -> None:
    a_player(g)
    lines, sent = send(g, "anna@players.test", "new medici with dan@x.test, eve@x.test\nedition amigo\ndeadline 48h")
    assert lines == ["mail from anna@players.test: medici-1: challenged dan@x.test, eve@x.test"]
    mails = {to(m): m for m in sent}
    assert sorted(mails) == ["anna@players.test", "dan@x.test", "eve@x.test"]
    invite = flat(mails["dan@x.test"])
    assert "anna@players.test invites you to a game of Medici by mail, game medici-1." in invite
    assert "Options: the Amigo edition (1995)." in invite and "Time for each decision: 2d." in invite
    assert "Unanswered, the invitation lapses on 2026-11-28T12:00:00Z." in invite
    assert answer(g, mails["dan@x.test"], "dan@x.test", "accept")[0] == \
        ["mail from dan@x.test: medici-1: dan@x.test accepted"]
    lines, sent = answer(g, mails["eve@x.test"], "eve@x.test", "Yes.")
    assert lines == ["mail from eve@x.test: medici-1: eve@x.test accepted; medici-1 starts"]
    state = g.state("medici-1")
    assert state["options"]["edition"] == "amigo" and state["deadline"]["hours"] == 48
    assert [p["name"] for p in state["players"]] == ["anna", "dan", "eve"]


def test_an_answer_counts_only_with_the_invitations_key(g: MailGames) -> None:
    """A fresh 'accept', a reply with the invitation's id from another address, a reply with a forged
    key: none seats anyone."""
    a_player(g)
    _, sent = send(g, "anna@players.test", "new medici with dan@x.test, eve@x.test")
    invitation = next(m for m in sent if to(m) == "dan@x.test")
    lines, _ = send(g, "dan@x.test", "accept medici-1", proven=False)
    assert lines == ["mail from dan@x.test: refused 'accept': an answer to the invitation to game 'medici-1' counts "
                     "only as a reply to the invitation itself; reply to it with 'accept'"]
    assert answer(g, invitation, "eve@x.test", "accept")[0][0].startswith("mail from eve@x.test: refused 'accept'")
    bare, key = split_key(str(invitation["Message-ID"]))
    assert key is not None
    forged = f"{bare[:bare.rindex('@')]}.k{'a' * len(key)}{bare[bare.rindex('@'):]}"
    assert send(g, "dan@x.test", "accept", in_reply_to=forged, proven=False)[0][0].startswith("mail from dan@x.test: refused")
    assert lobby.pending(lobby.load(g.gd, "medici-1")) != []
    assert [s["email"] for s in lobby.load(g.gd, "medici-1")["seated"]] == ["anna@players.test"]


def test_the_plus_address_carries_the_invitations_key_too(g: MailGames) -> None:
    a_player(g)
    _, sent = send(g, "anna@players.test", "new medici with dan@x.test, eve@x.test")
    invitation = next(m for m in sent if to(m) == "dan@x.test")
    reply_to = invitation["Reply-To"].addresses[0].addr_spec
    assert reply_to.startswith("gm+lobby.")
    lines, _ = send(g, "dan@x.test", "accept", to=reply_to)
    assert lines == ["mail from dan@x.test: medici-1: dan@x.test accepted"]


def test_a_decline_that_leaves_too_few_calls_the_game_off(g: MailGames) -> None:
    a_player(g)
    _, sent = send(g, "anna@players.test", "new medici with dan@x.test, eve@x.test")
    invitation = next(m for m in sent if to(m) == "dan@x.test")
    lines, sent = answer(g, invitation, "dan@x.test", "Nein")
    assert lines == ["mail from dan@x.test: medici-1: dan@x.test declined; too few left: medici-1 is off"]
    assert sorted(to(m) for m in sent) == ["anna@players.test", "dan@x.test"]  # eve's invitation said: no more mail
    assert not lobby.exists(g.gd, "medici-1") and not g.gd.exists("medici-1")


def test_a_challenge_lapses_after_seven_days(g: MailGames, monkeypatch: pytest.MonkeyPatch) -> None:
    a_player(g)
    _, sent = send(g, "anna@players.test", "new medici with dan@x.test, eve@x.test")
    invitation = next(m for m in sent if to(m) == "dan@x.test")
    answer(g, invitation, "dan@x.test", "accept")
    monkeypatch.setenv("PBEM_NOW", "2026-11-28T11:59:00+00:00")
    assert "lapsed" not in g.advance().output
    monkeypatch.setenv("PBEM_NOW", "2026-11-28T12:00:00+00:00")
    r = g.advance()
    assert "medici-1: the invitations lapsed (unanswered: eve@x.test)" in r.output
    told = g.outbox.new()
    assert sorted(to(m) for m in told) == ["anna@players.test", "dan@x.test"]  # not eve, who never answered
    assert "lapsed before everyone" in plain(told[0]).replace("\n", " ")
    assert not lobby.exists(g.gd, "medici-1")


def test_the_challenger_withdraws(g: MailGames) -> None:
    a_player(g)
    _, sent = send(g, "anna@players.test", "new medici with dan@x.test, eve@x.test")
    mine = next(m for m in sent if to(m) == "anna@players.test")
    lines, sent = answer(g, mine, "anna@players.test", "withdraw")
    assert lines == ["mail from anna@players.test: medici-1: challenge withdrawn"]
    assert not lobby.exists(g.gd, "medici-1")


def test_a_strangers_challenge_mails_nobody(g: MailGames) -> None:
    a_player(g)
    lines, sent = send(g, "mallory@evil.test", "new medici with dan@x.test, eve@x.test")
    assert lines == ["mail from mallory@evil.test: refused 'new' without an answer: mallory@evil.test may not "
                     "start games on this host (pbem.yaml lobby.create: players)"]
    assert sent == [] and lobby.entries(g.gd) == []


def test_who_may_challenge_is_pbem_yamls_to_say(pbem: Pbem) -> None:
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games), lobby={"create": ["@club.test", "x@y.test"]})
    g.write_config()
    (pbem.games / "mail").mkdir()
    assert send(g, "una@club.test", "new medici with a@b.test, c@d.test")[0] == \
        ["mail from una@club.test: medici-1: challenged a@b.test, c@d.test"]
    assert send(g, "una@other.test", "new medici with e@b.test, f@d.test")[0][0].endswith(
        "may not start games on this host (pbem.yaml lobby.create: ['@club.test', 'x@y.test'])")


def test_the_limits_on_invitations(g: MailGames) -> None:
    a_player(g)
    for n, pair in enumerate([("a@x.test", "b@x.test"), ("c@x.test", "d@x.test"), ("e@x.test", "f@x.test")], 1):
        assert send(g, "anna@players.test", f"new medici with {pair[0]}, {pair[1]}")[0] == \
            [f"mail from anna@players.test: medici-{n}: challenged {pair[0]}, {pair[1]}"]
    lines, sent = send(g, "anna@players.test", "new medici with g@x.test, h@x.test")
    assert lines == ["mail from anna@players.test: refused 'new': you have 3 challenges waiting for answers "
                     "(medici-1, medici-2, medici-3), the most this host allows; wait for their answers or "
                     "withdraw one with 'withdraw GAME'"]
    assert [to(m) for m in sent] == ["anna@players.test"]
    lines, sent = send(g, "ben@players.test", "new medici with a@x.test, k@x.test")
    assert lines == ["mail from ben@players.test: refused 'new': a@x.test has an invitation not answered yet; "
                     "the address can be invited again once it is answered or has lapsed"]
    assert [to(m) for m in sent] == ["ben@players.test"]


@pytest.mark.parametrize("body, refusal", [
    ("new chess with a@b.test", f"'chess' is not a game pbem plays; choose one of: {', '.join(GAMES)}"),
    ("new medici", "'new medici': name the players to invite after 'with', e.g. 'new medici with ben@example.org, "
                   "cleo@example.org'"),
    ("new medici with bob", "'new medici with bob': name the players to invite after 'with', e.g. 'new medici with "
                            "ben@example.org, cleo@example.org'"),
    ("new medici with a@b.test, c@d.test edition old", "option edition='old' is not allowed for medici (choose one "
                                                        "of: riogrande, amigo)"),
    ("new medici with a@b.test, c@d.test colour red", "medici has no option 'colour' (options: edition)"),
    ("new medici with a@b.test", "Medici needs 3 to 6 players, not 2"),
    ("new medici with a@b.test, c@d.test deadline soon", "deadline 'soon' is not a duration such as 48h, 2d, 90m or 1w"),
    ("new medici with a@b.test, c@d.test language fr", "language 'fr' is not one pbem writes (choose one of: en, de, nl)"),
    ("new medici with a@b.test, gm@pbem.test", "gm@pbem.test is this host's own address; it cannot play"),
    ("rematch", "game 'm0' is not over yet; 'rematch' is for a game that has ended"),  # the game his reply is in
    ("rematch g5", "there is no game 'g5' on this host"),
    ("rematch m0", "game 'm0' is not over yet; 'rematch' is for a game that has ended"),
])
def test_a_challenge_that_cannot_be_read_is_refused_and_invites_nobody(g: MailGames, body: str, refusal: str) -> None:
    a_player(g)
    lines, sent = send(g, "anna@players.test", body)
    assert len(lines) == 1 and lines[0].endswith(f": {refusal}"), lines
    assert [to(m) for m in sent] == ["anna@players.test"]
    assert lobby.entries(g.gd) == []


# -- strangers -------------------------------------------------------------------------------------------

def test_an_address_that_plays_no_game_here_is_answered_once_a_day(g: MailGames, monkeypatch: pytest.MonkeyPatch) -> None:
    a_player(g)
    first, sent = send(g, "victim@far.test", "hello?")
    assert [to(m) for m in sent] == ["victim@far.test"]
    lines, sent = send(g, "victim@far.test", "join g9")
    assert sent == [] and lines[0].endswith("(not answered: a stranger hears from pbem once a day)")
    monkeypatch.setenv("PBEM_NOW", "2026-11-22T12:00:00+00:00")
    assert [to(m) for m in send(g, "victim@far.test", "hello again")[1]] == ["victim@far.test"]
    for n in range(3):  # a player is answered every time
        assert [to(m) for m in send(g, "anna@players.test", f"question number {n}")[1]] == ["anna@players.test"]


def test_an_answer_word_among_other_lines_or_in_a_sentence_is_no_answer() -> None:
    from pbem.mail.lobby import parse

    assert parse(["accept"]).verb == "accept"  # type: ignore[union-attr]
    assert parse(["accept", "bid 3"]) is None
    assert parse(["yes, please"]) is None
    assert parse(["bid 3"]) is None


def test_parse_reads_the_commands_in_three_languages() -> None:
    from pbem.mail.lobby import parse

    c = parse(["neu Medici mit ben@x.test und cleo@x.test, Frist 48h, Sprache nl"])
    assert c is not None and (c.verb, c.ruleset, c.invitees, c.deadline, c.language, c.language_option) == \
        ("new", "medici", ["ben@x.test", "cleo@x.test"], "48h", "de", "nl")
    c = parse(["nieuw medici vs strozzi met ben@x.test"])
    assert c is not None and (c.ruleset, c.invitees, c.language) == (QUICK, ["ben@x.test"], "nl")
    c = parse([], "Re: join g7")
    assert c is not None and (c.verb, c.game) == ("join", "g7")
    assert parse(["revanche"]).verb == "rematch"  # type: ignore[union-attr]
    assert parse(["intrekken g4"]).game == "g4"  # type: ignore[union-attr]


def test_lobby_mail_is_keyed_to_its_recipient(g: MailGames) -> None:
    """Every lobby mail carries a key of its game and recipient, in its id and its Reply-To; no key
    reaches git or the console."""
    opened(g)
    r_lines, sent = send(g, "ann@x.test", "join g1")
    msg = sent[0]
    assert split_key(str(msg["Message-ID"]))[1] is not None
    key = split_key(str(msg["Message-ID"]))[1]
    assert key in str(msg["Reply-To"])
    assert key not in g.git("log", "-p") and key not in " ".join(r_lines)
    assert parse(msg.as_bytes())["To"] == "ann@x.test"


def test_a_dry_run_says_what_a_lobby_command_would_do_and_does_nothing(g: MailGames) -> None:
    opened(g)
    g.inbox.deliver(player_mail("ann@x.test", "join g1"))
    g.inbox.deliver(player_mail("ben@x.test", "new chess with a@b.test"))
    r = g.pbem("advance", "--dry-run")
    assert mail_lines(r.output.replace("(dry run) ", "")) == [
        "mail from ann@x.test: would ask to confirm 'join g1' by a reply",
        f"mail from ben@x.test: would be refused: 'chess' is not a game pbem plays; choose one of: {', '.join(GAMES)}"]
    assert lobby.load(g.gd, "g1")["seated"] == [] and g.outbox.new() == []


# -- through the real servers ----------------------------------------------------------------------------

from conftest_mail import ImapDrop, SmtpOut  # noqa: E402
from mailservers import Dovecot, SmtpServer, certs, dovecot, imap_user, smtp  # noqa: E402,F401

IMAP_PW = "PBEM_TEST_IMAP_PASSWORD"
SMTP_PW = "PBEM_TEST_SMTP_PASSWORD"


@pytest.fixture
def served(pbem: Pbem, dovecot: Dovecot, imap_user: str, smtp: SmtpServer,
           monkeypatch: pytest.MonkeyPatch) -> MailGames:
    """A games dir whose GM reads an IMAP account and sends through SMTP."""
    monkeypatch.setenv(IMAP_PW, dovecot.passwords[imap_user])
    monkeypatch.setenv(SMTP_PW, smtp.password)
    games = MailGames(pbem, ImapDrop(dovecot, imap_user, password_env=IMAP_PW), SmtpOut(smtp, SMTP_PW))
    games.write_config()
    return games


def test_over_imap_and_smtp_an_open_game_is_joined_and_played_and_a_strangers_challenge_mails_nobody(
        served: MailGames, monkeypatch: pytest.MonkeyPatch) -> None:
    """The joins, the first decisions and the last over the servers (the whole game by one-line
    replies is test_an_open_game_is_joined_by_mail_played_to_its_end_and_rematched's, over a Maildir:
    each run over IMAP and SMTP costs twice what it does there); a stranger's challenge mails nobody,
    a player's lapses unanswered."""
    g = served
    opened(g, QUICK, 2)
    assert send(g, "una@far.test", "join g1")[0] == ["mail from una@far.test: g1: joined as una"]
    lines, sent = send(g, "vic@far.test", "meedoen g1")
    assert lines == ["mail from vic@far.test: g1: joined as vic; g1 starts"]
    latest = {to(m): m for m in sent if "g1 " in str(m["Subject"])}
    names = {"una": "una@far.test", "vic": "vic@far.test"}
    play_to_the_end(g, latest, names, by_mail=6)
    assert {to(m) for m in g.outbox.all() if "the game is over" in str(m["Subject"])
            or "partij is afgelopen" in str(m["Subject"])} == {"una@far.test", "vic@far.test"}
    lines, sent = send(g, "mallory@evil.test", "new medici with dan@x.test, eve@x.test")
    assert lines[0].startswith("mail from mallory@evil.test: refused 'new' without an answer") and sent == []
    # una plays here now: her challenge goes out, and lapses unanswered
    lines, sent = send(g, "una@far.test", "new medici with dan@x.test, eve@x.test")
    assert sorted(to(m) for m in sent) == ["dan@x.test", "eve@x.test", "una@far.test"]
    monkeypatch.setenv("PBEM_NOW", "2026-11-29T12:00:00+00:00")
    r = g.advance()
    assert "medici-1: the invitations lapsed (unanswered: dan@x.test, eve@x.test)" in r.output
    assert sorted(to(m) for m in g.outbox.new()) == ["una@far.test"]


# -- in the players' languages -----------------------------------------------------------------------------

def test_the_lobby_writes_a_german_and_a_dutch_player_in_their_language(g: MailGames) -> None:
    """Every lobby mail to a German or Dutch player (the answer to his join, his seat given back, an
    invitation with `language`, its answers, a refusal, the game called off) has no English word."""
    from test_i18n_mail import english_words

    a_player(g)
    opened(g)
    mails: list[tuple[str, Any]] = []
    for sender, line in (("bernd@x.test", "mitspielen g1"), ("joost@x.test", "meedoen g1"),
                         ("bernd@x.test", "aussteigen g1"), ("joost@x.test", "meedoen g9"),
                         ("joost@x.test", "meedoen g1 als jan")):
        lang = "de" if sender.startswith("bernd") else "nl"
        mails += [(lang, m) for m in send(g, sender, line)[1]]
    for lang in ("de", "nl"):
        said, sent = send(g, "anna@players.test", f"new medici with dirk@x.test, erna@x.test, language {lang}")
        assert len(said) == 1 and "challenged" in said[0], said
        invites = [m for m in sent if to(m) != "anna@players.test"]
        assert len(invites) == 2, [(to(m), m["Subject"]) for m in sent]
        mails += [(lang, m) for m in invites]
        mails += [(lang, m) for m in answer(g, invites[0], to(invites[0]), "annehmen" if lang == "de" else "accepteren")[1]]
        mails += [(lang, m) for m in answer(g, invites[1], to(invites[1]), "ablehnen" if lang == "de" else "weigeren")[1]
                  if to(m) != "anna@players.test"]
    assert len(mails) >= 12
    bad = [f"{m['Subject']}: {w}" for lang, m in mails for w in english_words(plain(m) + str(m["Subject"]), lang,
                                                                              ("medici", "g1", "g9", "jan", "anna@players.test"))]
    assert bad == []


def test_an_invitation_in_german_or_dutch_gives_the_time_for_each_decision_in_the_readers_words(g: MailGames) -> None:
    a_player(g)
    for lang, hours, said in (("de", "36h", "Zeit für jede Entscheidung: 36 Stunden."),
                              ("nl", "2d", "Tijd voor elke beslissing: 2 dagen.")):
        lines, sent = send(g, "anna@players.test", f"new medici with d{lang}@x.test, e{lang}@x.test, language {lang}\n"
                                                   f"deadline {hours}")
        invites = [flat(m) for m in sent if to(m) != "anna@players.test"]
        assert len(invites) == 2 and all(said in text for text in invites), (lines, invites)


def test_an_old_invitations_key_is_worthless_for_a_new_challenge_of_the_same_id(g: MailGames) -> None:
    a_player(g)
    _, sent = send(g, "anna@players.test", "new medici with dan@x.test, eve@x.test")
    old = next(m for m in sent if to(m) == "dan@x.test")
    answer(g, next(m for m in sent if to(m) == "eve@x.test"), "eve@x.test", "decline")  # too few: it is off
    assert send(g, "anna@players.test", "new medici with dan@x.test, fay@x.test")[0] == \
        ["mail from anna@players.test: medici-1: challenged dan@x.test, fay@x.test"]
    lines, _ = answer(g, old, "dan@x.test", "accept")
    assert lines[0].startswith("mail from dan@x.test: refused 'accept': an answer to the invitation to game "
                               "'medici-1' counts only as a reply to the invitation itself")
    assert lobby.pending(lobby.load(g.gd, "medici-1"))[0]["email"] == "dan@x.test"


def test_a_watch_over_imap_idle_seats_players_and_starts_the_game_within_seconds(
        pbem: Pbem, dovecot: Dovecot, imap_user: str) -> None:
    """The host runs itself: `pbem watch` on an IMAP inbox answers each join within 5 seconds of its
    delivery, and the last one starts the game."""
    import subprocess
    import time

    from test_watch import LATENCY, Watching, wait_until

    g = MailGames(pbem, ImapDrop(dovecot, imap_user), FilesOut(pbem.games))
    g.write_config()
    opened(g, QUICK, 2)
    assert subprocess.run(["git", "status", "--porcelain", "pbem.yaml"], cwd=g.root, capture_output=True,
                          text=True, check=True).stdout == ""  # pbem committed it
    w = Watching(g.root, "--interval", "60")
    try:
        w.ready()
        time.sleep(0.3)
        for sender in ("una@far.test", "vic@far.test"):
            g.inbox.deliver(player_mail(sender, "join g1"))
            try:
                seconds = wait_until(lambda s=sender: any(to(m) == s for m in g.outbox.all()), LATENCY, "an answer")
                asked = next(m for m in g.outbox.all() if to(m) == sender)  # a join nothing proves: confirm it
                g.inbox.deliver(player_mail(sender, "join g1", subject=f"Re: {asked['Subject']}",
                                            in_reply_to=str(asked["Message-ID"])))
                seconds += wait_until(lambda s=sender: sum(to(m) == s for m in g.outbox.all()) >= 2, LATENCY,
                                      "the seat's answer")
            except BaseException:
                print(w.log())
                raise
            print(f"watch: {sender} answered {seconds:.2f}s after delivery")
        w.wait_for("g1 starts")
        assert [p["name"] for p in g.state("g1")["players"]] == ["una", "vic"]
        assert w.stop() == 0 and w.err == [], w.log()
    finally:
        w.kill()


@pytest.mark.parametrize("words, verb", [("Yes, gladly!", "accepted"), ("Ja, gerne.", "accepted"),
                                         ("graag", "accepted"), ("No thanks, not this time.", "declined"),
                                         ("Leider nicht.", "declined"), ("nee, helaas", "declined")])
def test_an_invitation_is_answered_in_a_players_own_words(g: MailGames, words: str, verb: str) -> None:
    a_player(g)
    _, sent = send(g, "anna@players.test", "new medici with dan@x.test, eve@x.test, fay@x.test")
    invitation = next(m for m in sent if to(m) == "dan@x.test")
    lines, _ = answer(g, invitation, "dan@x.test", words)
    assert lines == [f"mail from dan@x.test: medici-1: dan@x.test {verb}"]


def test_a_reply_to_an_invitation_that_says_neither_is_asked_again(g: MailGames) -> None:
    a_player(g)
    _, sent = send(g, "anna@players.test", "new medici with dan@x.test, eve@x.test")
    invitation = next(m for m in sent if to(m) == "dan@x.test")
    lines, sent = answer(g, invitation, "dan@x.test", "Who are you?")
    assert lines == ["mail from dan@x.test: refused 'unknown': your reply to the invitation says neither yes nor no; "
                     "reply with 'accept' or 'decline'"]
    assert [to(m) for m in sent] == ["dan@x.test"]
    assert lobby.pending(lobby.load(g.gd, "medici-1"))[0]["answer"] == "pending"


def test_doctor_names_the_games_not_begun_and_a_file_that_cannot_be_read(g: MailGames) -> None:
    a_player(g)
    opened(g)
    send(g, "anna@players.test", "new medici with dan@x.test, eve@x.test")
    r = g.pbem("doctor")
    assert "ok   lobby: 1 open game, 1 challenge waiting; who may challenge by mail: players" in r.stdout.splitlines()
    (g.root / "lobby" / "g1.yaml").write_text("format: 9\n")
    r = g.pbem("doctor")
    assert r.exit_code == 1
    assert ("FAIL lobby: lobby/g1.yaml cannot be read: players can neither join nor answer there (restore it from "
            "git, or remove it)") in r.stdout.splitlines()
