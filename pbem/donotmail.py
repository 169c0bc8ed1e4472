"""The host's list of addresses it never writes to again ("never mail me").

A `stop` (`stopp`, `unsubscribe`) from any address puts that address on the list: a forged one can only
silence the address it claims, which is what that address's owner could ask anyway. The list is kept
in git (lobby/never-mail.txt), each address hashed under the host's secret (SHA-256 where reply keys
are off), so the repository does not name them. Every mail pbem writes passes `Postman.post`, which
asks `never_mail` first. A player in a game is not unseated by a `stop`: he is asked to confirm by a
reply that he resigns (`pbem.mail.stop`).

Every mail carries `List-Unsubscribe`: a mailto of the GM's address with `+stop.KEY`, whose key (a MAC
of the recipient's address) proves exactly that act for that address.
"""

from __future__ import annotations

import re
from pathlib import Path

from pbem import digests
from pbem.config import Config
from pbem.i18n import N_
from pbem.patterns import Pattern

LIST_FILE = ("lobby", "never-mail.txt")  # in git, as the lobby is
STOP_WORDS = ("stop", "stopp", "unsubscribe")
STOP_LINE = N_("Reply 'stop' and this host never writes to this address again.")
_cache: dict[str, tuple[float, frozenset[str]]] = {}


def _keys(config: Config):  # type: ignore[no-untyped-def]
    from pbem.mail.ids import keyring

    return keyring(config)


def address_hash(config: Config, address: str) -> str:
    """How the list names an address: a MAC under the host's secret, else its SHA-256."""
    address = address.strip().lower()
    keys = _keys(config)
    if keys is not None:
        return "k" + keys.mac("pbem-never-mail", address)
    return "s" + digests.sha256(f"pbem-never-mail\0{address}".encode()).hexdigest()


HASH = Pattern(r"^(?:k[a-z2-7]{1,64}|s[0-9a-f]{64})$")  # how `address_hash` names an address


def _listed(root: Path) -> frozenset[str]:
    """The hashes on the list. A list damaged (not UTF-8, a line that is no hash) is read for what it
    holds, and the GM is told: every mail is still answered, but an address whose line is spoiled may
    be written to again until the list is mended."""
    from pbem.mended import mended, read_lines

    path = root.joinpath(*LIST_FILE)
    try:
        stamp = path.stat().st_mtime_ns
    except FileNotFoundError:
        return frozenset()
    except OSError:
        stamp = -1
    known = _cache.get(str(path))
    if known is None or known[0] != stamp:
        kept = "the addresses it could read are kept; an address on a spoiled line may be mailed until the " \
               "list is mended (restore it from git)"
        words = [w for line in read_lines(path, root, kept) or [] for w in line.split()]
        hashes = frozenset(w for w in words if HASH.match(w))
        if len(hashes) < len(set(words)):
            mended(path, root, f"{len(set(words) - hashes)} of its entries are no address hash", kept)
        known = (stamp, hashes)
        _cache[str(path)] = known
    return known[1]


def never_mail(config: Config, address: str) -> bool:
    """Whether `address` asked this host never to write to it."""
    return bool(address) and address_hash(config, address) in _listed(config.root)


def add(config: Config, address: str) -> str | None:
    """Put `address` on the list (committed); the path written, or None when it was there already."""
    from pbem.store import GamesDir, write_atomic

    if never_mail(config, address):
        return None
    path = config.root.joinpath(*LIST_FILE)
    path.parent.mkdir(parents=True, exist_ok=True)
    kept = sorted(_listed(config.root) | {address_hash(config, address)})
    write_atomic(path, "".join(f"{h}\n" for h in kept))
    rel = "/".join(LIST_FILE)
    GamesDir(config.root).commit_paths([rel], "an address asked never to be mailed again\n")
    return rel


def stop_key(config: Config, address: str) -> str | None:
    """The key of `address`'s List-Unsubscribe mailto (None: reply keys are off)."""
    keys = _keys(config)
    return None if keys is None else keys.mac("pbem-stop", address.strip().lower())


def unsubscribe_header(config: Config, address: str) -> str:
    """The List-Unsubscribe value of a mail to `address`: a mailto with its key (no https endpoint,
    so no List-Unsubscribe-Post)."""
    key = stop_key(config, address)
    local, _, domain = config.gm_address.rpartition("@")
    to = f"{local}+stop.{key}@{domain}" if key else config.gm_address
    return f"<mailto:{to}?subject=stop>"


def keyed_stop(config: Config, sender: str, addressed: list[str]) -> bool:
    """Whether a mail was sent to the List-Unsubscribe mailto of its sender's own address (its key
    proves the address, for the stop and nothing else)."""
    key = stop_key(config, sender)
    if key is None:
        return False
    local, _, domain = config.gm_address.lower().rpartition("@")
    plus = re.compile(rf"^{re.escape(local)}\+stop\.([a-z2-7]+)@{re.escape(domain)}$")
    for address in addressed:
        found = plus.match(address.strip().lower())
        if found and digests.compare_digest(found.group(1), key):
            return True
    return False


def is_stop(lines: list[str], subject: str) -> bool:
    """Whether a mail asks `stop`: its one own line is the word (any case, ended as a sentence), or it
    has no line of its own and its subject is the word (a client's unsubscribe button)."""
    def word(text: str) -> str:
        return re.sub(r"^(?:(?:re|aw|antw|fwd?|wg)\s*:\s*)+", "", text.strip(), flags=re.I).rstrip(".!").strip().casefold()

    if len(lines) == 1:
        return word(lines[0]) in STOP_WORDS
    return not lines and word(subject) in STOP_WORDS


def footer(config: Config, address: str, lang: str, plays: bool | None = None) -> str:
    """The closing line of a mail to an address that plays no game here (an invitation, a lobby
    answer, a stranger's answer): how to never hear from this host again. Empty for a player (a seat
    in a game not finished or not begun: `pbem.lobby.plays`; `plays`: when the caller knows it)."""
    from pbem.i18n import translator
    from pbem.lobby import plays as plays_here
    from pbem.store import GamesDir

    if plays if plays is not None else plays_here(GamesDir(config.root), address):
        return ""
    import textwrap

    return "\n" + textwrap.fill(translator(lang).gettext(STOP_LINE), 72, break_long_words=False,
                                break_on_hyphens=False) + "\n"
