"""Run the examples in the docstrings of the saves, settings schema, replay and undo modules
(pytest's doctest collection covers only game/roseking/engine and game/rng.py)."""

import doctest

import pytest

import game.roseking.replay
import game.roseking.settings
import game.roseking.undo
import game.royals.saves
import game.royals.settings
import game.saves
import game.schema


@pytest.mark.parametrize("module", [game.saves, game.roseking.replay, game.roseking.undo, game.royals.saves,
                                    game.schema, game.roseking.settings, game.royals.settings])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
