"""Unit tests of `pbem.turnfile`: the hardened YAML reader and the schema errors in plain words.

Every rejection is asserted with its exact message: the message is what a player reads in his error
report, so a change of wording is a change of behaviour.
"""

from __future__ import annotations

from typing import Any

import pytest

from rooms import each
from pbem.errors import PbemError, TurnFileError
from pbem.turnfile import (MAX_BYTES, MAX_DEPTH, Source, TurnFile, check_orders, fold_case, load_yaml, parse_turnfile,
                           schema, validator)

ENVELOPE = "game: m1\nplayer: anna\ntoken: s3cret\n"
VALID = ENVELOPE + "turn: 2\norders:\n  - draw\n  - bid: 5\n"


def rejected(data: str | bytes, order_schema: str | None = "medici.orders") -> str:
    """The message a turn file is rejected with."""
    with pytest.raises(TurnFileError) as info:
        parse_turnfile(data, order_schema)
    return str(info.value)


def invalid(*problems: str) -> str:
    """The message of a turn file that fails its schema, listing every problem."""
    return "the turn file is not valid:\n" + "\n".join(f"  - {p}" for p in problems)


# -- a valid file --------------------------------------------------------------------------------------

def test_a_valid_file_parses_to_a_turnfile() -> None:
    tf = parse_turnfile(VALID, "medici.orders")
    assert tf == TurnFile(game="m1", player="anna", token="s3cret", turn=2, orders=["draw", {"bid": 5}])


def test_bytes_and_text_give_the_same_turnfile() -> None:
    assert parse_turnfile(VALID.encode("utf-8")) == parse_turnfile(VALID)


def test_without_an_order_schema_the_orders_are_left_for_later() -> None:
    tf = parse_turnfile(ENVELOPE + "turn: 1\norders: [drw]\n")
    assert tf.orders == ["drw"]


def test_windows_line_ends_and_a_byte_order_mark_are_fine() -> None:
    text = "\ufeff" + VALID.replace("\n", "\r\n")
    assert parse_turnfile(text, "medici.orders").orders == ["draw", {"bid": 5}]


def test_load_yaml_maps_every_place_to_its_line() -> None:
    value, lines = load_yaml("game: m1\norders:\n  - draw\n  - bid: 5\n")
    assert value == {"game": "m1", "orders": ["draw", {"bid": 5}]}
    assert lines[("game",)] == 1
    assert lines[("orders", 0)] == 3
    assert lines[("orders", 1)] == 4
    assert lines[("orders", 1, "bid")] == 4


def test_turnfile_errors_are_domain_errors() -> None:
    assert issubclass(TurnFileError, PbemError)


# -- hardening: rejected before anything is built ------------------------------------------------------

def test_too_large() -> None:
    data = VALID + "#" + "x" * MAX_BYTES + "\n"
    size = len(data.encode("utf-8"))
    assert rejected(data) == f"the turn file is {size} bytes; the limit is 65536"


def test_the_size_limit_is_exactly_64_kib() -> None:
    assert MAX_BYTES == 64 * 1024
    padding = MAX_BYTES - len(VALID) - 2
    at_limit = VALID + "#" + "x" * padding + "\n"
    assert len(at_limit.encode("utf-8")) == MAX_BYTES
    assert parse_turnfile(at_limit).turn == 2
    over = VALID + "#" + "x" * (padding + 1) + "\n"
    assert rejected(over) == "the turn file is 65537 bytes; the limit is 65536"


def test_the_size_is_counted_in_bytes_not_characters() -> None:
    # 30,000 two-byte characters: 60,000 characters would fit, 60,000+ bytes with the rest would not
    data = VALID + "# " + "é" * 33000 + "\n"
    assert len(data) < MAX_BYTES < len(data.encode("utf-8"))
    assert rejected(data) == f"the turn file is {len(data.encode('utf-8'))} bytes; the limit is 65536"


def test_not_utf8() -> None:
    assert rejected(b"game: m1\nplayer: \xff\n") == "the turn file is not UTF-8 text (byte 17)"


