"""Regenerate every image in ``assets/`` from code: ``python -m assets.make_art``.

All art of Rose King is drawn here with pygame-ce primitives (no downloads, no
third-party images), so it can be rebuilt and changed by anyone. Randomness
(wood grain, parchment speckle) comes from the project's seeded :class:`Rng`, so
two runs give identical files. Sizes are the client's logical pixels (1280x800
canvas): cards 76x106, squares 56, stones 48.
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from game.roseking.engine import CARDS, Rng  # noqa: E402

OUT = Path(__file__).resolve().parent

SQUARE = 56
FRAME = 18
BOARD = SQUARE * 9 + 2 * FRAME  # 540
CARD_W, CARD_H = 76, 106
STONE = 48
CANVAS = (1280, 800)

INK = (58, 36, 22)
GOLD = (226, 180, 72)
GOLD_DARK = (150, 104, 30)
RED = (178, 34, 40)
RED_DARK = (112, 16, 22)
WHITE = (246, 240, 226)
WHITE_DARK = (176, 166, 146)
PARCHMENT = (240, 222, 180)
PARCHMENT_DARK = (214, 188, 138)

ROMAN = {1: "I", 2: "II", 3: "III"}
#: Screen angle (degrees, counter-clockwise from east) of each direction; north is up (rank 9 at the top).
ANGLE = {"N": 90, "NE": 45, "E": 0, "SE": -45, "S": -90, "SW": -135, "W": 180, "NW": 135}


def _mix(a, b, t):
    return tuple(int(a[i] + (b[i] - a[i]) * t) for i in range(3))


def _speckle(surf: pygame.Surface, rng: Rng, n: int, base, spread: int, alpha: int = 40) -> None:
    w, h = surf.get_size()
    dots = pygame.Surface((w, h), pygame.SRCALPHA)
    for _ in range(n):
        x, y = rng.randbelow(w), rng.randbelow(h)
        d = rng.randbelow(2 * spread + 1) - spread
        col = tuple(max(0, min(255, c + d)) for c in base)
        pygame.draw.circle(dots, (*col, alpha), (x, y), 1 + rng.randbelow(2))
    surf.blit(dots, (0, 0))


def wood(size, rng: Rng, light=(150, 96, 52), dark=(96, 56, 28)) -> pygame.Surface:
    """A wood-grain rectangle: horizontal bands with wavy darker grain lines."""
    w, h = size
    s = pygame.Surface(size)
    for y in range(h):
        t = 0.5 + 0.5 * math.sin(y * 0.21) * math.sin(y * 0.037 + 1.3)
        s.fill(_mix(dark, light, 0.45 + 0.4 * t), (0, y, w, 1))
    for _ in range(h // 3):
        y0 = rng.randbelow(h)
        amp = 1 + rng.randbelow(4)
        freq = 0.005 + rng.random() * 0.02
        phase = rng.random() * 6.28
        col = _mix(dark, (60, 32, 14), rng.random() * 0.6)
        pts = [(x, y0 + amp * math.sin(x * freq + phase)) for x in range(0, w + 8, 8)]
        pygame.draw.aalines(s, col, False, pts)
    return s


def parchment(size, rng: Rng, base=PARCHMENT, edge=PARCHMENT_DARK) -> pygame.Surface:
    """Warm paper with a darker edge vignette and speckle."""
    w, h = size
    s = pygame.Surface(size)
    steps = max(w, h) // 2
    for i in range(steps):
        t = i / steps
        col = _mix(edge, base, min(1.0, t * 2.2))
        pygame.draw.rect(s, col, (i, i, w - 2 * i, h - 2 * i), 1) if w - 2 * i > 0 and h - 2 * i > 0 else None
    _speckle(s, rng, w * h // 60, (180, 150, 100), 30, 28)
    return s


def rose(surf: pygame.Surface, center, r: float, petal, heart, line) -> None:
    """A heraldic rose: five outer petals, five inner petals, a seeded heart and sepals."""
    cx, cy = center
    for k in range(5):  # sepals between the petals
        a = math.radians(90 + 36 + 72 * k)
        tip = (cx + math.cos(a) * r * 1.08, cy - math.sin(a) * r * 1.08)
        left = (cx + math.cos(a - 0.25) * r * 0.5, cy - math.sin(a - 0.25) * r * 0.5)
        right = (cx + math.cos(a + 0.25) * r * 0.5, cy - math.sin(a + 0.25) * r * 0.5)
        pygame.draw.polygon(surf, (70, 120, 50), (left, tip, right))
    for k in range(5):
        a = math.radians(90 + 72 * k)
        px, py = cx + math.cos(a) * r * 0.52, cy - math.sin(a) * r * 0.52
        pygame.draw.circle(surf, petal, (px, py), r * 0.5)
        pygame.draw.circle(surf, line, (px, py), r * 0.5, max(1, int(r * 0.07)))
    for k in range(5):
        a = math.radians(90 + 36 + 72 * k)
        px, py = cx + math.cos(a) * r * 0.26, cy - math.sin(a) * r * 0.26
        pygame.draw.circle(surf, petal, (px, py), r * 0.3)
        pygame.draw.circle(surf, line, (px, py), r * 0.3, max(1, int(r * 0.06)))
    pygame.draw.circle(surf, heart, (cx, cy), r * 0.22)
    for k in range(5):
        a = math.radians(18 + 72 * k)
        pygame.draw.circle(surf, line, (cx + math.cos(a) * r * 0.1, cy - math.sin(a) * r * 0.1), max(1, r * 0.04))


def stone(color: str) -> pygame.Surface:
    """A round rose stone (48 px): shaded disc, rim, embossed rose of the house colour."""
    big = STONE * 4  # draw large, smooth-scale down (anti-aliasing)
    s = pygame.Surface((big, big), pygame.SRCALPHA)
    c = big // 2
    if color == "red":
        body, rim, petal, heart, line = RED, RED_DARK, (220, 70, 72), GOLD, RED_DARK
    else:
        body, rim, petal, heart, line = WHITE, WHITE_DARK, (255, 252, 244), GOLD, (150, 140, 120)
    pygame.draw.circle(s, (0, 0, 0, 90), (c + 6, c + 10), c - 8)  # shadow
    pygame.draw.circle(s, rim, (c, c), c - 10)
    for i in range(40):  # radial shading, light from the upper left
        t = i / 40
        col = _mix(rim, body, min(1, 0.4 + t))
        pygame.draw.circle(s, col, (c - t * 14, c - t * 14), (c - 18) * (1 - t * 0.55))
    rose(s, (c, c), c * 0.55, petal, heart, line)
    if color != "red":  # York's rim is beaded, Lancaster's smooth: told apart by shape, not only colour
        for k in range(12):
            a = k * math.tau / 12
            pygame.draw.circle(s, line, (c + math.cos(a) * (c - 24), c + math.sin(a) * (c - 24)), 7)
    glint = pygame.Surface((big, big), pygame.SRCALPHA)
    pygame.draw.ellipse(glint, (255, 255, 255, 60), (c - 58, c - 60, 50, 30))
    s.blit(glint, (0, 0))
    return pygame.transform.smoothscale(s, (STONE, STONE))


def crown() -> pygame.Surface:
    """The golden crown (48x40) with three points, pearls and a red jewel."""
    W, H = 192, 160
    s = pygame.Surface((W, H), pygame.SRCALPHA)
    pts = [(16, 130), (8, 36), (56, 84), (96, 14), (136, 84), (184, 36), (176, 130)]
    shadow = [(x + 6, y + 8) for x, y in pts]
    pygame.draw.polygon(s, (0, 0, 0, 100), shadow)
    pygame.draw.polygon(s, GOLD, pts)
    pygame.draw.polygon(s, GOLD_DARK, pts, 7)
    pygame.draw.rect(s, GOLD_DARK, (12, 116, 168, 30), border_radius=6)
    pygame.draw.rect(s, (240, 200, 96), (18, 120, 156, 20), border_radius=5)
    for x, y in ((8, 36), (96, 14), (184, 36)):
        pygame.draw.circle(s, (250, 246, 230), (x, y), 12)
        pygame.draw.circle(s, GOLD_DARK, (x, y), 12, 3)
    pygame.draw.circle(s, RED, (96, 98), 16)
    pygame.draw.circle(s, (255, 140, 140), (91, 92), 5)
    for x in (44, 148):
        pygame.draw.circle(s, (40, 110, 180), (x, 106), 9)
    return pygame.transform.smoothscale(s, (48, 40))


def board(rng: Rng) -> pygame.Surface:
    """The 9x9 board (540 px): wooden frame with coordinates, parchment squares, grid, e5 marked."""
    s = wood((BOARD, BOARD), rng)
    pygame.draw.rect(s, (60, 34, 16), s.get_rect(), 4, border_radius=4)
    inner = pygame.Rect(FRAME, FRAME, SQUARE * 9, SQUARE * 9)
    pygame.draw.rect(s, (40, 22, 10), inner.inflate(6, 6), 3)
    paper = parchment(inner.size, rng)
    s.blit(paper, inner.topleft)
    for i in range(10):
        x = FRAME + i * SQUARE
        w = 2 if i in (0, 9) else 1
        pygame.draw.line(s, (150, 118, 72), (x, FRAME), (x, FRAME + 9 * SQUARE), w)
        pygame.draw.line(s, (150, 118, 72), (FRAME, x), (FRAME + 9 * SQUARE, x), w)
    # e5: the crown's start, a faint compass rose
    cx = cy = FRAME + 4 * SQUARE + SQUARE // 2
    for k in range(8):
        a = math.radians(45 * k)
        ln = 22 if k % 2 == 0 else 14
        tip = (cx + math.cos(a) * ln, cy - math.sin(a) * ln)
        l = (cx + math.cos(a + 1.2) * 5, cy - math.sin(a + 1.2) * 5)
        r = (cx + math.cos(a - 1.2) * 5, cy - math.sin(a - 1.2) * 5)
        pygame.draw.polygon(s, (196, 160, 104), (l, tip, r))
    pygame.font.init()
    f = pygame.font.Font(None, 17)
    for i in range(9):
        letter = f.render("abcdefghi"[i], True, (244, 222, 176))
        x = FRAME + i * SQUARE + SQUARE // 2
        s.blit(letter, letter.get_rect(center=(x, FRAME // 2)))
        s.blit(letter, letter.get_rect(center=(x, BOARD - FRAME // 2)))
        digit = f.render(str(9 - i), True, (244, 222, 176))
        y = FRAME + i * SQUARE + SQUARE // 2
        s.blit(digit, digit.get_rect(center=(FRAME // 2, y)))
        s.blit(digit, digit.get_rect(center=(BOARD - FRAME // 2, y)))
    return s


def _card_base(rng: Rng, border=(120, 78, 40)) -> pygame.Surface:
    s = pygame.Surface((CARD_W, CARD_H), pygame.SRCALPHA)
    face = parchment((CARD_W, CARD_H), rng, (248, 236, 206), (222, 200, 156))
    mask = pygame.Surface((CARD_W, CARD_H), pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=8)
    face = face.convert_alpha() if pygame.display.get_surface() else face
    s.blit(face, (0, 0))
    s.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    pygame.draw.rect(s, border, s.get_rect(), 3, border_radius=8)
    pygame.draw.rect(s, (*GOLD_DARK, 160), s.get_rect().inflate(-10, -10), 1, border_radius=6)
    return s


def _arrow(direction: str, length: float) -> pygame.Surface:
    """A bold arrow of ``length`` px along the board direction (drawn 4x and smooth-scaled)."""
    k = 4
    size = int(length * k)
    s = pygame.Surface((size, size), pygame.SRCALPHA)
    c = size / 2
    shaft_w, head_w, head_l = size * 0.09, size * 0.26, size * 0.3
    # pointing east, then rotate
    half = size * 0.42
    body = [(c - half, c - shaft_w), (c + half - head_l, c - shaft_w), (c + half - head_l, c - head_w),
            (c + half, c), (c + half - head_l, c + head_w), (c + half - head_l, c + shaft_w),
            (c - half, c + shaft_w)]
    pygame.draw.polygon(s, (86, 22, 24), [(x + 6, y + 6) for x, y in body])
    pygame.draw.polygon(s, (196, 48, 44), body)
    pygame.draw.polygon(s, (90, 20, 20), body, 6)
    s = pygame.transform.rotate(s, ANGLE[direction])
    s = pygame.transform.smoothscale(s, (int(s.get_width() / k), int(s.get_height() / k)))
    return s


def power_card(card, rng: Rng, font) -> pygame.Surface:
    """A power card: the direction arrow (north is up, as the board is shown) and the Roman distance."""
    s = _card_base(rng)
    arrow = _arrow(card.direction, 52)
    s.blit(arrow, arrow.get_rect(center=(CARD_W // 2, 44)))
    numeral = font.render(ROMAN[card.distance], True, INK)
    s.blit(numeral, numeral.get_rect(center=(CARD_W // 2, CARD_H - 22)))
    return s


def card_back(rng: Rng) -> pygame.Surface:
    """The back of a power card (draw pile): deep green with a gold rose and a lattice."""
    s = pygame.Surface((CARD_W, CARD_H), pygame.SRCALPHA)
    pygame.draw.rect(s, (34, 74, 52), s.get_rect(), border_radius=8)
    lattice = pygame.Surface((CARD_W, CARD_H), pygame.SRCALPHA)
    for i in range(-CARD_H, CARD_W + CARD_H, 12):
        pygame.draw.line(lattice, (60, 112, 80, 140), (i, 0), (i + CARD_H, CARD_H))
        pygame.draw.line(lattice, (60, 112, 80, 140), (i, CARD_H), (i + CARD_H, 0))
    s.blit(lattice, (0, 0))
    pygame.draw.rect(s, GOLD_DARK, s.get_rect(), 3, border_radius=8)
    pygame.draw.rect(s, GOLD, s.get_rect().inflate(-10, -10), 1, border_radius=6)
    big = pygame.Surface((160, 160), pygame.SRCALPHA)
    rose(big, (80, 80), 60, GOLD, (250, 230, 170), GOLD_DARK)
    big = pygame.transform.smoothscale(big, (44, 44))
    s.blit(big, big.get_rect(center=(CARD_W // 2, CARD_H // 2)))
    return s


def hero_card(color: str, rng: Rng, font) -> pygame.Surface:
    """A hero card of ``color``: a knight's shield bearing the house rose (untitled: see game.client.roseking.art)."""
    body, rim = (RED, RED_DARK) if color == "red" else (WHITE, WHITE_DARK)
    s = _card_base(rng, border=rim if color == "red" else (130, 120, 100))
    k = 4
    big = pygame.Surface((60 * k, 70 * k), pygame.SRCALPHA)
    W, H = big.get_size()
    shield = [(W * 0.08, H * 0.05), (W * 0.92, H * 0.05), (W * 0.92, H * 0.5), (W * 0.5, H * 0.97),
              (W * 0.08, H * 0.5)]
    pygame.draw.polygon(big, body, shield)
    pygame.draw.polygon(big, GOLD_DARK, shield, 10)
    petal = (225, 70, 72) if color == "red" else (255, 252, 244)
    rose(big, (W * 0.5, H * 0.42), W * 0.3, petal, GOLD, rim if color == "red" else (150, 140, 120))
    big = pygame.transform.smoothscale(big, (60, 70))
    s.blit(big, big.get_rect(center=(CARD_W // 2, 44)))
    # The title ("HERO", "HELD", "HÉROS"...) is drawn by the client in the player's language.
    return s


def table(rng: Rng) -> pygame.Surface:
    """The table under everything (1280x800): dark green baize with a soft vignette."""
    w, h = CANVAS
    s = pygame.Surface(CANVAS)
    cx, cy = w / 2, h / 2
    maxd = math.hypot(cx, cy)
    # concentric ellipses from the outside in give a cheap smooth vignette
    steps = 90
    for i in range(steps):
        t = i / (steps - 1)
        col = _mix((14, 38, 28), (40, 92, 64), t ** 0.8)
        rw, rh = w * 1.5 * (1 - t) + 40, h * 1.5 * (1 - t) + 26
        pygame.draw.ellipse(s, col, (cx - rw / 2, cy - rh / 2, rw, rh))
    del maxd
    _speckle(s, rng, 9000, (40, 90, 60), 18, 22)
    return s


def build(out: Path = OUT) -> list[Path]:
    """Draw every asset into ``out``; returns the files written."""
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((1, 1))
    rng = Rng(1999)  # fixed seed: identical files on every run
    files: dict[str, pygame.Surface] = {
        "table.png": table(rng),
        "board.png": board(rng),
        "stone_red.png": stone("red"),
        "stone_white.png": stone("white"),
        "crown.png": crown(),
        "card_back.png": card_back(rng),
    }
    numeral_font = pygame.font.Font(None, 40)
    hero_font = pygame.font.Font(None, 20)
    for card in CARDS:
        files[f"card_{card.name}.png"] = power_card(card, rng, numeral_font)
    files["hero_red.png"] = hero_card("red", rng, hero_font)
    files["hero_white.png"] = hero_card("white", rng, hero_font)
    written = []
    for name, surf in files.items():
        path = out / name
        pygame.image.save(surf, str(path))
        written.append(path)
    return written


if __name__ == "__main__":
    paths = build(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
    print(f"wrote {len(paths)} images to {paths[0].parent}")
