"""Whole games and single rules played through posted mouse events (headless)."""

from __future__ import annotations

import pygame
import pytest

from game.roseking.ai import GreedyPlayer, RandomPlayer
from game.client.roseking.anims import DrawAnim, PlayAnim
from game.client.roseking.game_scene import GameScene
from game.client.roseking.layout import BOARD_RECT, square_at, square_center
from game.client.roseking.result import ResultPanel
from game.roseking.engine import DRAW, HERO, PLAY, Color, Move, Rng, State


def find(pred, seeds=range(400)):
    """The first position of seeded random games where ``pred(state)`` holds: (state, seed)."""
    for seed in seeds:
        rng = Rng(seed)
        s = State.random(rng)
        player = RandomPlayer(seed)
        while not s.is_game_over():
            if pred(s):
                return s, seed
            m = player.choose(s)
            if m.kind is DRAW:
                m = m.with_outcome(rng.choice(s.chance_outcomes()))
            s.push(m)
    raise LookupError("no such position")


def same_action(done: Move, wanted: Move) -> bool:
    return done.player == wanted.player and done.kind == wanted.kind and (wanted.card is None or done.card == wanted.card)


@pytest.mark.parametrize("seed", [3, 11])
def test_complete_game_by_mouse(app, driver, new_hotseat, seed):
    """Two people play a whole game with clicks; the engine state is checked after every move."""
    app.options.anim_speed = 0.0  # instant: the animated path has its own test below
    scene = new_hotseat(seed)
    chooser = GreedyPlayer(seed)
    n = 0
    while not scene.match.state.is_game_over():
        state = scene.match.state
        before = state.copy()
        move = chooser.choose(state.copy())
        driver.play(move, via_square=n % 3 == 1)
        after = scene.match.state
        assert after.ply == before.ply + 1
        assert same_action(after.move_stack[-1], move)
        expected = before.copy()
        expected.push(after.move_stack[-1])
        assert after.state_hash() == expected.state_hash()
        assert scene.shown.state_hash() == after.state_hash()
        n += 1
    app.run_frames(2)
    assert isinstance(app.top, ResultPanel)
    assert n > 20


def test_animated_moves_lag_then_catch_up(app, driver, new_hotseat):
    """At normal speed the view animates each move from the old position, then shows the new one."""
    scene = new_hotseat(5)
    seen = set()
    for _i in range(8):
        state = scene.match.state
        move = GreedyPlayer(1).choose(state.copy())
        if move.kind is DRAW:
            driver.click_draw_pile()
        else:
            driver.click_square(state.target(move.card))
            if move.kind is HERO:
                driver.click_square(state.target(move.card))
        assert scene.match.state.ply == scene.shown.ply + 1, "the view still shows the position before the move"
        assert scene.busy()
        seen.add(type(scene.anim))
        before = scene.match.state.ply
        driver.click((BOARD_RECT.right + 40, BOARD_RECT.top + 20))  # a click on nothing finishes the animation
        assert scene.match.state.ply == before
        assert not scene.busy()
        assert scene.shown.state_hash() == scene.match.state.state_hash()
    assert PlayAnim in seen


def test_animation_runs_to_the_end_without_input(app, driver, new_hotseat):
    scene = new_hotseat(2)
    move = next(m for m in scene.match.state.legal_moves() if m.kind is PLAY)
    target = scene.match.state.target(move.card)
    driver.click_square(target)
    assert scene.anim is not None and scene.shown.owner(target) is None
    app.run_frames(3)
    assert scene.busy()
    driver.settle(200)
    assert scene.shown.owner(target) is Color.RED and scene.shown.crown == target


def test_hero_needs_a_confirming_click(app, driver, new_hotseat):
    state, _seed = find(lambda s: any(m.kind is HERO for m in s.legal_moves()))
    scene = new_hotseat(1, state)
    hero = next(m for m in state.legal_moves() if m.kind is HERO)
    sq = state.target(hero.card)
    victim = state.owner(sq)
    heroes = state.heroes[state.turn]
    ply = state.ply
    driver.click_square(sq)
    assert scene.match.state.ply == ply and scene.armed == hero.card
    # a click elsewhere cancels the armed hero; nothing is spent
    driver.click((40, 40))
    assert scene.armed is None and scene.match.state.heroes[state.turn] == heroes
    # the card then its target square: still asks first
    driver.click_card(state.turn, hero.card)
    assert scene.armed == hero.card and scene.match.state.ply == ply
    driver.click_square(sq)
    driver.settle()
    s = scene.match.state
    assert s.ply == ply + 1 and s.move_stack[-1] == hero
    assert s.owner(sq) == victim.other and s.heroes[hero.player] == heroes - 1


