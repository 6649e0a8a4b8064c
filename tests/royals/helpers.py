"""Shared helpers for the Royals & Riots tests."""

from __future__ import annotations

from game.royals.engine import CARDS, Action, Phase, Rng, State


def random_match(seed: int, players: int = 3, teams: bool = False, upto: int | None = None,
                 checked: bool = True, fast_keep: bool = True) -> State:
    """A uniformly random match (chance included) from ``seed``, stopped after ``upto`` actions."""
    rng = Rng(seed)
    s = State(players, teams)
    while not s.is_over() and (upto is None or s.ply < upto):
        ev = s.chance()
        if ev is not None:
            a = ev.sample(rng)
        elif fast_keep and s.phase.value == "keep":
            cards = list(s.hand(s.to_act)) or list(_dealt(s))
            rng.shuffle(cards)
            a = Action.keep(s.to_act, cards[:s.hand_size()])
        else:
            a = rng.choice(s.legal_actions())
        (s.push_checked if checked else s.push)(a)
    return s


def _dealt(s: State):
    from game.royals.engine import cards_of
    return cards_of(s.dealt[s.to_act - 1])


def play(s: State, *texts: str) -> State:
    """Push each action text, checked."""
    for t in texts:
        s.push_str(t)
    return s


def names(cards) -> list[str]:
    return [c.name for c in cards]


def random_action(s: State, rng: Rng) -> Action:
    """A uniformly random next action: the chance outcome, a random hand at set-up, else a
    random legal decision."""
    ev = s.chance()
    if ev is not None:
        return ev.sample(rng)
    if s.phase is Phase.KEEP:
        cards = list(s.observation(s.to_act).dealt)
        rng.shuffle(cards)
        return Action.keep(s.to_act, cards[:s.hand_size()])
    return rng.choice(s.legal_actions())


def corrupt(d: dict, rng: Rng, what: int) -> None:
    """Spoil a parsed record in place, in one round drawn with ``rng``: ``what`` 0 replaces an
    action's card, 1 drops an action, 2 doubles one, 3 swaps a seat's hand with a seat's pile,
    4 cuts the round's actions short (and drops the result)."""
    rnd = d["rounds"][rng.randbelow(len(d["rounds"]))]
    acts = rnd["actions"]
    j = rng.randbelow(len(acts))
    players = len(d["players"])
    if what == 0:
        parts = acts[j].split(" ")
        parts[-1] = CARDS[rng.randbelow(36)].name
        acts[j] = " ".join(parts)
    elif what == 1:
        del acts[j]
    elif what == 2:
        acts.insert(j, acts[j])
    elif what == 3:
        a, b = rng.randbelow(players), rng.randbelow(players)
        rnd["hand"][a], rnd["pile"][b] = rnd["pile"][b], rnd["hand"][a]
    else:
        del acts[j:]
        d.pop("result", None)


def messages_for(before: State, action: Action, after: State, seat: int) -> list[dict]:
    """What :meth:`game.royals.engine.SeatView.hear` of ``seat`` is told for ``action`` pushed at
    ply ``before.ply`` (``before``/``after``: the whole match around it; only read), in the
    view's message format (``act``/``you``/``hidden``; the dealer-free LAN machine feeds its
    views itself): START, PLAY, EXECUTE, STEAL are public (``act``), and a play also brings its
    player the top of its pile (``you``); a DEAL brings each seat its cards; a KEEP or PILE
    brings the seat itself its cards (a pile's never in order), the others ``hidden``."""
    from game.royals.engine import DEAL, KEEP, PILE, PLAY

    def names(cards) -> str:
        return ",".join(c.name for c in cards)
    ply, k = before.ply, action.kind
    if k is DEAL:
        return [{"t": "you", "ply": ply, "cards": names(action.groups[seat - 1])}]
    if k in (KEEP, PILE):
        if action.seat == seat:
            cards = action.cards if k is KEEP else sorted(action.cards, key=lambda c: c.index)
            return [{"t": "you", "ply": ply, "cards": names(cards)}]
        return [{"t": "hidden", "ply": ply, "seat": action.seat}]
    out = [{"t": "act", "ply": ply, "a": str(action)}]
    if k is PLAY and action.seat == seat and before.piles[seat - 1]:
        drawn = before.piles[seat - 1][-1]
        out.append({"t": "you", "ply": ply, "cards": names([c for c in after.hand(seat) if c.index == drawn])})
    return out


#: A search's budget measured in a fresh interpreter, as the window's worker process thinks:
#: inside the suite's process (a large heap from a thousand earlier tests) a garbage
#: collection during a batch of iterations is the searching thread's CPU time too.
_BUDGET_PROBE = """
import gc, json, sys, time
sys.path.insert(0, sys.argv[1])
setup, think = sys.argv[2], sys.argv[3]
env = {}
exec(setup, env)
runs = []
for k in range(int(sys.argv[4])):
    env["k"] = k
    gc.collect()
    t0, c0 = time.perf_counter(), time.thread_time()
    exec(think, env)
    runs.append([time.perf_counter() - t0, time.thread_time() - c0])
print(json.dumps(runs))
"""


def budget_runs(setup: str, think: str, runs: int = 3) -> list[tuple[float, float]]:
    """``[(wall s, this thread's CPU s)]`` of ``runs`` executions of the statement ``think`` (``k``
    is the run's number) after ``setup``, in a fresh interpreter rooted at the repository."""
    import json
    import subprocess
    import sys
    from pathlib import Path
    root = str(Path(__file__).resolve().parents[2])
    out = subprocess.run([sys.executable, "-c", _BUDGET_PROBE, root, setup, think, str(runs)],
                         capture_output=True, text=True, timeout=120, cwd=root)
    assert out.returncode == 0, out.stderr[-2000:]
    return [tuple(r) for r in json.loads(out.stdout)]  # type: ignore[misc]
