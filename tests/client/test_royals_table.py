"""The Royals & Riots table, driven headless through the scene: privacy of replays and
of the pause menu, "since your last turn", the revolution's announcement and its sounds, the
computers' pace and "keep the trick until I click", hints with a reason and previews of the
Thief's and the Executioner's choices, the two-row hand choice, undo within a round, forced
executions, the scores' labels and teams by name, the header, and the K/Q letters per language."""

from __future__ import annotations

import pygame
import pytest

from game import i18n
from game.client.app import STEP
from game.client.royals import scene as scene_module
from game.client.royals.art import CARD_H, CARD_W, corner_letter, royals_art
from game.client.royals.news import news_lines
from game.client.royals.replay_view import RoyalsReplayScene
from game.client.royals.scene import BEAT_SOUNDS, RoyalsTableScene, table_setting
from game.client.royals.setup import start_match
from game.royals.match import Beat, Seat, TableConfig, TableMatch, choose_for, computer_player
from game.client.theme import CANVAS
from game.royals.engine import Action, Card, Phase
from game.royals.explain import lost_anyway, outcome_of_play, play_reason, playable, preview_execute, preview_steal

from .test_end_screens import overlaps
from .test_royals_ui import Person


@pytest.fixture
def instant(app):
    app.options.anim_speed = 0.0
    return app


def bots_for(match: TableMatch, seed: int = 0) -> dict:
    return {s: computer_player("random", seed * 10 + s) for s in range(1, match.players + 1)}


def play_until(match: TableMatch, stop, seed: int = 0, bots=None):
    """Random decisions for every seat until ``stop(match, beats)`` holds; returns the beats of the
    last decision (None if the match ended first)."""
    bots = bots or bots_for(match, seed)
    beats = match.advance()
    while not match.state.is_over():
        if stop(match, beats):
            return beats
        seat = match.decider()
        beats = match.apply(choose_for(match.state, seat, bots[seat]))
    return beats if stop(match, beats) else None


def drive(app, scene: RoyalsTableScene, stop, frames: int = 20000, seed: int = 1) -> bool:
    """Step the table, deciding for the people with random choices through :meth:`act`, clicking
    through the pass screen and the news, until ``stop()``; False if the match ended first."""
    bots = bots_for(scene.match, seed)
    for _i in range(frames):
        if stop():
            return True
        if scene.modal == "over":
            return stop()
        if scene.modal == "round":
            scene.close_modal()
        elif scene.passing:
            scene.hand_to(scene.passing)
        elif scene.news is not None:
            scene.news = None
        elif scene.my_turn():
            seat = scene.my_turn()
            if scene.state.phase is Phase.START:  # a person of the starting team picks its leader
                scene.act(scene.state.legal_actions()[0])
            else:
                scene.act(choose_for(scene.state, seat, bots[seat]))
        app.step(STEP)
    return stop()


def person_at(app, phase: Phase, seeds: int = 40) -> RoyalsTableScene:
    """A table of the person and two random computers where the person decides in ``phase``
    (the first of ``seeds`` matches that gets there)."""
    for seed in range(seeds):
        cfg = TableConfig([Seat("You"), Seat("Ada", "random"), Seat("Bram", "random")], seed=seed)
        scene = start_match(app, cfg, min_delay=0, use_process=False, autosave=False)
        if drive(app, scene, lambda: scene.my_turn() == 1 and scene.state.phase is phase, seed=seed):
            return scene
    raise AssertionError(f"the person never decided in {phase} in {seeds} matches")


# ---------------------------------------------------------------------------------------------- 1
def partial_match(seats: list[Seat], plies: int = 40, seed: int = 3) -> TableMatch:
    m = TableMatch(TableConfig(seats, seed=seed))
    play_until(m, lambda mm, _b: mm.state.ply >= plies, seed)
    return m


@pytest.mark.parametrize("people", [2, 1])
def test_the_replay_of_an_unfinished_match_keeps_the_hands_private(instant, people):
    """Hot-seat: no hand face up at any point of the replay; against computers: only the person's."""
    seats = [Seat("Ann"), Seat("Bob") if people == 2 else Seat("Ada", "random"), Seat("Cas", "random")]
    m = partial_match(seats)
    assert not m.state.is_over()
    replay = RoyalsReplayScene(instant, m, on_back=instant.pop)
    instant.push(replay)
    seen: set[int] = set()
    for _i in range(3000):
        instant.step(STEP)
        seen |= replay.painter.drawn_face_up
        if replay.pos == len(replay.actions) and replay.idle():
            break
    assert replay.pos == len(replay.actions) and replay.match.state.history == m.state.history
    assert not replay.reveal_all
    assert seen == (set() if people == 2 else {1})