def test_hero_flip_animates_with_squash(app, driver, new_hotseat):
    state, _seed = find(lambda s: any(m.kind is HERO for m in s.legal_moves()))
    scene = new_hotseat(1, state)
    hero = next(m for m in state.legal_moves() if m.kind is HERO)
    sq = state.target(hero.card)
    heroes = state.heroes[hero.player]
    driver.click_square(sq)
    driver.click_square(sq)
    anim = scene.anim
    assert isinstance(anim, PlayAnim) and anim.hero and anim.hidden_square == sq
    assert anim.heroes(hero.player) == heroes - 1 == scene.match.state.heroes[hero.player]
    app.run_frames(int(anim.land_at * 60) + 8)  # into the flip: the stone is squashed
    assert anim.t > anim.land_at and not anim.done
    driver.settle()
    assert scene.shown.owner(sq) == hero.player


def pass_move(s: State) -> Move | None:
    """A play or hero move after which the opponent must pass, or None."""
    for m in s.legal_moves():
        if m.kind is not DRAW:
            s.push(m)
            passed = s.passed()
            s.pop()
            if passed:
                return m
    return None


def test_pass_banner(app, driver, new_hotseat):
    state, _seed = find(lambda s: pass_move(s) is not None)
    scene = new_hotseat(1, state)
    mover = state.turn
    move = pass_move(state)
    assert scene.match.state.ply == state.ply
    driver.play(move, via_square=True)
    s = scene.match.state
    assert s.turn == mover and s.passed()
    assert scene.banner is not None
    assert "must pass" in scene.banner[0]
    app.run_frames(int(60 * 3))
    assert scene.banner is None


def test_draw_by_clicking_the_pile(app, driver, new_hotseat):
    scene = new_hotseat(4)
    s = scene.match.state
    driver.click_draw_pile()  # 5 cards: refused with a reason
    assert s.ply == 0 and "hand is full" in scene.toast[0]
    play = next(m for m in s.legal_moves() if m.kind is PLAY)
    driver.play(play, via_square=True)
    play = next(m for m in s.legal_moves() if m.kind is PLAY)
    driver.play(play, via_square=True)
    red_cards = s.hands[Color.RED].bit_count()
    pile = s.draw_pile.bit_count()
    driver.click_draw_pile()
    assert isinstance(scene.anim, DrawAnim)
    driver.settle()
    assert s.move_stack[-1].kind is DRAW and s.move_stack[-1].card is not None
    assert s.hands[Color.RED].bit_count() == red_cards + 1 and s.draw_pile.bit_count() == pile - 1


def test_illegal_clicks_say_why_and_change_nothing(app, driver, new_hotseat):
    state, _seed = find(lambda s: s.ply > 4 and any(s.target(c) is None for c in s.hand(s.turn))
                        and s.hands[s.turn.other])
    scene = new_hotseat(1, state)
    h = state.state_hash()
    mover = state.turn
    off = next(c for c in state.hand(mover) if state.target(c) is None)
    driver.click_card(mover, off)
    assert "leave the board" in scene.toast[0] and state.state_hash() == h
    other = state.hand(mover.other)[0]
    driver.click_card(mover.other, other)
    assert "Those are" in scene.toast[0] and state.state_hash() == h
    reachable = {state.target(c) for c in state.hand(mover)}
    far = next(sq for sq in range(81) if sq not in reachable)
    driver.click_square(far)
    assert "None of your cards" in scene.toast[0] and state.state_hash() == h
    app.run_frames(60 * 3)
    assert scene.toast is None


def test_own_stone_target_is_refused(app, driver, new_hotseat):
    def own_target(s):
        return any(s.target(c) is not None and s.owner(s.target(c)) == s.turn for c in s.hand(s.turn))
    state, _seed = find(own_target)
    scene = new_hotseat(1, state)
    card = next(c for c in state.hand(state.turn) if state.target(c) is not None and state.owner(state.target(c)) == state.turn)
    driver.click_square(state.target(card))
    assert "already holds your stone" in scene.toast[0] and scene.match.state.ply == state.ply


def test_hover_card_previews_and_targets_toggle(app, driver, new_hotseat):
    scene = new_hotseat(6)
    s = scene.match.state
    card = s.hand(Color.RED)[0]
    driver.move_mouse(scene.drawing.card_center(Color.RED, card))
    assert scene.drawing.card_at(scene.hover_pos) == (card, Color.RED)
    assert not app.options.show_targets
    driver.key(pygame.K_t)
    assert app.options.show_targets
    app.run_frames(2)
    driver.key(pygame.K_t)
    assert not app.options.show_targets


