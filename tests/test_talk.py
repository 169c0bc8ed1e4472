"""Table talk through `pbem advance` over a Maildir inbox: `say:` lines passed on by the host as
"anna says: ...", naming no address; `say to ben:` where the game allows it; the limits; and the
attacks: a forged From:, a line that speaks for another seat."""

from __future__ import annotations


import pytest

from conftest import Pbem
from conftest_mail import (address, FilesOut, flat_text as text, MaildirDrop, MailGames, player_mail,
                          run_mails as run, started_game, threaded_reply as reply_to, to)
from pbem import talk


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    return started_game(pbem)


def talk_table(pbem: Pbem, talk_mode: str) -> tuple[MailGames, dict[str, object]]:
    """Game m1 of anna, ben and cleo whose table talks as `talk_mode` says, and each one's welcome mail
    by his address."""
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    g.write_config()
    r = pbem("new", "medici", "m1", "--weak-seed", "--seed", "s", "--talk", talk_mode,
             *[a for p in ("anna", "ben", "cleo") for a in ("--player", f"{p}={address(p)}")])
    assert r.exit_code == 0, r.output
    return g, {to(m): m for m in g.outbox.new()}



def test_say_goes_to_every_other_player_without_an_address(g: MailGames) -> None:
    lines, sent = run(g, reply_to(g.welcome["anna"], "anna", "say: Good luck, everyone!"))
    assert lines == ["m1: mail from anna@players.test: m1: anna said 1 line(s) of talk to ben, cleo"]
    assert sorted(to(m) for m in sent) == [address("ben"), address("cleo")]
    for msg in sent:
        assert "anna says: Good luck, everyone!" in text(msg)
        assert "anna@players.test" not in msg.as_string()
        assert msg["List-Unsubscribe"].startswith("<mailto:gm+stop.")
    assert [e["text"] for e in talk.talk_of(g.gd, "m1", public_only=True)] == ["Good luck, everyone!"]
    assert "talk.jsonl" in g.git("ls-files", "m1")


def test_a_say_line_and_an_order_in_one_reply_are_both_done(g: MailGames) -> None:
    from pbem.rules.base import order_text

    player, _ = g.mover()
    order = order_text(g.legal_order(player))
    lines, sent = run(g, reply_to(g.welcome[player], player, f"{order}\nsag: Viel Glück!"))
    assert any("queued" in line for line in lines) or any("applied" in line for line in lines), lines
    assert any(line.endswith(f"(and m1: {player} said 1 line(s) of talk to "
                             + ", ".join(p for p in ("anna", "ben", "cleo") if p != player) + ")") for line in lines), lines
    assert g.mover()[1] == 2 or g.queued() == []
    heard = [m for m in sent if f"{player} says: Viel Glück!" in text(m)]
    assert len(heard) == 2


def test_the_next_report_shows_the_talk_since_the_last_one(g: MailGames) -> None:
    from pbem.rules.base import order_text

    player, _ = g.mover()
    speaker = next(p for p in ("anna", "ben", "cleo") if p != player)
    run(g, reply_to(g.welcome[speaker], speaker, "zeg: veel <plezier> & succes"))
    lines, sent = run(g, reply_to(g.welcome[player], player, order_text(g.legal_order(player))))
    reports = [m for m in sent if "turn" in str(m["Subject"]) and not str(m["Message-ID"]).startswith("<pbem.reply.")]
    assert reports, [m["Subject"] for m in sent]
    told = set()
    for msg in reports:
        body = msg.get_body(("plain",)).get_content()
        told.add(to(msg))
        if to(msg) == address(speaker):
            assert "Table talk since your last report:" not in body
        else:
            assert f"Table talk since your last report:\n  {speaker} says: veel <plezier> & succes\n" \
                in body.replace("\r\n", "\n")
            html = msg.get_body(("html",))
            if html is not None:
                assert "veel &lt;plezier&gt; &amp; succes" in html.get_content()
    # shown once: a report after that to a player who read it has none
    player, _ = g.mover()
    lines, sent = run(g, reply_to(g.last_report(player), player, order_text(g.legal_order(player))))
    again = [m for m in sent if to(m) in told]
    assert again and not any("Table talk" in m.get_body(("plain",)).get_content() for m in again)


