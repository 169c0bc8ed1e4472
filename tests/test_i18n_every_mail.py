"""Every mail pbem writes to a German or a Dutch reader, walked flow by flow through `pbem advance` over a
Maildir inbox: the welcome and the reports, each command's answer (help, status, games, standing, undo,
standings, away with a day that cannot be read and one too far, back, talk, stop), a wrong line and an
illegal order, a missed deadline (the reminder, the substitute move), the lobby (an open game joined,
listed and left, help from its seat and from a stranger, a challenge declined and answered after it was
called off, a challenge answered unclearly and lapsed), an observer's mails; and every refusal id of
pbem and of each game, written in German and Dutch. Each fails on an English sentence (a run of four
words holding English function words, outside the player's quoted words and the order lines), a raw
ISO date, or a line wrapped a second time (a line's end left alone at the start of the next)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import mail_host, FilesOut, MaildirDrop, MailGames, address, answer, send, to
from test_i18n_mail import html_text
from test_i18n_table_mails import LANGS, latest, table
from test_lobby import plain
from rooms import titles


#: English words that carry a sentence; a run of words with two of them is English
FUNCTION_WORDS = {"the", "a", "of", "to", "and", "or", "is", "are", "was", "be", "been", "your", "you", "this",
                  "that", "with", "for", "not", "on", "at", "by", "it", "its", "from", "has", "have", "no", "will",
                  "can", "may", "must", "when", "if", "which", "there", "his", "her", "he", "she", "him", "they",
                  "their", "then", "into", "only", "any", "all", "every", "could", "would", "should", "does"}
#: the same spellings as a word of the reader's language
OWN = {"de": {"in", "an", "will", "was", "so", "also", "oder"}, "nl": {"in", "is", "of", "an", "will", "was"}}
RUN = 4  # words in a row that make a sentence
#: the games' titles, names written alike in every language (the lobby's list of games holds them all)
TITLES = re.compile("|".join(rf"(?<![\w-]){re.escape(t)}(?![\w-])" for t in titles()))


def as_names(title: re.Match[str]) -> str:
    """A title's words as names: each still a word of the run it stands in, none an English one."""
    return re.sub(r"[^\W\d_][\w']*", "X", title.group(0))
ISO_DAY = re.compile(r"(?<![\w-])\d{4}-\d\d-\d\d(?![\w-])")
#: what a mail quotes as the player or the rules write it: quoted text, order lines, addresses, links
QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|„[^“\n]*“|[\w.+-]+@[\w.-]+|https?://\S+|<[^>\n]*>")


def english_runs(text: str, lang: str) -> list[str]:
    """The runs of RUN words of `text` that read as English: two or more English function words (none
    of them a word of `lang` as well), outside quoted words, the games' titles and the order block."""
    from pbem.report import BEGIN, END

    text = re.sub(re.escape(BEGIN) + r".*?" + re.escape(END), " ", text, flags=re.S)
    found = []
    for line in text.split("\n"):
        if line.lstrip().startswith((">", "sha256", "token:", "game:", "player:", "turn:", "orders:", "-")) \
                and "'" not in line:
            continue
        words = re.findall(r"[^\W\d_][\w']*", TITLES.sub(as_names, QUOTED.sub(" | ", line)))
        for k in range(len(words) - RUN + 1):
            window = words[k:k + RUN]
            english = [w for w in window if w.casefold() in FUNCTION_WORDS and w.casefold() not in OWN[lang]]
            if len(english) >= 2:
                found.append(f"{' '.join(window)!r} in {line.strip()!r}")
                break
    return found


def wrapped_twice(text: str) -> list[str]:
    """Lines that a second wrap left behind: a short line that ends a broken sentence, followed in the
    same paragraph (same indent) by one whose first word would have fitted on it."""
    found = []
    lines = text.split("\n")
    for above, short, below in zip(lines, lines[1:], lines[2:]):
        lead = len(short) - len(short.lstrip(" "))
        if not short.strip() or not below.strip() or not above.strip() or len(short) > 30:
            continue
        if len(below) - len(below.lstrip(" ")) != lead or len(above) < 55:
            continue
        if short.rstrip().endswith((":", ".", "!", "?", ")")) or above.rstrip().endswith(":") \
                or re.match(r"\s*(?:[-*•]|\d+[.)])\s", below):  # a list under its heading
            continue
        first = below.split()[0]
        if len(short.rstrip()) + 1 + len(first) <= 72 and not below.lstrip().startswith((BLOCK_LINES)):
            found.append(f"{short.strip()!r} alone between {above.strip()!r} and {below.strip()!r}")
    return found


BLOCK_LINES = ("-----", "token:", "#")


