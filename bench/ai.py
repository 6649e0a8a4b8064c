"""Speed figures of the computer players. Run by hand: ``python bench/ai.py``.

Prints:
1. kernel playouts per second (smart default policy, and uniform random) from fresh deals;
2. the searchers over positions sampled from real games: the ``expectimax-fit`` and
   ``expectimax`` baselines at the budget ``--seconds`` (default 1.0; nodes per second, depth
   reached per move, time per move mean and max, wall and CPU), the MCTS of ``hard`` (as
   ``mcts-2025``, the same search) and of ``medium`` (a hundredth of the budget; iterations =
   playouts per second, time per move), and the ``alphabeta``
   baseline at depths 5 and 7 (nodes per second, time per move);
3. frame times of a pygame-free 60 Hz loop (16.7 ms frames, ~2 ms of work each) while
   ``hard`` thinks in a :class:`~game.roseking.ai.process.ProcessThinker`, and for comparison in a
   thread :class:`~game.roseking.ai.players.Thinker`: p50 / p99 / max of the frame interval.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.roseking.ai import kernel as K  # noqa: E402
from game.roseking.ai.baselines import (AlphaBetaPlayer, ExpectimaxPlayer, FittedExpectimaxPlayer,  # noqa: E402
                                        MctsBaselinePlayer)
from game.roseking.ai.levels import make_player  # noqa: E402
from game.roseking.ai.players import ExpertPlayer, HardPlayer, MEDIUM_SHARE, MediumPlayer, Thinker  # noqa: E402
from game.roseking.ai.mcts import find_subtree  # noqa: E402
from game.roseking.ai.process import ProcessThinker  # noqa: E402
from game.roseking.engine import DRAW, Rng, State  # noqa: E402


def bench_playouts(seconds: float) -> None:
    starts = [K.from_state(State.random(Rng(i))) for i in range(50)]
    rng = Random(1)
    for label, eps in (("smart policy", 0.1), ("uniform random", 1.0)):
        n = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            st = starts[n % len(starts)][:]
            K.playout(st, rng, eps)
            n += 1
        dt = time.perf_counter() - t0
        print(f"kernel playouts, {label}: {n / dt:,.0f} full games/s")


def sample_positions(count: int, seed: int) -> list[State]:
    """Positions from greedy-vs-easy games, every few plies (openings, middle games, endings)."""
    rng = Rng(seed)
    players = (make_player("greedy", 1), make_player("easy", 2))
    out: list[State] = []
    while len(out) < count:
        s = State.random(rng)
        while not s.is_game_over():
            if s.ply % 9 == 0 and len(s.legal_moves()) > 1:
                out.append(s.copy(stack=False))
            m = players[s.turn].choose(s)
            if m.kind is DRAW:
                m = m.with_outcome(rng.choice(s.chance_outcomes()))
            s.push(m)
    return out[:count]


def _timed(player, positions: list[State]) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of ``player.choose`` on each position."""
    walls, cpus = [], []
    for s in positions:
        t0, c0 = time.perf_counter(), time.process_time()
        player.choose(s)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return walls, cpus


def _times(label: str, walls: list[float], cpus: list[float], budget: float | None) -> str:
    over = "" if budget is None else f" ({100 * (max(walls) / budget - 1):+.1f}% of budget on the wall clock)"
    return (f"time per move wall mean {statistics.mean(walls):.3f} s, max {max(walls):.3f} s; "
            f"CPU mean {statistics.mean(cpus):.3f} s, max {max(cpus):.3f} s{over}")


def bench_search(seconds: float, moves: int) -> None:
    positions = sample_positions(moves, 7)
    for cls, budget in ((FittedExpectimaxPlayer, seconds), (ExpectimaxPlayer, seconds)):
        player = cls(seed=1, seconds=seconds)
        walls, cpus, depths, rates, cpu_rates = [], [], [], [], []
        for s in positions:
            w, c = _timed(player, [s])
            assert player.last is not None
            walls += w
            cpus += c
            nodes = getattr(player.last, "nodes", None) or player.last.iterations
            if nodes:  # a forced move is answered without searching
                depths.append(player.last.depth)
                rates.append(nodes / w[0])
                cpu_rates.append(nodes / max(c[0], 1e-6))
        print(f"{player.name} (expectimax) at {budget:.2f} s/move over {len(walls)} positions: "
              f"{statistics.mean(rates):,.0f} nodes/s ({statistics.mean(cpu_rates):,.0f} per CPU second); "
              f"depth reached mean {statistics.mean(depths):.1f}, "
              f"min {min(depths)}, max {max(depths)} plies; " + _times(player.name, walls, cpus, budget))
    for cls, budget in ((HardPlayer, seconds), (ExpertPlayer, 3 * seconds), (MediumPlayer, seconds / MEDIUM_SHARE),
                        (MctsBaselinePlayer, seconds)):
        player = cls(seed=1, seconds=seconds)
        walls, cpus, rates, depths = [], [], [], []
        for s in positions:
            w, c = _timed(player, [s])
            assert player.last is not None
            walls += w
            cpus += c
            if player.last.iterations:
                rates.append(player.last.iterations / w[0])
                depths.append(player.last.depth)
        print(f"{player.name} (MCTS) at {budget:.2f} s/move: {statistics.mean(rates):,.0f} iterations (playouts)/s; "
              f"depth of the most visited line mean {statistics.mean(depths):.1f}, max {max(depths)} plies; "
              + _times(player.name, walls, cpus, budget))
    for depth in (5, 7):
        player = AlphaBetaPlayer(seed=1, depth=depth)
        walls, cpus, nodes = [], [], 0
        for s in positions:
            w, c = _timed(player, [s])
            walls += w
            cpus += c
            nodes += player.last_nodes
        print(f"alphabeta depth {depth}: {nodes / sum(walls):,.0f} nodes/s; " + _times("alphabeta", walls, cpus, None))


