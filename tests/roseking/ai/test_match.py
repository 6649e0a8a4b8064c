"""``rose-king match``: the output format, the records it writes, its argument errors."""

from __future__ import annotations

import json
import re

import pytest

from game.roseking.ai.match import run_game, summary_line, wilson
from game.cli import main
from game.roseking.engine import Record

LAST = re.compile(r"^(\w+) vs (\w+): (\d+) games, \1 won (\d+), \2 won (\d+), drawn (\d+); "
                  r"\1 win rate (\d+\.\d)% \(95% CI (\d+\.\d)%-(\d+\.\d)%\)$")


def test_match_prints_progress_and_the_summary_last_and_writes_records(tmp_path, capsys):
    out = tmp_path / "games"
    assert main(["match", "greedy", "random", "--games", "4", "--out", str(out), "--seed", "3"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 5
    m = LAST.match(lines[-1])
    assert m, lines[-1]
    n, x, y, z = (int(m.group(i)) for i in (3, 4, 5, 6))
    assert n == 4 and x + y + z == 4
    assert float(m.group(7)) == round(100 * x / n, 1)
    # colours alternate: greedy is red in games 1 and 3, white in 2 and 4
    assert "greedy (red)" in lines[0] and "random (red)" in lines[1] and "greedy (red)" in lines[2]
    files = sorted(out.iterdir())
    assert [f.name for f in files] == [f"greedy-vs-random-000{i}.json" for i in range(1, 5)]
    wins = 0
    for i, f in enumerate(files):
        rec = Record.load(f)
        state = rec.replay()  # checks every move and the stored result
        assert state.is_game_over()
        greedy_colour = "red" if i % 2 == 0 else "white"
        assert getattr(rec, greedy_colour) == "greedy"
        wins += rec.result["winner"] == greedy_colour
    assert wins == x  # counted per player, not per colour


def test_match_is_reproducible_and_uses_processes(capsys):
    assert main(["match", "easy", "greedy", "--games", "4", "--seed", "5"]) == 0
    one = capsys.readouterr().out
    assert main(["match", "easy", "greedy", "--games", "4", "--seed", "5", "--jobs", "2"]) == 0
    two = capsys.readouterr().out
    assert one == two


@pytest.mark.parametrize("argv, message", [
    (["match", "hard", "grandmaster"], "invalid choice"),
    (["match", "hard", "alphabeta:x"], "invalid choice"),
    (["match", "hard", "hard@0"], "invalid choice"),
    (["match", "hard", "easy", "--games", "0"], "must be at least 1"),
    (["match", "hard", "easy", "--seconds", "-1"], "seconds per move"),
    (["match", "hard", "easy", "--seconds", "fast"], "not a number of seconds"),
    (["match", "hard", "easy", "--jobs", "x"], "not a whole number"),
])
def test_bad_arguments_are_refused_clearly(argv, message, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert message in capsys.readouterr().err


def test_unwritable_out_dir_is_reported(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert main(["match", "random", "random", "--games", "1", "--out", str(blocker / "sub")]) == 1
    assert "cannot create" in capsys.readouterr().err


def test_wilson_interval():
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(190, 200)
    assert lo == pytest.approx(0.9104, abs=1e-3) and hi == pytest.approx(0.9728, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    assert summary_line("hard", "greedy", 200, 190, 8, 2) == (
        "hard vs greedy: 200 games, hard won 190, greedy won 8, drawn 2; hard win rate 95.0% (95% CI 91.0%-97.3%)")


def test_interrupt_prints_the_summary_of_the_games_played(monkeypatch, capsys):
    from game.roseking.ai import match as ai_match

    def two_then_ctrl_c(a, b, games, seconds, seed=0, jobs=1):
        yield ai_match.run_game(a, b, seed, 0, seconds)
        yield ai_match.run_game(a, b, seed, 1, seconds)
        raise KeyboardInterrupt

    monkeypatch.setattr(ai_match, "run_match", two_then_ctrl_c)
    assert main(["match", "greedy", "random", "--games", "10"]) == 130
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-2] == "interrupted after 2 of 10 games"
    m = LAST.match(lines[-1])
    assert m and m.group(3) == "2"


def _draws(record_json: str) -> list[str]:
    return [m.split()[2] for m in json.loads(record_json)["moves"] if m.split()[1] == "draw"]


def test_a_paired_match_repeats_the_deal_and_the_draws_with_colours_reversed():
    one, two = (run_game("greedy", "random", 7, i, None, paired=True) for i in (0, 1))
    rec_one, rec_two = json.loads(one.record_json), json.loads(two.record_json)
    assert one.a_is_red and not two.a_is_red
    assert (rec_one["red"], rec_two["red"]) == ("greedy", "random")
    assert rec_one["deal"] == rec_two["deal"]  # A meets B's cards of the first game
    first, second = _draws(one.record_json), _draws(two.record_json)
    assert len(first) >= 3 and len(second) >= 3
    assert first[:3] == second[:3]  # the pile is rebuilt from the discards much later
    # the next pair has a deal of its own, and unpaired games do not repeat their deal
    assert json.loads(run_game("greedy", "random", 7, 2, None, paired=True).record_json)["deal"] != rec_one["deal"]
    unpaired = json.loads(run_game("greedy", "random", 7, 1, None).record_json)
    assert unpaired["deal"] != rec_one["deal"]
    assert json.loads(run_game("greedy", "random", 7, 0, None).record_json) | {"date": 0} == rec_one | {"date": 0}
