"""The README's two commands work as typed on a fresh Debian/Ubuntu machine (a virtual
environment inside the command, no bare ``pip install``), and CI runs exactly the test command."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def commands(section: str) -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    part = text.split(f"## {section}", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)\n```", part, re.S)


def test_play_and_test_commands_make_and_use_a_virtual_environment():
    (play,) = commands("Play")
    (test,) = commands("Test")
    for cmd in (play, test):
        assert cmd.startswith("python3 -m venv .venv && .venv/bin/pip install ")
        assert " pip install" not in cmd.replace(".venv/bin/pip install", "")  # never the system pip
    assert play.endswith("&& .venv/bin/rose-king") and test.endswith("&& .venv/bin/pytest")
    assert "python3-venv" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_ci_runs_exactly_the_readme_test_command():
    (test,) = commands("Test")
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert test in lines
