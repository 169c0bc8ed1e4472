"""The rules' refusals a German or Dutch player meets, in his language: each game is played out by
random legal orders, every refusal its rules give on the way (to the players' candidates and to orders
of the wrong kind) is written for a de and an nl player through `pbem.report.refusal_text`, and no
English word is left in it (but what quotes an order), its numbers kept. Every English format of the
rules' refusals (pbem/rules/*refusals.py) is found in its game's catalogs, translated."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from pbem.game import REFUSAL_FRAMES, REFUSALS
from pbem.report import engine_refusals, refusal_text
from pbem.rules.base import KNOWN, files_of
from pbem.rng import Rng
from pbem.rules.base import get_ruleset, order_text

LOCALE = Path(__file__).parent.parent / "pbem" / "locale"
PLAYERS = ["anna", "ben", "cleo"]
# English words no German or Dutch refusal has (outside a quoted order)
ENGLISH = {"the", "is", "not", "your", "you", "send", "must", "bid", "lot", "ship", "ships", "palace", "wall",
           "roof", "have", "no", "left", "game", "over", "decision", "waits", "for", "already", "harbour", "tile",
           "tiles", "card", "cards", "square", "street", "order", "nothing", "applied", "money", "more", "than",
           "price", "load", "empty", "there", "stands", "touch", "may", "with", "at", "turn", "it"}
DUTCH_TOO = {"is", "in", "order", "over"}  # English words Dutch writes too
WRONG = {"medici": ["draw", "auction", "pass", {"bid": 0}, {"bid": 1}, {"bid": 7}, {"bid": 99}, {"price": 3}],
         "medici-strozzi": ["draw", "discard", "pass", {"price": 3}, {"price": 99}, {"load": 9},
                            {"load": 1}, {"load": 5, "harbour": "Z"}, {"bid": 3}],
         "medina": ["pass", "start A1", "start D4", "palace grey A1", "palace black C3", "stable A1",
                    "merchant B2", "wall N1", "wall N5", "wall Q9", "roof grey C3", "palace grey Z9"],
         "florenz": ["pass", "done", "decline", "pass 3", "promote 1.1", "promote 6.3", "send 4", "move 1.1 to 2",
                     "move 6.1 to 9", "hurry 1.1 to 2", "boast 3", "gift Cosimo", "play x", "play 1",
                     "discard 9", "swap 1.1 2.1", "travel 1.1 to 2", "colour red", "bonus vp", "junk"]}
ROUNDS = {"medici": 400, "medici-strozzi": 400, "medina": 120, "florenz": 150}
GAMES = [game for game in sorted(KNOWN) if engine_refusals(game)]  # the games whose refusals are listed


def refusals_met(game: str, seed: int) -> dict[str, None]:
    """Every refusal a random game of `game` gives on the way, in English."""
    rules = get_ruleset(game)
    rng = Rng(f"refusals-{seed}")
    players = PLAYERS[:rules.max_players]
    state, _ = rules.setup(list(players), {}, rng)
    pick = random.Random(seed)
    met: dict[str, None] = {}
    for _ in range(ROUNDS[game]):
        decision = rules.decision(state)
        if decision is None:
            break
        for player in players:
            candidates = rules.candidate_orders(state, player)
            for order in pick.sample(candidates, min(len(candidates), 30)) + WRONG[game]:
                why = rules.why_illegal(state, player, order)
                if why is not None:
                    met[why] = None
                    met[f"order 2 ({order_text(order)!r}): {why}; nothing was applied"] = None
        player = decision.players[0]
        legal = rules.legal_orders(state, player)
        rules.apply(state, player, pick.choice(legal), rng)
    # and once when the game is over
    for order in WRONG[game]:
        why = rules.why_illegal(state, PLAYERS[0], order)
        if why is not None:
            met[why] = None
    return met


def english_left(text: str, lang: str) -> set[str]:
    """The English words of a refusal (outside what it quotes)."""
    bare = re.sub(r"'[^']*'|\"[^\"]*\"", " ", text)
    words = set(re.findall(r"[a-z]+", bare.lower()))
    return words & (ENGLISH - (DUTCH_TOO if lang == "nl" else set()))


def numbers(text: str) -> list[str]:
    return sorted(re.findall(r"\d+", text))


@pytest.mark.parametrize("game", [game for game in GAMES if game in WRONG])
def test_every_refusal_met_in_a_game_is_written_in_the_players_language(game: str) -> None:
    met: dict[str, None] = {}
    for seed in range(3):
        met.update(refusals_met(game, seed))
    assert len(met) >= 8
    for english in met:
        for lang in ("de", "nl"):
            text = refusal_text(english, lang, game)
            assert not english_left(text, lang), (english, lang, text)
            assert numbers(text) == numbers(english), (english, lang, text)
        assert refusal_text(english, "en", game) == english


def test_a_refusal_quotes_orders_in_the_players_order_words() -> None:
    english = "order 2 ('bid: 9'): bid 9 is more than your money (3); nothing was applied"
    assert refusal_text(english, "de", "medici") == \
        "Befehl 2 ('bieten: 9'): das Gebot 9 übersteigt dein Geld (3); nichts wurde ausgeführt"
    assert refusal_text("you are the auctioneer: send 'draw' or 'auction', not 'pass'", "nl", "medici") == \
        "jij bent de veilingmeester: stuur 'trekken' of 'veilen', niet 'passen'"
    listed = "the order block is not valid:\n  - order 2 ('pass'): the lowest bid is 1"
    assert refusal_text(listed, "de", "medici").endswith("\n  - Befehl 2 ('passen'): das niedrigste Gebot ist 1")


def translations(lang: str, domain: str) -> dict[str, Any]:
    with ((files_of(domain, "locale") or LOCALE) / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        return {m.id: m for m in read_po(f) if m.id}


@pytest.mark.parametrize("lang", ["de", "nl"])
@pytest.mark.parametrize("game", GAMES)
def test_every_refusal_format_has_a_translation(game: str, lang: str) -> None:
    formats = engine_refusals(game)
    assert formats
    own, common = translations(lang, game), translations(lang, "pbem")
    for fmt in formats:
        assert fmt in own and own[fmt].string and not own[fmt].fuzzy, (game, lang, fmt)
        assert sorted(re.findall(r"%\(\w+\)s", own[fmt].string)) == sorted(re.findall(r"%\(\w+\)s", fmt))
    for fmt in REFUSALS + REFUSAL_FRAMES:
        assert fmt in common and common[fmt].string and not common[fmt].fuzzy, (lang, fmt)


# -- the schema checks and the order lines of a mail (the common catalog) --------------------------------------

BAD = [{"turn": "zero", "game": "m1", "player": "anna", "token": "t", "orders": ["pass"]}, {"game": 5},
       {"turn": 0, "game": "m1", "player": "anna", "token": 3, "orders": []}]


@pytest.mark.parametrize("game", ["medici", "medici-strozzi", "medina"])
def test_the_schema_checks_are_written_in_the_players_language(game: str) -> None:
    from pbem.turnfile import schema_errors

    problems = [p for value in BAD for p in schema_errors(value, "turnfile")]
    problems += [p for value in ["junk", {"bid": "seven"}, {"bid": 0}, {"load": "x"}, 5]
                 for p in schema_errors(value, f"{game}.orders")]
    english = "the order block is not valid:\n" + "\n".join(f"  - line {i}, {p}" for i, p in enumerate(problems, 3))
    for lang in ("de", "nl"):
        text = refusal_text(english, lang, game)
        assert numbers(text) == numbers(english)
        for line in text.split("\n"):
            shown = re.sub(r"send one of: .*|schicke (eins|einen) von: .*|stuur een van: .*", "", line)  # the order words
            shown = re.sub(r"(Zeile|regel) \d+, [^:]*:", "", shown)  # the keys, as the schema spells them
            assert not english_left(shown, lang), (lang, line)


def test_the_order_lines_refusals_are_written_in_the_players_language() -> None:
    english = ("order line 2 ('bid: x'): the token is not text; copy it from your welcome mail, in quotes if need be\n"
               "order line 4: orders for now and orders sent ahead ('next: ...') go in separate mails")
    assert refusal_text(english, "de", "medici") == (
        "Befehlszeile 2 ('bieten: x'): das Token ist kein Text; kopiere es aus deiner Willkommensmail, wenn nötig "
        "in Anführungszeichen\nBefehlszeile 4: Befehle für jetzt und vorausgeschickte Befehle ('next: ...') gehören "
        "in getrennte Mails")
    assert refusal_text("the turn file, line 3 (the token line): the token is not text; copy it from your welcome "
                        "mail, in quotes if need be", "nl", "medici") == \
        "het beurtbestand, regel 3 (de tokenregel): het token is geen tekst; kopieer het uit je welkomstmail, " \
        "zo nodig tussen aanhalingstekens"


@pytest.mark.parametrize("game", ["medici", "medici-strozzi", "florenz"])
def test_the_standing_orders_help_is_in_the_games_catalog(game: str) -> None:
    from pbem.i18n import translator

    helps = get_ruleset(game).standing_help.values()
    assert helps
    for lang in ("de", "nl"):
        for text in helps:
            assert not english_left(translator(lang, game).gettext(text), lang), (game, lang, text)


def test_who_may_send_orders_is_told_in_his_language() -> None:
    english = ["there is no game 'm9'", "game 'm1' has no player 'zoe'", "the token for 'ann' in game 'm1' is wrong",
               "the mail you answer is about 'ann' in game 'm1', not 'ben' in game 'm2'",
               "ann@example.org is not the address of 'ben' in game 'm1'"]
    for text in english:
        for lang in ("de", "nl"):
            shown = refusal_text(text, lang, "medici")
            assert not english_left(shown, lang), (lang, shown)
            assert numbers(shown) == numbers(text)
    assert refusal_text(english[2], "de") == "das Token für 'ann' in der Partie 'm1' ist falsch"


def test_a_kind_of_decision_is_named_in_the_games_words() -> None:
    assert refusal_text("it is not your turn: anna must decide (action)", "de", "florenz") == \
        "du bist nicht am Zug: anna muss entscheiden (Aktion)"
    assert refusal_text("C3 is taken (by a palace)", "nl", "medina") == "C3 is al bezet (paleis)"


def test_orders_inside_the_quote_are_told_in_his_language() -> None:
    english = ("your orders are inside the report your mail quotes, which pbem does not read (lines that begin with "
               "'>', or below a line such as 'On ... wrote:' or 'From: ...'): write them between marker lines of "
               "your own, above the quote and without '>' in front")
    for lang in ("de", "nl"):
        assert not english_left(refusal_text(english, lang, "medici"), lang)
