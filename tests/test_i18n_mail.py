"""Players in German and Dutch by mail: whole games of every ruleset with a German and a Dutch player who
reply with the order alone in their own order words (`bieten 7`, `passen`, `ziehen`), from the shapes
of reply real clients write; every mail in its reader's language, at 72 columns, with no other
player's secret; the log and turn files keep the canonical orders. And the player's own `language de`,
the stranger's answer in the host's language, a reminder's due time in the player's time zone."""

from __future__ import annotations

import functools
import json
import re
from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import GM, FilesOut, MaildirDrop, MailGames, address, player_of
from helpers import seed_args
from rooms import GAMES, languages, room, titles
from pbem import bots
from pbem.i18n import order_words
from pbem.rules.base import get_ruleset, order_text
from test_mail_hardening import SEED, at
from test_reply_keys import CLIENTS, answers, latest, mail_lines, plain, reply, typed

pytestmark = pytest.mark.usefixtures("pictures_unexamined")

#: each player's language, round any table of any game (its room's players are tests/rooms.NAMES)
LANGS = languages()
# a word each language's mail to a player is sure to hold in its subject
SUBJECT_WORD = {"de": re.compile(r"\b(Zug|Partie|willkommen)\b"), "nl": re.compile(r"\b(beurt|partij|welkom)\b"),
                "en": re.compile(r"\b(turn|game|welcome)\b")}


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    return MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))


def new_game(g: MailGames, ruleset: str, players: tuple[str, ...], *extra: str) -> dict[str, str]:
    """A game whose German and Dutch players read their welcome in their language; the tokens as
    `pbem new` printed them."""
    g.write_config()
    args = ["new", ruleset, "g1", *seed_args(SEED), "--json", *extra]
    assert set(players) <= set(LANGS), f"the players {players} are not names of tests/rooms.NAMES"
    for p in players:
        args += ["--player", f"{p}={address(p)}"]
        if LANGS[p] != "en":
            args += ["--language", f"{p}={LANGS[p]}"]
    r = g.pbem(*args)
    assert r.exit_code == 0, r.output
    for msg in g.outbox.new():
        g.welcome[player_of(msg)] = msg
    g.tokens = {p["name"]: p["token"] for p in json.loads(r.stdout)["players"]}
    return g.tokens


def in_words(text: str, game: str, lang: str, pick: int) -> str:
    """An order as a player of `lang` types it: each canonical word in one of his words (`pick` chooses
    among them, so every word a language has is sent now and then)."""
    words = order_words(game)

    def swap(m: re.Match[str]) -> str:
        spelt = words.get(m.group(0), {}).get(lang)
        return spelt[pick % len(spelt)] if spelt else m.group(0)

    return re.sub(r"(?<![\w-])[A-Za-z_][\w-]*(?![\w-])", swap, text) if lang != "en" else text


def body(msg: Any) -> str:
    return plain(msg)


# -- no English word in a German or Dutch mail ---------------------------------------------------------

#: English words no German or Dutch mail may show: pbem's own words and the games' (the order block
#: between the marker lines, pbem's keys a sentence quotes and names are left out first)
STOP = {"the", "The", "your", "Your", "you", "You", "with", "and", "for", "not", "are", "this", "that", "from",
        "when", "which", "must", "may", "send", "reply", "Reply", "game", "turn", "player", "players", "nothing",
        "none", "nobody", "every", "each", "first", "only", "left", "now", "here", "there", "twice", "times",
        "line", "key", "keys", "mapping", "list", "text", "empty", "valid", "allowed", "found", "expected",
        "character", "attachment", "attachments", "yours", "or", "to", "at", "by", "no", "be", "has", "have", "it",
        "its", "on", "of", "is", "in", "per", "help", "games", "undo", "language", "order", "orders",
        # the games' words
        "cups", "cup", "blocked", "queue", "member", "members", "carriage", "target", "spy", "doorman", "petitioner",
        "petitioners", "offers", "strongest", "scored", "gift", "gifts", "card", "cards", "deck", "lot", "bid",
        "bag", "ship", "ships", "harbour", "tile", "tiles", "palace", "stable", "merchant", "wall", "roof", "time",
        "VP", "lady", "ladies", "debutants", "round", "day", "money", "value", "hold", "auctioneer", "guard",
        "location", "family", "scandal", "boast", "spend", "taken", "ring", "hand", "bonus", "start", "mail",
        "status", "over", "standing"}
