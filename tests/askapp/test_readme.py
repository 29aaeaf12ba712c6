"""The README's configuration table lists every variable project/settings.py reads."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
READS = re.compile(
    r"""(?:_bool|_int|_float|_choice|_rate|_database|env\.\w+)\(\s*"([A-Z][A-Z0-9_]+)\""""
)


def test_every_setting_read_from_the_environment_has_a_readme_row() -> None:
    settings = (ROOT / "project" / "settings.py").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    variables = set(READS.findall(settings))
    assert {"DEBUG", "SECRET_KEY", "DATABASE_URL"} <= variables
    missing = sorted(name for name in variables if f"| `{name}` |" not in readme)
    assert not missing, f"README.md's configuration table lacks {missing}"