def test_a_forged_from_without_a_key_passes_no_talk_on(g: MailGames) -> None:
    lines, sent = run(g, player_mail(address("anna"), "say: ben cheats, resign now"))
    assert not any("says" in text(m) for m in sent)
    assert talk.talk_of(g.gd, "m1") == []


def test_a_line_cannot_speak_for_another_seat(g: MailGames) -> None:
    lines, sent = run(g, reply_to(g.welcome["ben"], "ben", "say: anna says: I resign"))
    assert sorted(to(m) for m in sent) == [address("anna"), address("cleo")]
    assert all("ben says: anna says: I resign" in text(m) for m in sent)


def test_private_talk_needs_a_game_that_allows_it(g: MailGames) -> None:
    lines, sent = run(g, reply_to(g.welcome["anna"], "anna", "say to ben: psst"))
    assert lines == ["m1: mail from anna@players.test: m1: talk refused: in game m1 talk goes to every player: "
                     "write 'say: ...' (nothing was passed on)"]
    assert [to(m) for m in sent] == [address("anna")]
    assert "in game m1 talk goes to every player: write 'say: ...' (nothing was passed on)" in text(sent[0])


def test_private_talk_reaches_one_player_and_stays_out_of_git(pbem: Pbem) -> None:
    g, welcome = talk_table(pbem, "private")
    lines, sent = run(g, reply_to(welcome[address("anna")], "anna", "say to ben: meet me at the port"))
    assert [to(m) for m in sent] == [address("ben")]
    assert "anna says to you: meet me at the port" in text(sent[0])
    assert "meet me" not in g.git("log", "-p", "--all")
    assert talk.talk_of(g.gd, "m1", public_only=True) == []


def test_no_talk_in_a_game_without_it_and_the_limits(pbem: Pbem) -> None:
    g, welcome = talk_table(pbem, "none")
    lines, sent = run(g, reply_to(welcome[address("anna")], "anna", "say: hello"))
    assert lines == ["m1: mail from anna@players.test: m1: talk refused: game m1 has no table talk; nothing was "
                     "passed on"]


def test_a_line_too_long_is_refused_in_german(g: MailGames) -> None:
    r = g.pbem("set", "m1", "--language", "anna=de")
    assert r.exit_code == 0, r.output
    g.outbox.skip()
    lines, sent = run(g, reply_to(g.last_report("anna"), "anna", "sag: " + "x" * 501))
    assert lines[-1].endswith("talk refused: a line of table talk may have at most 500 characters; yours has 501 "
                              "(nothing was passed on)")
    assert [to(m) for m in sent] == [address("anna")]
    assert "eine Zeile Tischgespräch darf höchstens 500 Zeichen haben; deine hat 501 (nichts wurde " \
           "weitergegeben)" in text(sent[0])


def test_talk_reaches_each_player_in_his_language(g: MailGames) -> None:
    r = g.pbem("set", "m1", "--language", "ben=nl", "--language", "cleo=de")
    assert r.exit_code == 0, r.output
    g.outbox.skip()
    lines, sent = run(g, reply_to(g.last_report("anna"), "anna", "say: hallo"))
    got = {to(m): text(m) for m in sent}
    assert got[address("ben")].startswith("anna zegt: hallo Antwoord met 'zeg: ...' om iedereen aan tafel te "
                                          "antwoorden.")
    assert got[address("cleo")].startswith("anna sagt: hallo Antworte mit 'sag: ...', um allen am Tisch zu "
                                           "antworten.")


def test_too_many_lines_a_day(g: MailGames) -> None:
    body = "\n".join(f"say: line {i}" for i in range(talk.PER_DAY + 1))
    lines, sent = run(g, reply_to(g.welcome["cleo"], "cleo", body))
    assert lines[-1].endswith(f"talk refused: you have said {talk.PER_DAY} things in game m1 today, the most a "
                              f"day; try again tomorrow (nothing was passed on)")
    assert talk.talk_of(g.gd, "m1") == []


def test_talk_with_an_attachment_is_refused(g: MailGames) -> None:
    lines, sent = run(g, reply_to(g.welcome["anna"], "anna", "say: see the file",
                                  attachments=[("notes.bin", b"\x00\x01")]))
    assert any("talk refused: table talk comes as text alone, without attachments (nothing was passed on)" in line
               for line in lines), lines


