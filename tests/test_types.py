"""The type checker over the pure core (``[tool.mypy]`` in pyproject.toml: ``--strict`` on the
packages listed in ``files``; docs/architecture.md, "Types"): it must find nothing. Run as
the CI runs it, through the README's test command."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_pure_core_type_checks_strictly(tmp_path):
    pytest.importorskip("mypy", reason="mypy comes with the test extras ('.[test]')")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config["strict"] is True and config["files"]
    out = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert "Success: no issues found" in out.stdout