def bench_reuse(seconds: float) -> None:
    """Tree reuse of ``hard`` over a whole game against itself: the share of each search's root
    visits kept from the search before, and the memory both players' trees hold between moves."""
    import tracemalloc
    players = (HardPlayer(seed=1, seconds=seconds), HardPlayer(seed=2, seconds=seconds))
    rng = Rng(11)
    s = State.random(rng)
    shares, peak, finds = [], 0, []
    tracemalloc.start()
    while not s.is_game_over():
        p = players[s.turn]
        if p._tree is not None:  # the cost of finding the kept subtree (choose does it again)
            t0 = time.perf_counter()
            find_subtree(p._tree[0], p._tree[1], K.from_state(s))
            finds.append(time.perf_counter() - t0)
        m = p.choose(s)
        if p.last is not None and p.last.iterations:
            shares.append(p.last.reused / (p.last.reused + p.last.iterations))
            peak = max(peak, tracemalloc.get_traced_memory()[0])
        if m.kind is DRAW:
            m = m.with_outcome(rng.choice(s.chance_outcomes()))
        s.push(m)
    tracemalloc.stop()
    print(f"hard's tree reuse over a game ({len(shares)} searches): {100 * statistics.mean(shares):.0f}% of the "
          f"root's visits kept on average (max {100 * max(shares):.0f}%); both trees at most "
          f"{peak / 2**20:.0f} MiB (tracemalloc, which slows the search); finding the kept subtree "
          f"mean {1000 * statistics.mean(finds):.2f} ms, max {1000 * max(finds):.1f} ms")


def _frame_loop(thinker, states: list[State], duration: float, work_ms: float = 2.0) -> list[float]:
    """Run 60 Hz frames for ``duration`` s, re-starting the thinker whenever it answers; frame intervals (ms)."""
    frame = 1 / 60
    intervals = []
    i = 0
    thinker.start(states[0])
    t_prev = time.perf_counter()
    next_frame = t_prev + frame
    end = t_prev + duration
    answers = 0
    while True:
        now = time.perf_counter()
        if now >= end:
            break
        # frame work: poll the thinker, then ~work_ms of drawing
        if thinker.poll() is not None:
            answers += 1
            i += 1
            thinker.start(states[i % len(states)])
        busy_until = time.perf_counter() + work_ms / 1000
        while time.perf_counter() < busy_until:
            pass
        sleep = next_frame - time.perf_counter()
        if sleep > 0:
            time.sleep(sleep)
        t = time.perf_counter()
        intervals.append((t - t_prev) * 1000)
        t_prev = t
        next_frame = max(next_frame + frame, t)
    thinker.cancel()
    print(f"    ({answers} moves answered during the loop)")
    return intervals


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def bench_frames(seconds: float, duration: float) -> None:
    states = sample_positions(12, 9)
    with ProcessThinker("hard", seed=1, seconds=seconds) as pt:
        time.sleep(0.5)  # let the worker finish starting (process start-up is not a move's time)
        for label, thinker in (("process thinker", pt), ("thread thinker", Thinker(HardPlayer(seed=1, seconds=seconds)))):
            iv = _frame_loop(thinker, states, duration)
            print(f"frame interval at 60 Hz while hard thinks ({label}): p50 {_pct(iv, 0.5):.1f} ms, "
                  f"p99 {_pct(iv, 0.99):.1f} ms, max {max(iv):.1f} ms over {len(iv)} frames")
            if label == "thread thinker":
                time.sleep(seconds * 1.2)  # let the abandoned thread search end


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=1.0, help="hard's budget per move (default 1.0)")
    ap.add_argument("--moves", type=int, default=20, help="positions timed for the search figure (default 20)")
    ap.add_argument("--frames", type=float, default=10.0, help="seconds of simulated frames per thinker (default 10)")
    args = ap.parse_args()
    bench_playouts(3.0)
    bench_search(args.seconds, args.moves)
    bench_reuse(args.seconds)
    bench_frames(args.seconds, args.frames)


if __name__ == "__main__":
    main()
