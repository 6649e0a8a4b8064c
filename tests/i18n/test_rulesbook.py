"""How to play and the tutorial: complete in every language, and every picture agrees with the engine."""

import pytest

from game import i18n
from game.roseking import rulesbook
from game.roseking.engine import Color, parse_square, score_of, territories


def _mask(squares):
    m = 0
    for sq in squares:
        m |= 1 << sq
    return m


def test_sections_cover_the_rules_in_reading_order():
    titles = [s.title for s in rulesbook.how_to_play()]
    assert titles == ["Goal of the game", "Set-up", "Your turn: play a power card", "Your turn: draw a power card",
                      "Your turn: play a hero card", "Passing", "End of the game", "Scoring"]
    kinds = [s.illustration.kind for s in rulesbook.how_to_play() if s.illustration]
    assert kinds == ["territories", "setup", "card_move", "draw", "hero_flip", "pass", "territories", "territories"]
    assert set(kinds) == set(rulesbook.ILLUSTRATION_KINDS)


@pytest.mark.parametrize("lang", ["de", "nl", "fr"])
def test_every_text_is_in_the_chosen_language(lang):
    english = rulesbook.how_to_play()
    english_steps = rulesbook.tutorial()
    i18n.set_language(lang)
    translated = rulesbook.how_to_play()
    for en, tr in zip(english, translated):
        assert tr.title != en.title
        assert all(a != b for a, b in zip(en.paragraphs, tr.paragraphs))
        if en.illustration:
            assert tr.illustration.caption != en.illustration.caption
            assert tr.illustration.red == en.illustration.red  # only words change
    assert all(a.text != b.text for a, b in zip(english_steps, rulesbook.tutorial()))


def test_the_scoring_example_is_the_rulebooks():
    i18n.set_language("de")
    scoring = rulesbook.how_to_play()[-1]
    assert "64 + 4 + 1 = 69" in scoring.paragraphs[1] and "Gebiet" in scoring.paragraphs[0]


def test_the_card_move_picture_lands_where_the_caption_says():
    pic = next(s.illustration for s in rulesbook.how_to_play() if s.illustration and s.illustration.kind == "card_move")
    assert pic.card.target(pic.crown) == pic.highlight[0] == parse_square("g7")
    assert pic.highlight[0] not in pic.red + pic.white
    jumped = parse_square("f6")
    assert jumped in pic.white and "from e5 to g7" in pic.caption


def test_the_hero_picture_flips_an_opponents_stone():
    pic = next(s.illustration for s in rulesbook.how_to_play() if s.illustration and s.illustration.kind == "hero_flip")
    target = pic.card.target(pic.crown)
    assert target == pic.highlight[0] and target in pic.white and pic.player == "red"


def test_the_pass_picture_really_has_no_move():
    pic = next(s.illustration for s in rulesbook.how_to_play() if s.illustration and s.illustration.kind == "pass")
    assert len(pic.hand) == 5  # a full hand: drawing is not allowed either
    own = pic.red if pic.player == "red" else pic.white
    for card in pic.hand:
        target = card.target(pic.crown)
        assert target is None or target in own, card  # off the board, or the mover's own stone (no hero helps)


def test_the_territory_picture_scores_69_and_34():
    pic = rulesbook.how_to_play()[-1].illustration
    white, red = _mask(pic.white), _mask(pic.red)
    assert not white & red
    assert [t.bit_count() for t in territories(white)] == [8, 2, 1] and score_of(white) == 69
    assert [t.bit_count() for t in territories(red)] == [5, 2, 2, 1] and score_of(red) == 34


def test_tutorial_steps_point_at_known_places():
    steps = rulesbook.tutorial()
    assert 4 <= len(steps) <= 8
    assert {s.anchor for s in steps} <= {None, "hand", "board", "draw_pile", "heroes", "scores"}
    assert all(len(s.text) < 200 for s in steps)  # short bubbles
    assert [i18n._(b) for b in rulesbook.TUTORIAL_BUTTONS] == ["Next", "Skip tutorial", "Got it"]


def test_colours_in_pictures_are_names_the_engine_knows():
    for section in rulesbook.how_to_play():
        if section.illustration:
            assert Color.from_name(section.illustration.player) in Color


def test_each_move_picture_is_a_position_after_the_opponents_move():
    for section in rulesbook.how_to_play():
        pic = section.illustration
        if pic and pic.kind not in ("territories", "setup"):
            opponent = pic.white if pic.player == "red" else pic.red
            assert pic.crown in opponent, section.title
            assert not set(pic.red) & set(pic.white)


def test_every_page_has_a_picture_and_the_territory_captions_add_up():
    """No page without a picture; each territory picture scores what its caption says."""
    from game.roseking.engine import score_of
    sections = rulesbook.how_to_play()
    assert all(s.illustration is not None for s in sections)
    expected = {0: (10, 16), 6: (11, 13), 7: (34, 69)}
    for i, (red, white) in expected.items():
        pic = sections[i].illustration
        assert pic.kind == "territories"
        assert (score_of(sum(1 << q for q in pic.red)), score_of(sum(1 << q for q in pic.white))) == (red, white)


def test_the_draw_picture_holds_fewer_than_five_cards_and_setup_five():
    sections = {s.illustration.kind: s.illustration for s in rulesbook.how_to_play()}
    assert len(sections["draw"].hand) < 5 and len(sections["setup"].hand) == 5
