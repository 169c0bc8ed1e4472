"""What pbem knows of the common mail providers, for `pbem init`: where their IMAP and SMTP servers
are, how a program logs in there, and whether mail to gm+anything@ reaches gm@ (plus-addressing, which
reply keys in the Reply-To use). Taken from each provider's own help pages; `pbem init` tries the
servers, and the test mail it sends to gm+init.<random>@ shows whether plus-addressing works, so
a provider that changed since is found out at once."""

from __future__ import annotations

from dataclasses import dataclass

# how a program logs in: the account's password; an app password (made in the provider's account
# settings, the account's own password is refused); or OAuth2 alone (a token from a helper command)
PASSWORD, APP_PASSWORD, OAUTH2 = "password", "app password", "OAuth2"


@dataclass(frozen=True)
class Provider:
    """One provider's servers. `plus`: True, False, or None where it depends on the server."""

    key: str
    title: str
    domains: tuple[str, ...]  # addresses at these domains are the provider's
    imap_host: str
    imap_port: int
    imap_security: str  # tls | starttls | none
    smtp_host: str
    smtp_port: int
    smtp_security: str  # tls | starttls | none
    plus: bool | None
    login: str  # PASSWORD, APP_PASSWORD or OAUTH2
    note: str  # what the GM must do at the provider first, in one sentence

    @property
    def oauth2(self) -> bool:
        return self.login == OAUTH2


OWN_SERVER = "own"

PROVIDERS: tuple[Provider, ...] = (
    Provider("gmail", "Gmail (Google)", ("gmail.com", "googlemail.com"),
             "imap.gmail.com", 993, "tls", "smtp.gmail.com", 587, "starttls", True, APP_PASSWORD,
             "Google takes an app password (myaccount.google.com/apppasswords, with 2-step verification on) "
             "or an OAuth2 token; the account's own password is refused."),
    Provider("outlook", "Outlook.com, Hotmail, Live (Microsoft)", ("outlook.com", "hotmail.com", "live.com", "msn.com"),
             "outlook.office365.com", 993, "tls", "smtp-mail.outlook.com", 587, "starttls", True, OAUTH2,
             "Microsoft takes OAuth2 alone: give a --password-command that prints an access token "
             "(for example from oama or mutt_oauth2.py)."),
    Provider("microsoft365", "Microsoft 365 (Exchange Online)", (),
             "outlook.office365.com", 993, "tls", "smtp.office365.com", 587, "starttls", True, OAUTH2,
             "Microsoft takes OAuth2 alone, and the tenant's admin must allow IMAP and SMTP AUTH for the "
             "mailbox: give a --password-command that prints an access token."),
    Provider("fastmail", "Fastmail", ("fastmail.com", "fastmail.fm", "fastmail.net", "fastmail.org"),
             "imap.fastmail.com", 993, "tls", "smtp.fastmail.com", 465, "tls", True, APP_PASSWORD,
             "Fastmail takes an app password (Settings, Privacy & Security, Manage app passwords) with "
             "IMAP and SMTP access."),
    Provider("mailbox.org", "mailbox.org", ("mailbox.org",),
             "imap.mailbox.org", 993, "tls", "smtp.mailbox.org", 465, "tls", True, PASSWORD,
             "mailbox.org takes the account's password, or an app password where two-factor login is on."),
    Provider("posteo", "Posteo", ("posteo.de", "posteo.net", "posteo.org", "posteo.eu", "posteo.at", "posteo.ch"),
             "posteo.de", 993, "tls", "posteo.de", 465, "tls", True, PASSWORD,
             "Posteo takes the account's password."),
    Provider("gmx", "GMX", ("gmx.de", "gmx.net", "gmx.at", "gmx.ch", "gmx.com"),
             "imap.gmx.net", 993, "tls", "mail.gmx.net", 587, "starttls", False, PASSWORD,
             "GMX lets programs in only once 'POP3/IMAP access' is switched on in its mail settings; it has "
             "no plus-addressing, so replies carry their key in the Message-ID alone."),
    Provider("web.de", "Web.de", ("web.de",),
             "imap.web.de", 993, "tls", "smtp.web.de", 587, "starttls", False, PASSWORD,
             "Web.de lets programs in only once 'POP3/IMAP access' is switched on in its mail settings; it "
             "has no plus-addressing, so replies carry their key in the Message-ID alone."),
    Provider("icloud", "iCloud Mail (Apple)", ("icloud.com", "me.com", "mac.com"),
             "imap.mail.me.com", 993, "tls", "smtp.mail.me.com", 587, "starttls", True, APP_PASSWORD,
             "Apple takes an app-specific password (account.apple.com, Sign-In and Security)."),
    Provider("proton", "Proton Mail, through Proton Mail Bridge on this machine", ("proton.me", "protonmail.com", "pm.me"),
             "127.0.0.1", 1143, "starttls", "127.0.0.1", 1025, "starttls", True, PASSWORD,
             "Proton is read through Proton Mail Bridge running on this machine: the password is the one "
             "Bridge shows for the account, and its certificate (exported from Bridge) is the --ca-file."),
    Provider(OWN_SERVER, "my own server (or another provider)", (),
             "", 993, "tls", "", 587, "starttls", None, PASSWORD,
             "Your own server: give its IMAP and SMTP host; plus-addressing works where the server takes "
             "gm+anything@ for gm@ (postfix: recipient_delimiter = +)."),
)

BY_KEY = {p.key: p for p in PROVIDERS}


def provider_named(key: str) -> Provider:
    """The provider of that key; a PbemError lists the keys there are."""
    from pbem.errors import PbemError

    provider = BY_KEY.get(key.strip().lower())
    if provider is None:
        raise PbemError(f"{key!r} is no provider pbem knows; choose one of {', '.join(BY_KEY)} "
                        f"({OWN_SERVER}: give --imap-host and --smtp-host)")
    return provider


def provider_of(address: str) -> Provider | None:
    """The provider an address's domain belongs to (None: not one pbem knows)."""
    domain = address.rpartition("@")[2].lower()
    return next((p for p in PROVIDERS if domain in p.domains), None)
