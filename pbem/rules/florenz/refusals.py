"""The Florenz rules' refusals, in English as the rules word them (`pbem.rules.florenz`), as formats a
player's refusal is found back by and written in his language from (`pbem.report.refusal_text`)."""

from pbem.i18n import N_

REFUSALS = (
    N_("the game is over"),
    N_("it is not your turn: %(players)s must decide (%(kind)s)"),
    N_("%(order)s is not a Florenz order"),
    N_("`%(verb)s` is not possible now: you must decide %(kind)s"),
    N_("name the location for your ring (`pass L`)"),
    N_("you are the last to pass: your ring stays home (order `pass`)"),
    N_("location %(location)s already holds a ring"),
    N_("you may swap only at the location of your ring"),
    N_("swap one of your petitioners with a petitioner of the same rank of another family directly before or "
       "behind it"),
    N_("you have no debutant on your board"),
    N_("the queue at %(location)s has no free slot"),
    N_("a maestro cannot be promoted"),
    N_("you have no %(rank)s on your board"),
    N_("you hold no card %(card)s"),
    N_("you have no member at %(location)s, where %(player)s's carriage stands"),
    N_("you have no member at %(location)s"),
    N_("you have no cup left"),
    N_("your cup already lies on the tile at %(location)s"),
    N_("the tile at %(location)s has no free slot for your cup"),
    N_("you have no gift left"),
    N_("name the free %(colour)s crest for your guard"),
    N_("%(player)s's crests are %(colour)s crests"),
    N_("you have no guard left (order `%(wanted)s`)"),
    N_("the crest %(crest)s is not free"),
    N_("the queue at %(location)s is not empty (the first debutant goes to an empty queue)"),
    N_("the offer costs %(cost)s time and you have %(time)s (discard cards first)"),
    N_("hurry moves two different members (or one member twice: `hurry L.P to M to N`)"),
    N_("a Strozzi guard stands on the path %(path)s (harder solo game: you may not cross it)"),
    N_("there is no petitioner at %(position)s"),
    N_("the petitioner at %(position)s is not yours"),
    N_("there is no path from %(here)s to %(to)s (members move only between orthogonal neighbours)"),
    N_("this costs %(cost)s time and you have %(time)s"),
    N_("there is no scandal card %(card)s (cards: %(cards)s)"),
    N_("write `play %(card)s %(shape)s`"),
    N_("this card costs %(cost)s time and you have %(time)s"),
    N_("write `travel L.P to A [to B [to C]]` for a second member, or `done`"),
    N_("the member at %(position)s has travelled already: the second member must be another one"),
    N_("you have no cup on the tile at %(location)s"),
    N_("the two petitioners must stand in the same queue"),
    N_("a %(rank)s and a %(other)s cannot swap: the rank order holds"),
    N_("the two petitioners are alike: swapping them changes nothing"),
    N_("%(there)s is not an orthogonal neighbour of %(here)s"),
    N_("the petitioner at %(position)s must be of a lower rank than yours"),
    N_("this card promotes a debutant to a lady"),
    N_("you have no lady on your board"),
    N_("the petitioner at %(position)s already stands first of its rank"),
    N_("there is no crest %(crest)s"),
    N_("you have no guard left"),
    N_("your guard already stands on %(crest)s"),
    N_("the petitioner already stands at %(location)s"),
    N_("you have no lady or maestro at %(location)s"),
    N_("Strozzi's colours are %(first)s and %(second)s"),
)


# what the game's schemas say of an order (or a standing order) of no shape they know (their
# `message`, pbem.turnfile.plain), as the player reads it after `order line N (...)`
SCHEMA_MESSAGES = (
    N_("is not a Florenz order; send one of: place L, pass L, pass, send L, promote L.P, move L.P to L, "
       "hurry L.P to L to L, hurry L.P to L and L.P to L, boast L, gift MEDICI CREST, bonus time, bonus "
       "vp, swap L.P with L.P, play CARD ..., travel L.P to L, done, accept, decline, discard CARD, "
       "colour orange|blue (L a location 1-9, L.P the petitioner at place P of queue L, e.g. 'send 4', "
       "'move 1.1 to 2', 'gift cosimo escort 4-5')"),
    N_("is not a Florenz standing order; send giovanni: accept|decline or bonus: time|vp"),
)
REFUSALS += SCHEMA_MESSAGES

# the standing orders' help texts (`Florenz.standing_help`), for the catalog: pbem.mail.commands writes
# them in the player's language
STANDING_HELP = (
    N_("answer every offer of Giovanni so; it lasts until replaced"),
    N_("once you have passed, take this bonus each time; it lasts until replaced"),
)