def test_the_replay_of_a_finished_match_shows_every_hand(instant):
    m = TableMatch(TableConfig([Seat("Ann"), Seat("Bob")], seed=2))
    play_until(m, lambda mm, _b: False, 2)
    assert m.state.is_over()
    replay = RoyalsReplayScene(instant, m, on_back=instant.pop)
    instant.push(replay)
    instant.step(STEP)
    assert replay.reveal_all and replay.viewer() == 1


def test_the_hot_seat_pause_menu_leaves_no_hand_readable(instant):
    scene = start_match(instant, TableConfig([Seat("Ann"), Seat("Bob")], seed=4), min_delay=0, use_process=False,
                        autosave=False)
    p = Person(instant, scene)
    for _i in range(200):
        if scene.passing:
            p.click((640, 400))
        elif scene.news is not None:
            p.click((640, 400))
        elif scene.my_turn() and scene.painter.drawn_face_up:
            break
        else:
            p.step()
    assert scene.painter.drawn_face_up == {scene.revealed}
    p.key(pygame.K_ESCAPE)
    assert instant.top is not scene
    p.step()
    assert scene.painter.drawn_face_up == set(), "a hand is readable behind the pause menu"
    p.key(pygame.K_ESCAPE)  # back to the table: the hand shows again
    assert instant.top is scene and scene.painter.drawn_face_up == {scene.revealed}


# ---------------------------------------------------------------------------------------------- 2
def test_each_person_is_told_what_happened_since_their_last_decision(instant):
    cfg = TableConfig([Seat("Ann"), Seat("Bob"), Seat("Cas", "random")], seed=2)
    scene = start_match(instant, cfg, min_delay=0, use_process=False, autosave=False)
    p = Person(instant, scene)
    for _i in range(3000):
        if p.news and len(p.news) >= 4 or scene.modal:
            break
        if scene.passing:
            who = scene.passing
            mark = scene.seen.get(who)
            p.click((640, 400))
            if scene.news is not None:  # what the panel says is exactly the beats since that person's decision
                assert scene.news[1] == scene.journal[mark:]
                played = [b for b in scene.news[1] if b.kind == "play" and b.seat != who]
                text = scene.news_text()
                for b in played[-3:]:
                    assert any(scene.match.name(b.seat) in line for line in text)
                p.read_news()
            continue
        seat = scene.my_turn()
        p.decide(seat) if seat else p.step()
    assert len(p.news) >= 4


def test_news_tells_the_robbed_person_which_card_went_and_which_came_back():
    name = {1: "Ann", 2: "Bob", 3: "Cas"}.get
    ann, bob = Card.from_name("R7"), Card.from_name("KING")
    beats = [Beat("play", 2, Card.from_name("THIEF")), Beat("draw", 1, Card.from_name("P2")),
             Beat("steal", 2, ann, 1, bob), Beat("trick", 3, cards=()), Beat("keep", 1)]
    lines = news_lines(beats, 1, name)
    assert lines == ["Bob played Thief.", "The Thief (Bob) took your Royals 7; your King went back to your hand.",
                     "Trick to Cas."]
    assert news_lines(beats, 3, name)[1] == "The Thief (Bob) took Royals 7 from Ann."


def test_the_last_trick_says_whose_card_the_thief_took(instant):
    for seed in range(40):
        m = TableMatch(TableConfig([Seat("Ann"), Seat("Bob"), Seat("Cas")], seed=seed))
        if play_until(m, lambda mm, _b: mm.last_trick is not None and mm.last_trick.stolen is not None, seed):
            break
    else:
        raise AssertionError("no theft in 40 matches")
    steal = next(a for a in reversed(m.state.history) if a.kind.value == "steal" and a.target)
    lt = m.last_trick
    assert (lt.thief, lt.robbed, lt.stolen) == (steal.seat, steal.target, steal.card)
    scene = RoyalsTableScene(instant, m, lambda: None, lambda: None, advance=False)
    instant.push(scene)
    texts = []
    real = instant.art.text
    instant.art.text = lambda text, *a, **k: texts.append(text) or real(text, *a, **k)
    try:
        scene.painter.draw_last_trick(instant.screen)
    finally:
        instant.art.text = real
    assert f"The Thief ({m.name(lt.thief)}) took " in " ".join(texts) and f"from {m.name(lt.robbed)}." in " ".join(texts)


