"""The package's imports point one way and form no cycle (docs/design.md, "Layout")."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]


def test_the_layers_contract_holds():
    done = subprocess.run(
        [str(Path(sys.executable).with_name("lint-imports")), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 1 kept, 0 broken." in done.stdout


def test_the_adapters_never_import_each_other():
    """cli, mcp and watch share the top layer as independent packages."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = config["tool"]["importlinter"]["contracts"]
    top = {name.strip() for name in contract["layers"][0].split("|")}
    assert top == {"gardener.cli", "gardener.mcp", "gardener.watch"}


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in graph.find_modules_directly_imported_by(module):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_no_module_imports_itself_round_a_cycle():
    graph = grimp.build_graph("gardener", cache_dir=None)
    # a package's __init__ is no module of its own here: importing a.b imports a
    for package in [m for m in graph.modules if graph.find_children(m)]:
        for child in graph.find_children(package):
            if graph.direct_import_exists(importer=package, imported=child):
                graph.remove_import(importer=package, imported=child)
    assert _cycles(graph) == []
