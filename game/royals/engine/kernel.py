"""The Royals & Riots rules, written once: rulings 4-10 and A1-A7 of
``docs/royals-rules.md`` on raw ints.

A position is a :class:`~game.royals.engine.State` read as plain fields (cards are ints 0..35,
hands, loots and card sets 36-bit masks, piles lists of ints with the top last, the trick a
list of ``(seat, card)``). Decisions are small ints (*keys*): a card index to play (0..35),
:data:`STEAL_NONE` (40), ``STEAL + seat`` (41..44), ``EXECUTE + card`` (50..85). Everything
that asks a rule calls these functions: ``State`` (``legal_actions``, ``illegal_reason``,
``push``/``push_checked``, ``pop`` by replaying the action log), ``Observation.legal_actions``,
``Record.replay``, ``SeatView.check``, the ISMCTS and its playouts. Nothing here allocates on
the hot path beyond the trick's tuples.

Refusals are :class:`game.errors.Reason` values: the English text (what ``illegal_reason``
returned before) carrying a code and its arguments; :data:`TEXTS` gives every code's English.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Sequence

from game.errors import Reason

#: The :class:`~game.royals.engine.state.State` whose fields these rules read and change (not
#: imported: state.py imports this module, and no loop of imports is allowed, typed or not).
State = Any

from .cards import (EXECUTIONER, GUILDMASTER, POINTS, PRINCES, RANK_MASK, RANK_OF, RANKED_MASK, RANKLESS_MASK,
                    REBELS, THIEF, Rank)



class Phase(str, Enum):
    """What the match waits for. Chance phases: START (round 1 only), DEAL, PILE, STOLEN."""

    START = "start"      # who leads the round: chance in round 1, the starting team's choice later (ruling 9, A1)
    DEAL = "deal"        # chance: the shuffle (ruling 4)
    KEEP = "keep"        # decision: a seat chooses its hand from its dealt cards (ruling 4)
    PILE = "pile"        # chance: the order of a seat's draw pile (ruling 4)
    PLAY = "play"        # decision: a seat plays a card into the trick (rulings 5, 6)
    STEAL = "steal"      # decision: the Thief picks a seat to rob, or none (ruling 7)
    STOLEN = "stolen"    # chance: which card of the robbed hand the Thief takes (ruling 7)
    EXECUTE = "execute"  # decision: the Executioner picks a card of the trick (ruling 7)
    OVER = "over"        # the match is over (ruling 10)

    def __str__(self) -> str:
        return self.value


_PLAY, _STEAL, _STOLEN, _EXECUTE = Phase.PLAY, Phase.STEAL, Phase.STOLEN, Phase.EXECUTE
_BIT = tuple(1 << c for c in range(36))
_THIEF_BIT, _EXECUTIONER_BIT = 1 << THIEF, 1 << EXECUTIONER

STEAL_NONE = 40
STEAL = 40    # + the robbed seat
EXECUTE = 50  # + the card
_PRINCE0, _PRINCE1 = PRINCES
_PRINCES_BITS = (1 << _PRINCE0) | (1 << _PRINCE1)

#: Every refusal code of Royals & Riots and its English text (``{name}`` fields are the Reason's params).
TEXTS: dict[str, str] = {
    "over": "match already over",
    "unknown_seat": "unknown seat",
    "thief_first": "the Thief must choose first",
    "executioner_first": "the Executioner must choose first",
    "no_thief": "no Thief in this trick",
    "no_executioner": "no Executioner in this trick",
    "setup_in_play": "a {kind} action during the play",
    "starter_first": "the round's starter comes first",
    "wrong_starter": "wrong starter: the team of seat {seat} starts (ruling 9, A1)",
    "deal_first": "the deal comes first",
    "keep_first": "hand choices come first",
    "piles_first": "draw piles come first",
    "wrong_seat": "wrong seat: seat {seat} is to act",
    "wrong_seat_play": "wrong seat: seat {seat} is to play",
    "not_in_hand": "not in hand",
    "must_follow": "must follow {rank_title}",
    "thief_chose": "the Thief has already chosen",
    "thief_chose_seat": "the Thief chose seat {seat}",
    "steal_self": "cannot steal from yourself",
    "target_empty": "target has no cards",
    "not_in_that_hand": "card not in that hand",
    "execute_itself": "cannot execute itself",
    "not_in_trick": "card not in the trick",
    "keep_not_dealt": "hand is not a subset of the deal",
    "keep_size": "wrong hand size: a hand holds {size} different cards",
    "bad_pile": "bad pile: it must hold exactly the dealt cards not kept in hand",
    "unexpected": "unexpected {kind} action",
    "deal_groups": "bad deal: {players} seats and the aside",
    "deal_seat_size": "bad deal: seat {seat} must be dealt {want} cards, not {got}",
    "deal_aside_size": "bad deal: {want} cards are set aside with {players} players, not {got}",
    "deal_twice": "bad deal: {card} is dealt twice",
    # what a seat's view (view.py) adds: it knows only its own part
    "not_public": "a {kind} is not a public action",
    "no_theft_pending": "no theft is pending",
    "chance_first": "a chance event comes first",
}


def reason(code: str, **params: Any) -> Reason:
    """The :class:`Reason` of ``code`` with its English text. ``rank`` params also give
    ``rank_title`` (``"Knights"``) to the text."""
    fields = params
    if "rank" in params:
        fields = dict(params, rank_title=Rank(params["rank"]).title)
    return Reason(code, TEXTS[code].format(**fields), **params)


_FIXED = {code: Reason(code, text) for code, text in TEXTS.items() if "{" not in text}


# ---------------------------------------------------------------------- rulings 5-6: what may be played
def playable(hand: int, led: int, started: bool) -> int:
    """Mask of the cards of ``hand`` that may be played (ruling 6): with a led rank (``led``
    >= 0, the trick ``started``) and a card of it in hand, those and the rankless cards; else
    the whole hand."""
    if started and led >= 0:
        follow = hand & RANK_MASK[led]
        if follow:
            return follow | (hand & RANKLESS_MASK)
    return hand


def play_refusal(hand: int, led: int, started: bool, c: int) -> Reason | None:
    """Why card ``c`` may not be played from ``hand`` (rulings 5, 6), or None."""
    if not (hand >> c) & 1:
        return _FIXED["not_in_hand"]
    if started and led >= 0 and c < THIEF and RANK_OF[c] != led and hand & RANK_MASK[led]:
        return reason("must_follow", rank=led)
    return None


def steal_targets(seat: int, hand_sizes: Sequence[int]) -> list[int]:
    """The seats the Thief of ``seat`` may rob (ruling 7): any other seat holding a card."""
    return [t for t in range(1, len(hand_sizes) + 1) if t != seat and hand_sizes[t - 1]]


def victims(trick: Sequence[tuple[int, int]]) -> list[int]:
    """The cards the Executioner may take out of ``trick`` (ruling 7): any other card in it."""
    return [c for _, c in trick if c != EXECUTIONER]


def trick_winner(trick: Sequence[tuple[int, int]], led: int, revolution: bool) -> int:
    """The seat that wins the cards still in ``trick`` (ruling 7's last steps: the Guildmaster
    of the led rank, then the highest card in the order in force), or 0 if only rankless
    cards remain. ``led``: the led rank or -1."""
    best_seat = 0
    best = -1
    only = -1
    if led >= 0:
        gm = GUILDMASTER[led]
        if gm >= 0:
            for _, c in trick:
                if c == gm:
                    only = led
                    break
    for s, c in trick:
        if c >= THIEF or (only >= 0 and RANK_OF[c] != only):
            continue
        v = c if revolution else 32 - c
        if v > best:
            best, best_seat = v, s
    return best_seat


def takers(trick: Sequence[tuple[int, int]], led: int, revolution: bool, cards: int) -> int:
    """The cards of mask ``cards`` that, played now by a seat not yet in ``trick``, would be its
    winner by :func:`trick_winner`'s rule (the Guildmaster of the led rank, then the highest
    card in the order ``revolution`` puts in force): a mask. One pass over the trick instead
    of one :func:`trick_winner` per card."""
    if not trick:
        return cards & RANKED_MASK
    gm = GUILDMASTER[led] if led >= 0 else -1
    best = best_led = -1
    gm_in = False
    for _, c in trick:
        if c >= THIEF:
            continue
        v = c if revolution else 32 - c
        if v > best:
            best = v
        if RANK_OF[c] == led:
            if v > best_led:
                best_led = v
            if c == gm:
                gm_in = True
    # the cards of value above x: _BEATS[revolution][x + 1] (x = -1: every ranked card)
    beats = _BEATS[revolution]
    m = cards & RANKED_MASK
    if gm_in:  # only the led rank counts: its cards above the best of it
        return m & beats[best_led + 1] & RANK_MASK[led]
    if gm < 0:
        return m & beats[best + 1]
    gm_bit = _BIT[gm]  # the Guildmaster played now makes only the led rank count
    return (m & ~gm_bit & beats[best + 1]) | (m & gm_bit & beats[best_led + 1])


#: ``_BEATS[revolution][v + 1]``: the mask of the ranked cards whose value in that order (``32 -
#: c`` in the normal order, ``c`` in a revolution, as in :func:`trick_winner`) is above ``v``.
_BEATS = (tuple(sum(1 << c for c in range(33) if 32 - c > v) for v in range(-1, 34)),
          tuple(sum(1 << c for c in range(33) if c > v) for v in range(-1, 34)))


def settle(trick: Sequence[tuple[int, int]], led: int, revolution: bool, cards: int = -1) -> tuple[int, bool, int]:
    """Ruling 7 (3)-(5) for the cards still in ``trick`` after the Thief and the Executioner:
    (their card set as a mask, the revolution in force after the Rebels and Prince steps, the
    winning seat or 0 when only rankless cards remain and the trick leaves the game).
    ``cards``: the trick's card set if known (else -1)."""
    if cards < 0:
        cards = 0
        for _, c in trick:
            cards |= _BIT[c]
    if (cards >> REBELS) & 1:  # revolution_after, inline
        revolution = True
    if revolution and cards & _PRINCES_BITS:
        revolution = False
    return cards, revolution, trick_winner(trick, led, revolution)


