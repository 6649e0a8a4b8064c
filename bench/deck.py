"""CPU figures of the dealer-free deck (net/deck, net/signed). Run by hand:
``python bench/deck.py [--repeat N] [--seats S] [--cards C] [--unsigned]``.

All peers run in this one process, in memory (no sockets: the loopback wall time belongs to
the match machine's bench). Each peer's CPU is the thread CPU time of the calls made *for that
peer*: its own passes, checking every pass and key share it receives, opening its cards, and
(unless ``--unsigned``) signing what it sends and verifying every envelope it receives
(``net.signed``). Prints, as the median over ``--repeat`` runs:

1. shuffle + deal: a C-card deck shuffled and re-keyed by S peers, then dealt C/S cards to each
   (every other peer sends its key for each position, the owner opens): CPU per peer (the
   busiest and the mean) and in total (the goal: <= 60 ms per peer); and the critical
   path, the CPU of the steps that must follow one another (each pass by its author, then the
   slowest peer checking it; the deal's keys in parallel), which with the network's latency is
   the wall time on a LAN (<= 300 ms);
2. the round-end audit: one peer replaying every step from the reveals (<= 200 ms);
3. a single open: the owner's unmasking of one position from the keys (and one key check).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from net.deck import DeckPeer, Shuffle, audit, card_points, decode  # noqa: E402
from net.signed import Inbox, Signer  # noqa: E402

MATCH = bytes(range(16))


class Clock:
    """Thread CPU seconds per seat."""

    def __init__(self) -> None:
        self.cpu: dict[int, float] = defaultdict(float)

    def run(self, seat: int, fn, *args):
        t = time.thread_time()
        out = fn(*args)
        self.cpu[seat] += time.thread_time() - t
        return out


def one_round(seats: int, cards: int, signed: bool) -> tuple[dict[int, float], float, float, float, float]:
    clock = Clock()
    peers = [DeckPeer(s) for s in range(seats)]
    signers = [Signer(MATCH, s) for s in range(seats)]
    keys = [s.public_key for s in signers]
    inboxes = [Inbox(MATCH, keys) for _ in range(seats)]
    sid = MATCH + b"\x00\x01\x00\x00"
    pts = card_points(MATCH, cards)
    for p in peers:
        clock.run(p.seat, p.add, Shuffle(sid, pts, range(cards), range(seats), range(seats)))

    def send(sender: int, data: bytes) -> None:
        if signed:
            env = clock.run(sender, signers[sender].sign, data)
            clock.run(sender, inboxes[sender].accept, env)
        for q in peers:
            if q.seat != sender:
                if signed:
                    clock.run(q.seat, inboxes[q.seat].accept, env, 0)
                clock.run(q.seat, q.receive, data, sender)

    path = 0.0   # the critical path: each step's author, then the slowest receiver of it
    while (nxt := peers[0].shuffles[sid].expect()) is not None:
        before = dict(clock.cpu)
        msg = clock.run(nxt[1], peers[nxt[1]].step, sid)
        send(nxt[1], clock.run(nxt[1], msg.to_bytes))
        spent = {s: clock.cpu[s] - before.get(s, 0.0) for s in clock.cpu}
        path += spent[nxt[1]] + max(v for s, v in spent.items() if s != nxt[1])
    before = dict(clock.cpu)
    for k in range(cards):
        owner = k % seats
        for q in peers:
            if q.seat != owner:
                send(q.seat, clock.run(q.seat, lambda: q.share(sid, k).to_bytes()))
        clock.run(owner, peers[owner].open, sid, k)
    path += max(clock.cpu[s] - before[s] for s in clock.cpu)   # the deal's shares go out in parallel
    reveals = {p.seat: decode(p.reveal(sid).to_bytes(), p.seat) for p in peers}
    t = time.thread_time()
    audit(peers[1].shuffles[sid], reveals)
    audit_cpu = time.thread_time() - t
    # a single open: the owner of position 0 (keys already in) unmasking it afresh
    p0 = peers[0]
    del p0.known[(sid, 0)]
    t = time.thread_time()
    p0.open(sid, 0)
    open_cpu = time.thread_time() - t
    share = p0.share(sid, 0)
    other = peers[1]
    t = time.thread_time()
    other.shuffles[sid].shares.pop((0, 0), None)
    other.shuffles[sid].accept_share(share)
    check_cpu = time.thread_time() - t
    return dict(clock.cpu), path, audit_cpu, open_cpu, check_cpu


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--cards", type=int, default=36)
    ap.add_argument("--unsigned", action="store_true", help="leave out signing and verifying")
    a = ap.parse_args(argv)
    busiest, mean, total, paths, audits, opens, checks = [], [], [], [], [], [], []
    for _ in range(a.repeat):
        cpu, path, au, op, ck = one_round(a.seats, a.cards, not a.unsigned)
        paths.append(path)
        busiest.append(max(cpu.values()))
        mean.append(statistics.mean(cpu.values()))
        total.append(sum(cpu.values()))
        audits.append(au)
        opens.append(op)
        checks.append(ck)
    ms = lambda xs: f"{statistics.median(xs) * 1e3:.1f} ms"  # noqa: E731
    print(f"{a.cards} cards, {a.seats} peers, {'signed' if not a.unsigned else 'unsigned'}, median of {a.repeat}:")
    print(f"  shuffle + deal CPU per peer: busiest {ms(busiest)}, mean {ms(mean)}; all peers {ms(total)}")
    print(f"  critical path (CPU of the sequential steps; the wall time less network): {ms(paths)}")
    print(f"  round-end audit (one peer): {ms(audits)}")
    print(f"  single open: {statistics.median(opens) * 1e6:.0f} us; one key check: "
          f"{statistics.median(checks) * 1e6:.0f} us")


if __name__ == "__main__":
    main()
