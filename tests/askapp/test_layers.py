"""Reads read and writes write: the arrows between askapp's layers point one way.

Selectors (reads) never import services (writes); models import neither; views ask selectors
and services and run no query of their own.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ASKAPP = ROOT / "askapp"
VIEWS = (ASKAPP / "views.py", ASKAPP / "api" / "views.py")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
    return found


def _files(folder: str) -> list[Path]:
    return sorted((ASKAPP / folder).rglob("*.py"))


@pytest.mark.parametrize(
    "path", _files("selectors") + _files("models"), ids=lambda p: str(p.relative_to(ROOT))
)
def test_reads_and_models_import_no_service(path: Path) -> None:
    services = [m for m in _imports(path) if m.startswith("askapp.services")]
    assert not services, f"{path.relative_to(ROOT)} imports {services}"


@pytest.mark.parametrize("path", _files("models"), ids=lambda p: str(p.relative_to(ROOT)))
def test_models_import_no_selector(path: Path) -> None:
    selectors = [m for m in _imports(path) if m.startswith("askapp.selectors")]
    assert not selectors, f"{path.relative_to(ROOT)} imports {selectors}"


@pytest.mark.parametrize("path", VIEWS, ids=lambda p: str(p.relative_to(ROOT)))
def test_views_run_no_query_of_their_own(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    managers = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == "objects"
    ]
    assert not managers, f"{path.relative_to(ROOT)} queries the ORM at lines {managers}"
