"""The Medina rules' refusals: each a message id and the English format it is written from, the
catalogs' key (`pbem.rules.medina` refuses with `refuse(id, values)`; `pbem.report.refusal_words` writes
it in the player's language from its id)."""

from pbem.i18n import N_
from pbem.refusals import rules_refusals

MESSAGES, REFUSALS, refuse = rules_refusals({
    "not-your-turn": N_("it is not your turn: the game waits for %(player)s"),
    "not-a-placement": N_("%(order)s is not a placement (e.g. 'palace grey C7', 'wall N5', 'roof orange E4')"),
    "start-placed": N_("the market street has its start already"),
    "not-a-square": N_("%(square)s is not a square of the city (A1 to %(last)s)"),
    "roof-due": N_("you are the only player with roofs left: this placement must be a roof"),
    "claim-due": N_("you are the only player with roofs left and no palace to roof: found a palace of a colour "
                    "you have not claimed, then roof it"),
    "taken": N_("%(square)s is taken (by a %(kind)s)"),
    "no-merchants": N_("you have no merchants left"),
    "street-anew": N_("the market street cannot grow, so it starts anew; the new start %(square)s may not touch "
                      "the old street"),
    "no-palace-pieces": N_("you have no %(colour)s palace pieces left"),
    "palace-open": N_("the %(colour)s palace at %(first)s is still open: build onto it (at %(squares)s)"),
    "palace-touches": N_("a palace at %(square)s would touch another palace; palaces may never touch, not even "
                         "diagonally"),
    "not-a-wall": N_("%(square)s is not a wall segment (%(segments)s)"),
    "no-walls": N_("you have no walls left"),
    "wall-stands": N_("wall %(square)s stands already"),
    "wall-alone": N_("walls are built from the corner towers along the edge: %(square)s joins no tower and no "
                     "wall"),
    "wall-closes": N_("wall %(square)s would join two towers; a gate must stay open on the %(side)s side"),
    "no-roofs": N_("you have no roofs left"),
    "no-palace": N_("there is no palace at %(square)s to roof"),
    "palace-colour": N_("the palace at %(square)s is %(colour)s, not %(wanted)s"),
    "palace-roofed": N_("the %(colour)s palace at %(square)s has a roof already (%(owner)s's)"),
    "colour-owned": N_("you own a %(colour)s palace already; each player roofs one palace of each colour"),
    "start-first": N_("first place the start of the market street: 'start SQUARE'"),
    "start-on-edge": N_("the market street may not start on the edge of the city (%(square)s)"),
    "no-stables": N_("you have no stables left"),
    "stable-alone": N_("a stable must be built onto a palace; %(square)s touches none"),
    "stable-joins": N_("a stable at %(square)s would join two palaces; palaces may never touch, not even "
                       "through stables"),
    "street-ends": N_("the market street must grow from one of its ends (%(end)s or %(other)s) with no branch "
                      "and no loop: %(square)s is not such a square (choose from %(squares)s)"),
    "street-end": N_("the market street must grow from one of its ends (%(ends)s) with no branch and no loop: "
                     "%(square)s is not such a square (choose from %(squares)s)"),
})


def pgettext(context: str, message: str) -> str:
    """Marks a word with its context for the catalog (translated where it is used)."""
    return message


# what stands on a square (`%(kind)s` in `%(square)s is taken (by a %(kind)s)`): nouns, not order words
PIECES = (pgettext("piece", "palace"), pgettext("piece", "stable"), pgettext("piece", "merchant"))
