"""A regular expression compiled where it is first used, not when its module is imported.

Python compiles a pattern in Python itself, at about half a million instructions each: a module that
names twenty patterns a command never uses costs that command some ten million. A `Pattern` is named
at the top of its module as a compiled one would be, and compiled the first time one of its methods is
asked for; from then on each method is the compiled pattern's own. It imports nothing of pbem.
"""

from __future__ import annotations

import re
from typing import Any


class Pattern:
    """`re.compile(pattern, flags)`, compiled when first used: `match`, `fullmatch`, `search`, `sub`,
    `split`, `findall`, `finditer`, `pattern`, `flags` and the rest are the compiled pattern's."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "_source":  # copy, pickle and the like: not the pattern's
            raise AttributeError(name)
        value = getattr(re.compile(*self._source), name)
        setattr(self, name, value)  # kept: the next lookup finds it at once
        return value

    def __repr__(self) -> str:
        return f"Pattern({self._source[0]!r})"
