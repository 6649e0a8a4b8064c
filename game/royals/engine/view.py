"""One seat's view of a Royals & Riots match: what that seat knows, and a full State consistent with it.

A LAN joiner (and the window and AI of any seat that does not hold the whole match) never
sees the other hands, piles or the cards set aside. :class:`SeatView` is fed, in engine ply
order, exactly what its seat is told (docs/protocol.md, "Royals & Riots", "What each joiner
is told"):

- :meth:`SeatView.public` — a public action (``start 2``, ``3 play K4``, ``1 steal 2``,
  ``1 steal 2 K4`` (the stolen card goes face up to the Thief's loot, ruling 7), ``1 steal
  none``, ``2 execute R3``) and this seat's own decisions as the host relays them;
- :meth:`SeatView.dealt` — this seat's dealt cards (the DEAL chance outcome, its part only);
- :meth:`SeatView.kept` — this seat's own hand choice (KEEP);
- :meth:`SeatView.own_pile` — the cards of this seat's own draw pile (PILE), never their order;
- :meth:`SeatView.drew` — the card this seat drew from its pile after its play;
- :meth:`SeatView.hidden` — another seat's hidden KEEP or PILE happened at this ply.

:meth:`SeatView.hear` takes the protocol's ``act``/``you``/``hidden`` message dicts and calls
the above. :meth:`SeatView.observation` equals ``State.observation(seat)`` of the true match
at every ply (property-tested in tests/royals/engine/test_view.py). :attr:`SeatView.state` is a
full :class:`State` (with a history) that agrees with everything the seat knows: the unknown
cards (other hands and piles, the aside, the order of its own pile) are filled in by a
placeholder *determinization* which is repaired whenever a card is revealed (another seat
plays it, a theft shows it, this seat draws it) or a seat shows a void by not following:
first by swapping two cards throughout the round (the fast path), and when no single swap
keeps every fact, by placing all unknown cards anew with a bipartite matching of cards to
the hand and pile slots they may occupy (:meth:`SeatView._resolve`; exact: it finds a
placement whenever one exists). After a round has been checked against the host's
reveal, :meth:`SeatView.reset` puts the true state in.

Pure Python, no pygame, no randomness (the placeholder is deterministic).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from game.errors import Reason

import game.royals.engine.kernel as K
from .actions import DEAL, KEEP, PILE, PLAY, START, STEAL, Action
from .cards import ALL_CARDS_MASK, CARDS, NUM_CARDS, RANK_MASK, RANK_OF, THIEF, Card, cards_of, iter_bits
from .state import SETUP, Observation, Phase, State

__all__ = ["SeatView", "ViewError"]

MAX_FAST = 6  #: single exchanges tried on the fast path before the exact re-solve


class ViewError(ValueError):
    """What the seat was told contradicts what it knows (a card it knows to be elsewhere,
    a hidden action when none is due, a message for another ply). ``ply``: the engine ply."""

    def __init__(self, ply: int, reason: str) -> None:
        super().__init__(f"ply {ply}: {reason}")
        self.ply, self.reason = ply, reason


class SeatView:
    """What seat ``seat`` (1..players) of a ``players``-seat match (``teams``: 4 seats, 1+3
    against 2+4) knows. ``base``: the true state to start from (default: a new match).

    Raises ValueError for a bad seat or seat count.
    """

    _base: State                      #: the round's true start (the last true state put in)
    _state: State                     #: the view: the base and the log, with a placement of the unseen cards
    _log: list[tuple[str, Action | int]]  #: what happened since the base: ("act", Action), ("deal", 0), ...
    _groups: list[list[int]]          #: the deal's groups as placed (each seat's, then the aside)
    _keeps: dict[int, int]            #: seat -> its kept hand (a card mask) as placed
    _orders: dict[int, list[int]]     #: seat -> its pile's order as placed
    _seen: int                        #: the cards this seat has seen (a mask)
    _drew_at: int                     #: the ply of this seat's last draw (-1: none)

    def __init__(self, seat: int, players: int, teams: bool = False, base: State | None = None) -> None:
        if base is None:
            base = State(players, teams)
        if base.players != players or base.teams != bool(teams):
            raise ValueError("the base state has another seat count or team setting")
        if not 1 <= seat <= players:
            raise ValueError(f"seat {seat!r} is not one of the {players} seats")
        self.seat, self.players, self.teams = seat, players, bool(teams)
        self.reset(base)

    # ------------------------------------------------------------------ queries
    @property
    def ply(self) -> int:
        """The engine ply this view has reached (actions applied, hidden ones included)."""
        return self._state.ply

    @property
    def state(self) -> State:
        """A full State consistent with everything this seat knows (placeholder cards where it
        knows nothing). Do not push to it: it is replaced on every repair (a copy is safe)."""
        return self._state

    def observation(self) -> Observation:
        """This seat's :class:`Observation`, equal to ``State.observation(seat)`` of the true match."""
        return self._state.observation(self.seat)

    def consistent(self) -> bool:
        """Whether :attr:`state` agrees with every fact this seat saw this round: each card
        played or stolen was in that hand then, and each seat that did not follow held no
        card of the led rank then (the repairs keep it so whenever what it was told admits it)."""
        return self._consistent() is not None

    def legal_actions(self) -> list[Action]:
        """This seat's legal decisions now (empty unless it is to act)."""
        st = self._state
        if st.is_chance() or st.to_act != self.seat:
            return []
        return st.legal_actions()

    def check(self, action: Action) -> Reason | None:
        """Why ``action`` (a public decision at the current ply: ours or another seat's)
        cannot be legal as far as this seat can know, or None (a :class:`game.errors.Reason`,
        codes as :meth:`State.illegal_reason`'s plus ``not_public``, ``no_theft_pending``,
        ``chance_first``). Exact for our own seat and for
        everything that depends on public facts only (turn, phase, steal target, execution,
        starter); for another seat's play: a card this seat knows to be elsewhere (its own
        hand or pile, a loot, out of the game, played before), or not following while that
        seat holds a card of the led rank everyone saw it take back. :meth:`public` also
        refuses a play of a card the seat cannot hold by everything it showed (its voids and
        plays: no placement of the unseen cards fits)."""
        st = self._state
        if action.kind in (DEAL, PILE):
            return K.reason("not_public", kind=action.kind.value)
        if action.kind is STEAL and action.card is not None:
            if st.phase is not Phase.STOLEN:
                return K.reason("no_theft_pending")
            why = st.illegal_reason(action)
            if why is not None and why.code == "not_in_that_hand" and action.target != self.seat \
                    and not (self._seen >> action.card.index) & 1:
                return None
            return why
        if action.kind is START and st.is_chance():
            return st.illegal_reason(action)
        if st.is_chance():
            return K.reason("chance_first")
        if action.kind is not PLAY or action.seat == self.seat:
            return st.illegal_reason(action)
        why = st.illegal_reason(action)
        if why is None or why.code not in ("not_in_hand", "must_follow"):
            return why
        # another seat's play: judge it on the cards this seat has seen only (the same rule)
        card = action.card
        assert card is not None  # (a play names its card)
        c, i = card.index, action.seat - 1
        hand = st.hands[i]
        known_elsewhere = not (hand >> c) & 1 and (self._seen >> c) & 1
        seen_hand = (hand & self._seen) | (0 if known_elsewhere else 1 << c)
        return K.play_refusal(seen_hand, st.led, bool(st.trick_plays), c)

    # ------------------------------------------------------------------ updates
    def public(self, action: Action) -> None:
        """Apply a public action at the current ply (see the module docstring). Raises
        ViewError if it contradicts what this seat knows (:meth:`check`)."""
        st = self._state
        if action.kind is KEEP and action.seat != self.seat:
            raise ViewError(st.ply, "another seat's hand choice is not public")
        why = self.check(action)
        if why is not None:
            raise ViewError(st.ply, f"{action}: {why}")
        saved = (self._base, list(self._log), self._snapshot_params(), self._seen)
        self._new_round_if_due()
        k = action.kind
        if k is PLAY and action.seat != self.seat:
            card = action.card
            assert card is not None  # (a play names its card)
            self._place(card.index, action.seat)
            self._shows_void(action.seat, card.index)
        elif k is STEAL and action.card is not None and action.target is not None and action.target != self.seat:
            self._place(action.card.index, action.target)
        if action.card is not None:
            self._seen |= 1 << action.card.index
        self._append(("act", action))
        if (k is PLAY or k is STEAL) and self._consistent() is None and not self._settle():
            # no placement of the unseen cards fits everything this seat saw: the action is impossible
            self._base, self._log, params, self._seen = saved
            self._restore_params(params)
            self._rebuild()
            holder = action.seat if k is PLAY else action.target
            raise ViewError(st.ply, f"{action}: seat {holder} cannot hold {action.card} (no way to place the unseen "
                            "cards fits its plays and the ranks it showed it lacked)")

    def dealt(self, cards: Iterable[Card]) -> None:
        """The DEAL at the current ply: ``cards`` are this seat's dealt cards (14, 12 or 9)."""
        self._new_round_if_due()
        st = self._state
        mine = sorted({c.index for c in cards})
        size, _, aside = SETUP[self.players]
        if st.phase is not Phase.DEAL:
            raise ViewError(st.ply, "a deal when none is due")
        if len(mine) != size:
            raise ViewError(st.ply, f"dealt {len(mine)} different cards, not {size}")
        rest = [c for c in range(NUM_CARDS) if c not in set(mine)]
        groups: list[list[int]] = []
        for s in range(1, self.players + 1):
            if s == self.seat:
                groups.append(list(mine))
            else:
                groups.append(rest[:size])
                rest = rest[size:]
        groups.append(rest[:aside])
        self._groups = groups
        self._seen |= sum(1 << c for c in mine)
        self._append(("deal", 0))

    def kept(self, cards: Iterable[Card]) -> None:
        """This seat's own KEEP at the current ply."""
        self.public(Action.keep(self.seat, list(cards)))

    def own_pile(self, cards: Iterable[Card]) -> None:
        """This seat's own PILE at the current ply: its pile's cards (any order)."""
        st = self._state
        mask = sum(1 << c.index for c in cards)
        if st.phase is not Phase.PILE or st.pending != self.seat:
            raise ViewError(st.ply, "our pile when none is due")
        if mask != st.dealt[self.seat - 1] & ~st.kept[self.seat - 1]:
            raise ViewError(st.ply, "our pile must hold exactly our dealt cards not kept")
        self._orders[self.seat] = sorted(iter_bits(mask))
        self._append(("pile", self.seat))

    def drew(self, card: Card) -> None:
        """This seat's last play drew ``card`` from the top of its pile."""
        st = self._state
        last = st.history[-1] if st.history else None
        order = self._orders.get(self.seat)
        if last is None or last.kind is not PLAY or last.seat != self.seat or order is None:
            raise ViewError(st.ply, "a draw without our play")
        c = card.index
        if self._drew_at == st.ply:
            raise ViewError(st.ply, "a second draw for one play")
        taken = self._drawn_count()
        if taken < 1 or taken > len(order):
            raise ViewError(st.ply, "a draw from an empty pile")
        if c not in order[taken - 1:]:
            raise ViewError(st.ply, f"{card} is not in the rest of our pile")
        y = order[taken - 1]
        self._drew_at = st.ply
        if y != c:
            self._swap(c, y)
            self._rebuild()

    def hidden(self, seat: int) -> None:
        """Another seat's hidden KEEP or PILE at the current ply."""
        st = self._state
        if seat == self.seat or not 1 <= seat <= self.players:
            raise ViewError(st.ply, f"a hidden action of seat {seat}")
        if st.phase is Phase.KEEP and st.to_act == seat:
            size = st.hand_size()
            self._keeps[seat] = sum(1 << c for c in self._groups[seat - 1][:size])
            self._append(("keep", seat))
        elif st.phase is Phase.PILE and st.pending == seat:
            kept = self._keeps.get(seat, 0)
            self._orders[seat] = [c for c in self._groups[seat - 1] if not (kept >> c) & 1]
            self._append(("pile", seat))
        else:
            raise ViewError(st.ply, f"no hidden action of seat {seat} is due now (phase {st.phase})")

    def hear(self, msg: dict[str, Any]) -> None:
        """Apply one protocol message: ``act{ply, a}``, ``you{ply, cards}``, ``hidden{ply, seat}``
        (docs/protocol.md). ``you`` means, by the phase: our deal, our keep, our pile's cards,
        or (with the ply of our play) the card we drew. Raises ViewError for a wrong ply or a
        contradiction, InvalidMoveError for unreadable text."""
        t, ply, st = msg["t"], msg["ply"], self._state
        if t == "you":
            cards = [Card.from_name(x) for x in msg["cards"].split(",")] if msg["cards"] else []
            last = st.history[-1] if st.history else None
            if ply == st.ply - 1 and last is not None and last.kind is PLAY and last.seat == self.seat:
                if len(cards) != 1:
                    raise ViewError(ply, "a draw is one card")
                self.drew(cards[0])
                return
            self._at(ply)
            self._new_round_if_due()
            st = self._state
            if st.phase is Phase.DEAL:
                self.dealt(cards)
            elif st.phase is Phase.KEEP and st.to_act == self.seat:
                self.kept(cards)
            elif st.phase is Phase.PILE and st.pending == self.seat:
                self.own_pile(cards)
            else:
                raise ViewError(ply, f"cards told to us at phase {st.phase}")
            return
        self._at(ply)
        if t == "act":
            self.public(Action.from_str(msg["a"]))
        elif t == "hidden":
            self._new_round_if_due()
            self.hidden(msg["seat"])
        else:
            raise ViewError(ply, f"not a view message: {t!r}")

    def reset(self, state: State) -> None:
        """Put the true state in (after a round was checked): the view starts over from it."""
        self._base = state.copy()
        self._state = state.copy()
        self._log = []
        self._groups = []
        self._keeps = {}
        self._orders = {}
        self._seen = 0
        self._drew_at = -1

    # ------------------------------------------------------------------ internals
    def _at(self, ply: int) -> None:
        if ply != self._state.ply:
            raise ViewError(ply, f"a message for ply {ply}, we are at ply {self._state.ply}")

    def _new_round_if_due(self) -> None:
        """A new round began in this view (no reset yet): its start becomes the base."""
        st = self._state
        if self._log and st.round != self._base.round and st.phase in (Phase.START, Phase.DEAL):
            self._base = st.copy()
            self._log, self._groups, self._keeps, self._orders, self._seen = [], [], {}, {}, 0

    def _action(self, entry: tuple[str, Action | int]) -> Action:
        kind, x = entry
        if isinstance(x, Action):  # ("act", action)
            return x
        if kind == "deal":
            return Action.deal([[CARDS[c] for c in g] for g in self._groups])
        # ("keep" | "pile", seat)
        if kind == "keep":
            return Action.keep(x, cards_of(self._keeps[x]))
        return Action.pile(x, [CARDS[c] for c in self._orders[x]])

    def _append(self, entry: tuple[str, Action | int]) -> None:
        self._log.append(entry)
        self._state.push(self._action(entry))

    def _rebuild(self) -> None:
        st = self._base.copy()
        for e in self._log:
            st.push(self._action(e))
        self._state = st

    def _drawn_count(self) -> int:
        """Cards our pile has given us so far this round."""
        order = self._orders.get(self.seat, [])
        return len(order) - len(self._state.piles[self.seat - 1])

    def _swap(self, x: int, y: int) -> None:
        """Exchange cards ``x`` and ``y`` everywhere in the round's placeholders."""
        def sw(c: int) -> int:
            return y if c == x else x if c == y else c
        self._groups = [[sw(c) for c in g] for g in self._groups]
        self._orders = {s: [sw(c) for c in o] for s, o in self._orders.items()}
        bx, by = 1 << x, 1 << y
        for s, m in self._keeps.items():
            if bool(m & bx) != bool(m & by):
                self._keeps[s] = m ^ bx ^ by

    def _replay(self) -> tuple[State, int]:
        """Replay the round's placeholders up to the first broken fact: a card played or
        stolen that was not in that hand then, or a seat that did not follow while holding a
        card of the led rank. Returns (the replayed state without history, 1 if a fact broke
        else 0)."""
        st = self._base.copy(stack=False)
        for e in self._log:
            a = self._action(e)
            card, target = a.card, a.target
            if a.kind is PLAY:
                assert card is not None  # (a play names its card)
                if K.play_refusal(st.hands[a.seat - 1], st.led, bool(st.trick_plays), card.index) is not None:
                    return st, 1
            elif a.kind is STEAL and card is not None and target is not None \
                    and not (st.hands[target - 1] >> card.index) & 1:
                return st, 1
            st.push(a)
        return st, 0

    def _consistent(self) -> State | None:
        """The replayed state if every fact holds (see :meth:`_replay`), else None."""
        st, bad = self._replay()
        return None if bad else st

    def _settle(self) -> bool:
        """Re-solve the round's placeholders exactly (:meth:`_resolve`). Returns False if the
        facts admit no placement at all (what we were told is contradictory); the
        placeholders are then left as they were."""
        snap = self._snapshot_params()
        ok = self._resolve()
        if not ok:
            self._restore_params(snap)
        self._rebuild()
        return ok

    def _resolve(self) -> bool:
        """Place every card this seat does not hold anew so that every fact of the round holds.

        Each other seat's cards sit in *slots*: its kept hand (in hand from its 1st play on)
        and its pile positions 1..P (position q is drawn after its q-th play: in hand from its
        (q+1)-th play on). A card seat s played at its j-th play must be in hand by then and,
        if s showed a void in the card's rank at an earlier play j', not yet in hand at j'
        (first play in hand > j'); a card stolen from s likewise at that moment; a card never
        seen may go to any slot of any seat that is in hand only after that seat's last void
        in its rank, or aside. That is a bipartite matching of cards to slots (Kuhn's
        augmenting paths, each card trying its present slot first so the placeholder moves
        as little as possible). Returns False if there is no complete matching."""
        n, me = self.players, self.seat
        if any(s != me and (s not in self._keeps or s not in self._orders) for s in range(1, n + 1)):
            return False  # the set-up is not complete: nothing was played yet
        st = self._base.copy(stack=False)
        plays = [0] * (n + 1)
        voids: list[list[tuple[int, int]]] = [[] for _ in range(n + 1)]
        fixed: dict[int, tuple[int, int, int]] = {}  # card -> (seat, lo, hi) on "in hand from play"
        for e in self._log:
            a = self._action(e)
            if a.kind is PLAY:
                card = a.card
                assert card is not None  # (a play names its card)
                s, c = a.seat, card.index
                j = plays[s] + 1
                if s != me and c not in fixed:
                    lo = max([v for v, r in voids[s] if r == RANK_OF[c]], default=0) + 1
                    fixed[c] = (s, lo, j)
                if st.trick_plays and st.led >= 0 and RANK_OF[c] != st.led and c < THIEF:
                    voids[s].append((j, st.led))
                plays[s] = j
            elif a.kind is STEAL and a.card is not None and a.target is not None and a.target != me:
                t, c = a.target, a.card.index
                if c not in fixed:
                    lo = max([v for v, r in voids[t] if r == RANK_OF[c]], default=0) + 1
                    fixed[c] = (t, lo, plays[t] + 1)
            st.push(a)
        size = SETUP[n][1]
        slots: list[tuple[int, int]] = []  # (seat or 0 for aside, first play in hand)
        for s in range(1, n + 1):
            if s != me:
                slots += [(s, 1)] * size + [(s, q + 1) for q in range(1, len(self._orders[s]) + 1)]
        slots += [(0, 0)] * len(self._groups[n])
        mine = set(self._groups[me - 1])
        cards = sorted((c for c in range(NUM_CARDS) if c not in mine), key=lambda c: (c not in fixed, c))
        if len(cards) != len(slots):
            return False
        last_void = {(s, r): max([v for v, rr in voids[s] if rr == r], default=0) for s in range(1, n + 1)
                     for r in range(len(RANK_MASK))}
        now_slot = self._slot_of()

        def fits(c: int, k: int) -> bool:
            seat, first = slots[k]
            if c in fixed:
                s, lo, hi = fixed[c]
                return seat == s and lo <= first <= hi
            return seat == 0 or c >= THIEF or first > last_void[(seat, RANK_OF[c])]
        edges = {c: sorted((k for k in range(len(slots)) if fits(c, k)), key=lambda k: now_slot.get(c) != k)
                 for c in cards}
        owner: dict[int, int] = {}

        def augment(c: int, seen: set[int]) -> bool:
            for k in edges[c]:
                if k in seen:
                    continue
                seen.add(k)
                if k not in owner or augment(owner[k], seen):
                    owner[k] = c
                    return True
            return False
        for c in cards:
            if not augment(c, set()):
                return False
        k = 0
        for s in range(1, n + 1):
            if s == me:
                continue
            kept = [owner[k + i] for i in range(size)]
            k += size
            pile = [owner[k + i] for i in range(len(self._orders[s]))]
            k += len(pile)
            self._groups[s - 1] = sorted(kept + pile)
            self._keeps[s] = sum(1 << c for c in kept)
            self._orders[s] = pile
        self._groups[n] = sorted(owner[k + i] for i in range(len(self._groups[n])))
        return True

    def _slot_of(self) -> dict[int, int]:
        """The slot index (as :meth:`_resolve` numbers them) of each card in the placeholders now."""
        n, me, size = self.players, self.seat, SETUP[self.players][1]
        out: dict[int, int] = {}
        k = 0
        for s in range(1, n + 1):
            if s == me:
                continue
            kept = sorted(iter_bits(self._keeps.get(s, 0)))
            for i, c in enumerate(kept[:size]):
                out[c] = k + i
            k += size
            for i, c in enumerate(self._orders.get(s, [])):
                out[c] = k + i
            k += len(self._orders.get(s, []))
        for i, c in enumerate(self._groups[n] if len(self._groups) > n else []):
            out[c] = k + i
        return out

    def _snapshot_params(self) -> tuple[Any, ...]:
        return ([g[:] for g in self._groups], dict(self._keeps), {s: o[:] for s, o in self._orders.items()})

    def _restore_params(self, snap: tuple[Any, ...]) -> None:
        groups, keeps, orders = snap
        self._groups, self._keeps, self._orders = [g[:] for g in groups], dict(keeps), {s: o[:] for s, o in orders.items()}

    def _free(self) -> int:
        """Cards whose place this seat does not know (never seen this round)."""
        return ALL_CARDS_MASK & ~self._seen

    def _try(self, x: int, candidates: Iterable[int], ok: Callable[[State], object] = lambda st: True) -> None:
        """The fast path: swap ``x`` with the first candidate that keeps every fact and
        ``ok(replayed state)``; if none does, with the first candidate (then :meth:`public`
        re-solves the round exactly, :meth:`_resolve`)."""
        cands = list(candidates)
        for y in cands[:MAX_FAST]:
            self._swap(x, y)
            st = self._consistent()
            if st is not None and ok(st):
                self._rebuild()
                return
            self._swap(x, y)
        if cands:
            self._swap(x, cands[0])
            self._rebuild()

    def _place(self, c: int, seat: int) -> None:
        """Card ``c`` is revealed in ``seat``'s hand now: make the placeholder agree."""
        st = self._state
        hand = st.hands[seat - 1]
        if (hand >> c) & 1:
            return
        if (self._seen >> c) & 1:
            raise ViewError(st.ply, f"seat {seat} cannot hold {CARDS[c]}: we know where it is")
        cands = list(iter_bits(hand & self._free() & ~st.known[seat - 1]))
        if not cands:
            raise ViewError(st.ply, f"seat {seat} cannot hold {CARDS[c]}: we know its whole hand")
        self._try(c, cands, lambda st: (st.hands[seat - 1] >> c) & 1)

    def _shows_void(self, seat: int, c: int) -> None:
        """``seat`` plays ``c``: if it does not follow the led rank, it holds none of it."""
        st = self._state
        if not st.trick_plays or st.led < 0 or RANK_OF[c] == st.led or c >= THIEF:
            return
        rank, i = st.led, seat - 1
        for z in list(iter_bits(st.hands[i] & RANK_MASK[rank] & self._free())):
            hand = self._state.hands[i]
            if not (hand >> z) & 1:
                continue
            left = (hand & RANK_MASK[rank]).bit_count()
            outside = self._free() & ~hand & ~RANK_MASK[rank]
            self._try(z, iter_bits(outside), lambda st: (st.hands[i] & RANK_MASK[rank]).bit_count() < left
                      and (st.hands[i] >> c) & 1)