def test_hover_stone_shows_territory(app, driver, new_hotseat):
    state, _seed = find(lambda s: any(len(bin(g)) > 3 and g.bit_count() >= 3 for g in s.territories(Color.RED)))
    scene = new_hotseat(1, state)
    group = next(g for g in state.territories(Color.RED) if g.bit_count() >= 3)
    sq = (group & -group).bit_length() - 1
    driver.move_mouse(square_center(sq))
    assert square_at(scene.hover_pos) == sq
    from game.client.roseking.board_draw import territory_of
    assert territory_of(scene.shown, sq) == group


def test_result_panel_buttons(app, driver, new_hotseat):
    app.options.anim_speed = 0.0
    state, _seed = find(lambda s: s.stones_placed >= 51 and any(m.kind is PLAY for m in s.legal_moves()))
    scene = new_hotseat(1, state)
    last = next(m for m in state.legal_moves() if m.kind is PLAY)
    driver.play(last, via_square=True)
    app.run_frames(2)
    panel = app.top
    assert isinstance(panel, ResultPanel)
    o = scene.match.state.outcome()
    assert o is not None and panel.outcome == o
    new_game = panel.buttons[0]
    driver.click(new_game.rect.center)
    assert isinstance(app.top, GameScene) and app.top is not scene and app.top.match.state.ply == 0


def test_input_ignored_while_result_or_other_turn(app, driver, new_hotseat):
    scene = new_hotseat(8)
    s = scene.match.state
    white_card = s.hand(Color.WHITE)[0]
    driver.click_card(Color.WHITE, white_card)
    assert s.ply == 0 and "Those are" in scene.toast[0]


def test_drawing_the_last_card_shows_the_reshuffle(app, driver, new_hotseat):
    state, _seed = find(lambda s: s.draw_pile.bit_count() == 1 and s.discard_pile
                        and any(m.kind is DRAW for m in s.legal_moves()))
    discards = state.discard_pile
    scene = new_hotseat(1, state)
    driver.click_draw_pile()
    anim = scene.anim
    assert isinstance(anim, DrawAnim) and anim.reshuffle and len(anim.returning) == discards.bit_count()
    assert "shuffled" in scene.banner[0]
    app.run_frames(int(anim.shuffle_at * 60) + 3)
    assert anim.draw_count(anim.t) < discards.bit_count() and anim.discard_top(anim.t) == -1
    driver.settle()
    assert scene.shown.draw_pile == discards and scene.shown.discard_pile == 0


def test_hand_closes_the_gap_smoothly(app, driver, new_hotseat):
    scene = new_hotseat(9)
    s = scene.match.state
    first = s.hand(Color.RED)[0]
    move = next(m for m in s.legal_moves() if m.kind is PLAY and m.card == first)
    driver.click_square(s.target(first))
    driver.settle()
    second = s.hand(Color.RED)[0]
    from game.client.roseking.layout import hand_slot_rect
    x = scene.drawing.card_rect(Color.RED, second, 0).x
    assert x > hand_slot_rect(Color.RED, 0).x  # still gliding left from slot 1
    app.run_frames(30)
    assert scene.drawing.card_rect(Color.RED, second, 0).x == hand_slot_rect(Color.RED, 0).x
    assert move == s.move_stack[0]


def test_the_territory_tooltip_lies_over_the_move_log(app, driver, new_hotseat):
    """A territory's label near the board's left edge lay behind the move log.
    It is drawn over everything: its text's pixels show inside the move log's box."""
    import pygame
    from game.client.roseking.art import art_of
    from game.client.roseking.layout import MOVELOG_RECT

    def left_territory(s):
        return any(g.bit_count() >= 2 and any(sq % 9 == 0 and sq // 9 <= 2 for sq in _bits(g))
                   for g in s.territories(Color.RED))
    state, _seed = find(left_territory)
    scene = new_hotseat(1, state)
    group = next(g for g in state.territories(Color.RED) if g.bit_count() >= 2
                 and any(sq % 9 == 0 and sq // 9 <= 2 for sq in _bits(g)))
    sq = next(sq for sq in _bits(group) if sq % 9 == 0 and sq // 9 <= 2)
    driver.move_mouse(square_center(sq))
    art = art_of(app)
    label, text, box = scene.drawing.tooltip_layout(art, scene.shown)
    assert "territory" in label and box.colliderect(MOVELOG_RECT)
    surface = pygame.Surface((1280, 800))
    scene.draw(surface)
    inside = box.clip(MOVELOG_RECT)
    origin = text.get_rect(center=box.center).topleft
    solid = [(x, y) for x in range(inside.left, inside.right) for y in range(inside.top, inside.bottom)
             if 0 <= x - origin[0] < text.get_width() and 0 <= y - origin[1] < text.get_height()
             and text.get_at((x - origin[0], y - origin[1])).a == 255]
    assert solid, "no text pixel over the move log"
    for x, y in solid:
        assert surface.get_at((x, y))[:3] == text.get_at((x - origin[0], y - origin[1]))[:3]


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
