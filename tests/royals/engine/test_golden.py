"""The engine's behaviour pinned to what it was before the rules kernel, as Rose
King pinned its own (tests/roseking/engine/test_kernel.py): digests of records, legal actions,
observations, the reasons given for illegal actions, corrupted records' errors, a seat view's
placeholder state and the search's choices, over seeded random matches of every seat count.

A digest that changes means saved games, ``rose-king check`` output, LAN views or the
computer players' decisions changed: that must be a decision, never an accident. To see
what moved, run ``python -m tests.royals.engine.test_golden`` (it prints each digest).
"""

from __future__ import annotations

import hashlib
import json

from game.royals.engine import (CARDS, Action, Phase, Record, RecordError, Rng, SeatView, State,
                                status_line)

from ..helpers import corrupt, random_action

CONFIGS = ((2, False), (3, False), (4, False), (4, True))


def _match(seed: int, players: int, teams: bool):
    """A random match (uniform decisions, a random hand at set-up), yielding (state before, action)."""
    rng = Rng(seed)
    s = State(players, teams)
    while not s.is_over():
        a = random_action(s, rng)
        yield s, a
        s.push_checked(a)
    yield s, None


def _probes(s: State) -> list[Action]:
    """Every play and execution of every card by every seat, every steal decision and outcome,
    and a start by every seat: the actions whose verdict the digest pins."""
    out = []
    for seat in range(1, s.players + 1):
        out.append(Action.start(seat))
        out.append(Action.steal(seat, None))
        for c in CARDS:
            out.append(Action.play(seat, c))
            out.append(Action.execute(seat, c))
        for t in range(1, s.players + 1):
            out.append(Action.steal(seat, t))
            for c in CARDS[::5]:
                out.append(Action.steal(seat, t, c))
    return out


def digest_engine(seeds: range) -> str:
    """Actions, legal actions, every seat's observation, the verdicts on the probes, status lines."""
    h = hashlib.sha256()
    for players, teams in CONFIGS:
        for seed in seeds:
            for s, a in _match(seed, players, teams):
                h.update(status_line(s).encode())
                if s.phase is not Phase.KEEP:
                    h.update(repr([str(x) for x in s.legal_actions()]).encode())
                else:
                    h.update(str(len(s.legal_actions())).encode())
                for seat in range(1, players + 1):
                    h.update(repr(s.observation(seat)).encode())
                for p in _probes(s):
                    h.update(repr(s.illegal_reason(p)).encode())
                h.update(repr(s.scores()).encode())
                if a is not None:
                    h.update(str(a).encode())
                else:
                    h.update(repr(s.outcome()).encode())
    return h.hexdigest()


def digest_records(seeds: range) -> str:
    """Each finished match's record JSON, its check line, and the errors of corrupted copies
    (an action replaced, dropped or doubled; a set-up field swapped)."""
    h = hashlib.sha256()
    for players, teams in CONFIGS:
        for seed in seeds:
            s = None
            for s, _a in _match(seed, players, teams):
                pass
            rec = Record.from_state(s, date="2026-11-27T00:00:00Z")
            text = rec.to_json()
            h.update(text.encode())
            h.update(status_line(Record.from_json(text).replay()).encode())
            rng = Rng(seed ^ 0x5EED)
            for k in range(12):
                d = json.loads(text)
                corrupt(d, rng, k % 4)
                try:
                    line = status_line(Record.from_dict(d).replay())
                except RecordError as e:
                    line = "error " + str(e)
                h.update(line.encode())
    return h.hexdigest()


def digest_views(seeds: range) -> str:
    """Seat 2's SeatView fed only its own part (tests/royals/helpers.py, messages_for): its placeholder
    state's hands and piles at every ply."""
    from ..helpers import messages_for
    h = hashlib.sha256()
    for players, teams in CONFIGS:
        for seed in seeds:
            v = SeatView(2, players, teams)
            before = None
            for s, a in _match(seed, players, teams):
                if a is None:
                    break
                before = s.copy()
                s.push(a)
                for m in messages_for(before, a, s, 2):
                    v.hear(m)
                s.pop()
                vs = v.state
                h.update(repr((vs.hands, vs.piles, vs.aside, v.check(a) if a.kind.value in ("play", "steal", "execute", "start") else None)).encode())
    return h.hexdigest()


