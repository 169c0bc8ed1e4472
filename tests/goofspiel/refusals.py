"""Goofspiel's refusals: each a message id and the English format it is written from (the catalog's
key; `goofspiel.refuse` makes one, `pbem.report.refusal_words` writes it in the player's language)."""

from pbem.errors import Refusal
from pbem.i18n import N_

MESSAGES = {
    "game-over": N_("the game is over"),
    "not-your-decision": N_("it is not your decision: the game waits for %(players)s"),
    "bid-already": N_("you have bid already this round; it is settled when %(players)s have bid too"),
    "bid-only": N_("send 'bid: N' with a card of your hand, not %(order)s"),
    "no-such-card": N_("you have no card %(card)s (your cards: %(cards)s)"),
}
REFUSALS = tuple(MESSAGES.values())


def refuse(msg: str, **values: object) -> Refusal:
    """A refusal of the rules, by its id."""
    return Refusal(msg, MESSAGES[msg], **values)

# what its orders' schema says of an order of no shape it knows (its `message`, pbem.turnfile.plain), as
# the player reads it after `order line N (...)`
SCHEMA_MESSAGES = (N_("is not a Goofspiel order; send bid: N"),)
REFUSALS += SCHEMA_MESSAGES
