"""Shared helpers for the Royals & Riots tests."""

from __future__ import annotations

from game.royals.engine import Action, Rng, State


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