#: English words a language writes too, as its own
SHARED = {"de": {"in", "Bonus", "bonus", "Hand", "Ring", "start", "Start", "status", "Status", "per"},
          "nl": {"in", "is", "of", "order", "orders", "over", "per", "ring", "hand", "bonus", "start", "mail", "status"}}
#: what a German or Dutch mail quotes as it is: pbem's keys and the order block's lines, the log's keys
PBEM_KEYS = re.compile(r"'[\w.-]+\.(?:yaml|yml|txt)'|'(?:game|player|token|turn|orders|standing|reports)'|'(?:turn: next|next: \.\.\.|reports: all|reports: moves|standing: \[\]|standing:|token: |"
                       r"turn:|game:|player:|token:|orders:|moves|all)'|\"(?:turn: next|reports: all|reports: moves|"
                       r"standing: \[\])\"|\b(?:game|player|token|turn|orders|standing|reports):|pbem verify \S+|"
                       r"----- pbem orders (?:begin|end) -----|\(game:, player:, token:, turn:, orders:\)")


def english_words(text: str, lang: str, names: tuple[str, ...] = ()) -> list[str]:
    """The words of STOP in a mail to a reader of `lang` (its order block, pbem's own keys, the players'
    names and the games' titles left out): each with the line it stands in."""
    from pbem.report import BEGIN, END

    text = re.sub(re.escape(BEGIN) + r".*?" + re.escape(END), " ", text, flags=re.S)
    found = []
    left_out = _names_left_out((*names, *titles()))
    for line in text.split("\n"):
        if line.startswith(("Message-ID", "References", "In-Reply-To")) or "sha256" in line:
            continue
        bare = PBEM_KEYS.sub(" ", line)
        for name, pattern in left_out:
            if name in bare:  # the pattern finds nothing where the name is not in the line at all
                bare = pattern.sub(" ", bare)
        for word in WORD.findall(bare):
            word = word.strip("'")
            if word in STOP and word not in SHARED[lang]:
                found.append(f"{word!r} in {line.strip()!r}")
    return found


WORD = re.compile(r"[^\W\d_][\w']*")


