"""Words for players, in each player's language: gettext catalogs (pbem/locale/<lang>/LC_MESSAGES/
<domain>.po, read once per process through Babel), one domain for what every game shares (`pbem`:
mail, commands, refusals) and one per game (`medici`, `medici-strozzi`, `medina`, `florenz`: its
reports, rules in short, events, board words). Templates mark their words with `_()`, `ngettext()` or
`{% trans %}` (jinja2.ext.i18n, new style: `_("turn %(n)s", n=turn)`); Python code with `_()` from
`translator(lang, game)`. The GM's command line stays English; the order log and turn files keep one
canonical form of every order, whatever words a player wrote it in.
"""

from __future__ import annotations

import gettext
import re
from datetime import datetime, timezone
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.errors import SetupError

if TYPE_CHECKING:
    import jinja2

LANGUAGES = ("en", "de", "nl")
DEFAULT_LANGUAGE = "en"
COMMON_DOMAIN = "pbem"
LOCALE_DIR = Path(__file__).parent / "locale"
ZONE_EXAMPLES = ("Europe/Berlin", "Europe/Amsterdam", "Europe/London", "America/New_York", "UTC")


def N_(message: str) -> str:
    """Marks a string for the catalogs where it is defined (module level); it is translated where used."""
    return message


def check_language(code: str) -> str:
    """A language pbem writes in, or a SetupError naming the ones it knows."""
    if code not in LANGUAGES:
        raise SetupError(f"unknown language {code!r}: pbem writes {', '.join(LANGUAGES)}")
    return code


def check_timezone(name: str) -> str:
    """An IANA time zone name the machine knows, or a SetupError saying what one looks like."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        if name and not name.startswith(("/", ".")) and ".." not in name:
            ZoneInfo(name)
            return name
    except (ZoneInfoNotFoundError, ValueError, OSError):
        pass
    raise SetupError(f"unknown time zone {name!r}: give an IANA time zone name such as "
                     f"{', '.join(ZONE_EXAMPLES)}")


def seat_setting(state: dict[str, Any], player: str | None, key: str) -> str | None:
    """A seat's own `language` or `timezone` in the state (None: the seat sets none)."""
    entry = next((p for p in state.get("players", []) if p["name"] == player), None)
    return entry.get(key) if entry is not None else None


def language_of(state: dict[str, Any] | None, player: str | None, config: Any = None) -> str:
    """The language `player` reads: his seat's, else the host's (pbem.yaml), else English."""
    own = seat_setting(state, player, "language") if state is not None else None
    return own or getattr(config, "language", None) or DEFAULT_LANGUAGE


def timezone_of(state: dict[str, Any] | None, player: str | None, config: Any = None) -> str | None:
    """The time zone `player`'s times are written in: his seat's, else the host's, else none (UTC)."""
    own = seat_setting(state, player, "timezone") if state is not None else None
    return own or getattr(config, "timezone", None)


@cache
def _date_pattern(lang: str, with_year: bool) -> str:
    """The language's full date (`Donnerstag, 26. November 2026`), without its year unless asked."""
    from babel.dates import get_date_format

    pattern = get_date_format("full", locale=lang).pattern
    if not with_year:
        pattern = re.sub(r"[\s,.]*\by+\b\.?", "", pattern).strip(" ,")
    return pattern


def moment_text(when: datetime, lang: str = DEFAULT_LANGUAGE, zone: str | None = None,
                now: datetime | None = None) -> str:
    """A moment as the language writes it, in the reader's time zone: `Donnerstag, 26. November, 18:00
    MEZ`; the year only when it is not this year's. English without a time zone: the ISO stamp
    (`2026-11-26T17:00:00Z`), as pbem has always written it."""
    if lang == DEFAULT_LANGUAGE and zone is None:
        return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    from zoneinfo import ZoneInfo

    from babel.dates import format_datetime, get_time_format, get_timezone_gmt

    tz = ZoneInfo(zone) if zone else timezone.utc
    local = when.astimezone(tz)
    this_year = (now or datetime.now(timezone.utc)).astimezone(tz).year
    date = format_datetime(local, _date_pattern(lang, local.year != this_year), tzinfo=tz, locale=lang)
    time = format_datetime(local, get_time_format("short", locale=lang).pattern, tzinfo=tz, locale=lang)
    zone_name = "UTC" if zone in (None, "UTC", "Etc/UTC") else format_datetime(local, "zzz", tzinfo=tz, locale=lang)
    if not zone_name[:1].isalpha():  # no abbreviation in this language (`+0900`): `GMT+09:00`
        zone_name = get_timezone_gmt(local, width="long", locale=lang)
    zone_name = re.sub(r"^(GMT|UTC)[+-]00:00$", r"\1", zone_name)  # London in winter: `GMT`, whatever Babel says
    return f"{date}, {time} {zone_name}".replace("\u202f", " ").replace("\xa0", " ")


def header_moment(value: str | None, lang: str = DEFAULT_LANGUAGE, zone: str | None = None,
                  now: datetime | None = None) -> str | None:
    """A mail's Date: header as the reader's language writes a moment (`Samstag, 21. November, 13:00
    MEZ`), like every other time he reads; English without a time zone keeps the header as it came.
    A header that is no date is kept as it is; none: None."""
    if value is None:
        return None
    if lang == DEFAULT_LANGUAGE and zone is None:
        return str(value)
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(str(value))
    except (TypeError, ValueError, IndexError):
        return str(value)
    if when.tzinfo is None:  # `-0000`: a moment in UTC whose sender's zone is unknown
        when = when.replace(tzinfo=timezone.utc)
    return moment_text(when, lang, zone, now)


