"""What every fuzz case checks: the command line's contract, the answers' validity, and
on small boards a brute-force search judged by the checker alone: a "no solution" must
have none (one-stroke, valves), and a valves answer must be a minimum. Klotski, LYNE and
ring battles have no such search here: their "none" is checked for its reason only."""
from __future__ import annotations

import contextlib
import itertools
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from hypothesis import HealthCheck, settings

from puzzlepilot.games import get
from tests.helpers import run_cli

TIME_LIMIT = 20.0     # s a single case may take (a bounded search, a bounded read)
MEMORY_LIMIT_MB = 2048  # the test process's peak resident memory (the bound: 1 GB per run, plus pytest)
REPO = Path(__file__).resolve().parents[2]
QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]


def fuzz(quick: int, long: int | None = None) -> settings:
    """``quick`` examples in the default run; the ``fuzz`` profile's many with -m fuzz, or
    ``long`` (cases that start a process each: ~1 s apiece)."""
    if settings.default.max_examples >= 1000:    # the long profile is loaded
        return settings(settings.default, max_examples=long or settings.default.max_examples)
    return settings(max_examples=quick, deadline=None, suppress_health_check=QUIET)


def run(argv: Sequence[object], stdin: str = "") -> tuple[int, str, str]:
    """Run the command line; assert the contract: status 0, 1 or 2 (never 3, the internal
    error, nor a traceback), one line on stderr and nothing on stdout for 2, in bounded time."""
    start = time.perf_counter()
    status, out, err = run_cli(argv, stdin)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024    # MB (Linux counts kB)
    _check(argv, status, out, err, time.perf_counter() - start, peak, TIME_LIMIT, MEMORY_LIMIT_MB)
    return status, out, err


def run_apart(argv: Sequence[object], stdin: bytes = b"", env: dict[str, str] | None = None,
              seconds: float = TIME_LIMIT, megabytes: float = MEMORY_LIMIT_MB) -> tuple[int, str, str]:
    """``run`` in a child process, for cases that would hang or swell this one: the child
    is killed at ``seconds`` (a failure), and its own peak resident memory is held to
    ``megabytes`` (its address space to 3 GB, so a runaway cannot take the machine)."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "puzzlepilot", *map(str, argv)], stdin=subprocess.PIPE,
                                stdout=out, stderr=err, cwd=REPO, env={**os.environ, **(env or {})},
                                preexec_fn=limit)
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.write(stdin)
            proc.stdin.close()
        while (done := os.wait4(proc.pid, os.WNOHANG))[0] == 0:
            if time.perf_counter() - start > seconds:
                proc.kill()
                os.wait4(proc.pid, 0)
                raise AssertionError(f"still running after {seconds:g} s: {list(map(str, argv))}")
            time.sleep(0.02)
        elapsed = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(done[1])
        out.seek(0)
        err.seek(0)
        texts = out.read().decode(), err.read().decode()
    _check(argv, proc.returncode, *texts, elapsed, done[2].ru_maxrss / 1024, seconds, megabytes)
    return proc.returncode, *texts


def _check(argv: Sequence[object], status: int, out: str, err: str, elapsed: float, peak: float,
           seconds: float, megabytes: float) -> None:
    """The contract of one run (see ``run``)."""
    assert status in (0, 1, 2), f"status {status}: {err}"
    assert "Traceback" not in err and "internal error" not in err, err
    if status == 2:
        assert out == "" and err.count("\n") == 1 and err.startswith("puzzlepilot: "), (out, err)
    assert elapsed < seconds, f"{elapsed:.1f} s for {list(map(str, argv))}"
    assert peak < megabytes, f"the process peaked at {peak:.0f} MB after {list(map(str, argv))}"


def check_solve_json(status: int, out: str, options: dict[str, object] | None = None) -> None:
    """A ``solve --json`` answer: 0 with a solution the game's independent checker accepts,
    1 with solved false and a reason."""
    if status == 2:
        return
    obj = json.loads(out)
    game = get(obj["game"])
    board = game.board.from_text(obj["board"])
    if status == 0:
        assert obj["solved"] is True
        problems = game.validate(board, obj["solution"], **(options or {}))
        assert problems == [], f"{obj['board']}: {problems}"
    else:
        assert obj["solved"] is False and obj.get("reason"), obj
    if game.name in BRUTE_FORCE:
        found = BRUTE_FORCE[game.name](board)
        if found is not ...:     # ...: too big to search by brute force
            if status == 1:
                assert found is None, f"{obj['board']}: 'no solution', yet {found} passes the checker"
            elif game.name == "valves":    # the answer is a minimum: no smaller one exists
                assert found is not None and len(found) == len(obj["solution"]), (obj, found)


def onestroke_answer(board: Any) -> Any:
    """A path that the checker accepts, by trying every walk from the start (small boards),
    None when there is none; ... when the board is too big to try."""
    from solvers.onestroke import validate

    if len(board.cells) > 14:
        return ...
    path = [board.start]

    def walk() -> list[list[int]] | None:
        if len(path) == len(board.cells):
            answer = [list(p) for p in path]
            return answer if validate(board, answer) == [] else None
        r, c = path[-1]
        for nxt in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if nxt in board.cells and nxt not in path:
                path.append(nxt)
                found = walk()
                path.pop()
                if found is not None:
                    return found
        return None

    return walk()


def valves_answer(board: Any) -> Any:
    """The smallest set of valves the checker accepts, trying every set smallest first
    (small boards); None when none does; ... when the board is too big to try."""
    from solvers.valves import validate

    names = sorted({p for pipe in board.pipes for p in pipe} - {board.inlet, board.outlet} - set(board.closed))
    if len(names) > 10:
        return ...
    for size in range(len(names) + 1):
        for shut in itertools.combinations(names, size):
            if validate(board, list(shut)) == []:
                return list(shut)
    return None


BRUTE_FORCE: dict[str, Callable[[Any], Any]] = {"onestroke": onestroke_answer, "valves": valves_answer}