# ---------------------------------------------------------------------------------------------- 3
def test_a_revolution_and_its_end_are_announced_with_their_sound(app, monkeypatch):
    """Computers at 4x speed until the Rebels start a revolution and a Prince ends it: each is
    announced across the table (its headline and who played the card) with its sound, and the
    trick that a Prince's ending decided says so."""
    played: list[str] = []
    monkeypatch.setattr(app.prefs, "play", lambda name: played.append(name) or True)
    app.options.anim_speed = 4.0
    seen: dict[str, tuple] = {}
    for seed in range(6):
        cfg = TableConfig([Seat("Ada", "random"), Seat("Bram", "random"), Seat("Cato", "random")], seed=seed)
        scene = start_match(app, cfg, min_delay=0, use_process=False, autosave=False)

        def watch() -> bool:
            a = scene.anim
            if a is not None and a.beat.kind in ("revolution", "restore") and a.progress > 0.3:
                app.draw()
                box, items = scene.layout.announcement_layout(a.beat)
                seen.setdefault(a.beat.kind, (a.beat, [t for t, _s, _r in items], box))
            if a is not None and a.beat.kind == "trick" and a.beat.reason == "restored":
                seen.setdefault("restored", (a.beat,))
            return len(seen) == 3
        if drive(app, scene, watch, frames=40000, seed=seed):
            break
    else:
        raise AssertionError(f"no revolution ended by a Prince in 6 matches: {sorted(seen)}")
    beat, texts, box = seen["revolution"]
    assert texts[0] == "Revolution!" and f"Rebels played by {scene.match.name(beat.seat)}" in texts[1]
    assert beat.card is not None and beat.card.is_rebels
    beat, texts, box = seen["restore"]
    assert texts[0] == "The revolution is over" and beat.card is not None and beat.card.is_prince
    assert pygame.Rect(0, 0, *CANVAS).contains(box)
    assert {"royals_revolution", "royals_prince", "royals_play", "royals_trick_won", "royals_deal"} <= set(played)


# ---------------------------------------------------------------------------------------------- 4
def test_every_sound_the_table_plays_is_made(instant):
    from game.client.audio import effects
    table_sounds = set(BEAT_SOUNDS.values()) | {"royals_round_end", "royals_match_won", "royals_match_lost"}
    assert table_sounds <= set(effects("royals-riots"))


def test_the_table_reads_the_settings_of_its_game(instant):
    store = instant.prefs.store
    assert table_setting(instant, "computer_speed", "x") == "normal"
    assert table_setting(instant, "hold_trick", None) is False
    store.update_game("royals-riots", computer_speed="slow", hold_trick=True)
    scene = RoyalsTableScene(instant, TableMatch(TableConfig([Seat("You"), Seat("Ada", "random")], seed=1)),
                             lambda: None, lambda: None)
    instant.options.anim_speed = 1.0
    assert scene.pacing() == "slow" and scene.holds_trick()


def test_table_setting_reads_the_games_section_else_the_default(instant):
    """The one way the table reads a setting: the field of Royals & Riots' section of the app's
    settings; a field the section lacks gives the default."""
    instant.prefs.store.update_game("royals-riots", computer_speed="fast")
    assert table_setting(instant, "computer_speed", "normal") == "fast"
    assert table_setting(instant, "no_such_field", "normal") == "normal"


def frames_to_first_computer_play(app, pace: str, monkeypatch) -> int:
    monkeypatch.setattr(scene_module, "table_setting",
                        lambda _app, name, default: pace if name == "computer_speed" else default)
    cfg = TableConfig([Seat("You"), Seat("Ada", "random")], seed=6, starter=2)
    scene = start_match(app, cfg, min_delay=0.45, use_process=False, autosave=False)
    bots = bots_for(scene.match)
    for frame in range(2000):
        if scene.my_turn() and scene.state.phase is Phase.KEEP:
            scene.act(choose_for(scene.state, 1, bots[1]))
        if any(a.kind.value == "play" for a in scene.state.history):
            return frame
        app.step(STEP)
    raise AssertionError("the computer never played")


