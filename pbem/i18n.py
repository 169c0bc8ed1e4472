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
from functools import cache
from pathlib import Path

import jinja2

LANGUAGES = ("en", "de", "nl")
DEFAULT_LANGUAGE = "en"
COMMON_DOMAIN = "pbem"
LOCALE_DIR = Path(__file__).parent / "locale"


def check_language(code: str) -> str:
    """A language pbem writes in, or a ValueError naming the ones it knows."""
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r}: pbem writes {', '.join(LANGUAGES)}")
    return code


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


def install(environment: jinja2.Environment, lang: str = DEFAULT_LANGUAGE, game: str | None = None) -> None:
    """Give a template environment the words of `lang` (English: the text as written)."""
    environment.install_gettext_translations(translator(lang, game), newstyle=True)  # type: ignore[attr-defined]
