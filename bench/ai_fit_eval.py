"""Fit the weights of ``game.roseking.ai.kernel.evaluate`` (run by hand; needs ``pip install numpy``).

Plays ``--games`` games with the kernel's default policy, samples ~8% of their
positions, labels each with the game's result for Red (1 / 0.5 / 0), and fits one
L2-regularised logistic regression per phase (``kernel.PHASE_LIMITS``) on
``kernel.features``. Half of the games are held out: the script prints, per
phase, the held-out log-loss and accuracy of the fitted model and of a model
that sees the score difference only, then the ``WEIGHTS`` rows to paste into
``game/roseking/ai/kernel.py``. numpy is only needed here, never at run time.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.roseking.ai import kernel as K  # noqa: E402
from game.roseking.engine import Rng, State, decide  # noqa: E402


def positions(games: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(features, Red's result, stones on the board) of sampled positions of default-policy games."""
    r = random.Random(seed)
    xs, ys, placed = [], [], []
    for g in range(games):
        st = K.from_state(State.random(Rng(seed * 1_000_003 + g)))
        snaps = []
        while not st[K.OVER]:
            if r.random() < 0.08:
                snaps.append(st[:])
            K.playout(st, r, max_plies=1)
        w, _ = decide(st[K.S0], st[K.S1])
        y = 0.5 if w is None else (1.0 if int(w) == 0 else 0.0)
        for s in snaps:
            xs.append(K.features(s))
            ys.append(y)
            placed.append((s[K.S0] | s[K.S1]).bit_count())
    return np.array(xs), np.array(ys), np.array(placed)


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, iters: int = 3000, lr: float = 0.5) -> np.ndarray:
    w = np.zeros(x.shape[1])
    for _ in range(iters):
        p = 1 / (1 + np.exp(-(x @ w)))
        w -= lr * (x.T @ (p - y) / len(y) + l2 * w)
    return w


def loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    p = np.clip(1 / (1 + np.exp(-(x @ w))), 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))), float(np.mean((p > 0.5) == (y > 0.5)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=12000, help="games played (half held out; default 12000)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    x1, y1, p1 = positions(args.games // 2, args.seed)
    x2, y2, p2 = positions(args.games // 2, args.seed + 1)
    rows = []
    lo = 0
    for hi in K.PHASE_LIMITS:
        m1, m2 = (p1 >= lo) & (p1 < hi), (p2 >= lo) & (p2 < hi)
        w = fit(x1[m1], y1[m1])
        w0 = fit(x1[m1][:, :1], y1[m1])
        full, base = loss(x2[m2], y2[m2], w), loss(x2[m2][:, :1], y2[m2], w0)
        print(f"stones {lo:2d}-{hi - 1:2d}: {int(m1.sum())} positions; held-out log-loss {full[0]:.3f} "
              f"accuracy {full[1]:.3f} (score only: {base[0]:.3f}, {base[1]:.3f})")
        rows.append("    (" + ", ".join(f"{v:.4f}" for v in w) + "),")
        lo = hi
    print("WEIGHTS = (\n" + "\n".join(rows) + "\n)")


if __name__ == "__main__":
    main()