def test_latin1_text_is_not_utf8() -> None:
    data = "game: m1\nplayer: zoë\n".encode("latin-1")
    assert rejected(data) == "the turn file is not UTF-8 text (byte 19)"


def test_utf16_with_a_byte_order_mark_is_read() -> None:
    """Windows Notepad saves "Unicode" as UTF-16 with a byte order mark; without the mark it is refused."""
    text = "game: m1\nplayer: zoë\n"
    for encoding in ("utf-16", "utf-16-be"):
        data = text.encode(encoding) if encoding == "utf-16" else b"\xfe\xff" + text.encode(encoding)
        assert load_yaml(data)[0] == {"game": "m1", "player": "zoë"}
    assert rejected(text.encode("utf-16-le")) == "the turn file is not UTF-8 text (byte 38)"
    assert rejected(b"\xff\xfeg\x00a") == "the turn file is not UTF-8 text (byte 4)"


@pytest.mark.parametrize("game, kind, sent, read", each("READINGS"))
def test_each_games_orders_are_read_as_they_are_meant(game: str, kind: str, sent: Any, read: Any) -> None:
    """An order or standing order as a player writes it (in any case, without its colon, ...) is read as
    its schema spells it, each game's by its room's READINGS; one its schema refuses is refused after."""
    name = f"{game}.{kind}"
    orders = [sent]
    try:
        check_orders(orders, name, None, kind)
    except TurnFileError:
        assert any(True for _ in validator(name).iter_errors(read)), (sent, "refused, though it is read as valid")
    assert orders == [read]


@pytest.mark.parametrize("sent, problem", [
    ("bid x", "orders[0].bid: must be a whole number, not 'x'"),  # a bid, refused in words about a bid
    ("bid -1", "orders[0].bid: must be at least 1, not -1"),
    ("hello 3", "orders[0]: is not a Medici order; send one of: draw, auction, pass, bid: N"),
    ("draw 2", "orders[0]: is not a Medici order; send one of: draw, auction, pass, bid: N"),
    ("bid 7 bid 8", "orders[0]: is not a Medici order; send one of: draw, auction, pass, bid: N"),
])
def test_an_order_without_its_colon_that_is_wrong(sent: str, problem: str) -> None:
    with pytest.raises(TurnFileError) as err:
        check_orders([sent], "medici.orders")
    assert str(err.value) == f"the turn file is not valid:\n  - {problem}"


def test_invalid_yaml_names_the_line() -> None:
    data = "game: m1\nplayer: [anna\ntoken: x\n"
    assert rejected(data) == "the turn file, line 3: not valid YAML (did not find expected ',' or ']')"


def test_a_control_character_is_named_with_its_line() -> None:
    """YAML forbids control characters; the reader says only 'position N' (in bytes, for the C reader),
    so the message names the line and the code point instead."""
    assert rejected("game: m1\nplayer: zoë\ntoken: x\x07\n") == (
        "the turn file, line 3: a control character (U+0007) that YAML does not allow; delete it")
    assert rejected("game: m1\r\nplayer: \ufffe\n") == (
        "the turn file, line 2: a character (U+FFFE) that YAML does not allow; delete it")


def test_invalid_yaml_bad_indentation() -> None:
    data = "game: m1\n  player: anna\n"
    assert rejected(data) == ("the turn file, line 2: not valid YAML "
                              "(mapping values are not allowed in this context)")


def test_anchor() -> None:
    data = ENVELOPE + "turn: 1\norders: &o [draw]\n"
    assert rejected(data) == "the turn file, line 5: anchors ('&name') are not allowed"


def test_alias() -> None:
    # no anchor before it: the alias alone is refused (it would not even load)
    data = ENVELOPE + "turn: 1\norders: *o\n"
    assert rejected(data) == "the turn file, line 5: aliases ('*name') are not allowed"


def test_billion_laughs_is_refused_at_its_first_anchor() -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i, name in enumerate("bcdefghi"):
        prev = "abcdefghi"[i]
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    assert rejected("\n".join(lines) + "\n") == "the turn file, line 1: anchors ('&name') are not allowed"


