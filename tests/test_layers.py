"""Imports point down the layers, never up, and the five packages form no cycle.

Bottom to top: ``solvers`` (the games' rules, nothing of ours), ``vision`` (pixels → board),
``overlay`` (draws a reading and its solution), ``calibration`` (teaches the vision a look),
``puzzlepilot`` (the application, which wires them). A package may import itself and any
package below it. Every import counts: module level, inside functions, and the literal
names given to ``importlib.import_module`` / ``find_spec`` / ``__import__`` (an f-string
counts by its literal start, ``f"calibration.{game}"`` → calibration).
"""
from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LAYERS = ("solvers", "vision", "overlay", "calibration", "puzzlepilot")
RANK = {name: rank for rank, name in enumerate(LAYERS)}
LOADERS = {"import_module", "find_spec", "__import__"}


@dataclass(frozen=True)
class Import:
    """One import of one of our packages: its line and the module it names."""

    line: int
    target: str         # the dotted module name imported

    @property
    def package(self) -> str:
        return self.target.split(".")[0]


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def literal_start(node: ast.expr) -> str | None:
    """The module name a loader call is given, when it is written as a string (or an
    f-string's literal start); None when it is computed."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        return str(node.values[0].value).rstrip(".") or None
    return None


def imports_of(path: Path, root: Path = REPO) -> list[Import]:
    """Every import in a source file (at any depth) that names one of the five packages,
    in line order."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    here = module_name(path, root).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []     # from . / from ..
            names = [".".join(base + ([node.module] if node.module else []))]
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            name = literal_start(node.args[0]) if called in LOADERS else None
            names = [name] if name else []
        found += [Import(node.lineno, name) for name in names if name.split(".")[0] in RANK]
    return sorted(found, key=lambda imp: imp.line)


def sources(root: Path = REPO) -> Iterator[tuple[str, Path]]:
    for layer in LAYERS:
        for path in sorted((root / layer).rglob("*.py")):
            yield layer, path


def upward(root: Path = REPO) -> list[str]:
    """'file:line: layer imports target' for every import that points up the layers."""
    return [f"{path.relative_to(root)}:{imp.line}: {layer} imports {imp.target}"
            for layer, path in sources(root) for imp in imports_of(path, root)
            if RANK[imp.package] > RANK[layer]]


def package_cycles(root: Path = REPO) -> list[list[str]]:
    """The cycles among the five packages' imports of one another (each as a path that
    returns to its start), found by depth-first search over the package graph."""
    edges: dict[str, set[str]] = {layer: set() for layer in LAYERS}
    for layer, path in sources(root):
        edges[layer] |= {imp.package for imp in imports_of(path, root) if imp.package != layer}
    cycles, done = [], set()

    def visit(node: str, trail: list[str]) -> None:
        if node in trail:
            cycles.append(trail[trail.index(node):] + [node])
            return
        if node in done:
            return
        for nxt in sorted(edges[node]):
            visit(nxt, trail + [node])
        done.add(node)

    for layer in LAYERS:
        visit(layer, [])
    return cycles


def test_every_import_points_down_the_layers():
    found = upward()
    assert not found, "imports that point up (solvers < vision < overlay < calibration < puzzlepilot):\n" + "\n".join(found)


def test_the_five_packages_import_one_another_without_a_cycle():
    cycles = package_cycles()
    assert not cycles, "import cycles between packages:\n" + "\n".join(" → ".join(c) for c in cycles)


def test_the_walk_sees_every_kind_of_import(tmp_path):
    """The checker itself: a function-level import, one in a subpackage and a loader's
    literal name pointing up are all caught, with their line; relative imports stay in
    their package; a computed name is not guessed."""
    for layer in LAYERS:
        (tmp_path / layer).mkdir()
        (tmp_path / layer / "__init__.py").write_text("")
    (tmp_path / "solvers" / "fine.py").write_text("import json\nfrom solvers import common\nfrom . import fine\n")
    (tmp_path / "vision" / "reader.py").write_text(
        "import importlib\n"
        "from solvers.common import BoardError\n"
        "def look():\n"
        "    from calibration.profile import ProfileError\n"
        "    return importlib.import_module(f'puzzlepilot.scenes.{look}')\n"
        "def name(x):\n"
        "    return importlib.import_module(x)\n")
    (tmp_path / "overlay" / "sub").mkdir()
    (tmp_path / "overlay" / "sub" / "__init__.py").write_text("from .. import draw\nfrom calibration import common\n")
    (tmp_path / "calibration" / "common.py").write_text("from vision import reader\n")
    assert upward(tmp_path) == [
        "vision/reader.py:4: vision imports calibration.profile",
        "vision/reader.py:5: vision imports puzzlepilot.scenes",
        "overlay/sub/__init__.py:2: overlay imports calibration",
    ]
    assert package_cycles(tmp_path) == [["vision", "calibration", "vision"]]
