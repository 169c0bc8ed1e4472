"""pbem.digests gives hashlib's and hmac's digests: SHA-256 and SHA-1 of every size, hashed at once or
in parts, before and after a process turns to OpenSSL's; HMAC-SHA256 under keys shorter and longer
than its block; and a short command loads no OpenSSL for them (tests/test_command_imports.py)."""

from __future__ import annotations

import hashlib
import hmac
import os
import subprocess
import sys

import pytest

from pbem import digests

SIZES = (0, 1, 55, 56, 63, 64, 65, 127, 128, 1000, 70_000)


@pytest.fixture
def own(monkeypatch: pytest.MonkeyPatch) -> None:
    """The process as a short command finds it: CPython's own digests, nothing hashed yet."""
    monkeypatch.setattr(digests, "_makers", {"sha256": digests._own(("_sha2", "_sha256"), "sha256"),
                                             "sha1": digests._own(("_sha1",), "sha1")})
    monkeypatch.setattr(digests, "_hashed", 0)
    monkeypatch.delitem(sys.modules, "hashlib")


@pytest.mark.parametrize("size", SIZES)
def test_sha256_and_sha1_are_hashlibs(own: None, size: int) -> None:
    data = os.urandom(size)
    assert digests.sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
    assert digests.sha1(data).digest() == hashlib.sha1(data).digest()
    assert digests._makers["sha256"] is not hashlib.sha256  # CPython's own did it


def test_a_digest_made_in_parts_and_copied_is_the_digest_of_the_whole(own: None) -> None:
    data = os.urandom(300)
    begun = digests.sha256(data[:100])
    copy = begun.copy()
    begun.update(data[100:])
    copy.update(data[100:200])
    assert begun.digest() == hashlib.sha256(data).digest()
    assert copy.digest() == hashlib.sha256(data[:200]).digest()


def test_past_its_bytes_a_process_hashes_with_openssl_and_the_digests_stay(own: None) -> None:
    small = os.urandom(100)
    before = digests.sha256(small).hexdigest()
    assert digests._makers["sha256"] is not hashlib.sha256
    big = os.urandom(digests.OPENSSL_FROM + 1)
    assert digests.sha256(big).digest() == hashlib.sha256(big).digest()
    assert digests._makers["sha256"] is hashlib.sha256
    assert digests.sha256(small).hexdigest() == before


def test_once_hashlib_is_loaded_its_digests_are_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(digests, "_makers", {"sha256": digests._own(("_sha2", "_sha256"), "sha256"),
                                             "sha1": digests._own(("_sha1",), "sha1")})
    assert "hashlib" in sys.modules  # this test file's own import
    assert digests.sha1(b"x").hexdigest() == hashlib.sha1(b"x").hexdigest()
    assert digests._makers["sha1"] is hashlib.sha1


@pytest.mark.parametrize("key_size", (0, 1, 32, 63, 64, 65, 200))
@pytest.mark.parametrize("size", (0, 1, 64, 1000))
def test_hmac_sha256_is_hmacs(own: None, key_size: int, size: int) -> None:
    key, message = os.urandom(key_size), os.urandom(size)
    assert digests.hmac_sha256(key, message) == hmac.new(key, message, "sha256").digest()


@pytest.mark.parametrize(("a", "b", "same"), [("abc", "abc", True), ("abc", "abd", False), ("abc", "ab", False),
                                              (b"\x00\x01", b"\x00\x01", True), (b"", b"", True)])
def test_compare_digest_is_hmacs(a: str | bytes, b: str | bytes, same: bool) -> None:
    assert digests.compare_digest(a, b) is same is hmac.compare_digest(a, b)


def test_a_process_that_hashes_a_little_loads_no_openssl() -> None:
    code = ("import sys; from pbem import digests; digests.sha256(b'token').hexdigest(); digests.sha1(b'x'); "
            "digests.hmac_sha256(b'k', b'm'); digests.compare_digest('a', 'a'); "
            "print(sorted(m for m in ('hashlib', '_hashlib', 'hmac', 'secrets') if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout == "[]\n"