def test_the_computer_speed_setting_paces_the_computers(app, monkeypatch):
    app.options.anim_speed = 1.0
    slow = frames_to_first_computer_play(app, "slow", monkeypatch)
    normal = frames_to_first_computer_play(app, "normal", monkeypatch)
    fast = frames_to_first_computer_play(app, "fast", monkeypatch)
    assert slow > normal > fast
    assert (slow - fast) / 60 >= 0.45 * (2.5 - 0.35) * 0.9  # the waits differ as the paces say


def test_keep_the_trick_until_i_click(app, monkeypatch):
    monkeypatch.setattr(scene_module, "table_setting",
                        lambda _app, name, default: True if name == "hold_trick" else default)
    app.options.anim_speed = 2.0
    cfg = TableConfig([Seat("You"), Seat("Ada", "random")], seed=8)
    scene = start_match(app, cfg, min_delay=0, use_process=False, autosave=False)
    assert drive(app, scene, lambda: scene.holding, frames=6000)
    trick = scene.anim.beat
    assert trick.kind in ("trick", "void") and scene.at_rest() in (True, False)
    for _i in range(600):  # ten seconds: still there, the winner shown
        app.step(STEP)
    assert scene.holding and scene.anim is not None and scene.anim.beat is trick
    assert scene.at_rest(), "a held trick is a still picture: the window sleeps"
    p = Person(app, scene)
    p.click((640, 300))
    for _i in range(200):
        app.step(STEP)
        if scene.anim is None or scene.anim.beat is not trick:
            break
    assert scene.anim is None or scene.anim.beat is not trick
    assert not scene.holding


# ---------------------------------------------------------------------------------------------- 5
def test_play_reasons_and_previews_are_true(instant):
    """Over random matches (3 players; 4 in teams), from the deciding seat's observation only: "it
    takes the trick" holds when the trick ends, "lost anyway" and "your partner keeps it" mean the
    seat does not take it, "highest so far" is the trick's winner now, and the Executioner's and
    the Thief's previews name the seat that then takes the trick."""
    checked = {"takes": 0, "lost": 0, "execute": 0, "steal": 0}
    for players, seed in [(3, seed) for seed in range(10)] + [(4, seed) for seed in range(6)]:
        m = TableMatch(TableConfig([Seat(n) for n in "ABCD"[:players]], teams=players == 4, seed=seed))
        bots = bots_for(m, seed)
        m.advance()
        claims: list[int] = []
        claims_lost: list[int] = []
        while not m.state.is_over():
            seat = m.decider()
            obs = m.state.observation(seat)
            action = choose_for(m.state, seat, bots[seat])
            expect = None
            if action.kind.value == "play" and m.state.phase is Phase.PLAY:
                why = play_reason(obs, action.card)
                if why == "it takes the trick":
                    claims.append(seat)
                if why in ("it is the highest card so far", "it wins while the Guildmaster is not out"):
                    assert outcome_of_play(obs, action.card).winner == seat
                if why == "the trick is lost anyway, and it gives away the least":
                    claims_lost.append(seat)
                    assert action.card.points == min(c.points for c in playable(obs)) and lost_anyway(obs)
                if why == "your partner keeps the trick":
                    claims_lost.append(seat)
            elif action.kind.value == "execute":
                expect = ("execute", preview_execute(obs, action.card).winner)
            elif action.kind.value == "steal" and action.target and not any(
                    c.name == "EXECUTIONER" for _s, c in obs.trick):
                expect = ("steal", preview_steal(obs, action.target).winner)
            beats = m.apply(action)
            ended = next((b for b in beats if b.kind in ("trick", "void")), None)
            if ended is None:
                assert expect is None or expect[0] == "steal", "an execution always ends the trick"
                continue
            for who in claims:
                assert ended.seat == who
                checked["takes"] += 1
            for who in claims_lost:
                assert ended.seat != who
                checked["lost"] += 1
            claims, claims_lost = [], []
            if expect is not None:
                assert ended.seat == expect[1], (expect, ended)
                checked[expect[0]] += 1
    assert all(v > 0 for v in checked.values()), checked


