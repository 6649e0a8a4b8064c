"""The one text field of the client (game/client/textinput.py) and the three places that use it."""

from __future__ import annotations

import pygame
import pytest

from game import i18n
from game.client.lan.lobby import LayerJoinScene
from game.client.roseking.local_game import TextEntryDialog
from game.client.menus import MainMenu
from game.client.textinput import TextInput
from game.client.roseking.art import art_of


def key(field: TextInput, k: int, mod: int = 0) -> bool:
    return field.handle_event(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))


def typed(field: TextInput, text: str) -> bool:
    return field.handle_event(pygame.event.Event(pygame.TEXTINPUT, text=text))


def test_typing_at_the_cursor_keeps_to_the_allowed_characters_and_the_length(app):
    field = TextInput((0, 0, 300, 50), "12", allowed="0123456789.:", max_len=6, focused=True)
    assert field.focused and field.cursor == 2
    key(field, pygame.K_HOME)
    assert typed(field, "a9b")  # used even if nothing of it was accepted
    assert field.text == "912" and field.cursor == 1
    key(field, pygame.K_RIGHT)
    typed(field, ".:.:.:")  # three places left
    assert field.text == "91.:.2" and field.cursor == 5
    key(field, pygame.K_DELETE)
    key(field, pygame.K_LEFT)
    key(field, pygame.K_BACKSPACE)
    assert field.text == "91.." and field.cursor == 3
    key(field, pygame.K_END)
    assert field.cursor == 4
    key(field, pygame.K_u, pygame.KMOD_LCTRL)
    assert field.text == "" and field.cursor == 0


def test_a_starting_text_and_set_text_are_cut_to_the_length_and_set_text_waits_for_the_typing(app):
    field = TextInput((0, 0, 300, 50), "abcdefgh", max_len=5)
    assert field.text == "abcde" and field.cursor == 5
    field.set_text("uvwxyz")
    assert field.text == "uvwxy"
    field.focus()
    field.set_text("other")
    assert field.text == "uvwxy"  # the player is typing


def test_enter_submits_and_stays_in_use_or_ends_editing_when_there_is_nothing_to_submit(app):
    submitted, committed = [], []
    field = TextInput((0, 0, 300, 50), "", committed.append, on_submit=submitted.append, focused=True)
    typed(field, "abc")
    assert key(field, pygame.K_RETURN)
    assert submitted == ["abc"] and committed == [] and field.focused
    typed(field, "d")
    assert key(field, pygame.K_KP_ENTER)
    assert submitted == ["abc", "abcd"] and field.focused
    field.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(400, 10), button=1))
    assert committed == ["abcd"] and not field.focused

    plain = TextInput((0, 0, 300, 50), "x", committed.append, focused=True)
    typed(plain, "y")
    key(plain, pygame.K_RETURN)
    assert committed == ["abcd", "xy"] and not plain.focused


def test_a_refused_commit_puts_the_old_text_back(app):
    def refuse(text: str) -> None:
        raise ValueError(text)
    field = TextInput((0, 0, 300, 50), "old", refuse, focused=True)
    typed(field, " and new")
    key(field, pygame.K_RETURN)
    assert field.text == "old" and field.cursor == 3 and not field.focused


def test_escape_reverts_or_is_left_to_the_owner(app):
    field = TextInput((0, 0, 300, 50), "kept", focused=True)
    typed(field, "!")
    assert key(field, pygame.K_ESCAPE)
    assert field.text == "kept" and not field.focused

    through = TextInput((0, 0, 300, 50), "kept", focused=True, escape=False)
    typed(through, "!")
    assert not key(through, pygame.K_ESCAPE)  # the owner's Esc (close the screen)
    assert through.text == "kept!" and through.focused


