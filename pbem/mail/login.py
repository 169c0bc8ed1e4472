"""Logging in to the GM's IMAP and SMTP servers: with a password, or with an OAuth2 access token
(`auth: xoauth2` in pbem.yaml, the token from `password_command`) over SASL XOAUTH2, as Gmail and
Microsoft's servers take it. Every place that logs in comes here, so that each way of logging in is
written once; the errors are imaplib's and smtplib's own, for the caller to put in words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import imaplib
    import smtplib

    from pbem.config import Config


def xoauth2(user: str, token: str) -> str:
    """The XOAUTH2 initial client response (before base64, which imaplib and smtplib add)."""
    return f"user={user}\x01auth=Bearer {token}\x01\x01"


def imap_login(imap: imaplib.IMAP4, config: Config, section: dict[str, Any], what: str = "inbox") -> None:
    """Log in to an IMAP server as pbem.yaml's `section` says. The secret is asked for here, so a
    `password_command` runs once for each connection (an OAuth2 helper hands out a fresh token)."""
    secret = config.password(section, what) or ""
    if section.get("auth") == "xoauth2":
        response = xoauth2(section["user"], secret).encode("utf-8")
        # a server that refuses the token sends a challenge with its reasons; an empty answer ends it
        answers = iter([response])
        imap.authenticate("XOAUTH2", lambda challenge: next(answers, b""))
        return
    imap.login(section["user"], secret)


def smtp_login(smtp: smtplib.SMTP, config: Config, section: dict[str, Any], what: str = "outbox") -> None:
    """Log in to an SMTP server as pbem.yaml's `section` says (after STARTTLS, where there is one)."""
    secret = config.password(section, what) or ""
    if section.get("auth") == "xoauth2":
        smtp.ehlo_or_helo_if_needed()
        response = xoauth2(section["user"], secret)

        def answer(challenge: bytes | None = None) -> str:
            return response if challenge is None else ""  # a refusal's challenge: end the exchange
        smtp.auth("XOAUTH2", answer, initial_response_ok=True)
        return
    smtp.login(section["user"], secret)
