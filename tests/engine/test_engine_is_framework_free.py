"""engine/ is a functional core: it must never import Django, DRF or askapp."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = ("django", "rest_framework", "askapp")


def _imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def _engine_files() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def test_engine_has_python_files() -> None:
    assert _engine_files(), "engine/ should hold the answer engine"


@pytest.mark.parametrize("path", _engine_files(), ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_file_imports_no_framework(path: Path) -> None:
    bad = [m for m in _imported_modules(path) if m.split(".")[0] in FORBIDDEN]
    assert not bad, f"{path.relative_to(ENGINE.parent)} imports {bad}"


def test_the_guard_sees_a_forbidden_import(tmp_path: Path) -> None:
    leaky = tmp_path / "leaky.py"
    leaky.write_text("from django.db import models\nimport askapp.models\n")
    assert _imported_modules(leaky) == ["django.db", "askapp.models"]
