"""The header registry that makes each kind of header once: the email package's kinds, kept."""

from __future__ import annotations

from email.headerregistry import AddressHeader, HeaderRegistry, UnstructuredHeader

from pbem.mail.headers import Headers


def test_each_kind_is_made_once_and_is_the_email_packages() -> None:
    ours, theirs = Headers(), HeaderRegistry()
    for name in ("From", "to", "Subject", "X-Pbem-Loop", "Content-Type", "Message-ID"):
        assert ours[name] is ours[name.upper()] is Headers()[name]
        assert ours[name].__mro__[1:] == theirs[name].__mro__[1:]
        assert str(ours(name, "a@b.test")) == str(theirs(name, "a@b.test"))
    assert issubclass(ours["From"], AddressHeader) and issubclass(ours["X-Pbem-Loop"], UnstructuredHeader)


def test_a_registry_that_maps_a_name_elsewhere_gets_its_own_kind() -> None:
    mapped = Headers()
    mapped.map_to_type("X-Pbem-Loop", AddressHeader)
    assert issubclass(mapped["X-Pbem-Loop"], AddressHeader)
    assert not issubclass(Headers()["X-Pbem-Loop"], AddressHeader)
