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
import os
import re
import struct
from datetime import date, datetime, timezone, tzinfo
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from pbem import digests
from pbem.errors import SetupError
from pbem.patterns import Pattern

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
    """An IANA time zone name pbem knows, or a SetupError saying what one looks like."""
    from zoneinfo import ZoneInfoNotFoundError

    try:
        if _ZONE_NAME.fullmatch(name or ""):
            zone_info(name)
            return name
    except (ZoneInfoNotFoundError, ValueError, OSError):
        pass
    raise SetupError(f"unknown time zone {name!r}: give an IANA time zone name such as "
                     f"{', '.join(ZONE_EXAMPLES)}")


_ZONE_NAME = Pattern(r"[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*")


@cache
def zone_info(name: str) -> tzinfo:
    """A time zone as the tzdata package pbem is installed with has it (the lock pins its version), so
    a player's times and their zone's name do not move with the machine's own zone data; the
    machine's only where that package is missing."""
    from zoneinfo import ZoneInfo

    if not _ZONE_NAME.fullmatch(name):
        raise ValueError(f"not a time zone name: {name!r}")
    try:
        from importlib.resources import files

        with files("tzdata.zoneinfo").joinpath(*name.split("/")).open("rb") as f:
            return ZoneInfo.from_file(f, key=name)
    except (ModuleNotFoundError, FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return ZoneInfo(name)


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


# The forms pbem writes a moment in, its own (not what the Babel of the day prints): the date without
# and with its year, the time, and the names of the days (Monday first) and months.
_DATE_FORMS = {"en": ("{weekday}, {month} {day}", "{weekday}, {month} {day}, {year}"),
               "de": ("{weekday}, {day}. {month}", "{weekday}, {day}. {month} {year}"),
               "nl": ("{weekday} {day} {month}", "{weekday} {day} {month} {year}")}
_DAY_NAMES = {"en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
              "de": ("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"),
              "nl": ("maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag")}
_MONTH_NAMES = {"en": ("January", "February", "March", "April", "May", "June", "July", "August", "September",
                       "October", "November", "December"),
                "de": ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September",
                       "Oktober", "November", "Dezember"),
                "nl": ("januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september",
                       "oktober", "november", "december")}


def _time_of_day(local: datetime, lang: str) -> str:
    """`5:00 PM` in English, `17:00` in German and Dutch."""
    if lang == DEFAULT_LANGUAGE:
        return f"{local.hour % 12 or 12}:{local.minute:02d} {'AM' if local.hour < 12 else 'PM'}"
    return f"{local.hour:02d}:{local.minute:02d}"


# A zone's abbreviation as a language writes it where it is not the zone data's (German: MEZ, MESZ).
_ZONE_WORDS = {"de": {"CET": "MEZ", "CEST": "MESZ"}}


