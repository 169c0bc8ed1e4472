"""The Medici vs Strozzi rules' refusals, in English as the rules word them (`pbem.rules.medici_strozzi`),
as formats a player's refusal is found back by and written in his language from
(`pbem.report.refusal_text`)."""

from pbem.i18n import N_

REFUSALS = (
    N_("the game is over"),
    N_("it is not your decision: the game waits for %(player)s"),
    N_("you drew the lot: send 'draw' or 'price: N', not %(order)s"),
    N_("send 'buy' or 'decline', not %(order)s"),
    N_("load the lot with 'load: SHIP' (and 'harbour: X' for an empty ship) or 'discard', not %(order)s"),
    N_("you have no ship %(ship)s: your ships hold %(ships)s"),
    N_("ship %(ship)s has room for %(free)s more, not the %(n)s tile of the lot"),
    N_("ship %(ship)s has room for %(free)s more, not the %(n)s tiles of the lot"),
    N_("ship %(ship)s is empty: name its harbour (%(harbours)s)"),
    N_("there is no harbour %(harbour)s (harbours: %(harbours)s)"),
    N_("your ship %(ship)s already lies in harbour %(harbour)s; each ship needs a harbour of its own"),
    N_("the lot may not grow beyond %(n)s tile"),
    N_("the lot may not grow beyond %(n)s tiles"),
    N_("ship %(ship)s lies in harbour %(harbour)s for the rest of the round"),
    N_("the price must be 0 to %(max)s, not %(price)s"),
    N_("you have no ship %(ship)s (your ships: %(ships)s)"),
)


# what the game's schemas say of an order (or a standing order) of no shape they know (their
# `message`, pbem.turnfile.plain), as the player reads it after `order line N (...)`
SCHEMA_MESSAGES = (
    N_("is not a Medici vs Strozzi order; send one of: draw, price: N, buy, decline, load: SHIP (with "
       "harbour: X for an empty ship), discard"),
    N_("is not a Medici vs Strozzi standing order; send buy_up_to: N or load: SHIP (with harbour: X for "
       "an empty ship)"),
)
REFUSALS += SCHEMA_MESSAGES

# the standing orders' help texts (`MediciStrozzi.standing_help`), for the catalog: pbem.mail.commands
# writes them in the player's language
STANDING_HELP = (
    N_("when a price is named to you: buy at N or less, decline above; it lasts until replaced"),
    N_("when you must load a lot: onto this ship (with harbour: X for an empty ship); used once"),
)
