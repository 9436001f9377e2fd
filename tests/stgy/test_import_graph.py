"""The house's floors, read from the code's own imports (docs/architecture.md, "The
seam" and §3): `sns` imports nothing from `agents` or `bench`, `agents` nothing from
`bench`, neither of them the MCP server (`mcp_server`), and no import loop runs through
`sns`; inside `agents`, the cycle and the respond path import neither each other, and
what they share (`agents.runs`) imports neither; inside `sns`, no module imports from a
layer above its own (docs/architecture.md §2). Imports inside functions count: a
deferred import is still an arrow."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("sns", "agents", "stgy", "bench", "mcp_server")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(path: Path, module: str, modules: set[str]) -> set[str]:
    """Every module `path` imports, absolute, at any depth of the file. `from p import
    m` of a module `m` is an arrow to p.m alone (p's __init__ only runs first)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            for alias in node.names:
                names.add(f"{prefix}.{alias.name}" if f"{prefix}.{alias.name}" in modules else prefix)
    return names


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    files = {module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py") if "migrations" not in p.parts}
    edges: dict[str, set[str]] = {}
    for module, path in files.items():
        # An imported name that is a module of ours is an arrow to it; a name from a
        # module (a function, a class) is an arrow to that module.
        targets = set()
        for name in imported(path, module, set(files)):
            while name and name not in files:
                name = name.rpartition(".")[0]
            if name and name != module:
                targets.add(name)
        edges[module] = targets
    return edges


def inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def arrows(graph, source: str, target: str) -> list[str]:
    return sorted(f"{m} → {t}" for m, ts in graph.items() if inside(m, source) for t in ts if inside(t, target))


def test_the_graph_was_read(graph):
    assert len(graph) > 150 and "agents.cycle.run" in graph["agents.cycle.tasks"]


@pytest.mark.parametrize(
    ("source", "target"),
    [("sns", "agents"), ("sns", "bench"), ("agents", "bench"), ("sns", "mcp_server"), ("agents", "mcp_server")],
)
def test_no_arrow_up(graph, source, target):
    assert arrows(graph, source, target) == []


@pytest.mark.parametrize(
    ("source", "target"),
    [
        ("agents.cycle", "agents.respond"),
        ("agents.respond", "agents.cycle"),
        ("agents.runs", "agents.cycle"),
        ("agents.runs", "agents.respond"),
    ],
)
def test_the_cycle_and_the_respond_path_stand_on_agents_runs(graph, source, target):
    assert "agents.runs.turn" in graph["agents.cycle.run"] and "agents.runs.llm_calls" in graph["agents.respond.run"]
    assert arrows(graph, source, target) == []


# The layers of `sns`, lowest first (docs/architecture.md §2): a module may import its
# own layer and those below it, never one above. Every module of `sns` is on exactly one.
SNS_LAYERS = {
    "Vocabulary": ("sns.core", "sns.mdtree", "sns.extensions"),
    "Framework internals": ("sns.internals",),
    "Models": ("sns.models",),
    "Reads and checks": (
        "sns.auth",
        "sns.reads",
        "sns.selectors",
        "sns.search",
        "sns.linksnippets",
        "sns.media",
        "sns.geo",
    ),
    "Writes": ("sns.services",),
    "Interfaces": (
        "sns.api",
        "sns.web",
        "sns.admin",
        "sns.templatetags",
        "sns.management",
        "sns.tasks",
        "sns.apps",
        "sns.input_limits",
    ),
}


def sns_layer(module: str) -> int | None:
    floors = [i for i, packages in enumerate(SNS_LAYERS.values()) for p in packages if inside(module, p)]
    return floors[0] if len(floors) == 1 else None


def test_every_sns_module_is_on_one_layer(graph):
    assert [m for m in sorted(graph) if m.startswith("sns.") and sns_layer(m) is None] == []


def test_no_sns_module_imports_from_a_higher_layer(graph):
    names = list(SNS_LAYERS)
    upward = sorted(
        f"{m} ({names[sns_layer(m)]}) → {t} ({names[sns_layer(t)]})"
        for m, targets in graph.items()
        if m.startswith("sns.")
        for t in targets
        if t.startswith("sns.") and sns_layer(t) > sns_layer(m)
    )
    assert upward == []


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's components, iteratively (the graph is deep enough to matter)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[set[str]] = []
    counter = 0
    for root, targets in graph.items():
        if root in index:
            continue
        work = [(root, iter(sorted(targets)))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    found.append(component)
            elif child not in index:
                index[child] = low[child] = counter
                counter += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def test_no_import_loop_through_sns(graph):
    loops = [sorted(c) for c in strongly_connected(graph) if len(c) > 1 and any(m.startswith("sns") for m in c)]
    assert loops == []
