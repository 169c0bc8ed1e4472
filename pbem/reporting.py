"""Each player's reports: written to his folder for every change he must hear of, and posted to him
when there is a postman (the first is his welcome mail), and the public report to the game's
watchers. Both `pbem advance` and the start of a game write them, so they sit below both; the
templates and the mail pbem writes are imported only when a game has something to tell (an idle cron run
over every game needs neither)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pbem.config import load_config
from pbem.errors import PbemError
from pbem.game import player_names, ruleset_of, waiting_for
from pbem.mail import OBSERVERS_DIR
from pbem.mail.boxes import Postman
from pbem.rules.base import Event
from pbem.store import GamesDir
from pbem.tablebots import is_bot


def readers_config(gd: GamesDir, postman: Postman | None) -> Any:
    """Where the players' languages default from: the postman's settings, else pbem.yaml (a file that
    cannot be read: none, and English)."""
    if postman is not None:
        return postman.config
    try:
        return load_config(gd.root)
    except PbemError:
        return None


def write_reports(gd: GamesDir, state: dict[str, Any], postman: Postman | None = None,
                  tokens: dict[str, str] | None = None) -> list[Path]:
    """A report for every player with events he has not yet read, also posted as mail when there is a
    postman (with `tokens`: the welcome mail of a new game); updates the counters in `state`."""
    # the reports and the mail stack are imported when a game has something to tell (an idle cron
    # run over every game needs neither)
    from pbem.i18n import language_of, timezone_of
    from pbem.mail.post import post_report, welcome_text
    from pbem.report import render_report, visible

    config = readers_config(gd, postman)
    paths = []
    for player in player_names(state):
        if is_bot(state, player):
            continue  # a bot reads its view when it decides, and gets no mail
        unseen = visible(state["events"][state["reported"][player]:], player)
        if not unseen and state["reports_sent"][player]:
            continue
        if state["reports_sent"][player] and not must_hear(state, player, unseen):
            continue  # the events wait for his next mail
        seq = state["reports_sent"][player] + 1
        lang = language_of(state, player, config)
        text = render_report(state, player, unseen, postman is None or postman.config.reply_keys, lang,
                             timezone_of(state, player, config))
        name = f"{seq:04d}-turn-{state['engine']['turn']:04d}.txt"
        # the file holds the report alone: git takes it once the game is over, and talk said to one
        # player is his and the speaker's for good (see pbem.talk)
        paths.append(gd.write_report(state["game"], player, name, text))
        if postman is not None:  # the mail begins with the table talk said to him since his last report
            from pbem.talk import since_last_report

            talk = since_last_report(gd, state, player, lang)
            text = f"{talk}\n{text}" if talk else text
            if tokens:
                post_report(postman, state, player, seq,
                            welcome_text(state, player, tokens[player], text, postman.config.reply_keys, lang), "welcome")
            else:
                post_report(postman, state, player, seq, text)
        state["reports_sent"][player] = seq
        state["reported"][player] = len(state["events"])
    if postman is not None and may_be_watched(gd, state["game"]):
        from pbem.mail.observers import post_public_reports

        post_public_reports(gd, state, postman)
    return paths


def may_be_watched(gd: GamesDir, game: str) -> bool:
    """Whether `game` may have observers: its file of them is there, or cannot be looked at (which
    `pbem.mail.observers` mends). A game nobody ever watched does not load the observers' mail."""
    try:
        os.stat(gd.root.joinpath(*OBSERVERS_DIR, f"{game}.json"))
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return True


REPORTS = ("moves", "all")  # a player's choice: mail when it matters (the default), or for every change


def must_hear(state: dict[str, Any], player: str, unseen: list[Event]) -> bool:
    """Whether `player` gets a mail now for the events he has not read: when he is to move (no standing
    order answered it), at the moments his game marks (a scoring, the end, a lot he may bid on), for
    what the GM or pbem tells him, or always if he asked for every change."""
    if state.get("reports", {}).get(player, "moves") == "all" or state["status"] != "active":
        return True
    if player in waiting_for(state) or any(e.get("pipeline") for e in unseen):
        return True
    ruleset = ruleset_of(state)
    return ruleset.mail_moment(state["engine"], player, unseen, state.get("standing", {}).get(player, []))
