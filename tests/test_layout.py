"""The package's layout: each game in its own folder, registered in one table; the
package cut in layers (common, games, search, tools, interfaces, and the facade on top)
whose imports point one way, with no import cycle anywhere."""
import ast
import importlib
import pathlib

import pyspiel

import gutenberg_ai
from gutenberg_ai import games


def test_every_game_of_the_table_has_its_parts_in_its_own_folder():
    for g in games.GAMES.values():
        folder = f"gutenberg_ai.games.{g.key.replace('-', '_')}"
        for module in (g.module, g.core_module, g.view_module, g.position_module, g.cards_module):
            assert module.startswith(folder + "."), (g.key, module)
            importlib.import_module(module)
        assert g.load().get_type().short_name == g.spiel_name


def test_the_native_games_are_registered_by_importing_the_package():
    names = {t.short_name for t in pyspiel.registered_games()}
    assert {"gutenberg", "gutenberg_py", "printing_press"} <= names


PACKAGE = pathlib.Path(gutenberg_ai.__file__).parent
# Each layer and the layers it may import (besides itself); the facade (gutenberg_ai's
# __init__) and __main__ sit on top of all of them and no module imports them. LEAVES are
# data every layer may read: the version, and what setup.py wrote at the build.
LEAVES = {"gutenberg_ai._version", "gutenberg_ai._build_info"}
LAYERS = {
    "common": set(),
    "games": {"common"},
    "search": {"games", "common"},
    "tools": {"search", "games", "common"},
    "interfaces": {"tools", "search", "games", "common"},
    "env": {"tools", "search", "games", "common"},     # beside the interfaces: gutenberg_ai.env
    "examples": set(),
}


def _module_of(path: pathlib.Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, pathlib.Path | None]:
    """The package's modules: its Python files, and its compiled cores (None: no source
    here to read, they import nothing of the package)."""
    found: dict[str, pathlib.Path | None] = {_module_of(p): p for p in PACKAGE.rglob("*.py")}
    for p in PACKAGE.rglob("*.so"):
        found.setdefault(_module_of(p.with_name(p.name.split(".")[0] + ".py")), None)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports, at any depth of its code (an import
    inside a function is a dependency too). `from a import b` names the module a.b when
    there is one, else a."""
    modules = _modules()
    graph = {}
    for name, path in modules.items():
        if path is None:
            graph[name] = set()
            continue
        is_package = path.name == "__init__.py"
        deps = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                deps |= {a.name for a in node.names if a.name in modules}
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name.split(".")
                    base = base[:len(base) - node.level + (1 if is_package else 0)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                if source not in modules:
                    continue
                for a in node.names:
                    sub = f"{source}.{a.name}"
                    deps.add(sub if sub in modules else source)
        deps.discard(name)
        graph[name] = deps
    return graph


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def test_every_module_lives_in_a_layer():
    loose = [m for m in _modules() if _layer(m) is None
             and m not in {"gutenberg_ai", "gutenberg_ai.__main__", *LEAVES}]
    assert loose == []


def test_imports_point_down_the_layers():
    wrong = []
    for module, deps in import_graph().items():
        layer = _layer(module)
        if layer is None:
            continue
        for dep in deps:
            target = _layer(dep)
            if target != layer and target not in LAYERS[layer] and dep not in LEAVES:
                wrong.append(f"{module} imports {dep}")
    assert sorted(wrong) == []


def cycles_of(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of a graph: its strongly connected components of more than one
    module (Tarjan's algorithm)."""
    index, low, on_stack, stack, cycles = {}, {}, set(), [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
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
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def test_no_import_cycle_anywhere():
    assert cycles_of(import_graph()) == []


def test_the_cycle_check_finds_cycles_and_lazy_imports():
    assert cycles_of({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles_of({"a": {"b"}, "b": set()}) == []
    # An import inside a function counts: the arena imports the cluster only when --ray is given.
    assert "gutenberg_ai.tools.cluster" in import_graph()["gutenberg_ai.tools.arena"]
