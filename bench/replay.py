"""Speed figures for replay seeking, autosave and the saved-games list.

    python bench/replay.py [--games 5] [--seeks 4000]

Prints, for the longest games among 400 seeded random games (about 120 plies,
the longest Rose King gets with random play):
- building a Replay (checks every move once, caches snapshots);
- seek(ply) to random plies from wherever the cursor is (median, p99, max), for several
  snapshot intervals (the goal: <= 30 ms);
- step forward/back;
- autosave (atomic write with two fsyncs) and BackgroundAutosaver.submit on the caller's thread;
- listing 100 saves; listing 100 Royals & Riots saves (each game's summary of its records).
Numbers depend on the machine and on what else runs on it; rerun for a fair comparison.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.roseking.engine import Record, Rng, State  # noqa: E402
from game.roseking.replay import Replay  # noqa: E402
from game.roseking.saves import GameMeta  # noqa: E402
from game.saves import BackgroundAutosaver, SaveStore  # noqa: E402


def random_game(seed: int) -> State:
    rng = Rng(seed)
    s = State.random(rng)
    while not s.is_game_over():
        m = rng.choice(s.legal_moves())
        s.push(m if m.card is not None else m.with_outcome(rng.choice(s.chance_outcomes())))
    return s


def ms(xs: list[float]) -> str:
    xs = sorted(xs)
    p99 = xs[min(len(xs) - 1, int(len(xs) * 0.99))]
    return (f"median {statistics.median(xs) * 1e3:8.4f} ms  p99 {p99 * 1e3:8.4f} ms  "
            f"max {xs[-1] * 1e3:8.4f} ms  (n={len(xs)})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=5, help="how many of the longest games to use")
    ap.add_argument("--seeks", type=int, default=4000, help="random seeks per game and interval")
    args = ap.parse_args()

    games = sorted((random_game(seed) for seed in range(400)), key=lambda s: -s.ply)[:args.games]
    records = [Record.from_state(g) for g in games]
    print(f"games: {len(games)} longest of 400 random games, plies {[g.ply for g in games]}")
    if hasattr(os, "getloadavg"):
        print(f"load average now: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores "
              "(wall-clock maxima below include time the process was not running)")

    times = []
    for rec in records:
        for _ in range(20):
            t = time.perf_counter()
            Replay(rec)
            times.append(time.perf_counter() - t)
    print(f"build Replay (check + snapshots every 16): {ms(times)}")

    for every in (1, 4, 16, 64, 10_000):
        rng = Rng(every)
        times, cpu = [], []
        for rec in records:
            r = Replay(rec, snapshot_every=every)
            for _ in range(args.seeks):
                ply = rng.randbelow(r.length + 1)
                c = time.thread_time()
                t = time.perf_counter()
                r.seek(ply)
                times.append(time.perf_counter() - t)
                cpu.append(time.thread_time() - c)
        label = "none" if every == 10_000 else str(every)
        print(f"seek, snapshot every {label:>4}: {ms(times)}; CPU time max {max(cpu) * 1e3:.3f} ms")

    tracemalloc.start()
    r = Replay(records[0])
    size, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"memory of one Replay ({r.length} plies, snapshots every 16): {size / 1024:.0f} KiB")

    r = Replay(records[0])
    fwd, back = [], []
    for _ in range(20):
        r.to_start()
        while not r.at_end():
            t = time.perf_counter()
            r.step_forward()
            fwd.append(time.perf_counter() - t)
        while not r.at_start():
            t = time.perf_counter()
            r.step_back()
            back.append(time.perf_counter() - t)
    print(f"step forward: {ms(fwd)}")
    print(f"step back:    {ms(back)}")

    with tempfile.TemporaryDirectory(prefix="rose-king-bench-") as d:
        store = SaveStore(d)
        meta = GameMeta.new("local", red="Ann", white="Bob")
        times = []
        for _ in range(100):
            t = time.perf_counter()
            store.autosave(games[0], meta)
            times.append(time.perf_counter() - t)
        size = store.path_for(meta.game_id).stat().st_size
        print(f"autosave ({games[0].ply} plies, {size} bytes, fsync x2) in {d}: {ms(times)}")

        saver = BackgroundAutosaver(store)
        times = []
        for _ in range(100):
            t = time.perf_counter()
            saver.submit(games[0], meta)
            times.append(time.perf_counter() - t)
        saver.close()
        print(f"BackgroundAutosaver.submit (caller's thread): {ms(times)}")

        for i in range(100):
            store.autosave(games[i % len(games)], GameMeta.new())
        t = time.perf_counter()
        n = len(store.list())
        print(f"list {n} saves, first time (each file read and every move checked): "
              f"{(time.perf_counter() - t) * 1e3:.1f} ms")
        times = []
        for _ in range(20):
            t = time.perf_counter()
            store.list()
            times.append(time.perf_counter() - t)
        print(f"list {n} saves again (unchanged files come from the cache): {ms(times)}")

    with tempfile.TemporaryDirectory(prefix="rose-king-bench-") as d:  # Royals & Riots' summaries
        store = SaveStore(d)
        store.folder.mkdir(parents=True)
        for i in range(100):
            store.write(f"royals{i}", royals_record(i))
        t = time.perf_counter()
        n = len(store.list())
        print(f"list {n} Royals & Riots saves (whole 3-player matches), first time (each replayed once "
              f"for its summary): {(time.perf_counter() - t) * 1e3:.1f} ms")
        t = time.perf_counter()
        texts = [(e.status_text(), e.progress(), e.players()) for e in store.list()]
        print(f"list them again and word every row: {(time.perf_counter() - t) * 1e3:.1f} ms ({len(texts)} rows)")


def royals_record(seed: int) -> str:
    """A seeded random whole Royals & Riots match of three as a local save's JSON."""
    import json

    from game.royals.engine import Record as RoyalsRecord
    from game.royals.engine import State as RoyalsState
    rng = Rng(seed)
    state = RoyalsState(3, False)
    while not state.is_over():
        event = state.chance()
        state.push(event.sample(rng) if event is not None else rng.choice(state.legal_actions()))
    d = RoyalsRecord.from_state(state, ["Ann", "Bo", "Cy"]).to_dict()
    d.update({"game_id": f"royals{seed}", "kind": "local"})
    return json.dumps(d)


if __name__ == "__main__":
    main()
