"""The Medina rules' refusals, in English as the rules word them (`pbem.rules.medina`), as formats a
player's refusal is found back by and written in his language from (`pbem.report.refusal_text`)."""

from pbem.i18n import N_

REFUSALS = (
    N_("the game is over"),
    N_("it is not your turn: the game waits for %(player)s"),
    N_("%(order)s is not a placement (e.g. 'palace grey C7', 'wall N5', 'roof orange E4')"),
    N_("the market street has its start already"),
    N_("%(square)s is not a square of the city (A1 to %(last)s)"),
    N_("you are the only player with roofs left: this placement must be a roof"),
    N_("you are the only player with roofs left and no palace to roof: found a palace of a colour you have "
       "not claimed, then roof it"),
    N_("%(square)s is taken (by a %(kind)s)"),
    N_("you have no merchants left"),
    N_("the market street cannot grow, so it starts anew; the new start %(square)s may not touch the old "
       "street"),
    N_("you have no %(colour)s palace pieces left"),
    N_("the %(colour)s palace at %(first)s is still open: build onto it (at %(squares)s)"),
    N_("a palace at %(square)s would touch another palace; palaces may never touch, not even diagonally"),
    N_("%(square)s is not a wall segment (%(segments)s)"),
    N_("you have no walls left"),
    N_("wall %(square)s stands already"),
    N_("walls are built from the corner towers along the edge: %(square)s joins no tower and no wall"),
    N_("wall %(square)s would join two towers; a gate must stay open on the %(side)s side"),
    N_("you have no roofs left"),
    N_("there is no palace at %(square)s to roof"),
    N_("the palace at %(square)s is %(colour)s, not %(wanted)s"),
    N_("the %(colour)s palace at %(square)s has a roof already (%(owner)s's)"),
    N_("you own a %(colour)s palace already; each player roofs one palace of each colour"),
    N_("first place the start of the market street: 'start SQUARE'"),
    N_("the market street may not start on the edge of the city (%(square)s)"),
    N_("you have no stables left"),
    N_("a stable must be built onto a palace; %(square)s touches none"),
    N_("a stable at %(square)s would join two palaces; palaces may never touch, not even through stables"),
    N_("the market street must grow from one of its ends (%(end)s or %(other)s) with no branch and no loop: "
       "%(square)s is not such a square (choose from %(squares)s)"),
    N_("the market street must grow from one of its ends (%(ends)s) with no branch and no loop: %(square)s "
       "is not such a square (choose from %(squares)s)"),
)


# what the game's schemas say of an order (or a standing order) of no shape they know (their
# `message`, pbem.turnfile.plain), as the player reads it after `order line N (...)`
SCHEMA_MESSAGES = (
    N_("is not a Medina placement; send one of: start SQUARE, palace COLOUR SQUARE, stable SQUARE, "
       "merchant SQUARE, wall SIDEn, roof COLOUR SQUARE (e.g. 'palace grey C7', 'wall N5', 'roof orange "
       "E4')"),
)
REFUSALS += SCHEMA_MESSAGES


def pgettext(context: str, message: str) -> str:
    """Marks a word with its context for the catalog (translated where it is used)."""
    return message


# what stands on a square (`%(kind)s` in `%(square)s is taken (by a %(kind)s)`): nouns, not order words
PIECES = (pgettext("piece", "palace"), pgettext("piece", "stable"), pgettext("piece", "merchant"))
