"""The Medici rules' refusals: each a message id and the English format it is written from, the
catalogs' key (`pbem.rules.medici` refuses with `refuse(id, values)`; `pbem.report.refusal_words`
writes it in the player's language from its id)."""

from pbem.i18n import N_
from pbem.refusals import rules_refusals

MESSAGES, REFUSALS, refuse = rules_refusals({
    "lot-limit-one": N_("the lot may not grow beyond %(n)s card"),
    "lot-limit": N_("the lot may not grow beyond %(n)s cards"),
    "auctioneer-draws": N_("you are the auctioneer: send 'draw' or 'auction', not %(order)s"),
    "bid-not-higher": N_("bid %(amount)s is not higher than the high bid of %(high)s by %(player)s"),
    "lowest-bid": N_("the lowest bid is 1"),
    "bid-over-money": N_("bid %(amount)s is more than your money (%(money)s)"),
    "lot-up-for-auction": N_("the lot is up for auction: send 'pass' or 'bid: N', not %(order)s"),
})


# the standing orders' help texts (`Medici.standing_help`), for the catalog: pbem.mail.commands writes
# them in the player's language
STANDING_HELP = (
    N_("for the lot up for auction now (or the next one): bid the lowest legal amount when it is at most N, "
       "else pass; it ends with that auction"),
    N_("as auctioneer, draw until the lot holds N cards (1-3) or no more may be drawn, then put it up for "
       "auction; it lasts until replaced"),
    N_("pass every bid for the rest of the day"),
)
