"""The HMAC-SHA256 chance stream (pbem.rng): reproducible, resumable, uniform, and checkable by anyone
from the published formula alone (the known-answer tests recompute it here with hmac/hashlib)."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from itertools import permutations

import pytest

from pbem.rng import Rng, commitment

SPAN = 1 << 64


# -- an independent implementation of the published formula ------------------------------------------

def block(seed: str, label: str, counter: int) -> int:
    """Block `counter` of the stream: HMAC-SHA256(seed, "label:counter"), first 8 bytes, big-endian."""
    digest = hmac.new(seed.encode("utf-8"), f"{label}:{counter}".encode("utf-8"), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def ref_below(seed: str, counter: int, n: int, label: str) -> tuple[int, int]:
    """(value, next counter): rejection sampling over the blocks, so that no value is favoured."""
    limit = SPAN - SPAN % n
    while True:
        x = block(seed, label, counter)
        counter += 1
        if x < limit:
            return x % n, counter


def ref_shuffle(seed: str, counter: int, items: list, label: str) -> tuple[list, int]:
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j, counter = ref_below(seed, counter, i + 1, label)
        items[i], items[j] = items[j], items[i]
    return items, counter


def chi_square(counts: Counter, categories: list, total: int) -> float:
    expected = total / len(categories)
    return sum((counts.get(c, 0) - expected) ** 2 / expected for c in categories)


# -- reproducibility ----------------------------------------------------------------------------------

def test_same_seed_gives_the_same_sequence() -> None:
    a, b = Rng("a seed"), Rng("a seed")
    seq_a = [a.below(n, f"label-{n % 3}") for n in range(1, 200)]
    seq_b = [b.below(n, f"label-{n % 3}") for n in range(1, 200)]
    assert seq_a == seq_b
    assert a.counter == b.counter >= 199


def test_different_seeds_give_different_sequences() -> None:
    seqs = {}
    for seed in ("s1", "s2", "s3", "S1", "s1 "):
        r = Rng(seed)
        seqs[seed] = tuple(r.below(1000, "x") for _ in range(20))
    assert len(set(seqs.values())) == len(seqs)


def test_different_labels_give_different_blocks() -> None:
    a, b = Rng("seed"), Rng("seed")
    assert [a.below(10**9, "day-1-shuffle") for _ in range(10)] != [b.below(10**9, "day-2-shuffle") for _ in range(10)]


def test_new_rng_starts_at_counter_zero() -> None:
    assert Rng("x").counter == 0
    assert Rng("x", 17).counter == 17


def test_counter_counts_blocks_one_per_draw_without_rejection() -> None:
    # a power of two divides 2**64: no block is ever rejected, so every draw takes exactly one block
    r = Rng("seed")
    for i in range(50):
        r.below(1 << (i % 20 + 1), "p")
        assert r.counter == i + 1


@pytest.mark.parametrize("k", [0, 1, 7, 50])
def test_counter_continues_where_a_stream_left_off(k: int) -> None:
    first = Rng("resumable")
    for _ in range(k):
        first.below(2**32, "warm-up")
    assert first.counter == k
    resumed = Rng("resumable", k)
    for n in (2, 3, 7, 10, 36, 2**63 + 1, 1000):
        assert resumed.below(n, "go") == first.below(n, "go")
        assert resumed.counter == first.counter


def test_counter_continues_after_rejections_and_shuffles() -> None:
    """Whatever was consumed (rejected blocks included), Rng(seed, counter) picks up at the same place."""
    first = Rng("mid-game")
    deck = list(range(36))
    first.shuffle(deck, "day-1-shuffle")
    for _ in range(30):
        first.below(2**63 + 1, "rejecting")  # rejects about half of the blocks
    resumed = Rng("mid-game", first.counter)
    a, b = list(range(36)), list(range(36))
    first.shuffle(a, "day-2-shuffle")
    resumed.shuffle(b, "day-2-shuffle")
    assert a == b
    assert first.counter == resumed.counter


def test_resuming_at_a_different_counter_differs() -> None:
    a, b = Rng("s", 10), Rng("s", 11)
    assert [a.below(10**6, "x") for _ in range(5)] != [b.below(10**6, "x") for _ in range(5)]


# -- below, choice, shuffle ---------------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 36])
def test_below_covers_exactly_0_to_n_minus_1(n: int) -> None:
    r = Rng(f"cover-{n}")
    seen = {r.below(n, "c") for _ in range(40 * n)}
    assert seen == set(range(n))


@pytest.mark.parametrize("n", [0, -1, -36])
def test_below_refuses_a_bound_that_is_not_positive(n: int) -> None:
    r = Rng("x")
    with pytest.raises(ValueError):
        r.below(n, "bad")
    assert r.counter == 0


def test_below_is_roughly_uniform() -> None:
    """A chi-square bound with fixed seeds (deterministic): the 99.999% quantiles are 28.5 (df 5),
    31.3 (df 6) and 63.9 (df 35); a fair stream stays far below them."""
    for n, total, bound in ((6, 6000, 28.5), (7, 7000, 31.3), (36, 36000, 63.9)):
        r = Rng(f"uniform-{n}")
        counts = Counter(r.below(n, "u") for _ in range(total))
        assert chi_square(counts, list(range(n)), total) < bound, (n, counts)


def test_below_is_uniform_when_rejection_matters() -> None:
    """n = 2**63 + 1 rejects about half of the blocks; the values must still split evenly over halves."""
    n = 2**63 + 1
    r = Rng("big")
    values = [r.below(n, "b") for _ in range(2000)]
    assert all(0 <= v < n for v in values)
    low = sum(1 for v in values if v < n // 2)
    assert 850 < low < 1150
    assert r.counter > 2000 * 1.7  # about two blocks per value


def test_shuffle_is_a_permutation() -> None:
    r = Rng("perm")
    for size in (0, 1, 2, 5, 36):
        items = [f"card-{i % 7}" for i in range(size)]  # with repeats, like the 5s of Medici
        shuffled = list(items)
        r.shuffle(shuffled, f"shuffle-{size}")
        assert Counter(shuffled) == Counter(items)
        assert len(shuffled) == len(items)


def test_shuffle_of_zero_or_one_item_draws_nothing() -> None:
    r = Rng("s")
    r.shuffle([], "x")
    r.shuffle(["only"], "x")
    assert r.counter == 0


def test_shuffle_reaches_every_order_evenly() -> None:
    r = Rng("perm-uniform")
    total = 6000
    counts = Counter()
    for _ in range(total):
        items = ["a", "b", "c"]
        r.shuffle(items, "three")
        counts[tuple(items)] += 1
    orders = list(permutations("abc"))
    assert set(counts) == set(orders)
    assert chi_square(counts, orders, total) < 28.5


def test_shuffle_really_moves_cards() -> None:
    r = Rng("moves")
    deck = list(range(36))
    r.shuffle(deck, "day-1-shuffle")
    assert deck != list(range(36))


def test_choice_picks_the_item_below_draws() -> None:
    items = ["anna", "ben", "cleo", "dario", "eva"]
    a, b = Rng("choice"), Rng("choice")
    for _ in range(50):
        assert a.choice(items, "start-player") == items[b.below(len(items), "start-player")]
    assert {Rng(f"c{i}").choice(items, "x") for i in range(60)} == set(items)


# -- the commitment and known answers -----------------------------------------------------------------

@pytest.mark.parametrize("seed", ["demo", "test-seed", "0" * 32, "sæd ☃ with spaces", "a" * 1000])
def test_commitment_is_the_sha256_hex_of_the_seed(seed: str) -> None:
    expected = hashlib.sha256(seed.encode("utf-8")).hexdigest()
    assert commitment(seed) == expected
    assert len(commitment(seed)) == 64 and commitment(seed) == commitment(seed).lower()


def test_commitment_known_answer() -> None:
    # sha256("abc"), the FIPS 180-2 example
    assert commitment("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


@pytest.mark.parametrize("seed", ["demo", "sæd ☃"])
@pytest.mark.parametrize("label", ["start-player", "day-1-shuffle", "x"])
def test_known_answer_below(seed: str, label: str) -> None:
    counter = 0
    r = Rng(seed)
    for n in (2, 3, 5, 6, 10, 36, 1000, 2**40 + 3, 2**63 + 1, 3 * 2**62 + 7):
        want, counter = ref_below(seed, counter, n, label)
        assert r.below(n, label) == want
        assert r.counter == counter


def test_known_answer_first_block_literal() -> None:
    """The first draw is the first block reduced mod n (2**64 is a multiple of 2**k: no rejection)."""
    x = block("demo", "start-player", 0)
    assert Rng("demo").below(2**32, "start-player") == x % 2**32
    # the same value recomputed by hand, without the helper
    digest = hmac.new(b"demo", b"start-player:0", hashlib.sha256).digest()
    assert x == int.from_bytes(digest[:8], "big")


def test_known_answer_exercises_rejection() -> None:
    """Find a counter whose block is rejected for n = 2**63 + 1 (limit = n), and check that `below`
    skips it and takes the next block."""
    n = 2**63 + 1
    limit = SPAN - SPAN % n
    assert limit == n
    seed, label = "reject-me", "r"
    start = next(c for c in range(200) if block(seed, label, c) >= limit)
    r = Rng(seed, start)
    got = r.below(n, label)
    follow = start + 1
    while block(seed, label, follow) >= limit:
        follow += 1
    assert got == block(seed, label, follow) % n
    assert r.counter == follow + 1


def test_known_answer_shuffle() -> None:
    cards = [f"{g}-{v}" for g in ("linen", "furs", "grain", "dyes", "spices") for v in (0, 1, 2, 3, 4, 5, 5)]
    cards.append("gold-10")
    for seed in ("demo", "another"):
        r = Rng(seed, 3)
        got = list(cards)
        r.shuffle(got, "day-1-shuffle")
        want, counter = ref_shuffle(seed, 3, cards, "day-1-shuffle")
        assert got == want
        assert r.counter == counter


def test_known_answer_choice() -> None:
    items = ["anna", "ben", "cleo", "dario"]
    for seed in ("demo", "test-seed", "x"):
        want, counter = ref_below(seed, 0, len(items), "start-player")
        r = Rng(seed)
        assert r.choice(items, "start-player") == items[want]
        assert r.counter == counter


@pytest.mark.parametrize("seed", ["", "s", "x" * 63, "y" * 64, "z" * 65, "ß€" * 40, "a-long-seed-" * 20])
def test_the_stream_is_hmac_sha256_for_keys_of_every_length(seed: str) -> None:
    """Keys longer than SHA-256's 64-byte block are hashed first (RFC 2104); shorter ones padded."""
    rng = Rng(seed)
    for counter in range(5):
        digest = hmac.new(seed.encode("utf-8"), f"label:{counter}".encode("utf-8"), hashlib.sha256).digest()
        assert rng._block("label") == int.from_bytes(digest[:8], "big")
