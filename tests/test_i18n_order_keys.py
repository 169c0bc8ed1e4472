"""The order block's keys in the player's words: a German player writes `nächster:`, `dauer:`,
`berichte: alle` and `zug: nächster`, a Dutch one `volgende:`, `vast:`, `verslagen: alle` and
`beurt: volgende`, in a one-line reply or a turn file, and `pbem advance` reads them as `next:`,
`standing:`, `reports: all` and `turn: next` (which anyone may still write); their reports name the
keys in their words."""

from __future__ import annotations

import pytest

from conftest import Pbem
from conftest_mail import FilesOut, MaildirDrop, MailGames, address
from test_lobby import plain
from test_reply_keys import latest, mail_lines, reply

LANGS = {"anna": "de", "ben": "nl"}
WORDS = {"de": {"ahead": "nächster: bieten: 9", "standing": "dauer: höchstgebot: 9", "reports": "berichte: alle",
                "turn": "zug: nächster\nbieten: 8", "shown": ("'dauer:'", "'dauer: []'")},
         "nl": {"ahead": "volgende: bieden: 9", "standing": "vast: maxbod: 9", "reports": "verslagen: alle",
                "turn": "beurt: volgende\nbieden: 8", "shown": ("'vast:'", "'vast: []'")}}


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    games = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    games.write_config()
    games.new()
    for player, lang in LANGS.items():
        assert pbem("set", "m1", "--language", f"{player}={lang}").exit_code == 0
    games.outbox.skip()
    return games


def not_moving(g: MailGames) -> list[str]:
    return [p for p in LANGS if p not in g.pbem.show("m1")["waiting_for"]]


@pytest.mark.parametrize("kind", ["ahead", "standing", "reports", "turn"])
def test_the_keys_in_german_and_dutch_are_read_as_the_english_ones(g: MailGames, kind: str) -> None:
    expected = {"ahead": "sent ahead: queued bid: 9", "standing": "any time: standing orders max_bid: 9",
                "reports": "any time: reports all", "turn": "sent ahead: queued bid: 8"}[kind]
    for player in not_moving(g):
        g.inbox.deliver(reply(latest(g, player), player, WORDS[LANGS[player]][kind] + "\n"))
        lines = mail_lines(g.advance().output)
        assert lines[0].startswith(f"mail from {address(player)}: m1 {expected}"), lines
    if kind == "standing":
        assert all(g.state()["standing"][p] == [{"max_bid": 9}] for p in not_moving(g))


def test_the_english_keys_stay_readable_from_a_german_player(g: MailGames) -> None:
    (player, *_) = [p for p in not_moving(g) if LANGS[p] == "de"] or not_moving(g)
    g.inbox.deliver(reply(latest(g, player), player, "standing: max_bid: 7\n"))
    assert mail_lines(g.advance().output) == [f"mail from {address(player)}: m1 any time: standing orders max_bid: 7"]


def test_a_report_names_the_keys_in_its_readers_words(g: MailGames) -> None:
    for player, lang in LANGS.items():
        g.inbox.deliver(reply(latest(g, player), player, "status\n"))  # his report again, in his language
        g.advance()
        text = plain(latest(g, player))
        flat = " ".join(text.split())
        shown, cleared = WORDS[lang]["shown"]
        assert shown in flat and cleared in flat, text
        assert "'standing:" not in flat and "'standing: []'" not in flat


def test_a_turn_file_with_german_keys_is_read_as_pbem_s_own(g: MailGames) -> None:
    """A turn file attached to a fresh mail, its keys in German: `zug: nächster` sends its orders ahead
    and `berichte: alle` asks for every report, as `turn: next` and `reports: all` do."""
    from conftest_mail import player_mail, token_of

    player = next(p for p in not_moving(g) if LANGS[p] == "de") if "anna" in not_moving(g) else None
    if player is None:
        pytest.skip("anna moves first in this game")
    token = token_of(g.welcome[player])
    turn_file = f"game: m1\nplayer: {player}\ntoken: {token}\nzug: nächster\nberichte: alle\norders:\n  - bieten: 6\n"
    g.inbox.deliver(player_mail(address(player), "Im Anhang.\n", attachments=[("zug.yaml", turn_file)]))
    (line,) = mail_lines(g.advance().output)
    assert line == f"mail from {address(player)}: m1 sent ahead: queued bid: 6; reports all"