def take_trick(trick: list[tuple[int, int]], led: int, revolution: bool, loot: list[int],
               cards: int = -1) -> tuple[bool, int]:
    """Ruling 7 (3)-(5) on raw lists: :func:`settle` the cards still in ``trick``, the winner's
    loot mask takes them, and ``trick`` is emptied for the next. Returns (the revolution in
    force, the winning seat: the next leader; 0 when only rankless cards were left and they
    left the game). ``cards``: the trick's card set if known (else -1)."""
    cards, revolution, winner = settle(trick, led, revolution, cards)
    if winner:
        loot[winner - 1] |= cards
    trick.clear()
    return revolution, winner


def revolution_after(cards: int, revolution: bool) -> bool:
    """Ruling 7 (3)-(4): whether the order is reversed after a trick still holding the card
    set ``cards``: Rebels start (or keep) a revolution, then a Prince ends one in force."""
    if (cards >> REBELS) & 1:
        revolution = True
    if revolution and cards & _PRINCES_BITS:
        revolution = False
    return revolution


def points(mask: int) -> int:
    """Sum of the points of a card set (ruling 2), by three look-ups of 12 cards each."""
    return _PTS0[mask & 0xFFF] + _PTS1[(mask >> 12) & 0xFFF] + _PTS2[mask >> 24]


