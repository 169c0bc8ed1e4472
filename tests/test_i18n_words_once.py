"""Each word a player reads is written once: no message of one domain's catalog (pbem's, each game's, a
game's outside pbem/ in its own `locale/`) stands in another's, and no order word of one game's table
(pbem/locale/words/<game>.yaml) is another's too. What every game says (`the game is over`, `THE
TABLE`, `nothing`, the standings' headings) is pbem's, said in a game's template with `common_()`; an
order word several games take (`pass`, `bid`) is in pbem's shared words, pbem/locale/words/pbem.yaml,
and a game's table names it with no words of its own. The one repeat allowed is a real difference of
meaning: a word that each game holding it says of its own act or thing, translated otherwise (Medici's
`draw` turns a card face up, `aufdecken`; Medici vs Strozzi's draws a tile from a bag, `ziehen`), or
a message whose German or Dutch takes another form where the game says it (another case). Each such
game's room declares the word (`OWN_WORDS`, `OWN_MESSAGES`) with why, and the test holds the
difference: the word is written otherwise in each game that holds it."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
import yaml
from babel.messages.pofile import read_po

from pbem import i18n
from pbem.catalogs import CATALOG_LANGUAGES
from pbem.errors import SetupError
from pbem.i18n import COMMON_DOMAIN, LOCALE_DIR, SHARED_WORDS, order_words
from pbem.rules.base import files_of, get_ruleset
from rooms import GAMES, room

def own_words(game: str, kind: str) -> dict[str, str]:
    """What a game says with a meaning of its own although another domain says it too, as its room
    declares (`OWN_WORDS`: order words, `OWN_MESSAGES`: catalog messages): each with why."""
    return dict(getattr(room(game), kind, {}))


def locale_of(domain: str) -> Path:
    """The `locale/` folder a domain's catalogs and order words are in (a game outside pbem/: its own)."""
    if domain == COMMON_DOMAIN:
        return LOCALE_DIR
    get_ruleset(domain)  # (a game outside pbem/ says where its files are as it registers)
    return files_of(domain, "locale") or LOCALE_DIR


def catalog_messages() -> dict[Any, dict[str, dict[str, Any]]]:
    """Every message of every domain's catalogs (its id, plural and context): domain -> language -> its
    translation."""
    found: dict[Any, dict[str, dict[str, Any]]] = defaultdict(lambda: defaultdict(dict))
    for domain in [COMMON_DOMAIN, *GAMES]:
        for lang in CATALOG_LANGUAGES:
            path = locale_of(domain) / lang / "LC_MESSAGES" / f"{domain}.po"
            if not path.is_file():
                continue
            with path.open("rb") as f:
                for m in read_po(f, locale=lang, domain=domain):
                    if m.id:
                        key = (m.context, m.id if isinstance(m.id, str) else tuple(m.id))
                        found[key][domain][lang] = m.string if isinstance(m.string, str) else tuple(m.string)
    return found


def own_order_words() -> dict[str, dict[str, dict[str, list[str]]]]:
    """Each game's order words as its table writes them, those it gives words of its own (a word it
    names bare is pbem's shared words'), with its blanks (`SHIP`): game -> word -> language -> words."""
    out: dict[str, dict[str, dict[str, list[str]]]] = {}
    for game in GAMES:
        words = locale_of(game) / "words"
        table = yaml.safe_load((words / f"{game}.yaml").read_text("utf-8")) if (words / f"{game}.yaml").is_file() else None
        blanks = (yaml.safe_load((words / "blanks.yaml").read_text("utf-8")) if (words / "blanks.yaml").is_file()
                  else None) or {}
        own = {str(w): {lang: list(s) for lang, s in langs.items()} for w, langs in (table or {}).items() if langs}
        own.update({str(b): {lang: [str(s)] for lang, s in langs.items()} for b, langs in (blanks.get(game) or {}).items()})
        out[game] = own
    return out


def show(found: dict[Any, Any]) -> str:
    return "\n".join(f"  {key!r}: {value}" for key, value in found.items())


def allowed_message(message: Any, domains: set[str]) -> bool:
    """Whether every game among `domains` says `message` (no context) with a meaning of its own."""
    games = domains - {COMMON_DOMAIN}
    return message[0] is None and bool(games) and all(message[1] in own_words(g, "OWN_MESSAGES") for g in games)


def test_no_catalog_holds_a_message_another_holds() -> None:
    repeated = {key: dict(domains) for key, domains in catalog_messages().items()
                if len(domains) > 1 and not allowed_message(key, set(domains))}
    assert repeated == {}, (
        "these messages are in more than one domain's catalog (context, message): say a word every game "
        "says once, in pbem's catalog, with common_() in the game's template; a message a game says with a "
        "meaning of its own goes in its room's OWN_MESSAGES, saying why\n" + show(repeated))