def faults(msg: Any, lang: str) -> list[str]:
    """What in a mail to a reader of `lang` (its text and its phone's HTML) is English, a raw date, or
    wrapped twice."""
    bad = []
    for part, text in (("text", plain(msg)), ("html", html_text(msg))):
        if not text:
            continue
        bad += [f"{msg['Subject']} ({part}): English {b}" for b in english_runs(text, lang)]
        bad += [f"{msg['Subject']} ({part}): raw date {d!r}" for d in ISO_DAY.findall(QUOTED.sub(" ", text))]
        if part == "text":
            bad += [f"{msg['Subject']}: wrapped twice: {b}" for b in wrapped_twice(text)]
    subject = str(msg["Subject"])
    bad += [f"subject {subject!r}: English" for _ in english_runs(subject, lang)]
    if re.search(r"\]\s+lobby:", subject):
        bad.append(f"subject {subject!r}: names the lobby")
    return bad


def test_the_detectors_find_what_they_look_for() -> None:
    """An English sentence in a German line, a raw day, and a word left alone by a second wrap are
    found; German and Dutch sentences, quoted English orders and plain lists are not."""
    assert english_runs("  the mail holds no orders: put them between the lines", "de")
    assert not english_runs("Deine Mail konnte nicht verwendet werden: 'away until 3 Dec' ist gut", "de")
    assert not english_runs("Of stuur één woord: hulp, status, spellen, vast of terug.", "nl")
    for title in titles():  # a game's title is a name: its words are no English, and no run ends at it
        assert not english_runs(f"Neu bei uns: {title} (zum Mitspielen: 'mitspielen').", "de")
    assert ISO_DAY.findall("spätestens bis 2026-12-05")
    assert wrapped_twice("Um zuzuschauen, antworte auf diese Mail mit 'zuschauen m1'. Wenn du\nnicht\n"
                         "gefragt hast, beachte diese Mail nicht.")
    assert not wrapped_twice("Mögliche Befehle:\n  - draw\n  - auction\n")


def readers(mails: list[Any], langs: dict[str, str]) -> list[tuple[Any, str]]:
    return [(m, langs[to(m)]) for m in mails if langs.get(to(m), "en") != "en"]


def test_every_command_and_refusal_of_a_game_reads_in_german_and_dutch(pbem: Pbem) -> None:
    g = table(pbem, "--talk", "private", "--observers", "yes")
    read: list[Any] = []  # (the welcome mails went out before the seats chose their languages)
    words = {"anna": ("hilfe", "status", "spiele", "dauerbefehle", "tabelle", "Hallo zusammen", "palast grau Z99",
                      "sag: Viel Glück euch allen", "sag zu ben: Hallo", "weg bis irgendwann", "weg bis 3. Mär",
                      "weg bis 10. Dez", "wieder da", "zurück", "stopp"),
             "ben": ("hulp", "status", "spellen", "vast", "stand", "Hallo allemaal", "paleis grijs Z99",
                     "zeg: Veel succes", "zeg tegen anna: hoi", "weg tot ooit", "weg tot 3 mrt", "weg tot 10 dec",
                     "weer terug", "terug", "stop")}
    for player, lines in words.items():
        for line in lines:
            _, sent = answer(g, latest(g, player), address(player), line)
            assert sent, (player, line)
            read += sent
    for watcher, word in (("olga@watchers.test", "zuschauen m1"), ("piet@watchers.test", "meekijken m1")):
        _, asked = send(g, watcher, word, proven=False)
        _, started = answer(g, asked[0], watcher, word)
        read += asked + started
    for _ in range(4):  # a few moves: reports to everyone, the observers' too
        mover = g.pbem.show("m1")["waiting_for"][0]
        from pbem.rules.base import order_text

        _, sent = answer(g, latest(g, mover), address(mover), order_text(g.legal_order(mover)))
        read += sent
    langs = {address(p): lang for p, lang in LANGS.items()} | {"olga@watchers.test": "de", "piet@watchers.test": "nl"}
    told = readers(read, langs)
    assert len(told) >= 30, len(told)
    bad = [b for m, lang in told for b in faults(m, lang)]
    assert not bad, "\n".join(dict.fromkeys(bad))


