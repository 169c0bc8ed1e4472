"""The words of the lobby's commands (`join`, `mitspielen`, `meedoen`...) and of the answers to an
invitation, with the language each is in: the lobby reads them (`pbem.mail.lobby`), and so does what
tells the language a stranger's mail is written in (`pbem.mail.readers`)."""

from __future__ import annotations

# the words of each command, with the language they are in (None: several)
# (English words are every language's: they choose none)
VERBS: dict[str, dict[str, str | None]] = {
    "join": {"join": None, "mitspielen": "de", "beitreten": "de", "meedoen": "nl", "deelnemen": "nl"},
    "leave": {"leave": None, "aussteigen": "de", "verlassen": "de", "verlaten": "nl", "afmelden": "nl"},
    "accept": {"accept": None, "yes": None, "annehmen": "de", "ja": None, "accepteren": "nl", "aannemen": "nl"},
    "decline": {"decline": None, "no": None, "ablehnen": "de", "nein": "de", "weigeren": "nl", "afwijzen": "nl",
                "nee": "nl"},
    "withdraw": {"withdraw": None, "zurückziehen": "de", "zurueckziehen": "de", "intrekken": "nl"},
    "rematch": {"rematch": None, "revanche": None},
    "new": {"new": None, "neu": "de", "neues": "de", "nieuw": "nl"},
}
# words that say yes or no in a reply to an invitation, besides the commands' own
YES_WORDS = {"accepted": None, "sure": "en", "gladly": "en", "ok": None, "okay": None, "gerne": "de", "gern": "de",
             "graag": "nl", "prima": None, "dabei": "de"}
NO_WORDS = {"declined": None, "cannot": "en", "can't": "en", "leider": "de", "helaas": "nl", "niet": "nl",
            "nicht": "de", "not": "en"}
