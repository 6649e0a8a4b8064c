"""Run the examples in the docstrings of the saves, replay and undo modules
(pytest's doctest collection covers only game/engine)."""

import doctest

import pytest

import game.replay
import game.saves
import game.undo


@pytest.mark.parametrize("module", [game.saves, game.replay, game.undo])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