def _chunk_points(first: int) -> tuple[int, ...]:
    """Points of every subset of cards ``first .. first + 11`` (ruling 2), by subset mask."""
    out = [0] * 4096
    for m in range(1, 4096):
        low = m & -m
        out[m] = out[m ^ low] + POINTS[first + low.bit_length() - 1]
    return tuple(out)


_PTS0, _PTS1, _PTS2 = _chunk_points(0), _chunk_points(12), _chunk_points(24)


# ---------------------------------------------------------------------- the decisions open now
def keys_at(phase: Phase | None, hands: Sequence[int], seat: int, led: int,
            trick: Sequence[tuple[int, int]]) -> list[int]:
    """The decisions of ``seat`` as keys on raw fields (PLAY, STEAL and EXECUTE phases; else,
    None too (the round is over), []): in PLAY the cards :func:`playable` allows (ascending), in
    STEAL :data:`STEAL_NONE` then ``STEAL + t`` for each seat :func:`steal_targets` allows, in
    EXECUTE ``EXECUTE + c`` for each of :func:`victims` in trick order. In PLAY the trick holds a card iff it is started (no card
    leaves an open trick)."""
    if phase is _PLAY:
        m = playable(hands[seat - 1], led, bool(trick))
        out = []
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        return out
    if phase is _STEAL:
        return [STEAL_NONE] + [STEAL + t for t in steal_targets(seat, hands)]
    if phase is _EXECUTE:
        return [EXECUTE + c for c in victims(trick)]
    return []


