"""The one rules kernel against the naive reference engine, move by move, and the
engine's identity (canonical bytes, hashes, records) pinned to what it was before the kernel."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings, strategies as st

from game.roseking.engine import (CARDS, Card, IllegalMoveError, InvalidMoveError, Kind, Move, Record, RecordError,
                                  Rng, State)
from game.roseking.engine import kernel as K

from . import reference as R
from .helpers import random_game

seeds = st.integers(min_value=0, max_value=2**64 - 1)
KIND_NAMES = ("play", "hero", "draw")


def ref_position(g: R.RefGame) -> list[int]:
    """The reference game's position in the kernel's raw layout (mapped by names only)."""
    def squares(colour):
        return sum(1 << (r * 9 + f) for (f, r), c in g.board.items() if c == colour)

    def cards(names):
        return sum(1 << Card.from_name(n).index for n in names)

    return [squares("red"), squares("white"), g.crown[1] * 9 + g.crown[0], cards(g.hands["red"]),
            cards(g.hands["white"]), g.heroes["red"], g.heroes["white"], cards(g.draw_pile),
            cards(g.discard), R.COLOURS.index(g.turn), int(g.over)]


def action_text(p: int, action: int, card: int) -> str:
    return f"{R.COLOURS[p]} {KIND_NAMES[min(action // 24, 2)]} {CARDS[card].name}"


def every_action(p: int) -> list[tuple[int, int, int]]:
    """Every (player, action, card) triple of ``p``: 24 plays, 24 heroes, 24 draw outcomes."""
    return ([(p, c, c) for c in range(24)] + [(p, 24 + c, c) for c in range(24)]
            + [(p, K.DRAW_ACTION, c) for c in range(24)])


def kernel_accepts(stt: list[int], item: tuple[int, int, int]) -> bool:
    return K.replay(stt[:], [item]) == 1


@settings(max_examples=25, deadline=None)
@given(seeds)
def test_kernel_agrees_with_the_reference_move_by_move(seed):
    """Random games chosen by the reference: at every ply the same legal moves, the same
    verdict on all 144 (player, kind, card) actions, the same position after the move, the
    same end and result."""
    rng = Rng(seed)
    deck = [c.name for c in CARDS]
    rng.shuffle(deck)
    g = R.RefGame(deck[:5], deck[5:10])
    stt = K.new_position(sum(1 << Card.from_name(n).index for n in deck[:5]),
                         sum(1 << Card.from_name(n).index for n in deck[5:10]))
    assert stt == ref_position(g)
    while not g.over:
        texts = g.legal_texts()
        kernel_texts = []
        for a in K.legal_actions(stt):
            if a == K.DRAW_ACTION:
                kernel_texts += [action_text(stt[K.TURN], a, c) for c in K.cards_in(stt[K.PILE])]
            else:
                kernel_texts.append(action_text(stt[K.TURN], a, a % 24))
        assert sorted(kernel_texts) == sorted(texts) and len(set(texts)) == len(texts)
        for p in (0, 1):
            assert K.can_move(stt, p) == bool(g.actions(R.COLOURS[p]))
            for item in every_action(p):
                text = action_text(*item)
                ok = g.illegal_reason(text) is None
                assert kernel_accepts(stt, item) == ok, text
                assert (K.illegal_reason(stt, p, min(item[1] // 24, 2), item[2]) is None) == ok, text
        text = rng.choice(texts)
        g.play(text)
        p, kind, name = text.split(" ")
        c = Card.from_name(name).index
        K.apply(stt, K.DRAW_ACTION if kind == "draw" else KIND_NAMES.index(kind) * 24 + c, c)
        assert stt == ref_position(g), text
    assert K.legal_actions(stt) == []
    w, _ = K.decide(stt[K.S0], stt[K.S1])
    assert g.result() == {"red": K.score_of(stt[K.S0]), "white": K.score_of(stt[K.S1]),
                          "winner": "draw" if w is None else R.COLOURS[w]}


@settings(max_examples=30, deadline=None)
@given(seeds)
def test_engine_records_validate_in_the_reference_and_the_engine_alike(seed):
    s = random_game(seed % 100_000)
    d = Record.from_state(s).to_dict()
    assert R.validate(d) == Record.from_dict(d).replay().outcome().result()
    d["result"]["red"] += 1
    with pytest.raises(R.RefError):
        R.validate(d)


@settings(max_examples=40, deadline=None)
@given(seeds, st.integers(min_value=0, max_value=150), st.integers(min_value=0, max_value=2**32))
def test_push_strs_is_push_str_move_by_move(seed, upto, corrupt):
    """The batched replay gives the same states, errors, undo and discard tops as push_str."""
    moves = [str(m) for m in random_game(seed % 100_000).move_stack]
    if moves and corrupt % 3:  # put a wrong move at a random place
        i = corrupt % len(moves)
        moves[i] = ["red play N1", "white hero S3", "red draw", "not a move", "white draw E1"][corrupt % 5]
    moves = moves[:upto]
    a, b = State(*random_game(seed % 100_000, upto=0).deal), State(*random_game(seed % 100_000, upto=0).deal)
    err_a = err_b = None
    try:
        a.push_strs(moves)
    except (InvalidMoveError, IllegalMoveError) as e:
        err_a = (type(e), str(e))
    for text in moves:
        try:
            b.push_str(text)
        except (InvalidMoveError, IllegalMoveError) as e:
            err_b = (type(e), str(e))
            break
    assert err_a == err_b
    assert a == b and a.state_hash() == b.state_hash() and a.discard_top == b.discard_top
    while b.move_stack:  # pop rebuilds what the batch skipped
        assert a.pop() == b.pop()
        assert a == b and a.discard_top == b.discard_top and a.observation(0) == b.observation(0)


def test_discard_top_follows_the_reference_discard_pile():
    for seed in range(15):
        s = random_game(seed)
        g = R.RefGame([c.name for c in s.deal[0]], [c.name for c in s.deal[1]])
        t = State(*s.deal)
        for m in s.move_stack:
            g.play(str(m))
            t.push(m)
            assert t.discard_top == (Card.from_name(g.discard[-1]).index if g.discard else -1)
        while t.move_stack:
            t.pop()
            t.discard_top  # noqa: B018  (computed from the stack: no error on the way back)


def test_push_strs_takes_non_lists_and_rejects_non_strings_with_the_number():
    s = random_game(3, upto=12)
    texts = [str(m) for m in s.move_stack]
    t = State(*s.deal)
    t.push_strs(iter(texts))
    assert t == s
    t = State(*s.deal)
    with pytest.raises(InvalidMoveError, match="must be a string"):
        t.push_strs(texts[:5] + [42] + texts[5:])
    assert t.ply == 5
    rec = Record.from_state(s).to_dict()
    rec["moves"][7] = "white hero"
    with pytest.raises(RecordError, match=r'move 8 "white hero": .*needs a card'):
        Record.from_dict(rec).replay()


def test_replay_stops_before_the_first_illegal_action():
    s = random_game(9, upto=20)
    st0 = State(*s.deal).raw()
    items = [(int(m.player), K.DRAW_ACTION if m.kind.value == "draw" else
              (0 if m.kind.value == "play" else 24) + m.card.index, m.card.index) for m in s.move_stack]
    bad = items[:10] + [(1 - items[10][0],) + items[10][1:]] + items[11:]
    stt = st0[:]
    undo: list = []
    assert K.replay(stt, bad, undo) == 10 and len(undo) == 10
    ref = State(*s.deal)
    for m in s.move_stack[:10]:
        ref.push(m)
    assert stt == ref.raw() and list(undo[0]) == st0
    assert K.replay(st0[:], items + [None, items[0]]) == len(items)


def test_random_playout_leaves_the_position_and_replays_in_the_engine():
    for seed in range(20):
        rng = Rng(seed)
        s = State.random(rng)
        raw = s.raw()
        trace: list = []
        red, white, plies = K.random_playout(raw, rng, trace)
        assert raw == s.raw() and len(trace) == plies
        for kind, c in trace:
            s.push_checked(Move(s.turn, Kind(KIND_NAMES[kind]), CARDS[c]))
        assert s.is_game_over() and s.stones == [red, white]


def golden_digest(games: int = 40) -> str:
    """SHA-256 over 40 seeded random games: each record's JSON, and at every ply the legal
    moves and the canonical bytes, and the outcome."""
    h = hashlib.sha256()
    for seed in range(games):
        s = random_game(seed)
        h.update(Record.from_state(s).to_json().encode())
        r = State(*s.deal)
        for m in s.move_stack:
            h.update(" ".join(str(x) for x in r.legal_moves()).encode())
            h.update(r.canonical_bytes())
            r.push_checked(m)
        h.update(r.canonical_bytes())
        h.update(repr(r.outcome()).encode())
    return h.hexdigest()


def test_games_records_and_hashes_are_byte_for_byte_those_of_the_engine_before_the_kernel():
    """Computed with the engine of main before the rules kernel (commit 17df973): saved games,
    LAN hashes and the random games of every seeded test depend on these bytes."""
    assert golden_digest() == "a6e10a1198a4b35110d710c5c18f67dc210bd835c15dbfe5a8e0244f30cfae40"


def test_the_searches_run_the_engine_kernel_itself():
    """The rules live once: the AI's kernel module hands out the engine kernel's functions."""
    from game.roseking.ai import kernel as AK
    for name in ("apply", "legal_actions", "can_move", "nth_bit"):
        assert getattr(AK, name) is getattr(K, name)
    assert (AK.S0, AK.S1, AK.CROWN, AK.H0, AK.H1, AK.HE0, AK.HE1, AK.PILE, AK.DISCARD, AK.TURN, AK.OVER,
            AK.DRAW_ACTION) == (K.S0, K.S1, K.CROWN, K.H0, K.H1, K.HE0, K.HE1, K.PILE, K.DISCARD, K.TURN, K.OVER,
                                K.DRAW_ACTION)
    s = random_game(4, upto=33)
    assert AK.from_state(s) == s.raw() and AK.from_state(s) is not AK.from_state(s)


def test_views_are_copies_and_a_position_edited_before_any_move_is_the_start_pop_returns_to():
    s = State.from_position(red=["e5"], white=["e6"], crown="e5", red_hand=["N2", "E1"], white_hand=["S3"])
    s.stones[0] = 0  # a copy: changes nothing
    assert s.stones[0] == 1 << 40
    s.heroes = [2, 3]  # tests build positions this way before the first move
    start = s.copy()
    s.push_strs(["red play N2", "white play S3"])
    assert s.heroes == [2, 3] and s.ply == 2
    s.pop()
    s.pop()
    assert s == start and s.heroes == [2, 3]


def test_the_layout_the_hot_functions_write_as_literals():
    """can_move, legal_actions, apply and replay index positions with literals: pin them."""
    assert (K.S0, K.S1, K.CROWN, K.H0, K.H1, K.HE0, K.HE1, K.PILE, K.DISCARD, K.TURN, K.OVER) == tuple(range(11))
    assert K.FIELDS == 11 and len(State.random(Rng(1)).raw()) == 11
    assert (K.DRAW_ACTION, K.HAND_LIMIT, K.TOTAL_STONES, len(CARDS)) == (48, 5, 52, 24)


def test_a_state_pickles_with_its_stacks_for_the_worker_process():
    """ProcessThinker sends states to another process; a replayed state (undo entries not yet
    rebuilt) keeps working there."""
    import pickle
    s = Record.from_state(random_game(6, upto=50)).replay()
    t = pickle.loads(pickle.dumps(s))
    assert t == s and t.discard_top == s.discard_top
    assert t.pop() == s.pop() and t == s
