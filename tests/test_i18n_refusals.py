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

from pbem.errors import AuthError, Refusal, StaleTurn, TurnFileError
from pbem.refusals import MESSAGES, SCHEMA_MESSAGES, YAML_PROBLEMS, at, listing, refuse
from rooms import GAMES, need
from pbem.report import engine_refusals, refusal_text
from pbem.rules.base import files_of
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


def refusals_met(game: str, seed: int) -> dict[str, Refusal]:
    """Every refusal a random game of `game` gives on the way, by its English."""
    rules = get_ruleset(game)
    rng = Rng(f"refusals-{seed}")
    players = PLAYERS[:rules.max_players]
    state, _ = rules.setup(list(players), rules.check_options({}), rng)
    pick = random.Random(seed)
    met: dict[str, Refusal] = {}
    for _ in range(need(game, "RANDOM_DECISIONS")):
        decision = rules.decision(state)
        if decision is None:
            break
        for player in players:
            candidates = rules.candidate_orders(state, player)
            for order in pick.sample(candidates, min(len(candidates), 30)) + need(game, "WRONG"):
                why = rules.why_illegal(state, player, order)
                if why is not None:
                    met[why] = why
                    framed = refuse("order-n-refused-nothing", n=2, order=repr(order_text(order)), why=why)
                    met[framed] = framed
        player = decision.players[0]
        legal = rules.legal_orders(state, player)
        rules.apply(state, player, pick.choice(legal), rng)
    # and once when the game is over
    for order in need(game, "WRONG"):
        why = rules.why_illegal(state, PLAYERS[0], order)
        if why is not None:
            met[why] = why
    return met


def english_left(text: str, lang: str) -> set[str]:
    """The English words of a refusal (outside what it quotes)."""
    bare = re.sub(r"'[^']*'|\"[^\"]*\"", " ", text)
    words = set(re.findall(r"[a-z]+", bare.lower()))
    return words & (ENGLISH - (DUTCH_TOO if lang == "nl" else set()))


def numbers(text: str) -> list[str]:
    return sorted(re.findall(r"\d+", text))


@pytest.mark.parametrize("game", GAMES)
def test_every_refusal_met_in_a_game_is_written_in_the_players_language(game: str) -> None:
    met: dict[str, Refusal] = {}
    for seed in range(3):
        met.update(refusals_met(game, seed))
    assert len(met) >= 8
    for english, refusal in met.items():
        assert isinstance(refusal, Refusal), (game, english)  # the rules refuse by id
        for lang in ("de", "nl"):
            text = refusal_text(refusal, lang, game)
            assert not english_left(text, lang), (english, lang, text)
            assert numbers(text) == numbers(english), (english, lang, text)
        assert refusal_text(refusal, "en", game) == english


def test_a_refusal_quotes_orders_in_the_players_order_words() -> None:
    from pbem.rules.medici_refusals import refuse as medici

    framed = refuse("order-n-refused-nothing", n=2, order="'bid: 9'", why=medici("bid-over-money", amount=9, money=3))
    assert str(framed) == "order 2 ('bid: 9'): bid 9 is more than your money (3); nothing was applied"
    assert refusal_text(framed, "de", "medici") == \
        "Befehl 2 ('bieten: 9'): das Gebot 9 übersteigt dein Geld (3); nichts wurde ausgeführt"
    assert refusal_text(medici("auctioneer-draws", order="'pass'"), "nl", "medici") == \
        "jij bent de veilingmeester: stuur 'trekken' of 'veilen', niet 'passen'"
    listed = listing("not-valid", [at(refuse("order-line", n=2, order="'pass'"), medici("lowest-bid"))],
                     what=refuse("the-order-block"))
    assert str(listed) == "the order block is not valid:\n  - order line 2 ('pass'): the lowest bid is 1"
    assert refusal_text(listed, "de", "medici") == \
        "der Befehlsblock ist nicht gültig:\n  - Befehlszeile 2 ('passen'): das niedrigste Gebot ist 1"


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
    for fmt in (*MESSAGES.values(), *YAML_PROBLEMS, *SCHEMA_MESSAGES):
        assert fmt in common and common[fmt].string and not common[fmt].fuzzy, (lang, fmt)


# -- the schema checks and the order lines of a mail (the common catalog) --------------------------------------

