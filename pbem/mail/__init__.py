"""Mail, along the road a mail takes: read from a box (`boxes`), recognised (`incoming`), its sender's
seat found (`ids`, `seats`), his own text read (`own_text`, `html`) for orders (`orders`) or commands
(`commands`), answered (`compose`), with no secret in any text (`secrets`); `run` is a run's mail side.

Mail text never goes through a shell and never decides a file path. Everything read is capped.
"""

from __future__ import annotations

#: the header every mail pbem writes carries (the GM's address): a mail that comes back with it is
#: pbem's own, and is not read as a player's
LOOP_HEADER = "X-Pbem-Loop"
#: <game>.json in it: each observer's address, language, events sent (out of git; see `observers`)
OBSERVERS_DIR = ("mail", "observers")


def one_line(text: str) -> str:
    """A header value from text a stranger may have written: no line breaks, capped."""
    return " ".join(text.split())[:200]
