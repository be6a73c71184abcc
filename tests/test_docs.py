"""The rules documentation lives in the project: every section of ``docs/games.md`` the code,
tests and README cite exists, and nothing cites the old rules document outside the repo."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES_DOC = ROOT / "docs" / "games.md"
SOURCES = [p for folder in ("solvers", "vision", "overlay", "calibration", "puzzlepilot", "tests")
           for p in (ROOT / folder).rglob("*.py")] + [ROOT / "README.md", GAMES_DOC]


def test_every_cited_section_of_games_md_exists():
    anchors = set(re.findall(r'<a id="([a-z-]+)"></a>', GAMES_DOC.read_text(encoding="utf-8")))
    assert {"onestroke", "lyne", "klotski", "rings", "valves", "stages"} <= anchors
    cited = {(p.name, a) for p in SOURCES for a in re.findall(r"games\.md#([a-z-]+)", p.read_text(encoding="utf-8"))}
    cited |= {(GAMES_DOC.name, a) for a in re.findall(r"\]\(#([a-z-]+)\)", GAMES_DOC.read_text(encoding="utf-8"))}
    assert cited, "the code points to the rules' sections"
    assert [c for c in cited if c[1] not in anchors] == []


def test_nothing_cites_a_rules_document_outside_the_repo():
    outside = "GAMES" + ".md"       # spelt apart so this file does not cite it
    assert [p.relative_to(ROOT) for p in SOURCES if outside in p.read_text(encoding="utf-8")] == []
