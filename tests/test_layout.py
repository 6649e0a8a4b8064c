"""The two-games layout: no import cycles in game/ or net/, and the engines,
computer players, registry and network layer never import pygame, directly or through
another module. Imports inside functions and under ``if TYPE_CHECKING:`` count too."""

from __future__ import annotations

import ast
import functools
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@functools.lru_cache(maxsize=1)
def _graph() -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    edges, outside = _import_graph()
    return {m: frozenset(v) for m, v in edges.items()}, {m: frozenset(v) for m, v in outside.items()}


def import_graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(edges between our modules, outside top-level packages each module imports); parsed once
    per run, a fresh copy each call (a test may plant edges in its copy)."""
    edges, outside = _graph()
    return {m: set(v) for m, v in edges.items()}, {m: set(v) for m, v in outside.items()}


def _import_graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    mods: dict[str, Path] = {}
    for top in ("game", "net"):
        for path in (ROOT / top).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            mods[name.removesuffix(".__init__")] = path
    edges: dict[str, set[str]] = {m: set() for m in mods}
    outside: dict[str, set[str]] = {m: set() for m in mods}
    for mod, path in mods.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                names = [target] + [f"{target}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                found = name
                while found and found not in mods:
                    found = found.rpartition(".")[0]
                if found and found != mod:
                    edges[mod].add(found)
                elif not found:
                    outside[mod].add(name.partition(".")[0])
    return edges, outside


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in edges:
        if v not in index:
            visit(v)
    return out


def reachable(edges: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for w in edges[todo.pop()]:
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return seen


def pure_modules(edges: dict[str, set[str]]) -> list[str]:
    """Modules that must never reach pygame: every game's engine, AI and LAN match machine, the
    registry, record reading, the seeded generator, and all of net/."""
    def game_part(m: str) -> bool:
        parts = m.split(".")
        return parts[0] == "game" and len(parts) > 2 and parts[1] not in ("client", "commands") \
            and parts[2] in ("engine", "ai", "lan")
    return [m for m in edges
            if m.startswith("net") or m in ("game.registry", "game.records", "game.rng", "game.lan") or game_part(m)]


def test_no_import_cycles_in_game_or_net():
    edges, _ = import_graph()
    found = cycles(edges)
    assert not found, "modules that import each other in a loop: " + "; ".join(" <-> ".join(c) for c in found)


def test_engines_ai_and_net_never_reach_pygame():
    edges, outside = import_graph()
    pure = pure_modules(edges)
    assert "game.roseking.engine.state" in pure and "net.framing" in pure and "game.roseking.ai.mcts" in pure
    bad = {m: sorted(w for w in reachable(edges, m) if "pygame" in outside[w]) for m in pure}
    bad = {m: via for m, via in bad.items() if via}
    assert not bad, f"these reach pygame (through the modules listed): {bad}"


def test_net_names_no_game_and_sits_below_every_game():
    """net/ is the game-free layer: it imports no game package (each game's LAN match machine
    lives in the game, e.g. game/royals/lan/), only the app's shared helpers."""
    edges, _ = import_graph()
    shared = {"game", "game.rng", "game.records", "game.fsutil"}
    up = {m: sorted(w for w in ws if w.startswith("game") and w not in shared)
          for m, ws in edges.items() if m.startswith("net")}
    assert "net.session" in edges and "game.royals.lan.match" in edges and "game.roseking.lan.match" in edges
    assert not {m: w for m, w in up.items() if w}, "net/ reaches up into a game"
    assert not [p for p in (ROOT / "net").iterdir() if p.is_dir() and p.name not in ("deck", "__pycache__")]


def test_importing_the_pure_side_loads_no_pygame():
    code = ("import sys, game.registry, game.commands.check, net.session, game.roseking.lan.match, game.roseking.ai; "
            "print('pygame' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_the_checker_sees_a_planted_cycle_and_a_planted_pygame_import():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]
    edges, outside = import_graph()
    edges = {**edges, "game.roseking.engine.state": edges["game.roseking.engine.state"] | {"game.client.theme"}}
    reach = reachable(edges, "game.roseking.engine.state")
    assert any("pygame" in outside[w] for w in reach)

