"""The boundary between the core and its shell, both ways: engine/ never imports Django, DRF
or askapp, and askapp (with project/) imports the engine only through its package face,
`engine`, never a submodule of it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engine

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
FORBIDDEN = ("django", "rest_framework", "askapp")
SHELL = (ROOT / "askapp", ROOT / "project")


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


# --- askapp sees only the package face ------------------------------------------------------


def _engine_reaches(path: Path) -> list[str]:
    """Every way `path` imports the engine other than its package face: a submodule
    (`engine.types`, `from engine.gate import ...`, `from engine import types`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    public = set(engine.__all__)
    reaches: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            reaches.extend(a.name for a in node.names if a.name.startswith("engine."))
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.startswith("engine."):
                reaches.append(node.module)
            elif node.module == "engine":
                reaches.extend(f"engine.{a.name}" for a in node.names if a.name not in public)
    return reaches


def _shell_files() -> list[Path]:
    return sorted(path for folder in SHELL for path in folder.rglob("*.py"))


@pytest.mark.parametrize("path", _shell_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_askapp_imports_the_engine_package_only(path: Path) -> None:
    reaches = _engine_reaches(path)
    assert not reaches, f"{path.relative_to(ROOT)} reaches into {reaches}; import from engine"


def test_the_boundary_guard_sees_every_way_into_a_submodule(tmp_path: Path) -> None:
    leaky = tmp_path / "leaky.py"
    leaky.write_text(
        "import engine\nfrom engine import Answer, types\nfrom engine.gate import SecurityGate\n"
        "import engine.store\n"
    )
    assert _engine_reaches(leaky) == ["engine.types", "engine.gate", "engine.store"]
