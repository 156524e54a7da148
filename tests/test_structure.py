"""The package's import graph has no cycle, and core imports nothing above core.

The graph is built from the source with ast, counting every import of a
module: at the top or inside a function. `import a.b.c` and
`from a.b import c` (c a module) point at a.b.c; `from a.b import name`
(name not a module) points at a.b. The parent packages Python runs first
are not edges: they are the same for every importer.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent / "fogboard_games"


def modules(root: pathlib.Path = ROOT) -> dict[str, pathlib.Path]:
    out = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def import_graph(mods: dict[str, pathlib.Path]) -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    edges: dict[str, set[str]] = {}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                for a in node.names:
                    sub = f"{source}.{a.name}"
                    found.add(sub if sub in mods else source)
        edges[name] = {m for m in found if m in mods and m != name}
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def a_cycle(edges: dict[str, set[str]], component: list[str]) -> list[str]:
    """One closed path through a component, for the failure message."""
    inside = set(component)
    path = [component[0]]
    seen = {component[0]: 0}
    while True:
        nxt = sorted(edges[path[-1]] & inside)[0]
        if nxt in seen:
            return path[seen[nxt] :] + [nxt]
        seen[nxt] = len(path)
        path.append(nxt)


GRAPH = import_graph(modules())


def test_the_graph_sees_every_module_and_its_imports():
    # The walk must find the modules and the edges it is there to judge.
    assert "fogboard_games.core.glue" in GRAPH
    assert "fogboard_games.core.contract" in GRAPH["fogboard_games.core.glue"]
    assert "fogboard_games.bots.base" in GRAPH["fogboard_games.parley.bots"]
    assert len(GRAPH) > 40


def test_the_cycle_finder_finds_a_cycle_inside_a_function(tmp_path):
    # A package whose cycle closes through an import inside a function.
    pkg = tmp_path / "fogboard_games"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from fogboard_games.sub import b\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    from fogboard_games import c\n")
    (pkg / "c.py").write_text("from . import sub\n")
    edges = import_graph(modules(pkg))
    found = cycles(edges)
    assert found == [["fogboard_games.c", "fogboard_games.sub", "fogboard_games.sub.b"]]
    path = a_cycle(edges, found[0])
    assert path[0] == path[-1] and len(path) == 4


def test_no_import_cycle():
    found = cycles(GRAPH)
    described = [" -> ".join(a_cycle(GRAPH, c)) for c in found]
    assert not found, "import cycles:\n" + "\n".join(described)


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if m.startswith("fogboard_games.core")))
def test_core_imports_nothing_above_core(module):
    above = sorted(m for m in GRAPH[module] if not m.startswith("fogboard_games.core"))
    assert not above, f"{module} imports {above}"


# The packages every game shares, and the games' own packages: a shared
# module names no game (a game declares what it adds in its Ruleset, and
# the registry imports it by name on first use), so a new game touches none
# of them.
SHARED = ("batch", "pages", "core", "bots", "league")
GAME_PACKAGES = ("boards", "liars_dice", "mind_bluff", "parley")


def game_imports(graph: dict[str, set[str]]) -> dict[str, list[str]]:
    """Shared module -> the game modules it imports."""

    def within(module: str, packages) -> bool:
        return any(
            module == f"fogboard_games.{p}" or module.startswith(f"fogboard_games.{p}.")
            for p in packages
        )

    found = {}
    for module, targets in graph.items():
        named = sorted(t for t in targets if within(t, GAME_PACKAGES))
        if within(module, SHARED) and named:
            found[module] = named
    return found


def test_the_game_import_finder_finds_one(tmp_path):
    pkg = tmp_path / "fogboard_games"
    for sub in ("batch", "boards"):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "boards" / "rules.py").write_text("")
    (pkg / "batch" / "env.py").write_text("def f():\n    from fogboard_games.boards import rules\n")
    found = game_imports(import_graph(modules(pkg)))
    assert found == {"fogboard_games.batch.env": ["fogboard_games.boards.rules"]}


def test_no_shared_module_imports_a_game():
    assert set(GAME_PACKAGES) <= {m.split(".")[1] for m in GRAPH if m.count(".")}
    found = game_imports(GRAPH)
    assert not found, f"shared modules import game packages: {found}"
