"""The layout holds: data flows one way through the stage packages, and no module imports
one that imports it back (read from the code itself, lazy imports inside functions too)."""

from __future__ import annotations

import ast
from pathlib import Path

import satnono

ROOT = Path(satnono.__file__).resolve().parent

#: the stages in the order data flows through them; a module may import from its own
#: package and from packages before it, never from one after it
ORDER = ["errors", "model", "tuning", "runtime", "engine", "logic", "encode", "plan", "backends",
         "pipeline",
         "analyze", "io", "batch", "bench", "web", "cli", "__init__", "entry", "__main__"]


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__" and len(parts) > 1:
            parts = parts[:-1]
        out[".".join(["satnono", *parts])] = path
    out["satnono"] = out.pop("satnono.__init__")
    return out


MODULES = _modules()


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _runtime_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement that runs, at any depth; not those under TYPE_CHECKING."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for sub in child.orelse:
                    visit(sub)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append(child)
            visit(child)

    visit(tree)
    return found


def imports_of(name: str) -> set[str]:
    """The satnono modules ``name`` imports."""
    tree = ast.parse(MODULES[name].read_text())
    package = name if _is_package(name) else name.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in _runtime_imports(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in MODULES)
            continue
        if node.level:
            base = package.split(".")
            base = base[:len(base) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
        else:
            target = node.module or ""
        if target not in MODULES:
            continue
        for alias in node.names:  # ``from . import bench`` imports the module bench
            sub = f"{target}.{alias.name}"
            out.add(sub if sub in MODULES else target)
    out.discard(name)
    return out


def _stage(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_no_module_imports_one_that_imports_it_back():
    graph = {name: imports_of(name) for name in MODULES}
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(name: str) -> None:
        state[name] = 1
        path.append(name)
        for nxt in sorted(graph[name]):
            if state.get(nxt) == 1:
                cycle = path[path.index(nxt):] + [nxt]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt)
        path.pop()
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)
    assert len(graph) > 50  # the walk saw the whole package


def test_data_flows_one_way_through_the_stages():
    wrong = []
    for name in MODULES:
        mine = ORDER.index(_stage(name))
        for target in imports_of(name):
            theirs = ORDER.index(_stage(target))
            if theirs > mine:
                wrong.append(f"{name} imports {target}")
    assert wrong == []
