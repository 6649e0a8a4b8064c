"""Speed figures of the computer players (issue 4). Run by hand: ``python bench/ai.py``.

Prints:
1. kernel playouts per second (smart default policy, and uniform random) from fresh deals;
2. the hard search: iterations (= playouts) per second and time per move over positions
   sampled from real games, against its budget (``--seconds``, default 1.0);
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
from game.roseking.ai.players import HardPlayer, Thinker, make_player  # noqa: E402
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


def bench_search(seconds: float, moves: int) -> None:
    player = HardPlayer(seed=1, seconds=seconds)
    times, rates = [], []
    for s in sample_positions(moves, 7):
        t0 = time.perf_counter()
        player.choose(s)
        dt = time.perf_counter() - t0
        times.append(dt)
        assert player.last is not None
        rates.append(player.last.iterations / dt)
    print(f"hard search at {seconds:.2f} s/move over {len(times)} positions: "
          f"{statistics.mean(rates):,.0f} iterations (playouts)/s; time per move mean {statistics.mean(times):.3f} s, "
          f"max {max(times):.3f} s ({100 * (max(times) / seconds - 1):+.1f}% of budget)")


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
    bench_frames(args.seconds, args.frames)


if __name__ == "__main__":
    main()