def decision_keys(s: State) -> list[int]:
    """The decisions at position ``s`` as keys (:func:`keys_at` on its fields)."""
    return keys_at(s.phase, s.hands, s.to_act, s.led, s.trick)


# ---------------------------------------------------------------------- applying (unchecked)
def put(hands: list[int], piles: list[list[int]], trick: list[tuple[int, int]], n: int, seat: int, c: int) -> int:
    """Ruling 5 on raw lists: card ``c`` leaves ``seat``'s hand mask for ``trick`` and the seat
    draws its pile's top (the last item), if any. Returns the next seat to play while the
    trick of ``n`` seats is open, else 0 (the trick is full: :func:`full_trick`)."""
    i = seat - 1
    h = hands[i] & ~_BIT[c]
    pile = piles[i]
    if pile:
        h |= _BIT[pile.pop()]
    hands[i] = h
    trick.append((seat, c))
    if len(trick) < n:
        return seat + 1 if seat < n else 1
    return 0


def full_trick(hands: Sequence[int], trick: Sequence[tuple[int, int]]) -> tuple[int, Phase | None, int]:
    """Ruling 7 (1)-(2): what a full ``trick`` asks first, on raw fields: (its card set as a
    mask, the decision, the seat to decide). The decision is STEAL for the Thief's seat when
    another seat holds a card (else the Thief is without function), else EXECUTE for the
    Executioner's seat when another card is in the trick, else None (:func:`settle` next)."""
    cards = 0
    for _, tc in trick:
        cards |= _BIT[tc]
    if cards & _THIEF_BIT:
        for ts, tc in trick:
            if tc == THIEF:
                j = ts - 1
                for k in range(len(hands)):
                    if k != j and hands[k]:
                        return cards, _STEAL, ts
                break
    if cards & _EXECUTIONER_BIT:
        return (cards,) + executioner(trick)
    return cards, None, 0


def executioner(trick: Sequence[tuple[int, int]]) -> tuple[Phase | None, int]:
    """Ruling 7 (2): (EXECUTE, the Executioner's seat) when it is in ``trick`` with another
    card, else (None, 0)."""
    if len(trick) > 1:
        for ts, tc in trick:
            if tc == EXECUTIONER:
                return _EXECUTE, ts
    return None, 0


def play(s: State, seat: int, c: int) -> None:
    """``seat`` plays card ``c`` (ruling 5: then draws its pile's top, :func:`put`), then
    resolution if the trick is full (ruling 7, :func:`full_trick`); a void shown is noted."""
    i = seat - 1
    known = s.known
    if (known[i] >> c) & 1:
        known[i] ^= _BIT[c]
    tp = s.trick_plays
    if not tp:
        s.led = RANK_OF[c]
    else:
        led = s.led
        if led >= 0 and c < THIEF and RANK_OF[c] != led:
            s.voids.append((seat, led, s.trick_no, len(s.piles[i])))
    tp.append((seat, c))
    nxt = put(s.hands, s.piles, s.trick, s.players, seat, c)
    if nxt:
        s.to_act = nxt
        return
    cards, phase, who = full_trick(s.hands, s.trick)
    if phase is None:
        finish_trick(s, cards)
    else:
        s.phase = phase
        s.to_act = who


def choose_target(s: State, target: int) -> None:
    """The Thief's player names the seat to rob; chance picks the card next (Phase.STOLEN)."""
    s.phase = _STOLEN
    s.pending = target


def steal(s: State, seat: int, target: int, c: int) -> None:
    """Ruling 7 (1): card ``c`` of ``target``'s hand goes to ``seat``'s loot; ``target`` takes
    back the card it played into this trick."""
    t = target - 1
    s.known[t] &= ~(1 << c)
    back = thief_takes(s.hands, s.loot, s.trick, seat, target, c)
    if back >= 0:
        s.known[t] |= 1 << back
    s.pending = 0
    after_thief(s)