def test_the_hint_at_the_hand_choice_marks_the_computers_cards(instant):
    scene = start_match(instant, TableConfig([Seat("You"), Seat("Ada", "random")], seed=3), min_delay=0,
                        use_process=False, autosave=False)
    p = Person(instant, scene)
    p.step()
    assert scene.my_turn() == 1 and scene.state.phase is Phase.KEEP
    hint = next(b for b in scene.buttons if b.label == "Hint")
    assert hint.enabled()
    p.key(pygame.K_h)
    assert scene.hint_cards == set(scene.match.suggested_hand(1))
    assert scene.hint_text.startswith("Hint: keep the marked cards")
    assert not scene.selected  # marked, not chosen: the person still decides


# ---------------------------------------------------------------------------------------------- 6
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_hand_choice_lays_every_dealt_card_whole_on_the_table(instant, players):
    seats = [Seat("You")] + [Seat(f"C{i}", "random") for i in range(1, players)]
    scene = start_match(instant, TableConfig(seats, teams=players == 4, seed=1), min_delay=0, use_process=False,
                        autosave=False)
    instant.step(STEP)
    dealt = list(scene.state.observation(1).dealt)
    assert len(dealt) == {2: 14, 3: 12, 4: 9}[players]
    slots = scene.layout.keep_slots(len(dealt))
    canvas = pygame.Rect(0, 0, *CANVAS)
    assert all(r.size == (CARD_W, CARD_H) and canvas.contains(r.move(0, -26)) for r in slots)
    assert not any(a.colliderect(b) for i, a in enumerate(slots) for b in slots[i + 1:]), "cards cover each other"
    taken = [scene.layout.plate_rect(s) for s in range(1, players + 1)] + [scene.layout.scores_rect()]
    taken += [b.rect for b in scene.buttons + scene.controls.action_buttons]
    taken += [r for s in range(2, players + 1) for r in scene.layout.back_rects(s, scene.state.hand_size())]
    hit = [(r, t) for r in slots for t in taken if r.move(0, -26).union(r).colliderect(t)]
    assert not hit, hit
    p = Person(instant, scene)
    for card in dealt[-3:]:  # the second row answers clicks too
        p.click(scene.layout.keep_rects(dealt)[dealt.index(card)].center)
    assert scene.selected == set(dealt[-3:])


# ---------------------------------------------------------------------------------------------- 7
def test_undo_never_crosses_a_deal():
    m = TableMatch(TableConfig([Seat("You"), Seat("A", "random"), Seat("B", "random")], seed=9))
    assert play_until(m, lambda mm, _b: mm.state.round == 2 and mm.state.phase is Phase.KEEP
                      and mm.decider() == 1, 9) is not None
    assert not m.can_undo() and m.undo() == 0 and m.state.round == 2
    m.apply(Action.keep(1, list(m.suggested_hand(1))))
    assert m.can_undo()
    m.undo()
    assert m.state.round == 2 and m.state.phase is Phase.KEEP and not m.can_undo()


def test_the_last_trick_survives_continue_and_undo():
    m = TableMatch(TableConfig([Seat("You"), Seat("A", "random"), Seat("B", "random")], seed=5))
    play_until(m, lambda mm, _b: mm.state.trick_no >= 4 and mm.decider() == 1 and mm.state.phase is Phase.PLAY, 5)
    resumed = TableMatch.resume(m.config, m.state.copy())
    assert resumed.last_trick == m.last_trick is not None
    before = m.last_trick
    m.apply(choose_for(m.state, 1, computer_player("random", 1)))
    m.undo()
    assert m.last_trick == before


# ---------------------------------------------------------------------------------------------- 8
def test_an_executioner_with_one_possible_victim_is_played_for_the_person(instant):
    """Two players: the Executioner always has exactly one card to take, so the table takes it and says so."""
    for seed in range(30):
        cfg = TableConfig([Seat("You"), Seat("Ada", "random")], seed=seed)
        scene = start_match(instant, cfg, min_delay=0, use_process=False, autosave=False)
        bots = bots_for(scene.match, seed)
        toasts = []
        for _i in range(4000):
            if scene.modal:
                break
            seat = scene.my_turn()
            assert not (seat and scene.state.phase is Phase.EXECUTE), "the person was asked a forced choice"
            if seat:
                legal = scene.state.legal_actions() if scene.state.phase is Phase.PLAY else []
                axe = next((a for a in legal if a.card.name == "EXECUTIONER"), None)
                if axe is not None and scene.state.trick_plays:  # play it second: one card to take
                    scene.act(axe)
                else:
                    scene.act(choose_for(scene.state, seat, bots[seat]))
            instant.step(STEP)
            if scene.toast.startswith("The Executioner could only take"):
                toasts.append(scene.toast)
                break
        if toasts:
            execution = next(a for a in reversed(scene.state.history) if a.kind.value == "execute")
            assert execution.seat == 1 and toasts[0].endswith(f"take {royals_card_name(execution.card)}.")
            return
    raise AssertionError("the person never played the Executioner second in 30 matches")