@functools.lru_cache(maxsize=64)
def _names_left_out(names: tuple[str, ...]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Each name with the pattern that finds it as a whole word, in the order they are left out (a
    line's words are looked up line by line, hundreds of thousands of them a game)."""
    return tuple((name, re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")) for name in names)


def html_text(msg: Any) -> str:
    """The words of a mail's HTML part (the phone's), as a reader sees them."""
    import html as markup

    for part in msg.walk():
        if part.get_content_type() == "text/html":
            shown = re.sub(r"<(style|script)[^>]*>.*?</\1>", " ", part.get_content(), flags=re.S | re.I)
            shown = re.sub(r"<br\s*/?>|</(p|div|tr|li|h\d|pre|table)>", "\n", shown, flags=re.I)
            return markup.unescape(re.sub(r"<[^>]+>", " ", shown))
    return ""


def no_english(mails: list[Any], names: tuple[str, ...]) -> list[str]:
    """Every STOP word of the German and Dutch mails, in their text and their HTML part."""
    bad = []
    for msg in mails:
        lang = LANGS[player_of(msg)]
        if lang == "en":
            continue
        for part, text in (("text", plain(msg)), ("html", html_text(msg))):
            bad += [f"{msg['Subject']} ({part}): {w}" for w in english_words(text, lang, names)]
    return bad


@pytest.mark.parametrize("ruleset", GAMES)
def test_a_whole_game_with_a_german_and_a_dutch_player_in_their_order_words(g: MailGames, ruleset: str) -> None:
    """Every decision answered by a one-line reply in the mover's own words, to the end: each queued as
    its canonical order, none refused; each player's mail in his language, at 72 columns, with no
    other player's token and no seed before the end; the log holds exactly the canonical orders."""
    tokens = new_game(g, ruleset, room(ruleset).PLAYERS)
    mails = list(g.welcome.values())
    sent: list[tuple[str, Any]] = []
    typed_words: set[str] = set()
    for n in range(2000):
        shown = g.pbem.show("g1")
        if shown["status"] != "active":
            break
        player = shown["waiting_for"][0]
        seen = g.pbem.show("g1", player)
        order = bots.choose(ruleset, seen["view"], player, seen["legal_orders"])
        line = in_words(typed(order), ruleset, LANGS[player], n)
        typed_words.add(line.split()[0].casefold())
        client = CLIENTS[n % len(CLIENTS)]
        g.inbox.deliver(client(latest(g, player), player, line))
        r = g.advance()
        assert mail_lines(r.output) == [f"mail from {address(player)}: g1 turn {seen['turn']}: queued "
                                        f"{order_text(order)}"], (client.__name__, line, r.output)
        sent.append((player, order))
        mails += g.outbox.new()
    assert g.pbem.show("g1")["status"] == "finished"
    log = g.state("g1")["log"]
    assert [(e["player"], e["order"]) for e in log if e.get("by") is None] == sent
    assert g.pbem("verify", "g1").exit_code == 0
    assert g.inbox.set_aside() == []
    if order_words(ruleset):  # the players did type words of their own languages
        assert typed_words - {typed(o).split()[0].casefold() for _, o in sent}, typed_words
    seed = g.state("g1")["seed"]
    for msg in mails:
        to = player_of(msg)
        text = body(msg)
        assert [line for line in text.splitlines() if len(line) > 72] == [], (to, msg["Subject"])
        assert SUBJECT_WORD[LANGS[to]].search(str(msg["Subject"])), (to, msg["Subject"])
        for other, token in tokens.items():
            if other != to:
                assert token not in text, f"{other}'s token in a mail to {to}"
        if "the game is over" not in str(msg["Subject"]) and "Partie ist zu Ende" not in str(msg["Subject"]) \
                and "partij is afgelopen" not in str(msg["Subject"]):
            assert seed not in text, f"the seed in a mail to {to} before the end"
    bad = no_english(mails, (*room(ruleset).PLAYERS, seed, "g1"))
    assert not bad, "\n".join(sorted(set(b.split(": ", 1)[1] for b in bad))[:60])
    acks = [m for m in mails if str(m["Message-ID"]).startswith("<pbem.reply.")]
    for m in acks:
        first = body(m).splitlines()[0]
        assert first.startswith({"de": "Deine Befehle für die Partie g1", "nl": "Je orders voor partij g1",
                                 "en": "Your orders for game g1"}[LANGS[player_of(m)]]), first


def test_a_medici_game_keeps_the_hidden_cards_in_every_language(g: MailGames) -> None:
    """The secrecy checks of tests/test_secrets.py over the German and Dutch reports of a whole game:
    no player reads the bag's order or the cards set aside, in any language."""
    from test_secrets import Secrets

    rules = get_ruleset("medici")
    tokens = new_game(g, "medici", room("medici").PLAYERS)
    for _ in range(400):
        state = g.state("g1")
        finished = state["status"] != "active"
        secrets = Secrets(state["seed"], tokens, rules.view(state["engine"], None), finished)
        for p in room("medici").PLAYERS:
            text = g.pbem("show", "g1", "--as", p).stdout
            secrets.check_text(text, p, f"show --as {p} ({LANGS[p]}) at turn {state['engine']['turn']}")
        for msg in g.outbox.new():
            secrets.check_text(body(msg), player_of(msg), f"mail {msg['Subject']}")
        if finished:
            break
        player = g.pbem.show("g1")["waiting_for"][0]
        seen = g.pbem.show("g1", player)
        order = bots.choose("medici", seen["view"], player, seen["legal_orders"])
        g.inbox.deliver(reply(latest(g, player), player, in_words(typed(order), "medici", LANGS[player], 0)))
        g.advance()
    assert g.state("g1")["status"] == "finished"


# -- the player's own language ----------------------------------------------------------------------

def command(g: MailGames, player: str, line: str) -> tuple[list[str], str]:
    g.inbox.deliver(reply(latest(g, player), player, line))
    r = g.advance()
    got = answers(g)
    assert len(got) == 1, r.output
    return mail_lines(r.output), plain(got[0])


@pytest.mark.parametrize("line, lang, said", [
    ("language de", "de", "Ab jetzt schreibt pbem dir auf Deutsch, in der Partie g1."),
    ("Sprache de.", "de", "Ab jetzt schreibt pbem dir auf Deutsch, in der Partie g1."),
    ("taal nl", "nl", "Vanaf nu schrijft pbem je in het Nederlands, in partij g1."),
])
def test_a_player_chooses_his_language_by_mail(g: MailGames, line: str, lang: str, said: str) -> None:
    new_game(g, "medici", ("cleo", "anna", "ben"))
    lines, text = command(g, "cleo", line)
    assert lines == [f"mail from {address('cleo')}: g1: answered 'language {lang}' (queued language {lang})"]
    assert text.startswith(said + "\n"), text
    assert next(p for p in g.state("g1")["players"] if p["name"] == "cleo")["language"] == lang
    assert not any((g.root / "g1" / "queue").glob("*.yaml"))
    _, text = command(g, "cleo", "status")  # and he reads his report in it
    assert text.startswith({"de": "Dein letzter Bericht", "nl": "Je laatste verslag"}[lang]), text


def test_an_unknown_language_is_answered_with_the_ones_pbem_writes(g: MailGames) -> None:
    new_game(g, "medici", ("anna", "ben", "cleo"))
    before = g.state("g1")
    lines, text = command(g, "cleo", "language fr")
    assert lines == [f"mail from {address('cleo')}: g1: answered 'language fr'"]
    assert text == ("pbem does not write fr. Reply with one of these:\n"
                    "  language en   (English)\n  language de   (Deutsch)\n  language nl   (Nederlands)\n")
    assert g.state("g1")["players"] == before["players"]
    _, text = command(g, "anna", "sprache xx")  # a German player is answered in German
    assert text.startswith("pbem schreibt kein xx. Antworte mit einem von diesen:\n"), text


def test_a_language_command_among_orders_is_refused(g: MailGames) -> None:
    new_game(g, "medici", ("anna", "ben", "cleo"))
    mover = g.pbem.show("g1")["waiting_for"][0]
    g.inbox.deliver(reply(latest(g, mover), mover, "language de\ndraw"))
    r = g.advance()
    assert "'language de' is a command: send it alone, in a mail of its own" in r.output  # the GM reads English
    (msg,) = answers(g)
    assert {"anna": "'language de' ist ein Kommando: schicke es allein, in einer eigenen Mail",
            "ben": "'language de' is een opdracht: stuur die alleen, in een eigen mail",
            "cleo": "'language de' is a command: send it alone, in a mail of its own"}[mover] in plain(msg)


def test_the_help_in_german_lists_command_words_pbem_reads(g: MailGames) -> None:
    """Each command word the German and Dutch help names is one pbem takes."""
    from pbem.mail.commands import command_in

    new_game(g, "medici", ("anna", "ben", "cleo"))
    for player, words in (("anna", ("hilfe", "status", "spiele", "dauerbefehle", "zurück", "sprache")),
                          ("ben", ("hulp", "status", "spellen", "vast", "terug", "taal"))):
        _, text = command(g, player, {"anna": "hilfe", "ben": "hulp"}[player])
        for word in words:
            assert re.search(rf"^  {word}\b", text, re.MULTILINE), (word, text)
            assert command_in([word if word not in ("sprache", "taal") else f"{word} en"]) is not None, word


def test_a_stranger_is_answered_in_the_hosts_language(g: MailGames) -> None:
    from conftest_mail import player_mail

    g.extra["language"] = "nl"
    new_game(g, "medici", ("anna", "ben", "cleo"))
    g.inbox.deliver(player_mail("mallory@evil.test", "bid: 7", subject="hello"))
    g.advance()
    (msg,) = answers(g)
    assert " ".join(plain(msg).split()).startswith('Je mail van zaterdag 21 november, 12:30 UTC ("hello") kon niet worden gebruikt')


def test_a_reminder_names_the_due_time_in_the_players_language_and_time_zone(
        g: MailGames, monkeypatch: pytest.MonkeyPatch) -> None:
    new_game(g, "medici", ("anna", "ben", "cleo"), "--deadline", "48h", "--grace", "6h", "--policy", "default",
             "--timezone", "anna=Europe/Berlin", "--timezone", "ben=Europe/Amsterdam")
    mover = g.pbem.show("g1")["waiting_for"][0]
    at(monkeypatch, 37)
    g.advance()
    mails = {player_of(m): m for m in g.outbox.new()}
    due = {"anna": "Montag, 23. November, 13:00 MEZ", "ben": "maandag 23 november, 13:00 CET",
           "cleo": "2026-11-23T12:00:00Z"}
    for p, m in mails.items():
        text = " ".join(plain(m).split())
        assert due[p] in text, (p, text)
    late = " ".join(plain(mails[mover]).split())
    assert {"anna": "Danach, nach weiteren 6h Nachfrist, wird der Befehl",
            "ben": "Daarna, na nog 6h extra tijd, wordt de order",
            "cleo": "After that and 6h of grace, the order"}[mover] in late, late
    assert GM  # the mail came from the GM


def test_a_game_played_in_order_words_is_the_game_played_in_english(g: MailGames, tmp_path: Any) -> None:
    """The same orders sent by mail in German and Dutch words (game g1) and as English turn files (game
    g2, the same seed and players): the same order log, events and engine, and the same archive pages
    but for the game's id and its commits."""
    new_game(g, "medici", room("medici").PLAYERS)
    args = ["new", "medici", "g2", *seed_args(SEED), "--json"]
    for p in room("medici").PLAYERS:  # the same seats, other addresses: no mail of g2 is taken for g1's
        args += ["--player", f"{p}={p}.twin@players.test"]
    r = g.pbem(*args)
    assert r.exit_code == 0, r.output
    tokens = {p["name"]: p["token"] for p in json.loads(r.stdout)["players"]}
    g.outbox.skip()
    turn = tmp_path / "turn.yaml"
    for n in range(15):
        player = g.pbem.show("g1")["waiting_for"][0]
        seen = g.pbem.show("g1", player)
        order = bots.choose("medici", seen["view"], player, seen["legal_orders"])
        g.inbox.deliver(reply(latest(g, player), player, in_words(typed(order), "medici", LANGS[player], n)))
        turn.write_text(json.dumps({"game": "g2", "player": player, "token": tokens[player], "turn": seen["turn"],
                                    "orders": [order]}))
        r = g.pbem("submit", str(turn))
        assert r.exit_code == 0, r.output
        g.advance()
    one, two = g.state("g1"), g.state("g2")
    assert len(one["log"]) == 15
    for key in ("log", "events"):
        assert [{k: v for k, v in e.items() if k != "received"} for e in one[key]] == \
            [{k: v for k, v in e.items() if k != "received"} for e in two[key]], key
    assert one["engine"] == two["engine"]
    assert g.pbem("verify", "g1").exit_code == 0
    out = tmp_path / "site"
    assert g.pbem("archive", "g1", "g2", "--out", str(out)).exit_code == 0
    pages = sorted(p.name for p in (out / "g1").iterdir())
    assert pages == sorted(p.name for p in (out / "g2").iterdir()) and len(pages) > 15

    def same(text: str) -> str:
        return re.sub(r"\b[0-9a-f]{7,40}\b", "COMMIT", text.replace("g2", "g1"))

    for page in pages:
        assert same((out / "g1" / page).read_text("utf-8")) == same((out / "g2" / page).read_text("utf-8")), page


# -- every kind of mail a German or Dutch player gets ----------------------------------------------------

def test_every_kind_of_mail_to_a_german_or_dutch_player_has_no_english_word(
        g: MailGames, monkeypatch: pytest.MonkeyPatch) -> None:
    """Welcome, reports, acknowledgements, the answers to each command, a reminder, and the refusals of
    what a player sends wrong (YAML with a tab, an alias, a key twice, no YAML at all, an empty or a
    commented-out turn file, orders twice, an order of no shape the game knows, a stale reply, a command
    among orders): in the text and the phone's HTML of each, no word of STOP outside the order block.
    (More refusals in a row than a player makes in a day: the guard against auto-responders is raised.)"""
    from pbem.mail import run as mailrun

    monkeypatch.setattr(mailrun, "REFUSALS_A_DAY", 100)
    tokens = new_game(g, "medici", room("medici").PLAYERS, "--deadline", "48h", "--grace", "6h", "--policy", "default")
    mails = list(g.welcome.values())

    def send(player: str, raw: bytes) -> None:
        g.inbox.deliver(raw)
        g.advance(ok=False)
        mails.extend(g.outbox.new())

    def block(player: str, lines: str) -> str:
        from pbem.report import BEGIN, END

        return f"{BEGIN}\ntoken: {tokens[player]}\n{lines}\n{END}\n"

    def turn_file(player: str, body: str) -> str:
        return f"game: g1\nplayer: {player}\ntoken: {tokens[player]}\nturn: {g.pbem.show('g1')['turn']}\n{body}"

    for player in ("anna", "ben"):
        for word in {"anna": ("hilfe", "status", "spiele", "dauerbefehle", "zurück", "sprache xx"),
                     "ben": ("hulp", "status", "spellen", "vast", "terug", "taal xx")}[player]:
            send(player, reply(latest(g, player), player, word))
        report = latest(g, player)
        words = {"anna": ("bieten", "Bieten", "sprache de"), "ben": ("bieden", "Bieden", "taal nl")}[player]
        for body in ("junk", f"{words[0]}: sieben", f"aufdecken\n{words[2]}", f"{{{words[1]}: 1, {words[0]}: 2}}",
                     "a: b: c", "x: &a 1", "x: *a", f"\t{words[0]}: 3", "standing:", "max_bid: x"):
            send(player, reply(report, player, body))
        address_of = address(player)

        def player_mail(sender: str, body: str, **kw: Any) -> bytes:
            from conftest_mail import player_mail as mail

            return mail(sender, body, subject="Re: g1", **kw)

        send(player, player_mail(address_of, block(player, "orders:\n\t- pass")))
        send(player, player_mail(address_of, block(player, "orders: [pass]\norders: [draw]")))
        send(player, player_mail(address_of, "see the attachment", attachments=[("turn.yaml", "")]))
        send(player, player_mail(address_of, "see the attachment", attachments=[("turn.yaml", turn_file(player, "orders:\n"))]))
        send(player, player_mail(address_of, block(player, "- pass"), attachments=[("turn.yaml", turn_file(player, "orders: [pass]"))]))
        send(player, player_mail(address_of, "hello", attachments=[("a.yaml", turn_file(player, "orders: [pass]")),
                                                                   ("b.yaml", turn_file(player, "orders: [pass]"))]))
        send(player, player_mail(address_of, block(player, "- {bid: 0}\n- junk")))
        send(player, player_mail(address_of, "x", attachments=[("turn.yaml", turn_file(player, "orders: [pass]\nextra: 1"))]))
    mover = g.pbem.show("g1")["waiting_for"][0]
    old = latest(g, mover)
    seen = g.pbem.show("g1", mover)
    send(mover, reply(old, mover, in_words(typed(bots.choose("medici", seen["view"], mover, seen["legal_orders"])),
                                           "medici", LANGS[mover], 0)))
    send(mover, reply(old, mover, "pass"))  # a reply to a decision that has passed
    at(monkeypatch, 37)
    g.advance()
    mails.extend(g.outbox.new())
    kinds = {str(m["Subject"]) for m in mails if LANGS[player_of(m)] != "en"}
    assert len(mails) > 40 and len(kinds) > 5, kinds
    bad = no_english(mails, (*room("medici").PLAYERS, "g1", g.state("g1")["seed"]))
    assert not bad, "\n".join(sorted(set(b.split(": ", 1)[1] for b in bad))[:60])