def test_explicit_python_object_tag() -> None:
    data = ENVELOPE + "turn: 1\norders: [!!python/object/apply:os.system [echo hi]]\n"
    assert rejected(data) == ("the turn file, line 5: tags ('!!python/object/apply:os.system') "
                              "are not allowed")


def test_explicit_python_object_tag_on_a_mapping() -> None:
    data = ENVELOPE + "turn: 1\norders: !!python/object:collections.OrderedDict {}\n"
    assert rejected(data) == ("the turn file, line 5: tags ('!!python/object:collections.OrderedDict') "
                              "are not allowed")


def test_even_harmless_explicit_tags_are_refused() -> None:
    assert rejected("game: !!str m1\n") == "the turn file, line 1: tags ('!!str') are not allowed"
    assert rejected("game: !local m1\n") == "the turn file, line 1: tags ('!local') are not allowed"
    assert rejected("orders: !!seq [draw]\n") == ("the turn file, line 1: tags ('!!seq') "
                                                   "are not allowed")


def test_duplicate_key() -> None:
    data = ENVELOPE + "turn: 1\norders: [draw]\nturn: 2\n"
    assert rejected(data) == "the turn file, line 6: the key 'turn' appears twice"


def test_duplicate_key_in_a_flow_mapping_inside_the_orders() -> None:
    data = ENVELOPE + "turn: 1\norders: [{bid: 1, bid: 20}]\n"
    assert rejected(data) == "the turn file, line 5: the key 'bid' appears twice"


def test_a_whole_float_is_not_a_whole_number_in_the_orders_either() -> None:
    data = ENVELOPE + "turn: 1\norders:\n  - bid: 7.0\n"
    assert rejected(data) == invalid("line 6, orders[0].bid: must be a whole number, not 7.0")


@pytest.mark.parametrize("data, line, kind", [
    ("[a]: b\n", 1, "list"),
    (ENVELOPE + "{turn: 1}: 2\n", 4, "mapping"),
    (ENVELOPE + "turn: 1\norders:\n  - {[bid]: 5}\n", 6, "list"),
    ("? [game, m1]\n: x\n", 1, "list"),
])
def test_a_collection_as_a_key_is_refused(data: str, line: int, kind: str) -> None:
    """Python cannot key a dict by a list (`unhashable type`): the scan refuses it first."""
    assert rejected(data) == f"the turn file, line {line}: a {kind} cannot be a key; keys are plain words such as 'orders'"


@pytest.mark.parametrize("data, line", [
    (ENVELOPE + "orders: [draw]\n<<: {turn: 2}\n", 5),
    ("<<: {game: m1, player: anna, token: s3cret, turn: 2, orders: [draw]}\n", 1),
    (ENVELOPE + "turn: 2\norders: [<<]\n", 5),
])
def test_the_merge_key_is_refused(data: str, line: int) -> None:
    """`<<` would merge a mapping in past the duplicate-key check."""
    assert rejected(data) == f"the turn file, line {line}: the merge key '<<' is not allowed"


def test_a_quoted_merge_sign_is_plain_text() -> None:
    value, _ = load_yaml("'<<': x\n")
    assert value == {"<<": "x"}


def test_the_same_key_in_sibling_mappings_is_fine() -> None:
    tf = parse_turnfile(ENVELOPE + "turn: 1\norders:\n  - bid: 1\n  - bid: 2\n", "medici.orders")
    assert tf.orders == [{"bid": 1}, {"bid": 2}]


def test_nesting_deeper_than_8() -> None:
    assert MAX_DEPTH == 8
    # the top-level mapping and 8 lists: 9 levels
    data = ENVELOPE + "turn: 1\norders: " + "[" * 8 + "]" * 8 + "\n"
    assert rejected(data) == "the turn file, line 5: nested more than 8 levels deep"


