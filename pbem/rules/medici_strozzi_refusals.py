"""The Medici vs Strozzi rules' refusals: each a message id and the English format it is written from,
the catalogs' key (`pbem.rules.medici_strozzi` refuses with `refuse(id, values)`;
`pbem.report.refusal_words` writes it in the player's language from its id)."""

from pbem.i18n import N_
from pbem.refusals import rules_refusals

MESSAGES, REFUSALS, refuse = rules_refusals({
    "drawer-draws": N_("you drew the lot: send 'draw' or 'price: N', not %(order)s"),
    "buy-or-decline": N_("send 'buy' or 'decline', not %(order)s"),
    "load-or-discard": N_("load the lot with 'load: SHIP' (and 'harbour: X' for an empty ship) or 'discard', "
                          "not %(order)s"),
    "no-such-ship": N_("you have no ship %(ship)s: your ships hold %(ships)s"),
    "ship-too-small-one": N_("ship %(ship)s has room for %(free)s more, not the %(n)s tile of the lot"),
    "ship-too-small": N_("ship %(ship)s has room for %(free)s more, not the %(n)s tiles of the lot"),
    "name-harbour": N_("ship %(ship)s is empty: name its harbour (%(harbours)s)"),
    "no-such-harbour": N_("there is no harbour %(harbour)s (harbours: %(harbours)s)"),
    "harbour-taken": N_("your ship %(ship)s already lies in harbour %(harbour)s; each ship needs a harbour of its "
                        "own"),
    "lot-limit-one": N_("the lot may not grow beyond %(n)s tile"),
    "lot-limit": N_("the lot may not grow beyond %(n)s tiles"),
    "ship-in-harbour": N_("ship %(ship)s lies in harbour %(harbour)s for the rest of the round"),
    "price-range": N_("the price must be 0 to %(max)s, not %(price)s"),
    "standing-no-such-ship": N_("you have no ship %(ship)s (your ships: %(ships)s)"),
})


# the standing orders' help texts (`MediciStrozzi.standing_help`), for the catalog: pbem.mail.commands
# writes them in the player's language
STANDING_HELP = (
    N_("when a price is named to you: buy at N or less, decline above; it lasts until replaced"),
    N_("when you must load a lot: onto this ship (with harbour: X for an empty ship); used once"),
)
