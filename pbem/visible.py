"""Text from a mail made safe to show: on a terminal, in a commit message, in a file a GM reads."""

from __future__ import annotations

import re

CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    """`text` with its control characters and bidirectional controls written out (`\\x1b`,
    `\\u202e`), so that text from a mail never steers a terminal or turns a line around."""
    return CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                        else f"\\u{ord(m.group()):04x}", text)
