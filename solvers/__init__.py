"""Exact solvers, one module per game.

Each game module exposes the same small surface:

- ``Board``: the board model, ``Board.from_text(text)`` (rows separated by newlines or
  ``/``; raises :class:`BoardError` naming the line and the reason) and ``board.to_text()``;
- ``solve(board, **options) -> SolveResult``: a solution that obeys every rule, or
  ``solved=False`` with the reason;
- ``validate(board, solution) -> list[str]``: an independent rule checker, written apart
  from the solver; it lists every broken rule and returns ``[]`` for a valid solution.

Solutions are plain JSON values in the shapes docs/games.md gives (each game's *Answer*), so the command line prints
them as they are and ``validate`` judges exactly what a user sees.

Solvers import nothing from ``vision``, ``overlay`` or ``puzzlepilot``.
"""