def thief_takes(hands: list[int], loot: list[int], trick: list[tuple[int, int]], seat: int, target: int,
                c: int) -> int:
    """Ruling 7 (1) on raw lists: card ``c`` leaves ``target``'s hand mask for the loot mask of
    ``seat`` (the Thief's), and ``target`` takes back into its hand the card it played into
    ``trick`` (removed from the list). Returns that card, or -1 if ``target`` is not in the trick."""
    t = target - 1
    hands[t] &= ~(1 << c)
    loot[seat - 1] |= 1 << c
    for j, (ts, tc) in enumerate(trick):
        if ts == target:
            del trick[j]
            hands[t] |= 1 << tc
            return tc
    return -1


def after_thief(s: State) -> None:
    """Ruling 7 (2): the Executioner must act when another card is in the trick."""
    phase, who = executioner(s.trick)
    if phase is None:
        finish_trick(s)
    else:
        s.phase = phase
        s.to_act = who


def execute(s: State, c: int) -> None:
    """Ruling 7 (2): card ``c`` leaves the trick and the game."""
    take_out(s.trick, c)
    s.removed |= 1 << c
    finish_trick(s)


def take_out(trick: list[tuple[int, int]], c: int) -> None:
    """Ruling 7 (2) on a raw trick: the Executioner's victim ``c`` leaves ``trick``."""
    for j, (_, tc) in enumerate(trick):
        if tc == c:
            del trick[j]
            return


def finish_trick(s: State, cards: int = -1) -> None:
    """Ruling 7 (3)-(5): Rebels, Prince, the winner takes the trick (or it leaves the game);
    then the next trick, or the round's end (ruling 8). ``cards``: the trick's card set if known."""
    cards, s.revolution, winner = settle(s.trick, s.led, s.revolution, cards)
    if winner:
        s.loot[winner - 1] |= cards
        s.leader = winner
    else:
        s.removed |= cards
    s.trick = []
    s.trick_plays = []
    s.led = -1
    s.pending = 0
    if any(s.hands):
        s.trick_no += 1
        s.phase = _PLAY
        s.to_act = s.leader
        return
    s._end_round()


def replay_plays(s: State, plays: Sequence[tuple[int, int] | None], j: int) -> tuple[int, Reason | None]:
    """Apply ``plays[j:]`` at position ``s`` while each is a play ``(seat, card)`` by the seat
    to play in the PLAY phase, checked by rulings 5 and 6 (:func:`play_refusal`) and applied by
    :func:`play` (rulings 5-8, the round's end included); stop before the first that is None
    (not a play), by another seat or outside the PLAY phase, for the caller to check by the
    full rules. Returns (the index stopped at, the refusal of ``plays[index]`` or None). The
    record's replay (``Record.replay``) in one loop: no ``Action`` dispatch per play."""
    m = len(plays)
    hands = s.hands
    while j < m:
        p = plays[j]
        if p is None or s.phase is not _PLAY or p[0] != s.to_act:
            break
        seat, c = p
        refusal = play_refusal(hands[seat - 1], s.led, True, c)  # led is -1 until the trick's first card
        if refusal is not None:
            return j, refusal
        play(s, seat, c)
        hands = s.hands
        j += 1
    return j, None


def apply_key(s: State, key: int, card: int = -1) -> None:
    """Apply decision ``key`` (see the module docstring) unchecked; a steal from a seat needs
    its chance outcome ``card`` (the card taken)."""
    if key < 36:
        play(s, s.to_act, key)
    elif key == STEAL_NONE:
        after_thief(s)
    elif key < EXECUTE:
        steal(s, s.to_act, key - STEAL, card)
    else:
        execute(s, key - EXECUTE)


__all__ = ["Phase", "STEAL_NONE", "STEAL", "EXECUTE", "TEXTS", "reason", "playable", "play_refusal", "steal_targets",
           "victims", "trick_winner", "takers", "settle", "take_trick", "thief_takes", "revolution_after", "points", "keys_at", "decision_keys", "put", "full_trick",
           "executioner", "play", "choose_target", "steal", "after_thief",
           "execute", "take_out", "finish_trick", "apply_key", "replay_plays"]