def test_nesting_of_exactly_8_gets_past_the_scan() -> None:
    # the top-level mapping and 7 lists: the scan lets it through, the order schema refuses it
    data = ENVELOPE + "turn: 1\norders: " + "[" * 7 + "]" * 7 + "\n"
    assert rejected(data) == invalid(
        "line 5, orders[0]: is not a Medici order; send one of: draw, auction, pass, bid: N")


def test_top_level_a_list() -> None:
    assert rejected("- draw\n- pass\n") == invalid(
        "line 1, the top level: must be a mapping (key: value), not a list")


def test_top_level_a_scalar() -> None:
    assert rejected("draw\n") == invalid("line 1, the top level: must be a mapping (key: value), not 'draw'")


def test_an_empty_file_says_it_is_empty() -> None:
    for data in ("", "# only a comment\n"):
        message = rejected(data)
        assert "None" not in message
        assert "empty" in message


def test_two_yaml_documents() -> None:
    data = "---\n" + VALID + "---\n" + VALID
    assert rejected(data).startswith("the turn file, line 9: ")  # where the second document starts


def test_an_impossible_date_is_a_turnfile_error() -> None:
    message = rejected(ENVELOPE + "turn: 2026-02-30\norders: [draw]\n")
    assert message.startswith("the turn file")
    assert "line 4" in message


def test_a_date_is_reported_in_plain_words() -> None:
    message = rejected("game: 2026-01-01\nplayer: anna\ntoken: t\nturn: 1\norders: [draw]\n")
    assert message.startswith("the turn file is not valid:\n  - line 1, game: must be text")
    assert "datetime" not in message


# -- the schema: every problem, each with its line and place -------------------------------------------

def test_missing_fields() -> None:
    assert rejected("game: m1\nplayer: anna\n") == invalid("line 1, the top level: lacks 'token'",
                                                          "line 1, the top level: lacks 'orders' or 'standing' or 'reports'")
    assert rejected(ENVELOPE + "orders: [draw]\n") == invalid("line 1, the top level: lacks 'turn'")


def test_unknown_field() -> None:
    data = ENVELOPE + "turn: 1\norders: [draw]\ncolour: red\n"
    assert rejected(data) == invalid("line 6, the top level: has unknown field 'colour'")


def test_unknown_fields() -> None:
    data = ENVELOPE + "turn: 1\norders: [draw]\ncolour: red\nmood: fine\n"
    assert rejected(data) == invalid("line 6, the top level: has unknown fields 'colour', 'mood'")


@pytest.mark.parametrize("value, words", [
    ("seven", "'seven'"),
    ("1.5", "1.5"),
    ("true", "True"),
    ("'3'", "'3'"),
    ("3.0", "3.0"),  # a float that looks whole is still a float: it would later be printed as one
    ("3e0", "'3e0'"),
    ("2.", "2.0"),
])
def test_turn_not_an_integer(value: str, words: str) -> None:
    data = ENVELOPE + f"turn: {value}\norders: [draw]\n"
    assert rejected(data) == invalid(f"line 4, turn: must be a whole number (the turn your orders answer) or 'next', not {words}")


def test_turn_zero() -> None:
    assert rejected(ENVELOPE + "turn: 0\norders: [draw]\n") == invalid("line 4, turn: must be at least 1, not 0")


def test_empty_orders() -> None:
    assert rejected(ENVELOPE + "turn: 1\norders: []\n") == invalid("line 5, orders: must hold at least 1 item")


def test_too_many_orders() -> None:
    data = ENVELOPE + "turn: 1\norders: [" + ", ".join(["pass"] * 51) + "]\n"
    assert rejected(data) == invalid("line 5, orders: may hold at most 50 items, not 51")


def test_orders_not_a_list() -> None:
    assert rejected(ENVELOPE + "turn: 1\norders: draw\n") == invalid("line 5, orders: must be a list, not 'draw'")


def test_empty_game_name() -> None:
    data = "game: ''\nplayer: anna\ntoken: t\nturn: 1\norders: [draw]\n"
    assert rejected(data) == invalid("line 1, game: must not be empty")


