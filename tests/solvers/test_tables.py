"""The solvers' table cache: tables come back as stored, and a missing, stale, foreign or
damaged file is rebuilt rather than trusted."""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from solvers import klotski, tables


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PUZZLEPILOT_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_a_stored_table_comes_back_and_is_not_rebuilt(cache: Path) -> None:
    built = []
    value = tables.cached("t", 1, lambda: built.append(1) or [1, 2], bytes, list)
    again = tables.cached("t", 1, lambda: built.append(1) or [], bytes, list)
    assert value == again == [1, 2] and built == [1]


@pytest.mark.parametrize("damage", [
    lambda data: data[: len(data) // 2],                                  # truncated
    lambda data: data[:-40] + bytes([data[-40] ^ 0x10]) + data[-39:],     # one bit flipped
])
def test_a_damaged_table_is_rebuilt_and_stored_again(cache: Path, damage) -> None:
    table = bytes(range(250)) * 4
    tables.store("t", 1, table)
    path = tables.path_of("t", 1)
    path.write_bytes(damage(path.read_bytes()))
    assert tables.load("t", 1) is None
    assert tables.cached("t", 1, lambda: table, bytes, bytes) == table
    assert tables.load("t", 1) == table


@pytest.mark.parametrize("foreign", [b"not a table at all", b""])
def test_a_file_the_tool_did_not_write_is_neither_used_nor_replaced(cache: Path, foreign: bytes) -> None:
    """A file at a table's name that does not start as the tool's tables do is someone
    else's: the table is built and answered from memory, the file left as it was."""
    tables.store("t", 1, b"x")
    path = tables.path_of("t", 1)
    path.write_bytes(foreign)
    table = bytes(range(250)) * 4
    assert tables.cached("t", 1, lambda: table, bytes, bytes) == table
    assert path.read_bytes() == foreign


def test_a_table_of_another_version_or_name_is_not_used(cache: Path) -> None:
    tables.store("t", 1, b"old")
    assert tables.load("t", 2) is None
    tables.path_of("u", 1).write_bytes(tables.path_of("t", 1).read_bytes())
    assert tables.load("u", 1) is None


def test_a_table_its_solver_cannot_read_is_rebuilt(cache: Path) -> None:
    tables.store("t", 1, b"not a number")
    assert tables.cached("t", 1, lambda: 7, lambda v: str(v).encode(), lambda b: int(b.decode())) == 7
    assert tables.load("t", 1) == b"7"


def test_a_cache_path_that_is_a_file_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("mine")
    monkeypatch.setenv("PUZZLEPILOT_CACHE", str(blocker))
    assert tables.cached("t", 1, lambda: 7, lambda v: b"7", int) == 7
    assert blocker.read_text() == "mine"


def test_klotski_answers_stay_right_from_a_corrupt_move_cache(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    board = klotski.layout("横刀立马")
    monkeypatch.setattr(klotski, "_MEMOS", {})
    first = klotski.solve(board)
    stored = list(cache.glob("klotski-*"))
    assert first.moves == 81 and len(stored) == 1
    for path in stored:       # corrupt in place: same size, garbage in the middle
        data = bytearray(path.read_bytes())
        data[len(data) // 2: len(data) // 2 + 64] = bytes(64)
        path.write_bytes(bytes(data))
    monkeypatch.setattr(klotski, "_MEMOS", {})
    again = klotski.solve(board)
    assert again.moves == 81 and klotski.validate(board, again.solution) == []
    assert tables.load(stored[0].name.split(".")[0], klotski.MEMO_VERSION) is not None   # rewritten whole


def test_klotski_reuses_the_stored_move_lists_in_a_new_process(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    board = klotski.layout("横刀立马")
    monkeypatch.setattr(klotski, "_MEMOS", {})
    klotski.solve(board, metric="straight")
    monkeypatch.setattr(klotski, "_MEMOS", {})     # as a fresh process: only the disk is left
    space = klotski._space(board, "straight", True)
    assert space.memo_size > 0 and space.by_free
    result = klotski.solve(board, metric="straight")
    assert result.moves == 90 and klotski.validate(board, result.solution, "straight") == []


def test_only_the_most_recent_tables_of_a_family_are_kept(cache: Path) -> None:
    for i in range(5):
        tables.store(f"fam-{i}", 1, bytes([i]), "fam-", 3)
        os.utime(tables.path_of(f"fam-{i}", 1), (i, i))      # distinct, ordered times
    tables.store("other", 1, b"x")
    assert sorted(p.name.split(".")[0] for p in cache.iterdir()) == ["fam-2", "fam-3", "fam-4", "other"]
    tables.store("fam-5", 1, b"5", "fam-", 3)
    assert sorted(p.name.split(".")[0] for p in cache.glob("fam-*")) == ["fam-3", "fam-4", "fam-5"]
    mine = tables.path_of("fam-0", 1)       # a file of the user's named like one of the family
    mine.write_bytes(b"kept")
    os.utime(mine, (0, 0))
    tables.store("fam-6", 1, b"6", "fam-", 3)
    assert mine.read_bytes() == b"kept"
    assert sorted(p.name.split(".")[0] for p in cache.glob("fam-*")) == ["fam-0", "fam-4", "fam-5", "fam-6"]


def test_rings_answers_stay_right_from_corrupt_stored_levels(cache: Path) -> None:
    from solvers import rings, rings_arrays

    board = rings.generate(5, 3, 3)
    rings._backward.cache_clear()
    rings_arrays._tables.cache_clear()
    first = rings.solve(board)
    stored = sorted(cache.glob("rings-*"))
    assert first.solved and stored
    for path in stored:
        path.write_bytes(path.read_bytes()[:-100] + bytes(100))
    rings._backward.cache_clear()
    rings_arrays._tables.cache_clear()
    again = rings.solve(board)
    assert again.moves == first.moves and rings.validate(board, again.solution) == []


def _damage_every_block(path: Path) -> None:
    """Flip a bit in every block of a stored sorted table's values, its header and index
    left whole (so it still opens, and any value read comes from a damaged block)."""
    raw = bytearray(path.read_bytes())
    _, _, _, length, _, label = tables.HEAD.unpack_from(raw)
    start = tables.HEAD.size + label + 12 * -(-(length // 8) // tables.BLOCK)
    for at in range(start, len(raw), 8 * tables.BLOCK):
        raw[at + 3] ^= 0x20
    path.write_bytes(bytes(raw))


def test_rings_levels_damaged_where_the_solve_reads_them_are_made_again(cache: Path) -> None:
    from solvers import rings

    board = rings.generate(7, 2, 3)
    rings._backward.cache_clear()
    rings.solve(board)                                  # stores the levels
    levels = sorted(cache.glob("rings-backward-*"))
    rings._backward.cache_clear()
    first = rings.solve(board)                          # from them
    assert first.moves == 3 and len(levels) == 3
    for path in levels:
        _damage_every_block(path)
    rings._backward.cache_clear()
    again = rings.solve(board)
    assert again.solution == first.solution and rings.validate(board, again.solution) == []
    for path in levels:     # stored again, whole
        assert len(tables.open_sorted(path.name.split(".")[0], rings.TABLES_VERSION).values()) > 0


def test_a_sorted_table_is_looked_up_in_place_block_by_block(cache: Path) -> None:
    from array import array

    values = array("Q", range(5, 3 * 2000, 3))         # 1,999 values: 4 blocks, the last one short
    tables.store_sorted("s", 1, values.tobytes())
    table = tables.open_sorted("s", 1)
    assert len(table) == len(values) and table.checked == bytearray(4)
    assert 5 in table and 4001 in table and 5999 in table
    assert 4 not in table and 6 not in table and 6002 not in table and 0 not in table
    assert sum(table.checked) == 3                     # only the blocks read were checked
    assert list(table.values()) == list(values) and all(table.checked)


@pytest.mark.parametrize("damage", [
    lambda data: data[: len(data) // 2],                                  # truncated
    lambda data: data[:60] + bytes([data[60] ^ 0x10]) + data[61:],        # the index: one bit flipped
    lambda data: data + b"more",                                          # longer
    lambda data: b"not a table at all",                                   # foreign
    lambda data: b"",                                                     # empty
])
def test_a_sorted_table_with_a_damaged_header_or_index_is_not_opened(cache: Path, damage) -> None:
    from array import array

    tables.store_sorted("s", 1, array("Q", range(0, 3000, 2)).tobytes())
    path = tables.path_of("s", 1)
    path.write_bytes(damage(path.read_bytes()))
    assert tables.open_sorted("s", 1) is None
    assert tables.open_sorted("t", 1) is None and tables.open_sorted("s", 2) is None


def test_a_folder_where_a_sorted_table_would_lie_is_not_opened(cache: Path) -> None:
    tables.path_of("s", 1).mkdir(parents=True)
    assert tables.open_sorted("s", 1) is None


def test_a_damaged_block_of_a_sorted_table_is_refused_when_read(cache: Path) -> None:
    from array import array

    tables.store_sorted("s", 1, array("Q", range(0, 4 * tables.BLOCK)).tobytes())
    path = tables.path_of("s", 1)
    raw = bytearray(path.read_bytes())
    raw[-8 * tables.BLOCK + 17] ^= 1                    # in the last block
    path.write_bytes(bytes(raw))
    table = tables.open_sorted("s", 1)
    assert 7 in table and 2 * tables.BLOCK in table     # other blocks read fine
    with pytest.raises(tables.Damaged):
        4 * tables.BLOCK - 1 in table
    with pytest.raises(tables.Damaged):
        table.values()


def test_a_rings_solve_within_3_moves_from_stored_levels_does_not_import_numpy(cache: Path) -> None:
    import subprocess
    import sys

    from solvers import rings

    board = rings.generate(11, 3, 3)             # 12 enemies, 3 moves: the usual battle
    rings._backward.cache_clear()
    assert rings.solve(board).moves == 3         # stores the backward levels
    code = ("import json, sys; from solvers import rings; "
            f"board = rings.Board.from_text({board.to_text()!r}); result = rings.solve(board); "
            "print(json.dumps([result.solution, rings.validate(board, result.solution), 'numpy' in sys.modules]))")
    done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2],
                          capture_output=True, text=True, check=True)
    solution, problems, numpy_loaded = json.loads(done.stdout)
    assert len(solution) == 3 and problems == [] and not numpy_loaded


def test_the_solve_command_imports_numpy_only_for_boards_that_may_need_it(cache: Path, tmp_path: Path) -> None:
    import subprocess
    import sys

    from solvers import rings

    shallow = rings.generate(11, 3, 3)                           # 12 enemies, 3 moves
    deep = rings.Board(shallow.cells, 4)                          # the same with a budget of 4
    rings._backward.cache_clear()
    rings.solve(shallow)                                          # stores the backward levels
    for board, numpy_expected in ((shallow, False), (deep, True)):
        path = tmp_path / "board.txt"
        path.write_text(board.to_text(), encoding="utf-8")
        done = subprocess.run([sys.executable, "-X", "importtime", "-m", "puzzlepilot", "solve", "--game", "rings",
                               "--board", str(path), "--json"], cwd=Path(__file__).resolve().parents[2],
                              capture_output=True, text=True, check=True)
        assert json.loads(done.stdout)["moves"] == 3
        assert bool(re.search(r"\|\s+numpy$", done.stderr, re.MULTILINE)) == numpy_expected


def test_stored_levels_cut_short_by_someone_else_while_open_are_made_again(cache: Path) -> None:
    """A long-running process (live) keeps its backward levels open between solves; a
    level file cut short meanwhile (another program, a cleaner) made the next look-up die
    of SIGBUS while the file was mapped: now the cut block is damage, the level is made
    again and the answer still checks."""
    import subprocess
    import sys

    from solvers import rings

    code = """if True:
        import json, os
        from solvers import rings, tables
        first, second = rings.generate(11, 3, 3), rings.generate(12, 3, 3)
        rings.solve(first)                      # stores the levels
        rings._backward.cache_clear()
        rings.solve(first)                      # from the stored levels, kept open
        for path in tables.cache_dir().glob("rings-backward-*"):
            os.truncate(path, path.stat().st_size // 2)
        result = rings.solve(second)
        print(json.dumps([result.solution, rings.validate(second, result.solution)]))
    """
    done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-500:]
    solution, problems = json.loads(done.stdout)
    assert len(solution) == 3 and problems == []
    assert all(tables.open_sorted(p.name.split(".")[0], rings.TABLES_VERSION) is not None for p in cache.glob("rings-backward-*"))
