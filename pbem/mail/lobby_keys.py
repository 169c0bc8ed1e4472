"""The lobby's keys and the host's bounds on mail to strangers (and `Silent`, a refusal not answered).

Each lobby mail carries a key of its game and its recipient's address (`lobby_key`): a reply with it
comes from whoever received that mail (`address_keys`). An address that plays no game here is answered
once a day at most (`stranger_may_hear`), and the host mails at most `lobby.strangers_per_day` such
addresses a day (`strangers_may_get`). Every part of the mail that answers someone reads these, so
they sit below the lobby's commands (`pbem.mail.lobby`).
"""

from __future__ import annotations

import re

from pbem import digests
from pbem import lobby
from pbem.config import Config
from pbem.errors import PbemError
from pbem.mail.ids import KEY_CHARS, Keyring, keyring, split_key
from pbem.mail.incoming import Incoming, addressed_to
from pbem.store import GamesDir, write_atomic

ANSWERED_FILE = ("mail", "answered.txt")  # address and day of the last answer to each stranger


class Silent(PbemError):
    """A command refused without an answer: answering it would mail whoever the From: names."""


# -- keys ------------------------------------------------------------------------------------------------

def lobby_key(keys: Keyring, game: str, nonce: str, address: str) -> str:
    """The key of the lobby's mail about `game` to `address`: a reply with it comes from whoever
    received that mail. The entry's `nonce` makes a key worthless for a later entry of the same id."""
    return keys.mac("pbem-lobby-key", game, nonce, address.lower())


LOBBY_ID = re.compile(r"^<pbem\.lobby\.([a-z0-9][a-z0-9_-]{0,39})\.([0-9a-f]{1,16})\.[0-9a-f]+@[^>]+>$")
NO_ENTRY = "0"  # the nonce of an answer about no entry (a refusal)


def lobby_id(config: Config, game: str, nonce: str, about: str) -> str:
    digest = digests.sha256(about.encode("utf-8", "replace")).hexdigest()[:24]
    return f"<pbem.lobby.{game}.{nonce}.{digest}@{config.domain}>"


def lobby_answer_id(config: Config, mail: Incoming, about: str) -> str:
    """The Message-ID of an answer to a mail that names no entry (the lobby's help), with the key of
    its sender's address where pbem keys its mail: his reply to it proves that the address is his, so
    that `join GAME` in that reply takes the seat at once."""
    mid = lobby_id(config, "lobby", NO_ENTRY, f"{about}\0{mail.sender}\0{mail.message_id}")
    keys = keyring(config)
    if keys is None or not mail.sender:
        return mid
    key = lobby_key(keys, "lobby", NO_ENTRY, mail.sender)
    return f"{mid[:mid.rindex('@')]}.k{key}{mid[mid.rindex('@'):]}"


def address_keys(gd: GamesDir, config: Config, mail: Incoming) -> tuple[frozenset[str], bool]:
    """The entries whose lobby mail to the sender this mail answers with its key, and whether it
    carries a valid key of any lobby mail pbem sent the sender (an answer, a refusal: it proves that
    his address receives pbem's mail, whatever entry it was about)."""
    keys = keyring(config)
    if keys is None or not mail.sender or mail.doubt:
        return frozenset(), False
    found: set[str] = set()
    proven = False
    nonces: dict[str, str] | None = None
    for ref in mail.thread[:50]:
        bare, key = split_key(ref)
        m = LOBBY_ID.match(bare)
        if not m or not key or not digests.compare_digest(lobby_key(keys, m.group(1), m.group(2), mail.sender), key):
            continue
        proven = True
        if nonces is None:
            nonces = {e["game"]: e.get("nonce", NO_ENTRY) for e in lobby.entries(gd)}
        if nonces.get(m.group(1)) == m.group(2):
            found.add(m.group(1))
    local, _, domain = config.gm_address.lower().rpartition("@")
    plus = re.compile(rf"^{re.escape(local)}\+lobby\.([a-z2-7]{{{KEY_CHARS}}})@{re.escape(domain)}$")
    given = [m.group(1) for m in (plus.match(a.strip().lower()) for a in addressed_to(mail.message)) if m]
    if given:
        for entry in lobby.entries(gd):
            expected = lobby_key(keys, entry["game"], entry.get("nonce", NO_ENTRY), mail.sender)
            if any(digests.compare_digest(expected, k) for k in given):
                found.add(entry["game"])
                proven = True
    return frozenset(found), proven


def gone_games(gd: GamesDir, config: Config, mail: Incoming) -> list[str]:
    """The games not begun whose lobby mail to the sender this mail answers with its key, which have
    ended unstarted since (called off, declined, lapsed: no entry and no game folder is left)."""
    keys = keyring(config)
    if keys is None or not mail.sender or mail.doubt:
        return []
    live = {e["game"] for e in lobby.entries(gd)}
    gone: list[str] = []
    for ref in mail.thread[:50]:
        bare, key = split_key(ref)
        m = LOBBY_ID.match(bare)
        if not m or not key or m.group(2) == NO_ENTRY or m.group(1) in live or m.group(1) in gone \
                or not digests.compare_digest(lobby_key(keys, m.group(1), m.group(2), mail.sender), key):
            continue
        if not gd.exists(m.group(1)):
            gone.append(m.group(1))
    return gone


# -- strangers ------------------------------------------------------------------------------------------

def stranger_may_hear(gd: GamesDir, address: str, today: str, unproven: bool = False,
                      player: bool | None = None) -> bool:
    """Whether an address that plays no game here may have an answer today (one a day); noted as
    answered when it may. A player's address always may, but for a mail nothing proves his
    (`unproven`): that is answered once a day too. A stranger's answer counts against the host's
    daily bound on mail to addresses that never wrote to pbem. `player`: whether the address is a
    player's here, when the caller knows it (a mail's `Sender.known`)."""
    address = address.lower()
    if not address:
        return True
    if player is None:
        player = lobby.plays_here(gd, address) or lobby.seated_here(gd, address)
    if player and not unproven:
        return True
    from pbem.mended import read_lines

    path = gd.root.joinpath(*ANSWERED_FILE)
    days = {}
    for line in read_lines(path, gd.root, "its readable lines count") or []:
        who, _, day = line.partition(" ")
        if day >= today and "\ufffd" not in line:  # older days are forgotten
            days[who] = day
    if days.get(address) == today:
        return False
    if not player and not strangers_may_get(gd, 1, today):
        return False
    days[address] = today
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, "".join(f"{who} {day}\n" for who, day in sorted(days.items())))
    return True


STRANGERS_FILE = ("mail", "strangers-mailed.txt")  # the day, and how many mails went to strangers on it


def strangers_may_get(gd: GamesDir, count: int, today: str, limit: int | None = None) -> bool:
    """Whether `count` more mails may go today to addresses that never wrote to pbem (invitations,
    answers to strangers), whoever asked for them; counted when they may. The bound is the host's
    `lobby.strangers_per_day`."""
    from pbem.config import load_config

    if limit is None:
        limit = load_config(gd.root).lobby_strangers_per_day
    path = gd.root.joinpath(*STRANGERS_FILE)
    day, sent = today, 0
    from pbem.mended import read_lines

    kept = " ".join(read_lines(path, gd.root, "today's count starts again from it") or []).split()
    if len(kept) == 2 and kept[0] == today and re.fullmatch("[0-9]{1,9}", kept[1]):
        sent = int(kept[1])
    if sent + count > limit:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, f"{day} {sent + count}\n")
    return True
