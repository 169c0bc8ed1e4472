"""Goofspiel's refusals: each a message id and the English format it is written from (the catalog's
key; `refuse` makes one, and knows the ids every game says alike, `pbem.refusals.RULES_MESSAGES`)."""

from pbem.i18n import N_
from pbem.refusals import rules_refusals

MESSAGES, REFUSALS, refuse = rules_refusals({
    "bid-only": N_("send 'bid: N' with a card of your hand, not %(order)s"),
    "no-such-card": N_("you have no card %(card)s (your cards: %(cards)s)"),
})