def test_ctrl_v_pastes_at_the_cursor_what_the_field_accepts(app, monkeypatch):
    monkeypatch.setattr(pygame.scrap, "get_text", lambda: "10.0.0.7:4712\n3")
    field = TextInput((0, 0, 300, 50), "[]", allowed="[]0123456789.:", max_len=14, focused=True)
    key(field, pygame.K_LEFT)
    assert key(field, pygame.K_v, pygame.KMOD_RCTRL)
    assert field.text == "[10.0.0.7:471]" and field.cursor == 13  # no line break, cut at max_len

    def no_clipboard():
        raise pygame.error("no clipboard")
    monkeypatch.setattr(pygame.scrap, "get_text", no_clipboard)
    field.set_text("")
    assert key(field, pygame.K_v, pygame.KMOD_LCTRL) and field.text == "[10.0.0.7:471]"
    assert key(field, pygame.K_v) and field.text == "[10.0.0.7:471]"  # a plain v types through TEXTINPUT


def test_a_focused_field_takes_every_key_and_an_idle_one_none(app):
    field = TextInput((0, 0, 300, 50), "")
    assert not key(field, pygame.K_m) and not typed(field, "m") and field.text == ""
    field.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(10, 10), button=1))
    assert key(field, pygame.K_m) and key(field, pygame.K_TAB)
    assert field.handle_event(pygame.event.Event(pygame.KEYUP, key=pygame.K_m, mod=0, unicode="", scancode=0))


def test_the_placeholder_is_translated_when_drawn(app):
    def shot(field: TextInput) -> bytes:
        surface = pygame.Surface((300, 50))
        field.draw(surface, art_of(app))
        return pygame.image.tobytes(surface, "RGB")

    english = shot(TextInput((0, 0, 300, 50), placeholder="Zurück", style="light"))
    i18n.set_language("de")
    try:
        assert i18n._("Back") == "Zurück"
        german = shot(TextInput((0, 0, 300, 50), placeholder=i18n.N_("Back"), style="light"))
        by_callable = shot(TextInput((0, 0, 300, 50), placeholder=lambda: i18n._("Back"), style="light"))
    finally:
        i18n.set_language("en")
    assert german == english == by_callable
    assert shot(TextInput((0, 0, 300, 50), placeholder="Back", style="light")) != english


def test_long_text_slides_so_the_cursor_stays_in_view(app):
    field = TextInput((0, 0, 200, 50), "W" * 60, focused=True, style="light")
    surface = pygame.Surface((400, 50))
    field.draw(surface, art_of(app))
    ink = surface.get_at((180, 25))  # the field's right end shows text, not paper
    assert tuple(ink)[:3] != (250, 240, 215)
    assert surface.get_at((300, 25)) == surface.get_at((399, 25))  # nothing drawn past the field


# ---------------------------------------------------------------------- the places that use it
def test_save_as_dialog_edits_with_the_cursor_keys_and_esc_closes_it(app, driver, tmp_path):
    app.reset(MainMenu(app))
    saved = []
    dialog = TextEntryDialog(app, "Save the game as", str(tmp_path / "game.json"), saved.append)
    app.push(dialog)
    app.step(1 / 60)
    assert dialog.field.focused
    for _i in range(len(".json")):
        driver.key(pygame.K_LEFT)
    driver.post(pygame.TEXTINPUT, text="-2")
    app.step(1 / 60)
    assert dialog.text == str(tmp_path / "game-2.json")
    driver.click(dialog.buttons[0].rect.center)  # OK: a click does not end the typing
    assert saved == [tmp_path / "game-2.json"] and app.top is not dialog

    again = TextEntryDialog(app, "Save the game as", "", saved.append)
    app.push(again)
    app.step(1 / 60)
    driver.click(again.buttons[0].rect.center)  # nothing typed: an error, the field keeps the typing
    assert app.top is again and again.error and again.field.focused
    driver.post(pygame.TEXTINPUT, text="x")
    app.step(1 / 60)
    assert again.text == "x" and again.error is None
    driver.key(pygame.K_ESCAPE)
    assert app.top is not again and not again.field.focused and len(saved) == 1


