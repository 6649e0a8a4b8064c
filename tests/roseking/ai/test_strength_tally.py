"""``bench/ai_strength.py --tally``: a figure split over several runs is added up from their logs."""

from __future__ import annotations

import sys

import pytest


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



def test_a_figure_that_starts_later_names_only_its_own_missing_games(strength, tmp_path, monkeypatch, capsys):
    log = tmp_path / "late.log"
    log.write_text(line(40, "a") + line(41, "b") + line(43, "a"))
    monkeypatch.setattr(sys, "argv", ["ai_strength.py", "x", "y", "--first", "40", "--tally", str(log)])
    strength.main()
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "missing: 42"
    assert out[1].startswith("x vs y: 3 games, x won 2, y won 1, drawn 0;")

def test_a_game_with_two_winners_is_refused(strength, tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="game 1 has two different winners"):
        strength.tally([line(1, "a"), line(1, "b")])
    bad = tmp_path / "bad.log"
    bad.write_text(line(0, "a") + line(0, "b"))
    monkeypatch.setattr(sys, "argv", ["ai_strength.py", "x", "y", "--tally", str(bad)])
    with pytest.raises(SystemExit, match="bad.log: game 0 has two different winners"):
        strength.main()


def paired_line(i: int, winner: str) -> str:
    return line(i, winner).replace(f"game {i}:", f"game {i} (pair {i // 2}):")


def test_paired_logs_add_up_and_say_how_the_pairs_went(strength, tmp_path, monkeypatch, capsys):
    log = tmp_path / "paired.log"
    results = "aa" "ab" "bb" "ba" "a"  # pairs 0-3 finished, pair 4 half played
    log.write_text("".join(paired_line(i, w) for i, w in enumerate(results)))
    monkeypatch.setattr(sys, "argv", ["ai_strength.py", "x", "y", "--tally", str(log)])
    strength.main()
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("x vs y: 9 games, x won 5, y won 4, drawn 0;")
    assert out[2] == "pairs: 4 finished; A won both 1, split 2, B won both 1"


def test_paired_and_unpaired_lines_are_not_mixed(strength):
    with pytest.raises(ValueError, match="mix paired and unpaired"):
        strength.tally([line(0, "a"), paired_line(1, "a")])


@pytest.mark.parametrize("extra", [["--first", "3"], ["--games", "5"]])
def test_paired_runs_play_whole_pairs(strength, monkeypatch, capsys, extra):
    monkeypatch.setattr(sys, "argv", ["ai_strength.py", "greedy", "random", "--paired", *extra])
    with pytest.raises(SystemExit):
        strength.main()
    assert "--first and --games must be even" in capsys.readouterr().err


def test_a_paired_run_prints_its_pairs(strength, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["ai_strength.py", "greedy", "random", "--paired", "--games", "2", "--first", "4"])
    strength.main()
    out = capsys.readouterr().out.splitlines()
    assert [o.split(":")[0] for o in out[:2]] == ["game 4 (pair 2)", "game 5 (pair 2)"]
    assert out[2].startswith("greedy vs random: 2 games,")
    assert out[3].startswith("pairs: 1 finished; ")
    assert strength.tally(out[:2]).keys() == {4, 5}  # its own lines tally
