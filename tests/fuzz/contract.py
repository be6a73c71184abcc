"""What every fuzz case checks: the command line's contract and the answers' validity."""
from __future__ import annotations

import json
import time
from typing import Sequence

from hypothesis import HealthCheck, settings

from puzzlepilot.games import get
from tests.helpers import run_cli

TIME_LIMIT = 20.0     # s a single case may take (a bounded search, a bounded read)
QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]


def fuzz(quick: int) -> settings:
    """``quick`` examples in the default run; the ``fuzz`` profile's many with -m fuzz."""
    if settings.default.max_examples >= 1000:    # the long profile is loaded
        return settings(settings.default)
    return settings(max_examples=quick, deadline=None, suppress_health_check=QUIET)


def run(argv: Sequence[object], stdin: str = "") -> tuple[int, str, str]:
    """Run the command line; assert the contract: status 0, 1 or 2 (never 3, the internal
    error, nor a traceback), one line on stderr and nothing on stdout for 2, in bounded time."""
    start = time.perf_counter()
    status, out, err = run_cli(argv, stdin)
    elapsed = time.perf_counter() - start
    assert status in (0, 1, 2), f"status {status}: {err}"
    assert "Traceback" not in err and "internal error" not in err, err
    if status == 2:
        assert out == "" and err.count("\n") == 1 and err.startswith("puzzlepilot: "), (out, err)
    assert elapsed < TIME_LIMIT, f"{elapsed:.1f} s for {list(map(str, argv))}"
    return status, out, err


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
