"""Whole mails of every lobby flow read by German and Dutch players: an open game joined, listed with
`spiele`/`spellen` and left; a German challenge accepted in words, answered unclearly and lapsed; a Dutch
challenge declined; a rematch of German and Dutch seats. Each mail is in its reader's one language
(an invitee reads the challenge's, whatever words he answers in), holds no English word of the stop
list, and writes every date and time in the reader's words, the date of his own mail too."""

from __future__ import annotations

import re
from typing import Any

import pytest

import helpers
from conftest import Pbem
from conftest_mail import mail_host, FilesOut, MaildirDrop, MailGames
from pbem import lobby
from test_i18n_mail import english_words, html_text
from test_lobby import answer, plain, send, to

#: an English date or time: a weekday or month name, an ISO stamp, a raw Date: header's zone
ENGLISH_DATE = re.compile(r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)(?:day)?\b|\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b"
                          r"|\b(?:January|February|March|May|June|July|October|December)\b|\d{4}-\d\d-\d\dT\d\d"
                          r"|[+-]\d{4}\b")
#: words a mail in each language is sure to hold, and words of the other language it never holds
SURE = {"de": re.compile(r"\b(?:Partie|Plätze?|du|dich|dein\w*)\b"), "nl": re.compile(r"\b(?:partij|plaats(?:en)?|je|jou|jouw)\b")}
FOREIGN = {"de": re.compile(r"\b(?:partij|een|niet|jouw|jij|het)\b"), "nl": re.compile(r"\b(?:Partie|nicht|dich|dein\w*|und|ist)\b")}


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    return mail_host(pbem)


def read_in(msg: Any, lang: str) -> None:
    """A mail to a reader of `lang`: in his language alone, no English word, no English date."""
    for part, text in (("text", plain(msg)), ("html", html_text(msg))):
        text = re.sub(r"[\w.+-]+@[\w.-]+", " ", text)  # addresses are no words (`players.test`)
        if not text:
            continue
        assert SURE[lang].search(text), f"{msg['Subject']} ({part}) is not in {lang}:\n{text}"
        assert not FOREIGN[lang].search(text), f"{msg['Subject']} ({part}): {FOREIGN[lang].findall(text)}\n{text}"
        bad = english_words(text, lang)
        assert not bad, f"{msg['Subject']} ({part}): {bad}\n{text}"
        dates = ENGLISH_DATE.findall(text)
        assert not dates, f"{msg['Subject']} ({part}): English dates {dates}\n{text}"


def only(mails: list[Any], address: str) -> Any:
    mine = [m for m in mails if to(m) == address]
    assert len(mine) == 1, [to(m) for m in mails]
    return mine[0]


def test_an_open_game_joined_listed_and_left_in_german_and_dutch(g: MailGames) -> None:
    assert g.pbem("open", "medici", "g1", "--seats", "4").exit_code == 0
    lines, sent = send(g, "jan@x.test", "meedoen g1")
    assert lines == ["mail from jan@x.test: g1: joined as jan"]
    seated = {"jan@x.test": only(sent, "jan@x.test")}
    read_in(seated["jan@x.test"], "nl")
    lines, sent = send(g, "jutta@x.test", "mitspielen g1")
    joined = seated["jutta@x.test"] = only(sent, "jutta@x.test")
    read_in(joined, "de")
    assert "Optionen: Ausgabe Rio Grande Games (2006)." in plain(joined)  # an option in words, not `edition riogrande`
    # `spiele`/`spellen` from a seat in a game not begun: his seat, in his words
    for address, word, lang, seat in (("jutta@x.test", "spiele", "de", "g1 (Medici): 2 von 4 Plätzen besetzt"),
                                      ("jan@x.test", "spellen", "nl", "g1 (Medici): 2 van 4 plaatsen bezet")):
        lines, sent = send(g, address, word)
        games = only(sent, address)
        read_in(games, lang)
        assert seat in plain(games) and "hold no seat" not in plain(games)
    for address, words, lang in (("jutta@x.test", "aussteigen g1", "de"), ("jan@x.test", "afmelden g1", "nl")):
        lines, sent = answer(g, seated[address], address, words)  # a reply to his seat's mail proves it his
        assert lines[0].endswith(" left")
        read_in(only(sent, address), lang)
    assert lobby.load(g.gd, "g1")["seated"] == []


