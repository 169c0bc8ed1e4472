"""Observers: `watch GAME` (`zuschauen`, `meekijken`) by mail gets the public reports of a game that
allows observers (`--observers yes`): what the archive shows of a game in progress, never a hand or a
hidden card. `unwatch GAME` (`nicht zuschauen`, `niet meekijken`) ends it.

An observer holds no seat, so nothing of a game proves his address: pbem answers `watch` with a mail
to that address (at most one a day), and only a reply to it, whose key proves that the address
received it, makes him an observer. A forged From: cannot subscribe a stranger. Every mail pbem sends
an observer carries that key too, and `unwatch` counts only in a reply to one of them: a forged From:
cannot end a watch either.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from pbem import digests
from pbem.config import Config
from pbem.i18n import N_, translator
from pbem.mail import OBSERVERS_DIR
from pbem.mail.boxes import Postman
from pbem.mail.incoming import Incoming
from pbem.mail.proof import UNWATCH, WATCH, Proof, allows
from pbem.store import GAME_ID, GamesDir, write_atomic

WATCH_WORDS = {"watch": "en", "zuschauen": "de", "meekijken": "nl"}
UNWATCH_WORDS = {"unwatch": "en", "nicht zuschauen": "de", "niet meekijken": "nl"}
COMMAND = re.compile(r"^(watch|zuschauen|meekijken|unwatch|nicht\s+zuschauen|niet\s+meekijken)\s+(\S+?)[.!]?$",
                     re.IGNORECASE)
WATCH_ID = re.compile(r"^<pbem\.watch\.([a-z0-9][a-z0-9_-]{0,39})\.([0-9a-f]{24})\.k([a-z2-7]+)@[^>]+>$")
# a public report to an observer: the game, the events sent so far, the address's digest, the key
WATCHING_ID = re.compile(r"^<pbem\.watching\.([a-z0-9][a-z0-9_-]{0,39})\.\d+\.[0-9a-f]{16}\.k([a-z2-7]+)@[^>]+>$")

NO_GAME = N_("there is no game %(game)r on this host")
NO_OBSERVERS = N_("game %(game)s takes no observers")
PLAYS = N_("you play in game %(game)s: your own reports show it")
NOT_WATCHING = N_("you do not watch game %(game)s")
UNWATCH_BY_REPLY = N_("'%(said)s' counts only in a reply to a mail about game %(game)s that pbem sent you: "
                      "reply with it to one of them")


def _path(gd: GamesDir, game: str) -> Any:
    return gd.root.joinpath(*OBSERVERS_DIR, f"{game}.json")


def observers(gd: GamesDir, game: str) -> dict[str, dict[str, Any]]:
    """A game's observers: address -> {lang, seen (events sent)}."""
    from pbem.mended import mended

    path = _path(gd, game)
    try:
        value = json.loads(path.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:  # UnicodeDecodeError is a ValueError
        mended(path, gd.root, f"cannot be read ({type(exc).__name__})", "the game has no observers until it is "
               "restored")
        return {}
    if not isinstance(value, dict):
        mended(path, gd.root, "is not a table of observers", "the game has no observers until it is restored")
        return {}
    kept = {a: v for a, v in value.items() if isinstance(a, str) and "@" in a and isinstance(v, dict)
            and isinstance(v.get("seen", 0), int) and isinstance(v.get("lang", ""), str)}
    if len(kept) != len(value):
        mended(path, gd.root, f"{len(value) - len(kept)} of its entries are not an observer's", "they are left out")
    return kept


def _save(gd: GamesDir, game: str, value: dict[str, dict[str, Any]]) -> None:
    path = _path(gd, game)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(value, sort_keys=True) + "\n")


def watch_key(config: Config, game: str, address: str) -> str | None:
    from pbem.mail.ids import keyring

    keys = keyring(config)
    return None if keys is None else keys.mac("pbem-watch", game, address.lower())


