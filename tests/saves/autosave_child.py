"""Child process for the kill -9 test: plays a seeded game against itself,
autosaving after every move and printing ``saved <ply>`` once each save is on disk.

Usage: ``python autosave_child.py SEED`` (the data folder comes from ``ROSE_KING_DATA_DIR``).
At the end it prints ``done`` and waits on stdin, so the parent decides when it dies.
"""

from __future__ import annotations

import sys

from game.roseking.engine import Color, Move, Rng, State
from game.roseking.saves import GameMeta
from game.saves import SaveStore
from game.roseking.undo import DeckChance, UndoHistory


def policy(state: State, seed: int) -> Move:
    """A move chosen from the position alone, so a resumed game continues exactly as the
    uninterrupted one would. Draws come back as decisions (the chance source fills them)."""
    return Rng(seed * 1000 + state.ply).choice(state.legal_moves())


def new_game(seed: int) -> tuple[State, GameMeta]:
    meta = GameMeta("killtest", "computer", "Human", "Computer", "2026-11-22T03:00:00Z",
                    computer_level="random", computer_color=Color.WHITE, chance_seed=seed + 7)
    return State.random(Rng(seed)), meta


def play_on(state: State, meta: GameMeta, seed: int, store: SaveStore | None = None, report=None) -> State:
    """Play ``state`` to the end with :func:`policy`, autosaving after each move if ``store``."""
    history = UndoHistory(state, humans=[Color.RED], chance=DeckChance(meta.chance_seed))
    while not state.is_game_over():
        history.push(policy(state, seed))
        if store is not None:
            store.autosave(state, meta)
        if report is not None:
            report(state.ply)
    return state


def main() -> None:
    seed = int(sys.argv[1])
    state, meta = new_game(seed)
    store = SaveStore()
    store.autosave(state, meta)

    def report(ply: int) -> None:
        print(f"saved {ply}", flush=True)

    play_on(state, meta, seed, store, report)
    print("done", flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()