def a_german_player(g: MailGames) -> None:
    """anna, who plays here in German (so that she may challenge)."""
    g.new("m0")
    state = g.state("m0")
    for p in state["players"]:
        p["language"] = "de"
    g.gd.save("m0", state)
    g.outbox.skip()


def test_a_german_challenge_is_german_to_every_invitee_whatever_he_answers_in(
        g: MailGames, monkeypatch: pytest.MonkeyPatch) -> None:
    a_german_player(g)
    lines, sent = send(g, "anna@players.test", "neu medici mit emil@x.test, fenna@x.test, gert@x.test")
    assert lines == ["mail from anna@players.test: medici-1: challenged emil@x.test, fenna@x.test, gert@x.test"]
    for m in sent:
        read_in(m, "de")
    invitation = {to(m): m for m in sent}
    # emil answers in Dutch words: his answer, and every mail after it, stay German
    lines, told = answer(g, invitation["emil@x.test"], "emil@x.test", "Ja, graag!")
    assert lines == ["mail from emil@x.test: medici-1: emil@x.test accepted"]
    read_in(only(told, "emil@x.test"), "de")
    # an answer that says neither yes nor no is asked again, in the challenge's language
    lines, told = answer(g, invitation["fenna@x.test"], "fenna@x.test", "misschien")
    assert lines[0].startswith("mail from fenna@x.test: refused 'unknown'")
    unclear = only(told, "fenna@x.test")
    read_in(unclear, "de")
    assert "Deine Mail vom Samstag, 21. November, 12:30 UTC" in plain(unclear)  # his own mail's date in his words
    assert lobby.pending(lobby.load(g.gd, "medici-1"))
    # the lapse: everyone seated is told, in German
    monkeypatch.setenv("PBEM_NOW", "2026-11-28T12:00:00+00:00")
    r = g.advance()
    assert "medici-1: the invitations lapsed" in r.output
    told = g.outbox.new()
    assert sorted(to(m) for m in told) == ["anna@players.test", "emil@x.test"]
    for m in told:
        read_in(m, "de")


def test_a_dutch_challenge_declined_is_dutch_to_all(g: MailGames) -> None:
    a_german_player(g)
    lines, sent = send(g, "anna@players.test", "nieuw medici met joost@x.test, kees@x.test")
    for m in sent:
        read_in(m, "nl")
    invitation = {to(m): m for m in sent}
    lines, told = answer(g, invitation["joost@x.test"], "joost@x.test", "Nee, helaas")
    assert lines[0].endswith("too few left: medici-1 is off")
    assert sorted(to(m) for m in told) == ["anna@players.test", "joost@x.test"]
    for m in told:
        read_in(m, "nl")


def test_a_rematch_writes_to_each_seat_in_his_language(g: MailGames) -> None:
    g.new("m0")
    state = g.state("m0")
    langs = {"anna": "de", "ben": "nl", "cleo": "de"}
    for p in state["players"]:
        p["language"] = langs[p["name"]]
    while state["status"] == "active":
        state = helpers.bot_move(state)
    g.gd.save("m0", state)
    g.outbox.skip()
    lines, sent = send(g, "anna@players.test", "rematch m0")
    assert len(lines) == 1 and lines[0].endswith(": challenged ben@players.test, cleo@players.test"), lines
    assert len(sent) == 3
    for m in sent:
        read_in(m, langs[next(p["name"] for p in state["players"] if p["email"] == to(m))])