def test_every_envelope_problem_is_listed_at_once() -> None:
    data = "game: 7\nturn: 0\norders: []\ncolour: red\n"
    assert rejected(data) == invalid(
        "line 1, the top level: lacks 'player', 'token'",
        "line 1, game: must be text, not 7",
        "line 2, turn: must be at least 1, not 0",
        "line 3, orders: must hold at least 1 item",
        "line 4, the top level: has unknown field 'colour'",
    )


def test_bad_order_word() -> None:
    data = ENVELOPE + "turn: 1\norders:\n  - drw\n"
    assert rejected(data) == invalid(
        "line 6, orders[0]: is not a Medici order; send one of: draw, auction, pass, bid: N")


def test_bid_in_words() -> None:
    data = ENVELOPE + "turn: 1\norders:\n  - bid: seven\n"
    assert rejected(data) == invalid("line 6, orders[0].bid: must be a whole number, not 'seven'")


def test_bid_zero() -> None:
    data = ENVELOPE + "turn: 1\norders:\n  - bid: 0\n"
    assert rejected(data) == invalid("line 6, orders[0].bid: must be at least 1, not 0")


def test_extra_key_in_a_bid() -> None:
    data = ENVELOPE + "turn: 1\norders:\n  - bid: 5\n    colour: red\n"
    assert rejected(data) == invalid("line 7, orders[0]: has unknown field 'colour'")


def test_bid_without_amount() -> None:
    data = ENVELOPE + "turn: 1\norders:\n  - {}\n"
    assert rejected(data) == invalid("line 6, orders[0]: lacks 'bid'")


def test_every_order_problem_is_listed_at_once_with_its_line() -> None:
    data = ENVELOPE + ("turn: 3\norders:\n"
                       "  - drw\n"            # line 6
                       "  - bid: seven\n"     # line 7
                       "  - bid: 0\n"         # line 8
                       "  - bid: 5\n"         # line 9
                       "    extra: 1\n"
                       "  - draw\n"           # line 11: fine
                       "  - bid: 4\n"         # line 12: fine
                       "  - [pass]\n")        # line 13
    assert rejected(data) == invalid(
        "line 6, orders[0]: is not a Medici order; send one of: draw, auction, pass, bid: N",
        "line 7, orders[1].bid: must be a whole number, not 'seven'",
        "line 8, orders[2].bid: must be at least 1, not 0",
        "line 10, orders[3]: has unknown field 'extra'",
        "line 13, orders[6]: is not a Medici order; send one of: draw, auction, pass, bid: N",
    )


def test_the_envelope_is_checked_before_the_orders() -> None:
    data = "game: m1\nplayer: anna\nturn: 1\norders: [drw]\n"
    assert rejected(data) == invalid("line 1, the top level: lacks 'token'")


@pytest.mark.parametrize("token", ["12345678901", "[abcdefgh]", "{secret: value}", "''", "true"])
def test_a_token_of_the_wrong_kind_is_never_echoed(token: str) -> None:
    message = rejected(f"game: m1\nplayer: anna\ntoken: {token}\nturn: 1\norders: [draw]\n")
    assert message == invalid("line 3, token: must be text, as your welcome mail gives it")
    for piece in ("12345678", "abcdefgh", "secret", "value"):
        assert piece not in message


def test_the_reports_order_block_sent_back_unchanged_gives_no_order() -> None:
    """The block lists the orders commented out: unchanged, it must not make a move."""
    data = ENVELOPE + "turn: 3\norders:\n#  - draw\n#  - auction\n"
    assert rejected(data) == ("the turn file gives no order: choose one of the orders listed and delete "
                              "the '#' in front of it")


# -- keys and words in the case the schemas expect -------------------------------------------------------------

def test_keys_and_order_words_are_read_in_any_case() -> None:
    tf = parse_turnfile("Game: M1\nPlayer: Anna\nToken: S3cret\nTurn: 2\nOrders:\n  - Draw\n  - BID: 5\n  - Pass\n",
                        "medici.orders")
    assert tf == TurnFile(game="m1", player="anna", token="S3cret", turn=2, orders=["draw", {"bid": 5}, "pass"])


