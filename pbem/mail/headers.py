"""The kinds of header the email package knows, each made once a process."""

from __future__ import annotations

from email.headerregistry import HeaderRegistry
from typing import Any

#: the class of a header, by the registry's class for its name and the base class: the email package
#: makes a new class whenever it is asked for one, which costs a mail's writing more than the rest of
#: its headers (each is asked for twice)
_KINDS: dict[tuple[type, type], type] = {}


class Headers(HeaderRegistry):
    """The email package's header registry, whose class for a header is made once and kept: such a
    class holds nothing of a mail, only what its two classes do."""

    def __getitem__(self, name: str) -> Any:
        key = (self.registry.get(name.lower(), self.default_class), self.base_class)
        kind = _KINDS.get(key)
        if kind is None:
            kind = _KINDS[key] = super().__getitem__(name)
        return kind
