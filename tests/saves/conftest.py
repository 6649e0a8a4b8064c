"""Fixtures for the saves/replay/undo tests. Every test gets its own data folder:
``ROSE_KING_DATA_DIR`` points into tmp_path, so nothing touches the real home."""

from __future__ import annotations

import pytest

from game.roseking.engine import Move, Rng, State


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    d = tmp_path / "data"
    monkeypatch.setenv("ROSE_KING_DATA_DIR", str(d))
    return d


def random_game(seed: int, upto: int | None = None) -> State:
    """A seeded random game (the whole game, or its first ``upto`` plies)."""
    rng = Rng(seed)
    state = State.random(rng)
    while not state.is_game_over() and (upto is None or state.ply < upto):
        state.push_checked(random_move(state, rng))
    return state


def random_move(state: State, rng: Rng) -> Move:
    """A random legal move with its chance outcome filled in."""
    move = rng.choice(state.legal_moves())
    if move.card is None:
        move = move.with_outcome(rng.choice(state.chance_outcomes()))
    return move


@pytest.fixture
def game():
    """``game(seed, upto=None)`` -> State of a seeded random game."""
    return random_game
