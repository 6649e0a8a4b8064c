"""Run the examples in the docstrings of the saves, replay and undo modules
(pytest's doctest collection covers only game/roseking/engine and game/rng.py)."""

import doctest

import pytest

import game.roseking.replay
import game.saves
import game.roseking.undo


@pytest.mark.parametrize("module", [game.saves, game.roseking.replay, game.roseking.undo])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
