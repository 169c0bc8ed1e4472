"""Auditable chance: one HMAC-SHA256 stream per game.

Block i of the stream is HMAC-SHA256(seed, label || ":" || i). The label names what the chance is for
(`day-2-shuffle`), the counter only ever grows and is saved with the game, so anyone who learns the seed
at the end can replay every shuffle from the published order log. Python's `random` is not used: its
algorithms are not promised to stay the same across versions.
"""

from __future__ import annotations

from typing import MutableSequence, TypeVar

from pbem import digests

T = TypeVar("T")

_SPAN = 1 << 64
STRONG_SEED = 16  # shorter seeds can be found from their published sha256 by trying candidates


def commitment(seed: str) -> str:
    """The published promise of a seed: its SHA-256, in hex."""
    return digests.sha256(seed.encode("utf-8")).hexdigest()


class Rng:
    """A position in a game's HMAC-SHA256 stream."""

    def __init__(self, seed: str, counter: int = 0) -> None:
        self._key = seed.encode("utf-8")
        # HMAC's two keyed hashes, made once; each block copies them (a third faster than hmac)
        self._inner, self._outer = digests.hmac_keyed(self._key)
        self.counter = counter

    def __reduce__(self) -> tuple[type[Rng], tuple[str, int]]:
        """Copies and pickles hold the seed and the position; the keyed HMAC is made anew."""
        return (Rng, (self._key.decode("utf-8"), self.counter))

    def _block(self, label: str) -> int:
        msg = f"{label}:{self.counter}".encode("utf-8")
        self.counter += 1
        inner = self._inner.copy()
        inner.update(msg)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return int.from_bytes(outer.digest()[:8], "big")

    def below(self, n: int, label: str) -> int:
        """A uniform integer in 0..n-1 (rejection sampling, so no value is favoured)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, not {n}")
        limit = _SPAN - (_SPAN % n)
        while True:
            x = self._block(label)
            if x < limit:
                return x % n

    def choice(self, items: list[T], label: str) -> T:
        return items[self.below(len(items), label)]

    def shuffle(self, items: MutableSequence[T], label: str) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1, label)
            items[i], items[j] = items[j], items[i]