def test_turn_next_standing_and_reports_in_any_case() -> None:
    tf = parse_turnfile(ENVELOPE + "Turn: NEXT\norders: [Auction]\nStanding:\n  - Max_Bid: 9\n  - Pass: Day\n"
                                   "Reports: All\n", "medici.orders")
    assert (tf.turn, tf.orders, tf.standing, tf.reports) == \
        ("next", ["auction"], [{"Max_Bid": 9}, {"Pass": "Day"}], "all")
    # the standing orders are put in their schema's case when the game checks them against it
    check_orders(tf.standing, "medici.standing", tf.lines, "standing")
    assert tf.standing == [{"max_bid": 9}, {"pass": "day"}]


def test_a_word_that_could_be_spelt_either_way_is_left_as_sent() -> None:
    assert fold_case("ab", {"enum": ["Ab", "aB"]}) == "ab"
    assert fold_case("Ab", {"type": "string", "pattern": "^(ab|AB)$"}) == "Ab"
    assert fold_case("aB", {"oneOf": [{"const": "AB"}, {"const": "ab"}]}) == "aB"
    # a key two properties could be, and a value that fits two branches
    assert fold_case({"Key": 1}, {"properties": {"key": {}, "KEY": {}}}) == {"Key": 1}
    assert fold_case("A", {"oneOf": [{"type": "string"}, {"const": "a"}]}) == "A"


def test_text_the_schemas_leave_open_keeps_its_case_but_game_player_and_harbour() -> None:
    value = {"Game": "M1", "PLAYER": "Anna", "Token": "AbC-dEf", "turn": 3, "orders": ["Draw"]}
    assert fold_case(value, schema("turnfile")) == \
        {"game": "m1", "player": "anna", "token": "AbC-dEf", "turn": 3, "orders": ["Draw"]}
    assert value["Game"] == "M1"  # a new value: the one given is not changed


def test_check_orders_without_a_schema_changes_nothing() -> None:
    standing = [{"Pass": "Day"}]
    with pytest.raises(FileNotFoundError):
        check_orders(standing, "nogame.standing", key="standing")
    assert standing == [{"Pass": "Day"}]


def test_keys_that_differ_only_in_case_are_one_key_twice() -> None:
    assert rejected(ENVELOPE + "turn: 1\norders: [{bid: 1, Bid: 20}]\n") == \
        "the turn file, line 5: the key 'Bid' appears twice ('bid' and 'Bid' are the same key)"
    assert rejected(ENVELOPE + "Token: s3cret\nturn: 1\norders: [draw]\n") == \
        "the turn file, line 4: the key 'Token' appears twice ('token' and 'Token' are the same key)"
    # elsewhere (the GM's files) keys keep their case
    assert load_yaml("a: 1\nA: 2\n")[0] == {"a": 1, "A": 2}


def test_an_unknown_field_in_another_case_is_named_as_written() -> None:
    assert rejected(ENVELOPE + "turn: 1\norders:\n  - Bid: 5\n    Colour: red\n") == \
        invalid("line 7, orders[0]: has unknown field 'Colour'")
    assert rejected(ENVELOPE + "turn: 1\norders:\n  - BID: seven\n") == \
        invalid("line 6, orders[0].bid: must be a whole number, not 'seven'")


# -- tabs -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("data, line", [
    (ENVELOPE + "turn: 1\norders:\n\t- draw\n", 6),
    (ENVELOPE + "turn: 1\norders:\n  - draw\n \t- pass\n", 7),
    (ENVELOPE + "turn: 1\norders:\n  -\tdraw\n", 6),
    ("game: m1\n\tplayer: anna\n", 2),
    ("\tgame: m1\n", 1),
    (ENVELOPE + "orders:\n  - draw\n\t\n", 6),
])
def test_a_tab_that_breaks_the_yaml_is_named_with_its_line(data: str, line: int) -> None:
    assert rejected(data) == f"the turn file, line {line}: a tab character; indent with spaces"


