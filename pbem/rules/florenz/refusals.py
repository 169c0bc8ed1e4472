"""The Florenz rules' refusals: each a message id and the English format it is written from, the
catalogs' key (`pbem.rules.florenz` refuses with `refuse(id, values)`; `pbem.report.refusal_words`
writes it in the player's language from its id)."""

from pbem.i18n import N_
from pbem.refusals import rules_refusals

MESSAGES, REFUSALS, refuse = rules_refusals({
    "not-your-turn": N_("it is not your turn: %(players)s must decide (%(kind)s)"),
    "not-an-order": N_("%(order)s is not a Florenz order"),
    "not-now": N_("`%(verb)s` is not possible now: you must decide %(kind)s"),
    "name-ring-location": N_("name the location for your ring (`pass L`)"),
    "last-to-pass": N_("you are the last to pass: your ring stays home (order `pass`)"),
    "ring-there": N_("location %(location)s already holds a ring"),
    "swap-at-ring": N_("you may swap only at the location of your ring"),
    "swap-how": N_("swap one of your petitioners with a petitioner of the same rank of another family directly "
                   "before or behind it"),
    "no-debutant": N_("you have no debutant on your board"),
    "queue-full": N_("the queue at %(location)s has no free slot"),
    "maestro-not-promoted": N_("a maestro cannot be promoted"),
    "no-rank": N_("you have no %(rank)s on your board"),
    "no-card": N_("you hold no card %(card)s"),
    "no-member-at-carriage": N_("you have no member at %(location)s, where %(player)s's carriage stands"),
    "no-member": N_("you have no member at %(location)s"),
    "no-cup": N_("you have no cup left"),
    "cup-there": N_("your cup already lies on the tile at %(location)s"),
    "tile-full": N_("the tile at %(location)s has no free slot for your cup"),
    "no-gift": N_("you have no gift left"),
    "name-crest": N_("name the free %(colour)s crest for your guard"),
    "crests-of": N_("%(player)s's crests are %(colour)s crests"),
    "no-guard-order": N_("you have no guard left (order `%(wanted)s`)"),
    "crest-not-free": N_("the crest %(crest)s is not free"),
    "queue-not-empty": N_("the queue at %(location)s is not empty (the first debutant goes to an empty queue)"),
    "offer-costs": N_("the offer costs %(cost)s time units and you have %(time)s (discard cards first)"),
    "offer-costs-one": N_("the offer costs 1 time unit and you have %(time)s (discard cards first)"),
    "hurry-two": N_("hurry moves two different members (or one member twice: `hurry L.P to M to N`)"),
    "guard-on-path": N_("a Strozzi guard stands on the path %(path)s (harder solo game: you may not cross it)"),
    "no-petitioner": N_("there is no petitioner at %(position)s"),
    "not-yours": N_("the petitioner at %(position)s is not yours"),
    "no-path": N_("there is no path from %(here)s to %(to)s (members move only between orthogonal neighbours)"),
    "costs-time": N_("this costs %(cost)s time units and you have %(time)s"),
    "costs-time-one": N_("this costs 1 time unit and you have %(time)s"),
    "no-scandal-card": N_("there is no scandal card %(card)s (cards: %(cards)s)"),
    "write-play": N_("write `play %(card)s %(shape)s`"),
    "card-costs": N_("this card costs %(cost)s time units and you have %(time)s"),
    "card-costs-one": N_("this card costs 1 time unit and you have %(time)s"),
    "write-travel": N_("write `travel L.P to A [to B [to C]]` for a second member, or `done`"),
    "travelled": N_("the member at %(position)s has travelled already: the second member must be another one"),
    "no-cup-on-tile": N_("you have no cup on the tile at %(location)s"),
    "same-queue": N_("the two petitioners must stand in the same queue"),
    "rank-order": N_("a %(rank)s and a %(other)s cannot swap: the rank order holds"),
    "alike": N_("the two petitioners are alike: swapping them changes nothing"),
    "not-neighbour": N_("%(there)s is not an orthogonal neighbour of %(here)s"),
    "lower-rank": N_("the petitioner at %(position)s must be of a lower rank than yours"),
    "debutant-to-lady": N_("this card promotes a debutant to a lady"),
    "no-lady": N_("you have no lady on your board"),
    "first-of-rank": N_("the petitioner at %(position)s already stands first of its rank"),
    "no-crest": N_("there is no crest %(crest)s"),
    "no-guard": N_("you have no guard left"),
    "guard-there": N_("your guard already stands on %(crest)s"),
    "petitioner-there": N_("the petitioner already stands at %(location)s"),
    "no-lady-or-maestro": N_("you have no lady or maestro at %(location)s"),
    "strozzi-colours": N_("Strozzi's colours are %(first)s and %(second)s"),
})


# the standing orders' help texts (`Florenz.standing_help`), for the catalog: pbem.mail.commands writes
# them in the player's language
STANDING_HELP = (
    N_("answer every offer of Giovanni so; it lasts until replaced"),
    N_("once you have passed, take this bonus each time; it lasts until replaced"),
)