def zone_text(local: datetime, lang: str = DEFAULT_LANGUAGE) -> str:
    """The name of the zone of a local time, for a reader: the zone data's abbreviation (`GMT`, `BST`,
    `CET`, `EST`; German `MEZ`, `MESZ`), or, for a zone whose abbreviation is only its offset (`+04`),
    the offset from GMT (`GMT+04:00`, `GMT-03:30`)."""
    short = local.tzname() or ""
    if short.isalpha():
        return _ZONE_WORDS.get(lang, {}).get(short, short)
    offset = local.utcoffset()
    minutes = int(offset.total_seconds() // 60) if offset is not None else 0
    if minutes == 0:
        return "GMT"
    sign = "+" if minutes > 0 else "-"
    return f"GMT{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def day_text(day: date, lang: str = DEFAULT_LANGUAGE, today: date | None = None) -> str:
    """A day as the language writes it: `Samstag, 5. Dezember`, `zaterdag 5 december`; the year only
    when it is not `today`'s. English keeps the ISO day (`2026-12-05`), as pbem has always written it."""
    if lang not in _DATE_FORMS or lang == DEFAULT_LANGUAGE:
        return day.isoformat()
    this_year = today.year if today is not None else datetime.now(timezone.utc).year
    return _DATE_FORMS[lang][day.year != this_year].format(
        weekday=_DAY_NAMES[lang][day.weekday()], day=day.day, month=_MONTH_NAMES[lang][day.month - 1], year=day.year)


def moment_text(when: datetime, lang: str = DEFAULT_LANGUAGE, zone: str | None = None,
                now: datetime | None = None) -> str:
    """A moment as the language writes it, in the reader's time zone: `Donnerstag, 26. November, 18:00
    MEZ`; the year only when it is not this year's. English without a time zone: the ISO stamp
    (`2026-11-26T17:00:00Z`), as pbem has always written it."""
    if lang == DEFAULT_LANGUAGE and zone is None:
        return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    tz = zone_info(zone) if zone else timezone.utc
    local = when.astimezone(tz)
    this_year = (now or datetime.now(timezone.utc)).astimezone(tz).year
    words = lang if lang in _DATE_FORMS else DEFAULT_LANGUAGE
    date = _DATE_FORMS[words][local.year != this_year].format(
        weekday=_DAY_NAMES[words][local.weekday()], day=local.day, month=_MONTH_NAMES[words][local.month - 1],
        year=local.year)
    zone_name = "UTC" if zone in (None, "UTC", "Etc/UTC") else zone_text(local, lang)
    return f"{date}, {_time_of_day(local, words)} {zone_name}"


def duration_text(hours: float, lang: str = DEFAULT_LANGUAGE) -> str:
    """A length of time for reading, in pbem's own form and the reader's words: whole days as days
    (`2 Tage`), else whole hours (`36 uur`), else minutes. English keeps the short form pbem always
    wrote (`2d`, `36h`, `90m`)."""
    if lang == DEFAULT_LANGUAGE:
        from pbem.clock import show_hours

        return show_hours(hours)
    words = translator(lang)
    if hours >= 24 and hours % 24 == 0:
        n = int(hours // 24)
        return words.ngettext("%(num)d day", "%(num)d days", n) % {"num": n}
    if hours == int(hours):
        n = int(hours)
        return words.ngettext("%(num)d hour", "%(num)d hours", n) % {"num": n}
    n = int(round(hours * 60))
    return words.ngettext("%(num)d minute", "%(num)d minutes", n) % {"num": n}


# How a language groups a number's thousands and marks its decimals (pbem's own, as German and Dutch
# write them; not whatever the Babel of the day prints).
_NUMBER_MARKS = {"de": (".", ","), "nl": (".", ",")}


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
    """A number for reading (`1.000` in German and Dutch, at most three decimals: `1.234,5`); English
    keeps the plain digits pbem always wrote."""
    if lang == DEFAULT_LANGUAGE:
        return str(value)
    group, point = _NUMBER_MARKS.get(lang, (",", "."))
    if isinstance(value, float) and not value.is_integer():
        written = f"{value:,.3f}".rstrip("0").rstrip(".")
    else:
        written = f"{int(value):,}"
    whole, _, decimals = written.partition(".")
    return whole.replace(",", group) + (point + decimals if decimals else "")


#: the `locale/` folders of the games that live outside pbem/, as each registers (`pbem.rules.base`)
OUTSIDE_LOCALES: dict[str, Path] = {}
#: given by the rules' registry (pbem.rules.base, a layer above): imports a game of the GM's own by its
#: name, which tells OUTSIDE_LOCALES its folder; asked before a word of such a game is first looked up,
#: since the lookups are cached and must not be made from pbem's folder before the game is imported
LOAD_OUTSIDE: Callable[[str], None] | None = None


def _locale_dir(game: str | None) -> Path:
    """The folder of a game's catalogs and order words: pbem's own, or the `locale/` of a game that
    lives outside pbem/."""
    if game and game not in OUTSIDE_LOCALES and LOAD_OUTSIDE is not None:
        LOAD_OUTSIDE(game)
    return OUTSIDE_LOCALES.get(game or "", LOCALE_DIR)


@cache
def _catalog(lang: str, domain: str) -> gettext.NullTranslations:
    """One domain's catalog for a language, from its .po file (no catalog: the English words)."""
    path = _locale_dir(domain) / lang / "LC_MESSAGES" / f"{domain}.po"
    if lang == DEFAULT_LANGUAGE or not path.is_file():
        return gettext.NullTranslations()
    return gettext.GNUTranslations(BytesIO(_compiled(path.read_bytes(), lang, domain)))


#: the first bytes of a compiled catalog (.mo), in either byte order
_MO_MAGIC = (b"\xde\x12\x04\x95", b"\x95\x04\x12\xde")


def _compiled(source: bytes, lang: str, domain: str) -> bytes:
    """The compiled catalog (.mo) of a .po file's bytes: kept in the user's cache folder by the first
    process that needed it, since reading a .po takes Babel, whose import and parse cost more than
    most commands; compiled here (and kept) where the cache holds no copy of these very bytes. Each
    domain and language keeps its latest copy alone."""
    from pbem.usercache import user_cache

    folder = Path(user_cache()) / "catalogs"
    kept = folder / f"{domain}.{lang}.{digests.sha256(source).hexdigest()[:32]}.mo"
    try:
        data = kept.read_bytes()
        gettext.GNUTranslations(BytesIO(data))  # a file cut short or spoilt is compiled again
        return data
    except (OSError, ValueError, IndexError, UnicodeDecodeError, struct.error):
        pass
    data = _compile_po(source, lang, domain)
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        for old in folder.glob(f"{domain}.{lang}.*.mo"):
            old.unlink(missing_ok=True)
        part = kept.with_name(f"{kept.name}.{os.getpid()}.part")
        part.write_bytes(data)
        os.replace(part, kept)
    except OSError:  # a cache that cannot be written is no cache: the catalog was compiled all the same
        pass
    return data


def _compile_po(source: bytes, lang: str, domain: str) -> bytes:
    """A .po file's bytes compiled to a .mo (its fuzzy entries left out)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    compiled = BytesIO()
    write_mo(compiled, read_po(BytesIO(source), locale=lang, domain=domain), use_fuzzy=False)
    return compiled.getvalue()


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


def common_words(lang: str) -> Any:
    """`common_()` for templates: a text in pbem's own domain alone (new style, `%(name)s` filled in),
    whatever game's catalog the environment has. The report skeleton (templates/common/report.txt.j2)
    and the words every game says (`the game is over`, `THE TABLE`, `nothing`) are said with it, so
    they are translated once for every game and no game's catalog can word them otherwise."""
    words = translator(lang)

    def common_(message: str, **values: Any) -> str:
        text = words.gettext(message)
        return text % values if values else text

    return common_


def install(environment: "jinja2.Environment", lang: str = DEFAULT_LANGUAGE, game: str | None = None) -> None:
    """Give a template environment the words of `lang` (English: the text as written): `_`, `gettext`,
    `ngettext`, `pgettext` and `npgettext` in the new style (each text a format whose `%(name)s` its
    keywords fill in, their values escaped where the environment escapes; `num` and `context` given),
    as jinja2.ext.i18n installs them. Set here, they need no extension: that one reads `{% trans %}`
    where a template is compiled, and a template read compiled from the cache never needs it."""
    from jinja2 import pass_context
    from markupsafe import Markup

    words = translator(lang, game)

    def said(context: Any, text: str, values: dict[str, Any]) -> str:
        return (Markup(text) if context.eval_ctx.autoescape else text) % values

    @pass_context
    def gettext(context: Any, message: str, /, **values: Any) -> str:
        return said(context, words.gettext(message), values)

    @pass_context
    def ngettext(context: Any, singular: str, plural: str, num: int, /, **values: Any) -> str:
        values.setdefault("num", num)
        return said(context, words.ngettext(singular, plural, num), values)

    @pass_context
    def pgettext(context: Any, where: str, message: str, /, **values: Any) -> str:
        values.setdefault("context", where)
        return said(context, words.pgettext(where, message), values)

    @pass_context
    def npgettext(context: Any, where: str, singular: str, plural: str, num: int, /, **values: Any) -> str:
        values.setdefault("context", where)
        values.setdefault("num", num)
        return said(context, words.npgettext(where, singular, plural, num), values)

    environment.globals.update(_=gettext, gettext=gettext, ngettext=ngettext, pgettext=pgettext, npgettext=npgettext)
    environment.newstyle_gettext = True  # type: ignore[attr-defined]  # how jinja2.ext.i18n compiles `{% trans %}`


# -- order words ------------------------------------------------------------------------------------

WORDS_DIR = LOCALE_DIR / "words"
_TOKEN = r"(?<![\w-])({})(?![\w-])"  # a whole word (or phrase): not a piece of `max_bid` or `messere-swap`


#: the order words several games say (`pass`, `bid`), each with its words once: a game's table names
#: such a word with no words of its own (`pass:`) and reads it in these
SHARED_WORDS = WORDS_DIR / f"{COMMON_DOMAIN}.yaml"


def _words_file(path: Path) -> dict[str, dict[str, list[str]] | None]:
    """An order-word table as written: each canonical word with its words in each language, or None
    where the table gives it none of its own."""
    import yaml

    data = (yaml.safe_load(path.read_text("utf-8")) if path.is_file() else None) or {}
    return {str(word): None if langs is None else
            {lang: [str(w) for w in (spelt or [])] for lang, spelt in langs.items()}
            for word, langs in data.items()}


@cache
def order_words(game: str) -> dict[str, dict[str, list[str]]]:
    """A game's order words (pbem/locale/words/<game>.yaml): each canonical word, as the order log
    keeps it, with its words in each language, the first one being what reports show; a word the
    table names without words of its own has pbem's shared ones (SHARED_WORDS). No file: none."""
    path = _locale_dir(game) / "words" / f"{game}.yaml"
    own = _words_file(path)
    shared = _words_file(SHARED_WORDS) if game != COMMON_DOMAIN and None in own.values() else {}
    out: dict[str, dict[str, list[str]]] = {}
    for word, langs in own.items():
        if langs is None:
            langs = shared.get(word)
            if langs is None:
                raise SetupError(f"{path}: the order word {word!r} has no words of its own, and pbem's shared "
                                 f"words ({SHARED_WORDS.relative_to(LOCALE_DIR.parent.parent)}) have none for it")
        out[word] = langs
    return out


@cache
def _blanks(game: str, lang: str) -> tuple[re.Pattern[str] | None, dict[str, str]]:
    """A game's blanks in an order (`load: SHIP`, `play CARD`) and how `lang` writes each (`SCHIFF`).
    Blanks are only written, never read: a player fills them in."""
    import yaml

    path = _locale_dir(game) / "words" / "blanks.yaml"
    data = ((yaml.safe_load(path.read_text("utf-8")) if path.is_file() else None) or {}).get(game) or {}
    shown = {str(blank): str(langs[lang]) for blank, langs in data.items() if langs.get(lang)}
    if not shown:
        return None, {}
    return re.compile(_TOKEN.format("|".join(map(re.escape, sorted(shown, key=len, reverse=True))))), shown


@cache
def _option_words(game: str) -> dict[str, str]:
    """Each word a player may name one of a game's options or values by, in any language (its own
    spelling too), and that option or value as the rules spell it (words/options.yaml)."""
    import yaml

    path = _locale_dir(game) / "words" / "options.yaml"
    data = ((yaml.safe_load(path.read_text("utf-8")) if path.is_file() else None) or {}).get(game) or {}
    return {str(w).casefold(): str(word) for word, langs in data.items() for spelt in langs.values() for w in spelt}


def option_word(game: str, said: str) -> str:
    """An option's name or value as a player wrote it (`Ausgabe`, `uitgave`), as the rules spell it
    (`edition`); a word the game does not know stays as written, for the rules to refuse."""
    return _option_words(game).get(said.casefold(), said.casefold())


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