def _digest_choices(seeds: range, search, iterations: int, keep: bool) -> str:
    """``search(rng, seconds, iterations)``'s choice and root statistics at the first six
    decisions of random matches (hand choices too if ``keep``)."""
    h = hashlib.sha256()
    phases = (Phase.PLAY, Phase.STEAL, Phase.EXECUTE) + ((Phase.KEEP,) if keep else ())
    for players, teams in CONFIGS:
        for seed in seeds:
            n = 0
            for s, a in _match(seed, players, teams):
                if a is None or n >= 6:
                    break
                if s.phase in phases and s.to_act and (s.phase is Phase.KEEP or len(s.legal_actions()) > 1):
                    res = search(Rng(seed + n), None, iterations).search(s.observation(s.to_act))
                    h.update(repr((str(res.action), sorted(res.visits.items()), res.iterations)).encode())
                    n += 1
    return h.hexdigest()


def digest_search(seeds: range) -> str:
    """The ISMCTS of today's ``hard`` (``hard-2025``; 60 iterations, seeded)."""
    from game.royals.ai.baselines import ISMCTS2025 as ISMCTS
    return _digest_choices(seeds, ISMCTS, 60, keep=False)


def digest_new_search(seeds: range) -> str:
    """Today's search of ``hard`` (40 iterations, seeded), its hand choices included,
    so that a speed-up cannot change a decision unnoticed."""
    from game.royals.ai.ismcts import ISMCTS
    return _digest_choices(seeds, ISMCTS, 40, keep=True)


#: Digests of the engine before the rules kernel (commit bf0be7d), seeds as in each test;
#: "new-search" pins hard's search: as the ISMCTS rewrite left it at commit c95b2fd, renewed when the
#: determinizations of ``hard`` began to shuffle by floats and to skip the piles the deal had
#: already put in random order (kernel2: same distribution, other draws), and again when they
#: began to shuffle only the places a hand or a pile gets (speed36: the same distribution,
#: checked by tests/royals/test_ai.py, other draws), and when the hand choice by search (off in
#: every level) moved out of the product into bench/royals_variants.py: hard's hands are the
#: greedy's, its play decisions the same (the old search with keep_search=False gave this digest;
#: the bench's VariantISMCTS with keep_search=True gives the one before).
GOLDEN = {
    "engine": "de1a2427dd8ead181358fb24f4aaee529645c32732c9ef33375ca87957c1a47f",
    "records": "3fdf9215a41c03791a46729da03ea0d30ac3fdb3e79e9e5575a723f8a2859f8a",
    "views": "b10f7c37a30db389bbcb29aca04a0683f398f2328ca13542e7a480648a3d8409",
    "search": "ab8683d2a975ab344993bc8cbb433d862233a4e962f26b9fc4bb006269613ce5",
    "new-search": "4e2667edf91c0558bbdc0543296b046042e57d1f013a7e362e5197677ad3cd53",
}


def test_engine_behaviour_is_unchanged():
    assert digest_engine(range(3)) == GOLDEN["engine"]


def test_records_and_their_errors_are_unchanged():
    assert digest_records(range(4)) == GOLDEN["records"]


def test_seat_views_are_unchanged():
    assert digest_views(range(2)) == GOLDEN["views"]


def test_search_choices_are_unchanged():
    assert digest_search(range(2)) == GOLDEN["search"]


def test_the_search_of_hard_is_unchanged():
    assert digest_new_search(range(2)) == GOLDEN["new-search"]


if __name__ == "__main__":
    print("engine", digest_engine(range(3)))
    print("records", digest_records(range(4)))
    print("views", digest_views(range(2)))
    print("search", digest_search(range(2)))
    print("new-search", digest_new_search(range(2)))
