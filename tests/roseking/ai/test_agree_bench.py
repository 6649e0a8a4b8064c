"""``bench/ai_agree.py``: how often two searchers choose the same action."""

from __future__ import annotations

import sys

import pytest


def test_agreement_counts_each_comparison_once(agree):
    x = [["a", "b", "c"], ["a", "b", "d"], ["a", "e", "f"]]  # 3 seeds, 3 positions
    share, never = agree.agreement(x, x, same=True)  # seed pairs (0,1) (0,2) (1,2)
    assert (share, never) == (4 / 9, 1)  # position 0: 3 of 3; position 1: 1 of 3; position 2: none
    y = [["a", "e", "x"]]
    share, never = agree.agreement(x, y, same=False)
    assert (share, never) == (4 / 9, 1)  # position 0: 3 of 3; position 1: 1 of 3; position 2: none


def test_a_run_prints_the_noise_and_the_agreement(agree, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["ai_agree.py", "greedy", "random", "--positions", "3", "--seeds", "2"])
    agree.main()
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "3 positions (bench/ai.py's sample, seed 7), 2 seeds per spec"
    assert out[1].startswith("greedy with itself (another seed): 100 % the same; never the same in 0 positions")
    assert out[3].startswith("greedy and random: ")


def test_one_spec_and_one_seed_is_refused(agree, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["ai_agree.py", "greedy", "--seeds", "1"])
    with pytest.raises(SystemExit):
        agree.main()
    assert "nothing to compare" in capsys.readouterr().err
