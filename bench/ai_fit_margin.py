"""Fit the weights of the expectimax evaluation by self-play regression. Run by hand;
needs ``pip install numpy`` (never needed at run time).

Plays ``--games`` games between two :class:`~game.roseking.ai.baselines.expectimax.Expectimax` searchers
at a small node budget (``--nodes``; a share ``--eps`` of the actions uniformly random, so the
positions vary), samples ~``--sample`` of their positions, and labels each with the game's
final score margin for Red. Then, per phase (stones on the board below each of ``--phases``),
fits a ridge least-squares model of that margin on
:func:`~game.roseking.ai.evaluation.eval_features` (for Red; every feature and the label change
sign with the player, so there is no intercept) on half of the games, and prints the held-out
mean absolute error and the share of correctly predicted winners next to the same figures of the
score-margin-only model, then the ``EVAL_WEIGHTS`` rows to paste into expectimax.py.
"""

from __future__ import annotations

import argparse
import pickle
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.roseking.ai import kernel as K  # noqa: E402
from game.roseking.ai.baselines.expectimax import Expectimax, ExpectimaxConfig  # noqa: E402
from game.roseking.ai.evaluation import FEATURE_NAMES, eval_features  # noqa: E402
from game.roseking.engine import Rng, State, score_of  # noqa: E402


def play(games: int, seed: int, nodes: int, eps: float, sample: float,
         save: Path | None = None) -> list[tuple[tuple, float, int]]:
    """``(features for Red, Red's final margin, stones on the board)`` of sampled positions
    (pickled to ``save`` every 10 games, so a long run can be fitted before it ends)."""
    r = random.Random(seed)
    out = []
    for g in range(games):
        st = K.from_state(State.random(Rng(seed * 1_000_003 + g)))
        players = [Expectimax(ExpectimaxConfig(seconds=None, max_nodes=nodes), salt=r.getrandbits(64))
                   for _ in range(2)]
        snaps = []
        while not st[K.OVER]:
            if r.random() < sample:
                snaps.append(st[:])
            acts = K.legal_actions(st)
            a = r.choice(acts) if r.random() < eps else players[st[K.TURN]].search(st).action
            K.apply(st, a, K.sample_draw(st, r) if a == K.DRAW_ACTION else -1)
        margin = score_of(st[K.S0]) - score_of(st[K.S1])
        for s in snaps:
            out.append((eval_features(s, 0), float(margin), (s[K.S0] | s[K.S1]).bit_count()))
        print(f"game {g}: margin {margin}, {len(snaps)} positions", file=sys.stderr, flush=True)
        if save is not None and g % 10 == 9:
            save.write_bytes(pickle.dumps(out))
    return out


def ridge(x: np.ndarray, y: np.ndarray, l2: float, fix_score: float | None = None) -> np.ndarray:
    """Ridge least squares of ``y`` on ``x``; with ``fix_score`` the first weight (the score
    margin's) is that number and the others are fitted to what remains of ``y``."""
    if fix_score is None:
        return np.linalg.solve(x.T @ x + l2 * len(y) * np.eye(x.shape[1]), x.T @ y)
    r = y - fix_score * x[:, 0]
    z = x[:, 1:]
    return np.concatenate(([fix_score], np.linalg.solve(z.T @ z + l2 * len(y) * np.eye(z.shape[1]), z.T @ r)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--nodes", type=int, default=3000)
    ap.add_argument("--eps", type=float, default=0.05)
    ap.add_argument("--sample", type=float, default=0.15)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--phases", default="20,36,53", help="phase limits (stones on the board)")
    ap.add_argument("--l2", type=float, default=1e-3)
    ap.add_argument("--fix-score", type=float, default=None,
                    help="keep the score margin's weight at this number (the evaluation stays monotone in "
                         "the score) and fit the other weights to the rest of the final margin")
    ap.add_argument("--cache", help="pickle of the positions: read if it exists, else written")
    args = ap.parse_args()
    if args.cache and Path(args.cache).exists():
        data = pickle.loads(Path(args.cache).read_bytes())
    else:
        data = play(args.games, args.seed, args.nodes, args.eps, args.sample,
                    Path(args.cache + ".part") if args.cache else None)
        if args.cache:
            Path(args.cache).write_bytes(pickle.dumps(data))
    x = np.array([d[0] for d in data])
    y = np.array([d[1] for d in data])
    placed = np.array([d[2] for d in data])
    half = np.arange(len(y)) < len(y) // 2  # positions are in game order: first half of the games
    rows, rows_w = [], []
    lo = 0
    for hi in (int(v) for v in args.phases.split(",")):
        m = (placed >= lo) & (placed < hi)
        tr, te = m & half, m & ~half
        w = ridge(x[tr], y[tr], args.l2, args.fix_score)
        w0 = ridge(x[tr][:, :1], y[tr], args.l2)
        pred, pred0 = x[te] @ w, x[te][:, :1] @ w0
        acc = np.mean(np.sign(pred) == np.sign(y[te]))
        acc0 = np.mean(np.sign(pred0) == np.sign(y[te]))
        print(f"stones {lo:2d}-{hi - 1:2d}: {int(tr.sum())}+{int(te.sum())} positions; held-out MAE "
              f"{np.mean(np.abs(pred - y[te])):.1f} winner {acc:.3f} (score only {w0[0]:.2f}: "
              f"{np.mean(np.abs(pred0 - y[te])):.1f}, {acc0:.3f})")
        w_all = ridge(x[m], y[m], args.l2, args.fix_score)
        rows_w.append(w_all)
        rows.append("    (" + ", ".join(f"{v:.3f}" for v in w_all) + "),")
        lo = hi
    # the win chance of a predicted margin: Red's result (1 / 0.5 / 0) ~ sigmoid(prediction / scale)
    pred_all = np.zeros(len(y))
    lo = 0
    for hi, row in zip((int(v) for v in args.phases.split(",")), rows_w):
        m = (placed >= lo) & (placed < hi)
        pred_all[m] = x[m] @ row
        lo = hi
    result = np.where(y > 0, 1.0, np.where(y < 0, 0.0, 0.5))
    best = min((float(np.mean((1 / (1 + np.exp(-pred_all / t)) - result) ** 2)), t) for t in np.arange(2.0, 80.0, 0.5))
    print(f"WIN_SCALE = {best[1]:.1f}  # Brier score {best[0]:.3f}")
    print("# " + ", ".join(FEATURE_NAMES))
    print("EVAL_WEIGHTS = (\n" + "\n".join(rows) + "\n)")


if __name__ == "__main__":
    main()