BAD = [{"turn": "zero", "game": "m1", "player": "anna", "token": "t", "orders": ["pass"]}, {"game": 5},
       {"turn": 0, "game": "m1", "player": "anna", "token": 3, "orders": []}]


@pytest.mark.parametrize("game", GAMES)
def test_the_schema_checks_are_written_in_the_players_language(game: str) -> None:
    from pbem.store import dump_yaml
    from pbem.turnfile import parse_turnfile

    refused = []
    for value in BAD:
        with pytest.raises(TurnFileError) as error:
            parse_turnfile(dump_yaml(value))
        refused.append(error.value.refusal)
    envelope = {"game": "m1", "player": "anna", "token": "t", "turn": 1}
    with pytest.raises(TurnFileError) as error:
        parse_turnfile(dump_yaml(dict(envelope, orders=["junk", {"bid": "seven"}, {"bid": 0}, {"load": "x"}, 5])),
                       f"{game}.orders")
    refused.append(error.value.refusal)
    for refusal in refused:
        assert isinstance(refusal, Refusal) and refusal.msg == "not-valid"
        english = str(refusal)
        for lang in ("de", "nl"):
            text = refusal_text(refusal, lang, game)
            assert numbers(text) == numbers(english)
            assert len(text.split("\n")) == len(english.split("\n"))
            for line in text.split("\n"):
                shown = re.sub(r"send one of: .*|schicke (eins|einen) von: .*|stuur een van: .*", "", line)  # the order words
                shown = re.sub(r"(Zeile|regel) \d+, [^:]*:", "", shown)  # the keys, as the schema spells them
                assert not english_left(shown, lang), (lang, line)


def mail_of(body: str) -> Any:
    from pbem.mail.incoming import read_mail

    return read_mail((f"From: Anna <anna@x.test>\nTo: gm@x.test\nSubject: m1\nMessage-ID: <one@x.test>\n"
                      f"Content-Type: text/plain; charset=utf-8\n\n{body}\n").encode("utf-8"))


def refused_mail(body: str) -> Refusal:
    from pbem.mail.orders import orders_in
    from pbem.turnfile import parse_turnfile

    with pytest.raises(TurnFileError) as error:
        _, data = orders_in(mail_of(body))
        parse_turnfile(data)
    assert isinstance(error.value.refusal, Refusal), str(error.value)
    return error.value.refusal


def test_the_order_lines_refusals_are_written_in_the_players_language() -> None:
    from pbem.report import BEGIN, END

    token_not_text = refused_mail(f"{BEGIN}\ntoken: 3\npass\n{END}")
    assert str(token_not_text) == ("order line 1 (the token line): the token is not text; copy it from your welcome "
                                   "mail, in quotes if need be")
    assert refusal_text(token_not_text, "de", "medici") == (
        "Befehlszeile 1 (die Token-Zeile): das Token ist kein Text; kopiere es aus deiner Willkommensmail, wenn nötig "
        "in Anführungszeichen")
    in_the_mail = refused_mail("game: m1\nplayer: anna\ntoken: 3\nturn: 1\norders: [pass]")
    assert str(in_the_mail).startswith("the turn file in the mail, line 3 (the token line): the token is not text")
    assert refusal_text(in_the_mail, "nl", "medici") == \
        "het beurtbestand in de mail, regel 3 (de tokenregel): het token is geen tekst; kopieer het uit je " \
        "welkomstmail, zo nodig tussen aanhalingstekens"
    met = [token_not_text, in_the_mail,
           refused_mail(f"{BEGIN}\ntoken: abc\nturn: 3\nturn: 4\npass\n{END}"),  # a key twice
           refused_mail(f"{BEGIN}\npass\n{END}"),  # no token line
           refused_mail(f"{BEGIN}\ntoken: abc\n{END}"),  # no order
           refused_mail(f"{BEGIN}\ntoken: abc\nbid: [\n{END}"),  # no YAML
           refused_mail(f"{BEGIN}\ntoken: abc\npass"),  # no end line
           refused_mail("Thanks, I will think about it.")]  # no orders at all
    assert [r.msg for r in met[2:]] == ["at", "no-token-line", "no-order-between", "at", "no-end-line", "no-orders"]
    for refusal in met:
        for lang in ("de", "nl"):
            text = refusal_text(refusal, lang, "medici")
            assert not english_left(re.sub(r"'[^']*'", "", text), lang), (lang, text)
            assert numbers(text) == numbers(str(refusal))


