"""Florenz's refusals keep their English and are written in a player's language from their ids."""

from __future__ import annotations

from pbem.errors import Refusal
from pbem.report import refusal_text


def test_a_florenz_refusal_keeps_its_english_and_is_written_from_its_id() -> None:
    from pbem.rules.base import get_ruleset
    from pbem.rng import Rng

    rules = get_ruleset("florenz")
    state, _ = rules.setup(["anna", "ben", "cleo"], {}, Rng("florenz-ids"))
    waiting = rules.decision(state).players
    other = next(p for p in ("anna", "ben", "cleo") if p not in waiting)
    why = rules.why_illegal(state, other, "pass 3")
    assert isinstance(why, Refusal) and why.msg == "not-your-turn"
    assert str(why) == f"it is not your turn: {', '.join(waiting)} must decide ({why.values['kind']})"
    assert refusal_text(why, "de", "florenz").startswith("du bist nicht am Zug: ")
    assert refusal_text(why, "en", "florenz") == str(why)


def test_a_kind_of_decision_is_named_in_the_games_words() -> None:
    from pbem.rules.florenz.refusals import refuse

    assert refusal_text(refuse("not-your-turn", players="anna", kind="action"), "de", "florenz") == \
        "du bist nicht am Zug: anna muss entscheiden (Aktion)"
