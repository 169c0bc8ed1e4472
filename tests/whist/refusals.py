"""What Whist's rules refuse: each message id and its English, once."""

from __future__ import annotations

from pbem.i18n import N_
from pbem.refusals import rules_refusals

MESSAGES, REFUSALS, refuse = rules_refusals({
    "not-a-card": N_("an order plays one card of your hand, such as '%(example)s'"),
    "not-held": N_("you hold no %(card)s; your hand is %(hand)s"),
    "must-follow": N_("you must follow the suit led, not play %(card)s: play one of %(cards)s"),
})
