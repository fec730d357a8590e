"""The modules of medina_cli import each other without cycles, no module borrows another's private
names (`from .record import _Reader`), and the CLI stays on the public surface (docs/api.md)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import medina_cli
from conftest import ROOT

PACKAGE = Path(medina_cli.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> list[tuple[str, list[str]]]:
    """(imported module, names) for each `import` and `from ... import` anywhere in the file."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[:len(base) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            found.append((target, [alias.name for alias in node.names]))
        elif isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
    return found


GRAPH = {module_name(path): imports_of(path) for path in PACKAGE.rglob("*.py")}


def edges(module: str) -> set[str]:
    out = set()
    for target, names in GRAPH[module]:
        out |= {f"{target}.{name}" for name in names if f"{target}.{name}" in GRAPH}
        if target in GRAPH and not target.endswith("medina_cli"):
            out.add(target)
    return out - {module}


def test_the_record_readers_import_no_cycle():
    for path in (PACKAGE / "records").glob("*.py"):
        start = module_name(path)
        seen, todo = set(), [start]
        while todo:
            for target in edges(todo.pop()):
                if target.startswith("medina_cli.records.") and target not in seen:
                    assert target != start, f"{start} imports itself through {sorted(seen)}"
                    seen.add(target)
                    todo.append(target)


def test_no_module_borrows_a_private_name_of_another():
    borrowed = [(module, target, name) for module, imports in GRAPH.items() for target, names in imports
                for name in names if name.startswith("_") and not name.startswith("__") and target != module]
    assert borrowed == []


CLI_MODULES = {module: path for path in (PACKAGE / "cli").glob("*.py") if (module := module_name(path))}


def test_no_cli_module_imports_the_engine():
    reaching = [(module, target) for module in CLI_MODULES for target, _ in GRAPH[module]
                if target.startswith("medina_cli.engine")]
    assert reaching == []


def test_no_cli_module_reaches_for_what_a_game_keeps_inside():
    """A `Game`'s attributes that neither docs/api.md nor docs/format.md name (its geometry, bit masks,
    counters) are the engine's own: the CLI uses the documented ones, or the public surface gets what it
    lacks. (Names are compared, not objects: a documented field of another value is fine.)"""
    import medina_cli as medina
    docs = ROOT / "docs"
    documented = {*re.findall(r"`(\w+)", (docs / "api.md").read_text(encoding="utf-8")),
                  *re.findall(r"\"(\w+)\"", (docs / "format.md").read_text(encoding="utf-8"))}
    rules = medina.load_ruleset("original-2001", players=3)
    game = medina.Game(rules, ["Anna", "Ben", "Cleo"], merchant="K7")
    inside = {name for name in {*dir(game), *vars(game)} if not name.startswith("_")} - documented - set(dir(rules))
    reached = [(module, node.attr) for module, path in CLI_MODULES.items()
               for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
               if isinstance(node, ast.Attribute) and node.attr in inside]
    assert "geo" in inside and reached == []