def test_a_missed_deadline_reads_in_german_and_dutch(pbem: Pbem, monkeypatch: pytest.MonkeyPatch) -> None:
    g = table(pbem, "--deadline", "48h", "--policy", "default")
    read = []
    for hours in ("2026-11-23T02:00:00+00:00", "2026-11-24T13:00:00+00:00", "2026-11-27T13:00:00+00:00"):
        monkeypatch.setenv("PBEM_NOW", hours)  # the reminder, then the substitute move
        g.advance()
        read += g.outbox.new()
    langs = {address(p): lang for p, lang in LANGS.items()}
    told = readers(read, langs)
    assert told
    text = " ".join(plain(m) for m, _ in told)
    assert "[Ersatzzug: Standardbefehl]" in text and "[vervangende zet: standaardorder]" in text, text
    bad = [b for m, lang in told for b in faults(m, lang)]
    assert not bad, "\n".join(dict.fromkeys(bad))


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    return mail_host(pbem)


def test_every_lobby_flow_reads_in_german_and_dutch(g: MailGames, monkeypatch: pytest.MonkeyPatch) -> None:
    from test_i18n_whole_mails import a_german_player

    read: list[tuple[Any, str]] = []

    def mails(sent: list[Any], lang: str, address_: str) -> list[Any]:
        mine = [m for m in sent if to(m) == address_]
        read.extend((m, lang) for m in mine)
        return mine

    assert g.pbem("open", "medici", "g1", "--seats", "4").exit_code == 0
    for address_, lang, words in (("jutta@x.test", "de", ("mitspielen g1", "spiele", "hilfe", "aussteigen g1")),
                                  ("jan@x.test", "nl", ("meedoen g1", "spellen", "hulp", "afmelden g1"))):
        seat = None
        for line in words:
            # a reply to the seat's mail proves the address (the answer to `hilfe` carries no key)
            _, sent = send(g, address_, line) if seat is None else answer(g, seat, address_, line)
            mine = mails(sent, lang, address_)
            assert mine, (address_, line)
            seat = seat or mine[0]
    for stranger, word, lang in (("dora@x.test", "hilfe", "de"), ("dirk@x.test", "hulp", "nl")):
        _, sent = send(g, stranger, word, proven=False)
        (told,) = mails(sent, lang, stranger)
        assert "mitspielen" in plain(told) or "meedoen" in plain(told)
    a_german_player(g)
    _, sent = send(g, "anna@players.test", "nieuw medici met joost@x.test, kees@x.test")
    invitation = {to(m): m for m in sent}
    for m in sent:
        read.append((m, "nl"))
    _, told = answer(g, invitation["joost@x.test"], "joost@x.test", "Nee, helaas")
    read += [(m, "nl") for m in told]
    _, told = answer(g, invitation["kees@x.test"], "kees@x.test", "misschien")  # the game is off already
    (off,) = mails(told, "nl", "kees@x.test")
    assert "gaat niet door" in plain(off)
    _, sent = send(g, "anna@players.test", "neu medici mit emil@x.test, fenna@x.test")
    invitation = {to(m): m for m in sent}
    read += [(m, "de") for m in sent]
    _, told = answer(g, invitation["fenna@x.test"], "fenna@x.test", "vielleicht")
    mails(told, "de", "fenna@x.test")
    monkeypatch.setenv("PBEM_NOW", "2026-11-29T12:00:00+00:00")
    g.advance()
    read += [(m, "de") for m in g.outbox.new() if to(m) != "anna@players.test"]
    assert len(read) >= 14, len(read)
    bad = [b for m, lang in read for b in faults(m, lang)]
    assert not bad, "\n".join(dict.fromkeys(bad))


def refusal_ids() -> list[tuple[str, str, str]]:
    """Every refusal id of pbem and of each game: (its catalog's game, id, English format)."""
    import importlib

    from pbem.refusals import MESSAGES
    from pbem.rules.base import KNOWN

    found = [("", key, fmt) for key, fmt in MESSAGES.items()]
    for game, rules in KNOWN.items():  # its refusals beside its rules' module, as the contract has them
        try:
            module = importlib.import_module(f"{rules}_refusals")
        except ImportError:
            module = importlib.import_module(f"{rules}.refusals")
        own = getattr(module, "MESSAGES", {})
        found += [(game, key, fmt) for key, fmt in own.items() if key not in MESSAGES]
    return found


@pytest.mark.parametrize("lang", ["de", "nl"])
def test_every_refusal_id_is_written_in_german_and_dutch(lang: str) -> None:
    from pbem.errors import Refusal
    from pbem.report import refusal_words

    bad = []
    ids = refusal_ids()
    assert len(ids) > 50
    for game, key, fmt in ids:
        values = {name: 1 if kind == "d" else "X" for name, kind in re.findall(r"%\((\w+)\)([sdr])", fmt)}
        shown = refusal_words(Refusal(key, fmt, **values), lang, game or None)  # as a mail writes it
        bad += [f"{game or 'pbem'} {key}: {b}" for b in english_runs(shown, lang)]
    assert not bad, "\n".join(bad)