def watched_keys(config: Config, mail: Incoming) -> frozenset[str]:
    """The games whose mail to the sender about watching them (the question of `watch`, a public
    report) this mail answers with its key."""
    found = set()
    for ref in mail.thread[:50]:
        m = WATCH_ID.match(ref)
        game, given = (m.group(1), m.group(3)) if m else (None, None)
        m = WATCHING_ID.match(ref)
        game, given = (m.group(1), m.group(2)) if m else (game, given)
        if game is not None and given is not None:
            key = watch_key(config, game, mail.sender)
            if key is not None and digests.compare_digest(key, given):
                found.add(game)
    return frozenset(found)


def watch_command(gd: GamesDir, postman: Postman, mail: Incoming, proof: Proof, own: list[str],
                  who: Any = None) -> str | None:
    """Carry out `watch GAME` or `unwatch GAME`, if that is the mail's one line; the run's line. `who`:
    the mail's `Sender`, looked up once for the mail."""
    found = COMMAND.match(own[0].strip()) if len(own) == 1 else None
    if found is None:
        return None
    word = " ".join(found.group(1).casefold().split())
    game = found.group(2).casefold()
    lang = WATCH_WORDS.get(word) or UNWATCH_WORDS.get(word) or postman.config.language
    lang = postman.config.language if lang == "en" and postman.config.language != "en" and word in ("watch", "unwatch") \
        else lang
    sender = mail.sender
    line = f"mail from {sender}: {word} {game}: "
    proof = replace(proof, watch=watched_keys(postman.config, mail))
    if word in UNWATCH_WORDS:
        if not (allows(proof, UNWATCH) and game in proof.watch):  # whether he watches is not told either
            told = _answer(gd, postman, mail, lang, "common/watch-refused.txt.j2",
                           message=translator(lang).gettext(UNWATCH_BY_REPLY) % {"game": game,
                                                                                  "said": found.group(0).strip()},
                           proven=bool(proof.watch))  # a watch key of another game proves the address
            return line + "refused: not a reply to a mail about the game" + ("" if told else " (not answered)")
        kept = observers(gd, game) if GAME_ID.match(game) else {}
        if sender not in kept:
            told = _answer(gd, postman, mail, lang, "common/watch-refused.txt.j2", proven=True, who=who,
                           message=translator(lang).gettext(NOT_WATCHING) % {"game": game})
            return line + "refused: not an observer" + ("" if told else " (not answered)")
        del kept[sender]
        _save(gd, game, kept)
        _answer(gd, postman, mail, lang, "common/watch-ended.txt.j2", game=game, proven=True, who=who)
        return line + "no longer watching"
    why = None
    if not GAME_ID.match(game) or not gd.exists(game):
        why = NO_GAME
    else:
        from pbem.talk import table_of

        state = gd.load(game)
        if table_of(gd, game)["observers"] != "yes":
            why = NO_OBSERVERS
        elif any(str(p.get("email", "")).lower() == sender for p in state["players"]):
            why = PLAYS
    if why is not None:
        told = _answer(gd, postman, mail, lang, "common/watch-refused.txt.j2", who=who,
                       message=translator(lang).gettext(why) % {"game": game})
        return line + "refused: " + (why % {"game": game}) + ("" if told else " (not answered)")
    if allows(proof, WATCH) and game in proof.watch:
        kept = observers(gd, game)
        kept[sender] = {"lang": lang, "seen": len(state["events"])}
        _save(gd, game, kept)
        _answer(gd, postman, mail, lang, "common/watch-started.txt.j2", game=game, keyed_game=game, proven=True, who=who)
        return line + "watching"
    told = _answer(gd, postman, mail, lang, "common/watch-confirm.txt.j2", game=game, keyed_game=game, who=who,
                   words=f"{found.group(1)} {game}")
    return line + "asked to confirm by a reply" + ("" if told else " (not answered: one such mail a day)")


