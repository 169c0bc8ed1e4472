"""Whole mails of the table's flows read by German and Dutch players: talk passed on, `away until` and
`back`, the standings, `stop` and its confirmation, an observer's watch, and a game against bots at
the table. Each mail is in its reader's language alone: no English word of the stop list, no English
date or time, none of the other language's words."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import FilesOut, MaildirDrop, MailGames, address, answer, player_mail, send, to
from test_i18n_mail import english_words, html_text
from test_i18n_whole_mails import ENGLISH_DATE, FOREIGN
from test_lobby import plain
from pbem import bots
from pbem.rules.base import order_text
from rooms import EXAMPLE, languages, room

PLAYERS = room(EXAMPLE).PLAYERS
LANGS = languages(PLAYERS)  # German, Dutch, English round the table


def in_its_language(msg: Any, lang: str, names: tuple[str, ...] = PLAYERS) -> list[str]:
    """What in a mail (text and the phone's HTML) is not in `lang`: English words, English dates, the
    other language's words."""
    bad = []
    for part, text in (("text", plain(msg)), ("html", html_text(msg))):
        text = re.sub(r"[\w.+-]+@[\w.-]+", " ", text)
        if not text:
            continue
        bad += [f"{msg['Subject']} ({part}): {b}" for b in english_words(text, lang, names)]
        bad += [f"{msg['Subject']} ({part}): English date {d!r}" for d in ENGLISH_DATE.findall(text)]
        bad += [f"{msg['Subject']} ({part}): {w!r} of the other language" for w in FOREIGN[lang].findall(text)]
    return bad


def table(pbem: Pbem, *options: str) -> MailGames:
    """Game m1 of the example game's usual table (German, Dutch and English round it), with `options`,
    its welcome mails read."""
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    g.write_config()
    r = pbem("new", EXAMPLE, "m1", "--weak-seed", "--seed", "s", *options,
             *[a for p in PLAYERS for a in ("--player", f"{p}={address(p)}")])
    assert r.exit_code == 0, r.output
    g.outbox.skip()
    for player, lang in LANGS.items():
        if lang != "en":
            assert pbem("set", "m1", "--language", f"{player}={lang}").exit_code == 0
    return g


def latest(g: MailGames, player: str) -> Any:
    return [m for m in g.outbox.all() if to(m) == address(player)][-1]


def mails_to_foreign_readers(mails: list[Any]) -> list[tuple[Any, str]]:
    by_address = {address(p): lang for p, lang in LANGS.items()}
    return [(m, by_address[to(m)]) for m in mails if by_address.get(to(m), "en") != "en"]


def test_talk_away_back_standings_and_stop_reach_each_reader_in_his_language(pbem: Pbem) -> None:
    g = table(pbem, "--talk", "private")
    read: list[Any] = []
    for player, words in (("anna", ("sag: Viel Glück euch allen", "sag zu ben: Hallo", "weg bis 10. Dez",
                                    "wieder da", "tabelle", "stopp")),
                          ("ben", ("zeg: Veel succes", "zeg tegen anna: hoi", "weg tot 10 dec", "weer terug",
                                   "stand", "stop"))):
        for line in words:
            _, sent = answer(g, latest(g, player), address(player), line)
            assert sent, (player, line)
            read += sent
    told = mails_to_foreign_readers(read)
    subjects = {str(m["Subject"]) for m, _ in told}
    assert len(told) >= 12, subjects
    bad = [b for m, lang in told for b in in_its_language(m, lang)]
    assert not bad, "\n".join(bad)


def test_an_observer_who_asks_in_german_or_dutch_reads_every_mail_in_that_language(pbem: Pbem) -> None:
    g = table(pbem, "--observers", "yes")
    for watcher, word, lang in (("olga@watchers.test", "zuschauen m1", "de"),
                                ("piet@watchers.test", "meekijken m1", "nl")):
        _, asked = send(g, watcher, word, proven=False)
        assert [to(m) for m in asked] == [watcher]
        _, started = answer(g, asked[0], watcher, word)
        assert started and all(to(m) == watcher for m in started)
        mover = g.pbem.show("m1")["waiting_for"][0]
        order = g.legal_order(mover)
        _, after = answer(g, latest(g, mover), address(mover), order_text(order))
        reports = [m for m in after if to(m) == watcher]
        assert reports, [to(m) for m in after]
        bad = [b for m in (*asked, *started, *reports) for b in in_its_language(m, lang)]
        assert not bad, "\n".join(bad)


@pytest.mark.parametrize(("words", "lang"), [("neu medici mit bot und bot", "de"),
                                             ("nieuw medici met bot en bot", "nl")])
def test_a_game_against_bots_asked_in_german_or_dutch_is_written_in_it(pbem: Pbem, words: str, lang: str) -> None:
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games), lobby={"create": "anyone"})
    g.write_config()
    (pbem.games / "mail").mkdir()
    player = "dora@players.test"
    _, first = send(g, player, words)
    mine = [m for m in first if to(m) == player]
    assert mine
    game = only_game(g)
    seat = next(p["name"] for p in g.state(game)["players"] if p.get("email") == player)
    for _ in range(3):  # a few of his moves, each answered by the bots at once
        shown = g.pbem.show(game)
        if shown["status"] != "active" or seat not in shown["waiting_for"]:
            break
        seen = g.pbem.show(game, seat)
        order = bots.choose("medici", seen["view"], seat, seen["legal_orders"])
        _, more = answer(g, mine[-1], player, order_text(order))
        mine += [m for m in more if to(m) == player]
    assert len(mine) >= 3
    bad = [b for m in mine for b in in_its_language(m, lang, names=("bot", "bots"))]
    assert not bad, "\n".join(bad)


def only_game(g: MailGames) -> str:
    games = json.loads(g.pbem("status", "--json").stdout)
    assert len(games) == 1, games
    return games[0]["game"]
