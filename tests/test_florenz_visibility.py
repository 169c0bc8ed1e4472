"""Who may read an event: `to` addresses an event only when it is a list of players; what one player
alone may read never reaches the commit messages (the repository may be published)."""

from __future__ import annotations

from pathlib import Path

import helpers
from pbem import bots
from helpers import Pbem, git
from pbem.report import event_lines, visible


def test_an_event_whose_own_to_is_not_a_list_is_everyones() -> None:
    """A Florenz promotion says what rank the piece rose `to`; it addresses nobody."""
    rose = {"type": "promote", "family": "anna", "location": "L3", "to": "maestro", "turn": 4}
    secret = {"type": "plan_card", "family": "ben", "card": 7, "to": ["ben"], "turn": 0}
    assert visible([rose, secret], "anna") == [rose]
    assert visible([rose, secret], "ben") == [rose, secret]
    assert visible([rose, secret], None) == [rose, secret]  # the GM


def test_a_commit_message_holds_no_event_one_player_alone_may_read(pbem: Pbem, tmp_path: Path) -> None:
    t = helpers.Table(pbem, tmp_path, "f1", ruleset="florenz")
    t.create(["anna", "ben", "cleo"], "visibility-seed-0001")
    private: list[dict] = []
    while not private and t.show()["waiting_for"]:  # until a family draws a card only it may see
        who = t.waiting()
        seen = t.show(who)
        t.play(who, [bots.choose("florenz", seen["view"], who, seen["legal_orders"])])
        private = [e for e in t.state()["events"] if isinstance(e.get("to"), list) and e["turn"] > 0]
    assert private
    messages = git(pbem.games, "log", "--format=%B")
    for line in event_lines("florenz", private):
        assert line not in messages
    public = [e for e in t.state()["events"] if not isinstance(e.get("to"), list) and e["turn"] > 0]
    assert all(line in messages for line in event_lines("florenz", public[-3:]))
