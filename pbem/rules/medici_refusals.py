"""The Medici rules' refusals: each a message id and the English format it is written from, the
catalogs' key (`pbem.rules.medici` refuses with `refuse(id, values)`; `pbem.report.refusal_words`
writes it in the player's language from its id)."""

from pbem.errors import Refusal
from pbem.i18n import N_

MESSAGES = {
    "game-over": N_("the game is over"),
    "not-your-decision": N_("it is not your decision: the game waits for %(player)s"),
    "lot-limit-one": N_("the lot may not grow beyond %(n)s card"),
    "lot-limit": N_("the lot may not grow beyond %(n)s cards"),
    "auctioneer-draws": N_("you are the auctioneer: send 'draw' or 'auction', not %(order)s"),
    "bid-not-higher": N_("bid %(amount)s is not higher than the high bid of %(high)s by %(player)s"),
    "lowest-bid": N_("the lowest bid is 1"),
    "bid-over-money": N_("bid %(amount)s is more than your money (%(money)s)"),
    "lot-up-for-auction": N_("the lot is up for auction: send 'pass' or 'bid: N', not %(order)s"),
}
REFUSALS = tuple(MESSAGES.values())


def refuse(msg: str, **values: object) -> Refusal:
    """The refusal `msg` with its values."""
    return Refusal(msg, MESSAGES[msg], **values)


# what the game's schemas say of an order (or a standing order) of no shape they know (their
# `message`, pbem.turnfile.plain), as the player reads it after `order line N (...)`
SCHEMA_MESSAGES = (
    N_("is not a Medici order; send one of: draw, auction, pass, bid: N"),
    N_("is not a Medici standing order; send max_bid: N, draw_until: N (1-3) or pass: day"),
)
REFUSALS += SCHEMA_MESSAGES

# the standing orders' help texts (`Medici.standing_help`), for the catalog: pbem.mail.commands writes
# them in the player's language
STANDING_HELP = (
    N_("for the lot up for auction now (or the next one): bid the lowest legal amount when it is at most N, "
       "else pass; it ends with that auction"),
    N_("as auctioneer, draw until the lot holds N cards (1-3) or no more may be drawn, then put it up for "
       "auction; it lasts until replaced"),
    N_("pass every bid for the rest of the day"),
)
