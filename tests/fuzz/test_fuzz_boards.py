"""Fuzzed board texts for every game, through ``solve --board - --json``: random texts from
each game's alphabet and beyond, and valid boards with random edits. Every case keeps the
contract (tests/fuzz/contract.py) and every answer passes the game's independent checker."""
from __future__ import annotations

import random

from hypothesis import given, strategies as st

from solvers import klotski, lyne, onestroke, rings
from tests.fuzz.contract import check_solve_json, fuzz, run

JUNK = st.sampled_from(list(" \t/\\:#.,-0123456789²٣\u00a0\u200b\ufeffé漢🙂\x00\x7f\r"))


def grid_text(alphabet: str, max_rows: int, max_cols: int) -> st.SearchStrategy[str]:
    """Rows of characters mostly from ``alphabet``, some junk, joined by newlines or '/'."""
    char = st.one_of(st.sampled_from(list(alphabet)), st.sampled_from(list(alphabet)), JUNK)
    row = st.lists(char, min_size=0, max_size=max_cols).map("".join)
    return st.tuples(st.lists(row, min_size=0, max_size=max_rows), st.sampled_from(["\n", "/", "\r\n"])) \
        .map(lambda t: t[1].join(t[0]))


@st.composite
def edited(draw: st.DrawFn, text: st.SearchStrategy[str], alphabet: str) -> str:
    """A text with a few random edits: a character replaced, inserted or removed, a line
    duplicated or dropped."""
    chars = list(draw(text))
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["replace", "insert", "delete", "line"]))
        at = draw(st.integers(0, max(0, len(chars) - 1)))
        new = draw(st.one_of(st.sampled_from(list(alphabet)), JUNK))
        if kind == "replace" and chars:
            chars[at] = new
        elif kind == "insert":
            chars.insert(at, new)
        elif kind == "delete" and chars:
            del chars[at]
        elif kind == "line":
            lines = "".join(chars).split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(i, lines[i]) if draw(st.booleans()) else lines.pop(i)
            chars = list("\n".join(lines))
    return "".join(chars)


SEED = st.integers(0, 10_000)
ONESTROKE = st.builds(lambda r, c, s: onestroke.generate(r, c, s).to_text(), st.integers(2, 5), st.integers(2, 5), SEED)
LYNE = st.builds(lambda r, c, s: lyne.generate(r, c, random.Random(s))[0].to_text(), st.integers(3, 4), st.integers(3, 4), SEED)
KLOTSKI = st.builds(lambda r, c, s: klotski.generate(r, c, s).to_text(),
                    st.sampled_from([(4, 3), (4, 4), (5, 4)]).map(lambda rc: rc[0]), st.just(3), SEED)
RINGS = st.builds(lambda s, g, m: rings.generate(s, g, m).to_text(), SEED, st.integers(1, 3), st.integers(1, 3))


@st.composite
def valves_text(draw: st.DrawFn) -> str:
    names = draw(st.lists(st.sampled_from(list("ABCDEFGH")), min_size=2, max_size=7, unique=True))
    pipes = draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names)), max_size=10))
    lines = [f"{a} {b}" for a, b in pipes]
    lines += [f"inlet: {names[0]}", f"outlet: {names[-1]}"]
    if draw(st.booleans()):
        lines.append(f"wrenches: {draw(st.integers(-2, 6))}")
    if draw(st.booleans()):
        lines.append(f"closed: {draw(st.sampled_from(names))}")
    return "\n".join(draw(st.permutations(lines)))


GAMES = {
    "onestroke": (st.one_of(grid_text("#.S", 6, 6), edited(ONESTROKE, "#.S")), "#.S"),
    "lyne": (st.one_of(grid_text(".tdsTDS1234", 4, 4), edited(LYNE, ".tdsTDS1234")), ".tdsTDS1234"),
    "klotski": (st.one_of(grid_text("ABCDE.", 4, 4), edited(KLOTSKI, "ABCDE.")), "ABCDE."),
    "rings": (st.one_of(grid_text(".xy", 5, 12), edited(RINGS, ".xy")), ".xy"),
    "valves": (st.one_of(valves_text(), edited(valves_text(), "ABC :\n")), "AB :"),
}


@fuzz(40)
@given(data=st.data(), game=st.sampled_from(sorted(GAMES)))
def test_fuzzed_board_texts_keep_the_contract_and_every_answer_is_valid(data: st.DataObject, game: str) -> None:
    text = data.draw(GAMES[game][0], label="board")
    status, out, _ = run(["solve", "--game", game, "--board", "-", "--json"], stdin=text)
    check_solve_json(status, out)


@fuzz(10)
@given(text=st.text(max_size=300), game=st.sampled_from(sorted(GAMES)))
def test_any_unicode_text_keeps_the_contract(text: str, game: str) -> None:
    status, out, _ = run(["solve", "--game", game, "--board", "-", "--json"], stdin=text)
    check_solve_json(status, out)


@fuzz(15)
@given(board=KLOTSKI, metric=st.sampled_from(["piece", "straight", "cell"]))
def test_klotski_answers_are_valid_under_every_metric(board: str, metric: str) -> None:
    status, out, _ = run(["solve", "--game", "klotski", "--board", "-", "--json", "--metric", metric], stdin=board)
    check_solve_json(status, out, {"metric": metric})


@fuzz(15)
@given(board=RINGS, rule=st.sampled_from(["strict", "attacks"]), moves=st.integers(-1, 7))
def test_rings_answers_are_valid_under_every_rule_and_budget(board: str, rule: str, moves: int) -> None:
    status, out, _ = run(["solve", "--game", "rings", "--board", "-", "--json", "--rule", rule,
                          "--moves", moves], stdin=board)
    check_solve_json(status, out, {"rule": rule, "moves": moves})