def number_text(value: int | float, lang: str = DEFAULT_LANGUAGE) -> str:
    """A number for reading (`1,000`, `1.000`); English keeps the plain digits pbem always wrote."""
    if lang == DEFAULT_LANGUAGE:
        return str(value)
    from babel.numbers import format_decimal

    return format_decimal(value, locale=lang)


@cache
def _catalog(lang: str, domain: str) -> gettext.NullTranslations:
    """One domain's catalog for a language, read from its .po file (no catalog: the English words)."""
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"
    if lang == DEFAULT_LANGUAGE or not path.is_file():
        return gettext.NullTranslations()
    from io import BytesIO

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    with path.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=domain)
    compiled = BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return Translations(compiled, domain=domain)


@cache
def translator(lang: str, game: str | None = None) -> gettext.NullTranslations:
    """The words of `lang` for a game's texts: the game's own catalog first, then the common one."""
    common = _catalog(lang, COMMON_DOMAIN)
    own = _catalog(lang, game) if game is not None else None
    if own is None or type(own) is gettext.NullTranslations:
        return common
    if type(common) is not gettext.NullTranslations:
        own.add_fallback(common)  # once: this function is cached, and the game's catalog is its alone
    return own


def install(environment: "jinja2.Environment", lang: str = DEFAULT_LANGUAGE, game: str | None = None) -> None:
    """Give a template environment the words of `lang` (English: the text as written)."""
    environment.install_gettext_translations(translator(lang, game), newstyle=True)  # type: ignore[attr-defined]


# -- order words ------------------------------------------------------------------------------------

WORDS_DIR = LOCALE_DIR / "words"
_TOKEN = r"(?<![\w-])({})(?![\w-])"  # a whole word (or phrase): not a piece of `max_bid` or `messere-swap`


@cache
def order_words(game: str) -> dict[str, dict[str, list[str]]]:
    """A game's order words (pbem/locale/words/<game>.yaml): each canonical word, as the order log
    keeps it, with its words in each language, the first one being what reports show. No file: none."""
    import yaml

    path = WORDS_DIR / f"{game}.yaml"
    if not path.is_file():
        return {}
    data = yaml.safe_load(path.read_text("utf-8")) or {}
    return {str(word): {lang: [str(w) for w in (spelt or [])] for lang, spelt in (langs or {}).items()}
            for word, langs in data.items()}


@cache
def _blanks(game: str, lang: str) -> tuple[re.Pattern[str] | None, dict[str, str]]:
    """A game's blanks in an order (`load: SHIP`, `play CARD`) and how `lang` writes each (`SCHIFF`).
    Blanks are only written, never read: a player fills them in."""
    import yaml

    data = (yaml.safe_load((WORDS_DIR / "blanks.yaml").read_text("utf-8")) or {}).get(game) or {}
    shown = {str(blank): str(langs[lang]) for blank, langs in data.items() if langs.get(lang)}
    if not shown:
        return None, {}
    return re.compile(_TOKEN.format("|".join(map(re.escape, sorted(shown, key=len, reverse=True))))), shown


def _pattern(spellings: list[str]) -> re.Pattern[str] | None:
    alternatives = sorted({s for s in spellings if s}, key=lambda s: (-len(s), s))
    if not alternatives:
        return None
    return re.compile(_TOKEN.format("|".join(r"\s+".join(map(re.escape, s.split())) for s in alternatives)),
                      re.IGNORECASE)


def _key(text: str) -> str:
    return " ".join(text.split()).casefold()


@cache
def _reader(game: str) -> tuple[re.Pattern[str] | None, dict[str, str]]:
    """Every localized word of a game, in any language, and the canonical word each stands for."""
    meaning: dict[str, str] = {}
    for word, langs in order_words(game).items():
        for spelt in langs.values():
            for s in spelt:
                meaning.setdefault(_key(s), word)
    return _pattern(list(meaning)), meaning


@cache
def _writer(game: str, lang: str) -> tuple[re.Pattern[str] | None, dict[str, str]]:
    """The canonical words of a game that `lang` spells otherwise, and the first word it spells each."""
    shown = {_key(word): langs[lang][0] for word, langs in order_words(game).items() if langs.get(lang)}
    return _pattern(list(shown)), shown


def _canonical_text(text: str, game: str) -> str:
    pattern, meaning = _reader(game)
    if pattern is None:
        return text
    return pattern.sub(lambda m: meaning.get(_key(m.group(0)), m.group(0)), text)


def canonical(item: Any, game: str) -> Any:
    """An order as a player wrote it (a string of words, or a mapping such as `{bieten: 7}`) with every
    localized order word of the game replaced by its canonical word, in any case: `Bieten 7` is `bid 7`,
    `palast grau C7` is `palace grey C7`. English words are canonical already; the rest is kept."""
    if isinstance(item, str):
        return _canonical_text(item, game)
    if isinstance(item, dict):
        return {(_canonical_text(k, game) if isinstance(k, str) else k):
                (_canonical_text(v, game) if isinstance(v, str) else v) for k, v in item.items()}
    return item


def localize(text: str, game: str | None, lang: str = DEFAULT_LANGUAGE) -> str:
    """An order (or a choice such as `bid: N`) in `lang`'s order words, as reports show it."""
    if lang == DEFAULT_LANGUAGE or game is None:
        return text
    pattern, shown = _writer(game, lang)
    if pattern is not None:
        text = pattern.sub(lambda m: shown.get(_key(m.group(0)), m.group(0)), text)
    blanks, written = _blanks(game, lang)
    return blanks.sub(lambda m: written[m.group(0)], text) if blanks is not None else text