@pytest.mark.parametrize("game", GAMES)
def test_a_message_of_its_own_is_translated_otherwise_than_elsewhere(game: str) -> None:
    found = catalog_messages()
    for message, why in own_words(game, "OWN_MESSAGES").items():
        held = found.get((None, message), {})
        assert game in held and len(held) > 1, f"{message!r} is no longer said by {game} and another: take it off"
        mine = tuple(held[game].get(lang) for lang in CATALOG_LANGUAGES)
        same = [d for d in held if d != game and tuple(held[d].get(lang) for lang in CATALOG_LANGUAGES) == mine]
        assert same == [], f"{message!r} reads the same in {game} and {same}: say it once ({why})"


def test_no_order_word_is_in_two_games_tables() -> None:
    tables = own_order_words()
    games_of: dict[str, set[str]] = defaultdict(set)
    read_as: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)  # (lang, word) -> (game, canonical)
    for game, words in tables.items():
        for word, langs in words.items():
            games_of[word].add(game)
            for lang, spelt in langs.items():
                for s in spelt:
                    read_as[(lang, s.casefold())].add((game, word))
    allowed = {(game, word) for game in GAMES for word in own_words(game, "OWN_WORDS")}
    repeated = {word: sorted(games) for word, games in games_of.items()
                if len(games) > 1 and not {(g, word) for g in games} <= allowed}
    assert repeated == {}, (
        f"these order words have words of their own in more than one game's table: write them once in "
        f"{SHARED_WORDS.name} and name them bare (`pass:`) in each game's table; a word with a meaning of "
        f"the game's own goes in its room's OWN_WORDS, saying why\n" + show(repeated))
    twice = {f"{lang} {said}": sorted(uses) for (lang, said), uses in read_as.items()
             if len({g for g, _ in uses}) > 1 and not uses <= allowed}
    assert twice == {}, f"these words are read in more than one game's table (language, word: game, canonical):\n{show(twice)}"


@pytest.mark.parametrize("game", GAMES)
def test_an_order_word_of_its_own_is_written_otherwise_than_elsewhere(game: str) -> None:
    tables = own_order_words()
    shared = yaml.safe_load(SHARED_WORDS.read_text("utf-8"))
    for word, why in own_words(game, "OWN_WORDS").items():
        assert word in tables[game], f"{game}'s table gives {word!r} no words of its own: take it off OWN_WORDS"
        mine = tables[game][word]
        others = {g: t[word] for g, t in tables.items() if g != game and word in t}
        assert others or word in shared, f"no other game says {word!r}: take it off OWN_WORDS"
        same = [g for g, theirs in {**others, COMMON_DOMAIN: shared.get(word)}.items() if theirs == mine]
        assert same == [], f"{word!r} is written the same in {game} and {same}: write it once ({why})"


def test_every_shared_order_word_is_taken_by_a_game_and_read_as_pbem_writes_it() -> None:
    shared = yaml.safe_load(SHARED_WORDS.read_text("utf-8"))
    takers: dict[str, list[str]] = {word: [] for word in shared}
    for game in GAMES:
        path = locale_of(game) / "words" / f"{game}.yaml"
        table = (yaml.safe_load(path.read_text("utf-8")) if path.is_file() else None) or {}
        for word in (w for w, langs in table.items() if langs is None):
            assert word in shared, f"{path} names {word!r} bare, and {SHARED_WORDS.name} has no words for it"
            assert order_words(game)[word] == shared[word]
            takers[word].append(game)
    assert [word for word, games in takers.items() if not games] == [], f"no game takes these words of {SHARED_WORDS.name}"
    for word, langs in shared.items():
        assert set(langs) == set(CATALOG_LANGUAGES) and all(langs.values()), word


def test_a_table_naming_a_word_pbem_does_not_share_is_refused_naming_it(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "words").mkdir()
    (tmp_path / "words" / "words-once-test.yaml").write_text("pass:\ncastle:\n", "utf-8")
    monkeypatch.setitem(i18n.OUTSIDE_LOCALES, "words-once-test", tmp_path)
    with pytest.raises(SetupError, match=r"words-once-test\.yaml: the order word 'castle' has no words of its own, "
                                         r"and pbem's shared words \(pbem/locale/words/pbem\.yaml\) have none"):
        order_words("words-once-test")
    (tmp_path / "words" / "words-once-test-2.yaml").write_text("pass:\ncastle: {de: [burg], nl: [burcht]}\n", "utf-8")
    monkeypatch.setitem(i18n.OUTSIDE_LOCALES, "words-once-test-2", tmp_path)
    words = order_words("words-once-test-2")
    assert words["pass"]["de"][0] == "passen" and words["castle"] == {"de": ["burg"], "nl": ["burcht"]}
    assert i18n.canonical("Passe", "words-once-test-2") == "pass"