def test_join_screen_field_is_ready_for_typing_and_esc_leaves_the_screen(app, driver):
    app.reset(MainMenu(app))
    scene = LayerJoinScene(app, key="rose-king", name="Dave", listen=False)
    app.push(scene)
    assert scene.field.focused
    app.step(1 / 60)  # the screen is shown; the key that opened it types nothing (test_lan.py)
    driver.post(pygame.TEXTINPUT, text="10.0.0.1 /é")
    app.step(1 / 60)
    assert scene.field.text == "10.0.0.1"  # the address characters only
    driver.key(pygame.K_ESCAPE)  # one press: back to the menu, not just out of the field
    assert isinstance(app.top, MainMenu) and not scene.field.focused


@pytest.mark.parametrize("name", ["red_name", "white_name"])
def test_settings_name_fields_are_the_shared_widget(app, driver, name):
    from game.client.settings_scene import SettingsScene
    scene = SettingsScene(app, "rose-king")
    app.reset(scene)
    field = scene.names[name]
    assert isinstance(field, TextInput) and field.style == "dark" and field.text == ""
    driver.click(field.rect.center)
    driver.post(pygame.TEXTINPUT, text="Ann")
    app.step(1 / 60)
    driver.key(pygame.K_HOME)
    driver.post(pygame.TEXTINPUT, text="J")
    app.step(1 / 60)
    driver.key(pygame.K_RETURN)
    assert app.prefs.settings.of("rose-king")[name] == "JAnn" and not field.focused


def _text_fields(scene) -> list[TextInput]:
    found = []
    for value in vars(scene).values():
        items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else [value]
        found += [v for v in items if isinstance(v, TextInput)]
    return found


def test_every_player_name_field_takes_exactly_the_one_limit_and_no_more(app):
    """Settings (both names), Royals & Riots' set-up (4 seats) and its network host set-up: the
    same MAX_NAME_LENGTH, typed at once or character by character; the join screen's name field
    too. Rose King's set-up takes no name (it uses the one from Settings)."""
    from game.client.roseking.setup import ComputerSetup
    from game.client.lan.host import HostSetup
    from game.client.royals.setup import RoyalsSetup
    from game.client.settings_scene import SettingsScene
    from game.settings import MAX_NAME_LENGTH
    screens = {"settings": SettingsScene(app), "royals set-up": RoyalsSetup(app),
               "royals host set-up": HostSetup(app, "royals-riots", port=0, bind="127.0.0.1")}
    from game.client.lan.lobby import LayerJoinScene
    counts = {what: len(_text_fields(s)) for what, s in screens.items()}
    assert counts == {"settings": 2, "royals set-up": 4, "royals host set-up": 1}
    screens["join"] = LayerJoinScene(app, listen=False)
    screens["join"].field = None  # (the address field has its own limit)
    assert _text_fields(ComputerSetup(app)) == []
    for what, scene in screens.items():
        for field in _text_fields(scene):
            assert field.max_len == MAX_NAME_LENGTH, what
            field.focus()
            key(field, pygame.K_u, pygame.KMOD_LCTRL)
            typed(field, "Ä" * (MAX_NAME_LENGTH - 1))
            typed(field, "xyz")
            assert field.text == "Ä" * (MAX_NAME_LENGTH - 1) + "x", what
            field.blur()
            field.set_text("y" * (MAX_NAME_LENGTH + 8))
            assert len(field.text) == MAX_NAME_LENGTH, what


def test_the_command_line_name_has_the_same_limit(capsys):
    from game.cli import build_parser
    from game.settings import MAX_NAME_LENGTH
    parser = build_parser()
    ok = parser.parse_args(["host", "--name", "n" * MAX_NAME_LENGTH])
    assert ok.name == "n" * MAX_NAME_LENGTH
    assert parser.parse_args(["join", "127.0.0.1", "--name", "Bo"]).name == "Bo"
    for bad in ("n" * (MAX_NAME_LENGTH + 1), "", "a\u202eb"):
        with pytest.raises(SystemExit) as e:
            parser.parse_args(["join", "127.0.0.1", "--name", bad])
        assert e.value.code == 2
        assert "--name" in capsys.readouterr().err