def royals_card_name(card: Card) -> str:
    from game.client.royals.art import card_name
    return card_name(card)


# ---------------------------------------------------------------------------------------------- 9, 10
def test_scores_are_labelled_teams_named_by_players_and_scoring_cards_shown(instant):
    cfg = TableConfig([Seat("Ann"), Seat("Ada", "random"), Seat("Cato", "random"), Seat("Bram", "random")],
                      teams=True, seed=3)
    scene = start_match(instant, cfg, min_delay=0, use_process=False, autosave=False)
    texts = [t for t, _i, _r in scene.layout.score_texts()]
    assert "This round" in texts and "Total" in texts and "Ann + Cato" in texts and "Ada + Bram" in texts
    assert not any(" / " in t for t in texts)
    plate = [t for t, _i, _r in scene.layout.plate_texts(1)]
    assert "won 0 cards" in plate
    assert drive(instant, scene, lambda: scene.modal == "round")
    assert scene.layout.header_title() == "Round 1 is over"
    rect, items = scene.layout.modal_layout()
    assert not rect.colliderect(scene.layout.scores_rect()), "the score table covers the table's scores"
    assert all(rect.inflate(-16, -16).contains(r) for _t, _i, r in items)
    assert not overlaps([r for _t, _i, r in items])
    assert all(pygame.Rect(0, 0, *CANVAS).contains(b.rect) and b.rect.top > rect.bottom for b in scene.modal_buttons)
    names = [t for t, _i, _r in items]
    assert "Ann + Cato" in names and "Ada + Bram" in names
    from game.client.royals.art import card_name
    for loot in scene.round_loot:
        for card in loot:
            if card.points not in (0, 1):
                assert card_name(card) in names
    ones = sum(1 for loot in scene.round_loot for c in loot if c.points == 1)
    assert ones == sum(int(t.split()[0]) for t in names if t.endswith("of 1 point"))
    rs = scene.state.round_scores[0]
    assert str(rs[0] + rs[2]) in names and str(rs[1] + rs[3]) in names  # the teams' round score
    assert drive(instant, scene, lambda: scene.modal == "over")
    assert scene.layout.header_title() == "The match is over."
    out = scene.state.outcome()
    if out.team_scores[0] != out.team_scores[1]:
        assert scene.layout.modal_title() == f"{scene.layout.team_name(0 if out.team_scores[0] > out.team_scores[1] else 1)} win"


def test_the_header_follows_the_beats_through_a_rounds_last_trick(app):
    app.options.anim_speed = 4.0
    cfg = TableConfig([Seat("Ada", "random"), Seat("Bram", "random")], seed=2)
    scene = start_match(app, cfg, min_delay=0, use_process=False, autosave=False)
    assert drive(app, scene, lambda: any(b.kind == "round" for b in scene.queue) and scene.anim is not None)
    assert scene.state.round == 2 and scene.layout.header_title().startswith("Round 1 of 3 · trick ")


def test_dont_steal_leaves_with_the_decision(instant):
    scene = person_at(instant, Phase.STEAL)
    instant.step(STEP)
    labels = [b.label for b in scene.controls.action_buttons]
    assert labels == ["Don't steal"]
    instant.options.anim_speed = 1.0  # the trick now resolves for a while
    Person(instant, scene).key(pygame.K_n)
    declined = next(a for a in reversed(scene.state.history) if a.kind.value == "steal")
    assert declined.seat == 1 and declined.target is None
    assert not scene.idle(), "the trick resolves"
    assert scene.controls.action_buttons == [], "Don't steal stays while the trick resolves"


# ---------------------------------------------------------------------------------------------- 12
@pytest.mark.parametrize("language, king, queen", [("en", "K", "Q"), ("de", "K", "D"), ("fr", "R", "D"),
                                                    ("nl", "K", "V")])