@pytest.mark.parametrize("game", GAMES)
def test_the_standing_orders_help_is_in_the_games_catalog(game: str) -> None:
    from pbem.i18n import translator

    helps = get_ruleset(game).standing_help.values()
    assert bool(helps) == bool(need(game, "STANDING"))  # a help for each game that takes standing orders
    for lang in ("de", "nl"):
        for text in helps:
            assert not english_left(translator(lang, game).gettext(text), lang), (game, lang, text)


def a_game(tmp_path: Path) -> tuple[Any, dict[str, Any], dict[str, str]]:
    from pbem.game import new_game
    from pbem.store import GamesDir

    gd = GamesDir(tmp_path)
    state, tokens = new_game(gd, "medici", "m1", [(p, f"{p}@x.test") for p in PLAYERS], {}, "refusals-in-words-seed")
    gd.save("m1", state)
    return gd, state, tokens


def told(refusal: Refusal | str) -> None:
    """A refusal of pbem's own, by its id, with no English word for a German or Dutch player."""
    assert isinstance(refusal, Refusal), refusal
    for lang in ("de", "nl"):
        text = refusal_text(refusal, lang, "medici")
        assert not english_left(text, lang), (lang, text)
        assert numbers(text) == numbers(str(refusal))


def test_who_may_send_orders_is_told_in_his_language(tmp_path: Path) -> None:
    from pbem.game import authenticate, check_submission
    from pbem.turnfile import TurnFile

    gd, state, tokens = a_game(tmp_path)
    asked = [TurnFile("m9", "anna", "t", 1, ["pass"]), TurnFile("m1", "zoe", "t", 1, ["pass"]),
             TurnFile("m1", "anna", "wrong", 1, ["pass"])]
    refusals = []
    for tf in asked:
        with pytest.raises(AuthError) as error:
            authenticate(gd, tf)
        refusals.append(error.value.refusal)
    with pytest.raises(AuthError) as error:
        authenticate(gd, TurnFile("m1", "anna", None, 1, ["pass"]), proven=("m1", "ben"))
    refusals.append(error.value.refusal)
    with pytest.raises(AuthError) as error:
        check_submission(gd, f"game: m1\nplayer: anna\ntoken: {tokens['anna']}\nturn: 1\norders: [pass]".encode(),
                         sender="ben@x.test")
    refusals.append(error.value.refusal)
    assert [r.msg for r in refusals] == ["no-game", "no-player", "wrong-token", "other-seat", "not-the-address"]
    for refusal in refusals:
        told(refusal)
    assert refusal_text(refusals[2], "de") == "das Token für 'anna' in der Partie 'm1' ist falsch"


def test_a_stale_turn_is_told_in_his_language(tmp_path: Path) -> None:
    from pbem.game import apply_orders, waiting_for

    _, state, _ = a_game(tmp_path)
    turn = state["engine"]["turn"]
    mover = waiting_for(state)[0]
    other = next(p for p in PLAYERS if p != mover)
    refusals = []
    for player, at_turn, status in ((mover, turn - 1, "active"), (mover, turn + 1, "active"), (other, turn, "active"),
                                    (mover, turn, "paused"), (mover, turn, "finished")):
        with pytest.raises(StaleTurn) as error:
            apply_orders(dict(state, status=status), player, at_turn, ["draw"])
        refusals.append(error.value.refusal)
    assert [r.msg for r in refusals] == ["stale", "ahead", "turn-not-yours", "paused", "finished"]
    for refusal in refusals:
        told(refusal)
    assert refusal_text(refusals[0], "nl") == \
        f"je orders zijn voor beurt {turn - 1}, maar partij 'm1' is bij beurt {turn}: ze zijn verouderd"


def test_orders_inside_the_quote_are_told_in_his_language() -> None:
    refusal = refuse("in-quote", where=refuse("own-markers"))
    assert str(refusal) == ("your orders are inside the report your mail quotes, which pbem does not read (lines that "
                            "begin with '>', or below a line such as 'On ... wrote:' or 'From: ...'): write them "
                            "between marker lines of your own, above the quote and without '>' in front")
    told(refusal)
