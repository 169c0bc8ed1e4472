"""`make demo` as the README promises it: a whole game through the real pipeline (turn files in,
reports and mail out, git history, the web archive), in a folder of its own."""

from __future__ import annotations

import email
import email.policy
import os
import subprocess
import sys
from pathlib import Path

from helpers import git


def test_the_demo_plays_a_whole_game_and_leaves_what_it_says(tmp_path: Path) -> None:
    folder = tmp_path / "demo-games"
    r = subprocess.run([sys.executable, "-m", "pbem.demo", "--dir", str(folder), "--players", "3"],
                       capture_output=True, text=True, timeout=600, env=dict(os.environ))
    assert r.returncode == 0, r.stderr[-2000:]
    assert "The game is over after" in r.stdout and "(verified: identical)" in r.stdout
    games = folder / "games"
    assert git(games, "status", "--porcelain") == ""
    assert int(git(games, "rev-list", "--count", "HEAD")) > 20
    mails = sorted((games / "mail" / "outbox").glob("*.eml"))
    assert len(mails) > 20
    for path in mails:
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        text = msg.get_body(("plain",)).get_content()
        assert all(len(line) <= 72 for line in text.splitlines()), path.name
    assert (folder / "site" / "index.html").is_file()
    log = folder / "site" / "demo1" / "game.yaml"
    v = subprocess.run([sys.executable, "-m", "pbem", "verify", "--log", str(log)], capture_output=True, text=True)
    assert v.returncode == 0 and v.stdout.rstrip().endswith("They are the standings the log file claims."), v.stdout