def _answer(gd: GamesDir, postman: Postman, mail: Incoming, lang: str, template: str,
            keyed_game: str | None = None, proven: bool = False, who: Any = None, **context: Any) -> bool:
    """An answer to the sender (at most one a day unless his address is proven); with `keyed_game`,
    its Message-ID carries the key a reply confirms `watch` with."""
    from pbem.donotmail import footer
    from pbem.mail.compose import compose, reply_subject
    from pbem.mail.lobby_keys import stranger_may_hear
    from pbem.clock import now_moment
    from pbem.report import env_for

    config = postman.config
    if not proven and not stranger_may_hear(gd, mail.sender, now_moment().date().isoformat(), unproven=True,
                                            player=who.known if who is not None else None):
        return False
    _ = translator(lang).gettext
    body = env_for(lang).get_template(template).render(**context)
    body = body.rstrip("\n") + "\n" + footer(config, mail.sender, lang, plays=who.plays if who is not None else None)
    digest = digests.sha256(f"{mail.message_id}\0{template}".encode()).hexdigest()[:24]
    if keyed_game is not None and watch_key(config, keyed_game, mail.sender):
        mid = f"<pbem.watch.{keyed_game}.{digest}.k{watch_key(config, keyed_game, mail.sender)}@{config.domain}>"
    else:
        mid = f"<pbem.reply.{digest}@{config.domain}>"
    msg = compose(config, "", mail.sender, reply_subject(mail.subject), body, mid, in_reply_to=mail.message_id,
                  references=[mail.message_id], date=now_moment())
    postman.post("watch-" + digest, msg)
    return True


def public_report(state: dict[str, Any], events: list[dict[str, Any]], lang: str) -> str:
    """An observer's report: the game, its turn and whose move, the public events he has not read
    (what a commit message and the archive of a game in progress show), and once the game is over the
    final standings. Nothing of any seat's view: no hand, no hidden card."""
    from pbem.game import ruleset_of
    from pbem.mail.commands import whose_move
    from pbem.report import event_lines

    _ = translator(lang).gettext
    ruleset = ruleset_of(state)
    out = [_("Game %(game)s (%(title)s), turn %(turn)s: %(move)s.") % {
        "game": state["game"], "title": ruleset.title, "turn": state["engine"]["turn"],
        "move": whose_move(state, "", lang)}, ""]
    lines = event_lines(state["ruleset"], events, lang, state.get("options"))
    if lines:
        out += [_("What happened"), *[f"  - {line}" for line in lines], ""]
    if state["status"] == "finished":
        out.append(_("Final standings"))
        out += [f"  {r['rank']}. {r['player']}: {r['score']}" for r in ruleset.result(state["engine"])]
        out.append("")
    return "\n".join(out)


def post_public_reports(gd: GamesDir, state: dict[str, Any], postman: Postman) -> None:
    """Each observer's mail of the events of a game he has not yet been sent: the public report
    (the view of nobody's seat, the public events only)."""
    from pbem.donotmail import footer
    from pbem.mail.compose import compose
    from pbem.clock import now_moment
    from pbem.report import public

    game = state["game"]
    kept = observers(gd, game)
    if not kept:
        return
    config = postman.config
    changed = False
    for address, seen in sorted(kept.items()):
        new = public(state["events"][int(seen.get("seen", 0)):])
        if not new and int(seen.get("seen", 0)) >= len(state["events"]):
            continue
        lang = seen.get("lang") or config.language
        _ = translator(lang).gettext
        text = public_report(state, new, lang)
        text += "\n" + _("You watch game %(game)s; reply 'unwatch %(game)s' to stop.") % {"game": game} + "\n"
        text += footer(config, address, lang)
        n = len(state["events"])
        key = watch_key(config, game, address)  # a reply with it (`unwatch`) comes from this address
        mid = f"<pbem.watching.{game}.{n}.{digests.sha256(address.encode()).hexdigest()[:16]}" + \
            (f".k{key}" if key else "") + f"@{config.domain}>"
        subject = f"{config.subject_prefix} {game} " + _("turn %(turn)s (you watch)") % {"turn": state["engine"]["turn"]}
        msg = compose(config, "", address, subject.strip(), text, mid, date=now_moment())
        postman.post(f"watch-{game}-{n:05d}-{digests.sha256(address.encode()).hexdigest()[:12]}", msg)
        seen["seen"] = n
        changed = True
    if changed:
        _save(gd, game, kept)