def test_the_archive_of_a_finished_game_shows_its_public_talk_escaped_and_no_private_talk(pbem: Pbem) -> None:
    from pbem import bots
    from pbem.game import apply_orders, show, waiting_for

    g, welcome = talk_table(pbem, "private")
    run(g, reply_to(welcome[address("anna")], "anna", "say: <b>bold</b> & good luck"),
        reply_to(welcome[address("ben")], "ben", "say to cleo: our secret plan"))
    state = g.state()
    while state["status"] == "active":  # the bots play it out, as the archive's tests do
        player = waiting_for(state)[0]
        seen = show(state, player)
        state, _ = apply_orders(state, player, seen["turn"], [bots.choose("medici", seen["view"], player,
                                                                          seen["legal_orders"])])
    g.gd.save("m1", state)
    g.gd.commit("m1", "m1: played out\n")
    out = pbem.games.parent / "site"
    r = pbem("archive", "--out", str(out))
    assert r.exit_code == 0, r.output
    page = (out / "m1" / "index.html").read_text("utf-8")
    assert "anna says: &lt;b&gt;bold&lt;/b&gt; &amp; good luck" in page
    assert "<b>bold" not in page
    assert "secret plan" not in "".join(p.read_text("utf-8") for p in out.rglob("*.html"))


def test_refused_talk_beside_an_order_gets_its_own_answer_and_the_order_is_done(g: MailGames) -> None:
    from pbem.rules.base import order_text

    player, _ = g.mover()
    order = order_text(g.legal_order(player))
    lines, sent = run(g, reply_to(g.welcome[player], player, f"{order}\nsay to ben: psst"))
    assert any(line.endswith("(and m1: talk refused: in game m1 talk goes to every player: write 'say: ...' "
                             "(nothing was passed on))") for line in lines), lines
    mine = [m for m in sent if to(m) == address(player)]
    assert any("in game m1 talk goes to every player" in text(m) for m in mine)
    assert len({str(m["Message-ID"]) for m in sent}) == len(sent)
    assert g.mover() != (player, 1)


def test_talk_in_a_game_with_a_bot_goes_to_the_people_only(pbem: Pbem) -> None:
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    g.write_config()
    r = pbem("new", "medici", "m1", "--weak-seed", "--seed", "s", "--player", f"anna={address('anna')}",
             "--bot", "robo", "--player", f"cleo={address('cleo')}")
    assert r.exit_code == 0, r.output
    welcome = {to(m): m for m in g.outbox.new()}
    lines, sent = run(g, reply_to(welcome[address("anna")], "anna", "say: hi all"))
    assert lines == ["m1: mail from anna@players.test: m1: anna said 1 line(s) of talk to cleo"]
    assert [to(m) for m in sent] == [address("cleo")]


@pytest.mark.parametrize(("talk_mode", "lang", "shown", "not_shown"), [
    ("public", "en", ["say: ... a line to everyone at the table"], ["say to ben"]),
    ("private", "en", ["say: ... a line to everyone at the table", "say to ben: ...", "a line to ben alone"], []),
    ("none", "en", [], ["say:"]),
    ("private", "de", ["sag: ...      ein Wort an alle am Tisch", "sag zu ben: ...", "ein Wort nur an ben"], ["say"]),
    ("public", "nl", ["zeg: ...      een bericht aan iedereen aan tafel"], ["say", "zeg tegen"]),
])
def test_help_names_the_talk_the_game_allows(pbem: Pbem, talk_mode: str, lang: str, shown: list[str],
                                             not_shown: list[str]) -> None:
    g, welcome = talk_table(pbem, talk_mode)
    if lang != "en":
        assert pbem("set", "m1", "--language", f"anna={lang}").exit_code == 0
    _, sent = run(g, reply_to(welcome[address("anna")], "anna", {"en": "help", "de": "hilfe", "nl": "help"}[lang]))
    assert [to(m) for m in sent] == [address("anna")]
    body = sent[0].get_body(("plain",)).get_content()
    for line in shown:
        assert line in body
    for word in not_shown:
        assert word not in body
    assert max(len(line) for line in body.splitlines()) <= 72


