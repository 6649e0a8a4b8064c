"""``bench/ai_strength.py --tally``: a figure split over several runs is added up from their logs."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[3] / "bench" / "ai_strength.py"


@pytest.fixture(scope="module")
def strength():
    spec = importlib.util.spec_from_file_location("ai_strength_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def line(i: int, winner: str) -> str:
    colour = "red" if i % 2 == 0 else "white"
    return f"game {i}: A {colour}, winner {winner}, score 120-90, 114 plies, 61 s; running A 1 B 0 D 0\n"


def test_logs_of_one_pairing_add_up_with_the_missing_games_named(strength, tmp_path, monkeypatch, capsys):
    one = tmp_path / "one.log"
    two = tmp_path / "two.log"
    one.write_text(line(0, "a") + line(1, "b") + line(2, "a") + "a vs b: 3 games, ...\n")
    two.write_text(line(2, "a") + line(5, "-") + line(6, "a") + line(7, "a"))  # game 2 twice: counted once
    monkeypatch.setattr(sys, "argv", ["ai_strength.py", "hard#15000", "medium#20000", "--tally", str(one), str(two)])
    strength.main()
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "missing: 3-4"
    assert out[1].startswith("hard#15000 vs medium#20000: 6 games, hard#15000 won 4, medium#20000 won 1, drawn 1;")


def test_a_game_with_two_winners_is_refused(strength, tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="game 1 has two different winners"):
        strength.tally([line(1, "a"), line(1, "b")])
    bad = tmp_path / "bad.log"
    bad.write_text(line(0, "a") + line(0, "b"))
    monkeypatch.setattr(sys, "argv", ["ai_strength.py", "x", "y", "--tally", str(bad)])
    with pytest.raises(SystemExit, match="bad.log: game 0 has two different winners"):
        strength.main()