def test_a_tab_yaml_allows_is_fine_and_other_errors_stay_as_they_were() -> None:
    tf = parse_turnfile("game:\tm1\nplayer: anna\ntoken: s3cret\nturn: 2\t# now\norders: ['a\tb']\n")
    assert tf.orders == ["a\tb"]
    data = "game: 'a\tb'\nplayer: [anna\ntoken: x\n"
    assert rejected(data) == "the turn file, line 3: not valid YAML (did not find expected ',' or ']')"


# -- a turn file pbem wrote from a sender's lines ---------------------------------------------------------------

def test_a_source_names_itself_and_the_senders_own_lines() -> None:
    text = ENVELOPE + "turn: x\norders:\n  - bid: x\n  - drw\nstanding: [{max_bid: -1}]\n"
    names = {("turn",): (1, "order line 1 ('turn: x')"), ("orders", 0): (2, "order line 2 ('bid: x')"),
             ("orders", 1): (3, "order line 3 ('drw')"), ("standing", 0): (4, "order line 4 ('standing: max_bid: -1')")}
    with pytest.raises(TurnFileError) as err:
        parse_turnfile(Source(text, "the order block", names))
    assert str(err.value) == ("the order block is not valid:\n"
                              "  - order line 1 ('turn: x'): must be a whole number (the turn your orders answer) "
                              "or 'next', not 'x'")
    tf = parse_turnfile(Source(text.replace("turn: x", "turn: 3"), "the order block", names))
    with pytest.raises(TurnFileError) as err:
        check_orders(tf.orders, "medici.orders", tf.lines)
    assert str(err.value) == ("the order block is not valid:\n"
                              "  - order line 2 ('bid: x'), bid: must be a whole number, not 'x'\n"
                              "  - order line 3 ('drw'): is not a Medici order; send one of: draw, auction, pass, "
                              "bid: N")
    with pytest.raises(TurnFileError) as err:
        check_orders(tf.standing, "medici.standing", tf.lines, "standing")
    assert str(err.value) == ("the order block is not valid:\n"
                              "  - order line 4 ('standing: max_bid: -1'), max_bid: must be at least 0, not -1")


def test_a_place_of_a_source_the_sender_gave_no_line_for_has_no_line() -> None:
    orders = "orders: [" + ", ".join(["pass"] * 51) + "]\n"
    with pytest.raises(TurnFileError) as err:
        parse_turnfile(Source(ENVELOPE + "turn: 3\n" + orders, "the order block", {("turn",): (2, "order line 2")}))
    assert str(err.value) == "the order block is not valid:\n  - orders: may hold at most 50 items, not 51"
    with pytest.raises(TurnFileError) as err:
        parse_turnfile(Source(ENVELOPE + "turn: 3\norders: " + "[" * 8 + "]" * 8 + "\n", "the order block", {}))
    assert str(err.value) == "the order block: nested more than 8 levels deep"


def test_a_source_without_names_counts_its_own_lines() -> None:
    with pytest.raises(TurnFileError) as err:
        parse_turnfile(Source("\n\n" + ENVELOPE + "turn: 3\norders:\n  - bid: x\n", "the turn file in the mail"),
                       "medici.orders")
    assert str(err.value) == ("the turn file in the mail is not valid:\n"
                              "  - line 8, orders[0].bid: must be a whole number, not 'x'")


def test_the_reports_block_with_standing_orders_added_and_no_order_sets_them_alone() -> None:
    data = ENVELOPE + "turn: 3\norders:\n#  - draw\nstanding:\n  - draw_until: 2\n"
    tf = parse_turnfile(data, "medici.orders")
    assert (tf.turn, tf.orders, tf.standing) == (None, None, [{"draw_until": 2}])
    tf = parse_turnfile(ENVELOPE + "turn: 3\norders:\nreports: all\n")
    assert (tf.turn, tf.orders, tf.reports) == (None, None, "all")