def test_one_mail_of_twenty_lines_is_one_mail_to_each_other_player(pbem: Pbem) -> None:
    """A talk mail of 20 lines in a game of four: three mails, one to each other player, its lines in
    the order said; the lines said to ben alone are in his mail only."""
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    g.write_config()
    four = ("anna", "ben", "cleo", "dora")
    r = pbem("new", "medici", "m1", "--weak-seed", "--seed", "s", "--talk", "private",
             *[a for p in four for a in ("--player", f"{p}={address(p)}")])
    assert r.exit_code == 0, r.output
    welcome = {to(m): m for m in g.outbox.new()}
    said = [f"say to ben: just us {i}" if i in (4, 11) else f"say: line {i}" for i in range(talk.PER_DAY)]
    lines, sent = run(g, reply_to(welcome[address("anna")], "anna", "\n".join(said)))
    assert lines == ["m1: mail from anna@players.test: m1: anna said 20 line(s) of talk to ben, cleo, dora"]
    assert sorted(to(m) for m in sent) == [address("ben"), address("cleo"), address("dora")]
    assert len({str(m["Message-ID"]) for m in sent}) == 3
    for msg in sent:
        body = msg.get_body(("plain",)).get_content().replace("\r\n", "\n")
        heard = [line for line in body.split("\n") if line.startswith("anna says")]
        public = [f"anna says: line {i}" for i in range(talk.PER_DAY) if i not in (4, 11)]
        if to(msg) == address("ben"):
            assert heard == [f"anna says: line {i}" if i not in (4, 11) else f"anna says to you: just us {i}"
                             for i in range(talk.PER_DAY)]
        else:
            assert heard == public and "just us" not in msg.as_string()
    # the day's lines are counted, not the mails: one line more is refused, and nothing goes out
    lines, sent = run(g, reply_to(welcome[address("anna")], "anna", "say: one more"))
    assert lines[-1].endswith("talk refused: you have said 20 things in game m1 today, the most a day; try again "
                              "tomorrow (nothing was passed on)")
    assert [to(m) for m in sent] == [address("anna")]


def test_a_resigned_seat_no_longer_talks(pbem: Pbem) -> None:
    """ben resigns m1 (his `stop` confirmed by his reply to the question); his `say:` with his old key
    reaches nobody, and he is told why in his language (he plays m2 too, so he still hears from pbem)."""
    g = started_game(pbem)
    r = pbem("new", "medici", "m2", "--weak-seed", "--seed", "t",
             *[a for p in ("ben", "cleo", "dora") for a in ("--player", f"{p}={address(p)}")])
    assert r.exit_code == 0, r.output
    g.outbox.skip()
    _, sent = run(g, reply_to(g.welcome["ben"], "ben", "stop"))
    ask = sent[0]
    lines, _ = run(g, reply_to(ask, "ben", "stop"))
    assert "m1: stop: ben resigned" in lines[0], lines
    assert pbem("set", "m1", "--language", "ben=de").exit_code == 0
    g.outbox.skip()
    for key_of in (g.welcome["ben"], ask):  # an old key of his seat, and the key that resigned it
        lines, sent = run(g, reply_to(key_of, "ben", "say: I am still here"))
        assert lines == ["m1: mail from ben@players.test: m1: talk refused: you resigned from game m1: your seat no "
                         "longer talks at its table (nothing was passed on)"]
        assert [to(m) for m in sent] == [address("ben")]
        assert "du bist aus der Partie m1 ausgestiegen: dein Platz spricht nicht mehr am Tisch (nichts wurde " \
               "weitergegeben)" in text(sent[0])
    assert talk.talk_of(g.gd, "m1") == []
    # his token proves the seat no more than his key does
    lines, sent = run(g, player_mail(address("ben"), f"say: token {g.tokens['ben']} here"))
    assert lines == ["m1: mail from ben@players.test: m1: talk refused: you resigned from game m1: your seat no "
                     "longer talks at its table (nothing was passed on)"]
    assert [to(m) for m in sent] == [address("ben")] and g.tokens["ben"] not in sent[0].as_string()
    assert talk.talk_of(g.gd, "m1") == []


def test_help_names_another_seat_in_its_example_of_private_talk(pbem: Pbem) -> None:
    """ben's help shows private talk to the seat after his, never to himself."""
    g, welcome = talk_table(pbem, "private")
    _, sent = run(g, reply_to(welcome[address("ben")], "ben", "help"))
    body = sent[0].get_body(("plain",)).get_content()
    assert "say to cleo: ..." in body and "a line to cleo alone" in body
    assert "say to ben" not in body
