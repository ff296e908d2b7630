"""The project's imports go one way, and no module reaches, at import time or later, a
module that reaches back to it:

1. the engine's shared parts (the modules at the top of ``games/engine/``);
2. the presenters' shared parts (``games/presenters/``) and the bots' core (``games/bots/``);
3. the game folders (``games/engine/<folder>/``), each importing the shared parts and its
   own modules only (``test_game_folders`` holds that);
4. the registry (``games/registry.py``), which names each game's folder and board;
5. services; then views, mail, clocks, journal.

The engine package's ``__init__`` imports every game folder, so that each registers its
rules; a folder's ``__init__`` imports only its rules, so the presenters and the bots'
parts of a game, which import layer 2, are loaded by name (the registry, the bots) and
close no loop.

The check reads the source (every ``import`` anywhere in a module, also those inside
functions, since a deferred import that closes a loop is a loop postponed), so it sees
what the code says, not what one run happened to import.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "journal", "sefirot_site")


def project_modules() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules ``name`` imports, anywhere in its source."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()

    def project_module(dotted: str) -> str | None:
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name.split(".") if is_package else name.split(".")[:-1]
                package = package[:len(package) - (node.level - 1)]
                base = ".".join(package + ([base] if base else []))
            # "from pkg import sub" imports the submodule; "from pkg import name", the package.
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                       for alias in node.names]
        else:
            continue
        for target in targets:
            module = project_module(target)
            if module and module != name:
                found.add(module)
            # Importing a.b.c runs a/__init__ and a/b/__init__ first: those are imported
            # too, unless they are the importer's own packages (already under way).
            while module := module and module.rpartition(".")[0]:
                if not (name + ".").startswith(module + "."):
                    found.add(module)
    return found


def import_loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), each a loop."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    loops: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                group.append(other)
                if other == node:
                    break
            if len(group) > 1:
                loops.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return loops


def project_graph() -> dict[str, set[str]]:
    modules = project_modules()
    graph = defaultdict(set)
    for name, path in modules.items():
        graph[name] = imports_of(name, path, modules)
    return graph


def test_no_module_imports_its_way_back_to_itself():
    loops = import_loops(project_graph())
    assert loops == [], "import loops: " + "; ".join(" <-> ".join(group) for group in loops)


def test_the_check_finds_a_loop_when_there_is_one():
    assert import_loops({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize("low, high", [
    ("games.engine", "django"),
    ("games.presenters", "django"),
    ("games.bots", "django"),
    ("games.engine", "games.registry"),
    ("games.presenters", "games.registry"),
    ("games.bots", "games.registry"),
    ("games.registry", "games.services"),
    ("games.engine", "games.services"),
    ("games.solver", "django"),  # the solver is pure Python over the engine, like the bots
    ("games.services", "games.views"),
    ("games.services", "games.mail"),
    ("games.services", "games.clocks"),
    ("games.mail", "games.clocks"),
])
def test_a_lower_layer_never_imports_a_higher_one(low, high):
    modules = project_modules()
    offenders = []
    for name, path in modules.items():
        if name == low or name.startswith(low + "."):
            source = ast.parse(path.read_text())
            for node in ast.walk(source):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
                offenders += [f"{name} imports {n}" for n in names if n == high or n.startswith(high + ".")]
    assert offenders == []