def test_the_king_and_queen_carry_the_letters_of_the_language(app, language, king, queen):
    ra = royals_art(app)
    english = pygame.image.tobytes(ra.face(Card.from_name("QUEEN")), "RGBA")
    i18n.set_language(language)
    try:
        assert (corner_letter("KING"), corner_letter("QUEEN")) == (king, queen)
        face = ra.face(Card.from_name("QUEEN"))
        assert (pygame.image.tobytes(face, "RGBA") == english) == (queen == "Q")
        corner = face.subsurface((10, 10, 30, 34))
        assert pygame.transform.average_color(corner)[:3] != pygame.transform.average_color(
            ra.faces[Card.from_name("QUEEN").index].subsurface((10, 10, 30, 34)))[:3]  # a letter is there
        assert ra.face(Card.from_name("KING"), 0.5).get_size() == (CARD_W // 2, CARD_H // 2)
    finally:
        i18n.set_language("en")


def test_the_executioners_choice_previews_who_takes_the_trick(instant):
    """Three players: with the mouse on a card of the trick, the table says who takes the trick
    without it, and it is so once that card is executed."""
    scene = person_at(instant, Phase.EXECUTE)
    victim_seat, victim = next((s, c) for s, c in scene.view.trick if c.name != "EXECUTIONER")
    p = Person(instant, scene)
    p.post(pygame.MOUSEMOTION, pos=scene.layout.trick_rect(victim_seat).center, rel=(0, 0), buttons=(0, 0, 0))
    p.step()
    text = scene.painter.preview_text()
    assert text.startswith(f"Without {royals_card_name(victim)}: ")
    p.click(scene.layout.trick_rect(victim_seat).center)
    winner = scene.match.last_trick.winner
    assert text.endswith(f"trick to {scene.match.name(winner)}.") if winner else text.endswith("nobody takes the trick.")


def test_no_card_names_float_over_the_hand_during_the_executioners_choice(instant):
    scene = person_at(instant, Phase.EXECUTE)
    hand = scene.view.hands[0]
    rects = scene.layout.hand_rects(len(hand))
    texts: list[str] = []
    real = instant.art.text
    instant.art.text = lambda text, *a, **k: texts.append(text) or real(text, *a, **k)
    try:
        for card, r in zip(hand, rects):
            Person(instant, scene).post(pygame.MOUSEMOTION, pos=r.center, rel=(0, 0), buttons=(0, 0, 0))
            instant.step(STEP)
            instant.draw()
    finally:
        instant.art.text = real
    assert scene.state.phase is Phase.EXECUTE
    assert not any(royals_card_name(c) == t for c in hand for t in texts), "a hover label over the hand"


def test_the_one_person_is_told_when_a_thief_robs_them(instant):
    for seed in range(60):
        cfg = TableConfig([Seat("You"), Seat("Ada", "random"), Seat("Bram", "random")], seed=seed)
        scene = start_match(instant, cfg, min_delay=0, use_process=False, autosave=False)
        said: list[str] = []

        def robbed() -> bool:
            if scene.toast_time > 0 and scene.toast.startswith("The Thief ("):
                said.append(scene.toast)
            return bool(said)
        if drive(instant, scene, robbed, seed=seed):
            break
    else:
        raise AssertionError("nobody robbed the person in 60 matches")
    steal = next(a for a in reversed(scene.state.history) if a.kind.value == "steal" and a.target == 1)
    assert said[0].startswith(f"The Thief ({scene.match.name(steal.seat)}) took your {royals_card_name(steal.card)}")


def test_a_thief_with_one_hand_to_rob_has_it_picked(instant):
    """Two players: the only hand the Thief can rob is picked at once; one click on its cards
    steals, and not stealing is still offered."""
    for seed in range(40):
        cfg = TableConfig([Seat("You"), Seat("Ada", "random")], seed=seed)
        scene = start_match(instant, cfg, min_delay=0, use_process=False, autosave=False)
        if drive(instant, scene, lambda: scene.my_turn() == 1 and scene.state.phase is Phase.STEAL, seed=seed):
            break
    else:
        raise AssertionError("the person never played the Thief")
    instant.step(STEP)
    assert scene.steal_target == 2 and [b.label for b in scene.controls.action_buttons] == ["Don't steal"]
    ply = scene.state.ply
    Person(instant, scene).click(scene.layout.back_rects(2, len(scene.view.hands[1]))[0].center)
    taken = next(a for a in reversed(scene.state.history) if a.kind.value == "steal")
    assert scene.state.ply > ply and taken.seat == 1 and taken.target == 2
