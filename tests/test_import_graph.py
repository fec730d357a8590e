"""The modules of medina_cli import each other without cycles, no module borrows another's private
names (`from .record import _Reader`), the CLI stays on the public surface (docs/api.md), and the
engine loads neither YAML nor the layers above it."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

import medina_cli

PACKAGE = Path(medina_cli.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


# The imports up the layers, python-chess's way (its `_repr_svg_` imports `chess.svg` when it draws):
# each inside the one method that writes or draws, so that importing the engine loads neither records
# nor render. (module, method) -> the module it imports there; none other goes up, and these are left
# out of the graph that the cycle and layer tests read.
LAZY_UPWARD = {
    ("medina_cli.engine.game", "to_record"): "medina_cli.records.model",
    ("medina_cli.engine.position", "_repr_svg_"): "medina_cli.render.svg",
    ("medina_cli.engine.game", "from_record"): "medina_cli.records.record",
    ("medina_cli.engine.game", "__str__"): "medina_cli.render.text",
}


TYPE_CHECKING_BLOCK = "<if TYPE_CHECKING>"  # the "function" of an import for annotations only


def all_imports_of(path: Path) -> list[tuple[str, list[str], str | None]]:
    """(imported module, names, the function it is imported in or None, or TYPE_CHECKING_BLOCK) for each
    `import` and `from ... import` anywhere in the file."""
    package = (
        module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    )
    found = []

    def visit(node, function):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[: len(base) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            found.append((target, [alias.name for alias in node.names], function))
        elif isinstance(node, ast.Import):
            found.extend((alias.name, [], function) for alias in node.names)
        inner = node.name if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
        if (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.Name)
            and node.test.id == "TYPE_CHECKING"
        ):
            inner = TYPE_CHECKING_BLOCK
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8")), None)
    return found


def imports_of(path: Path, run_time: bool = False) -> list[tuple[str, list[str]]]:
    """(imported module, names) for each import of the file but the LAZY_UPWARD ones (`run_time`: and
    those for annotations only)."""
    module = module_name(path)
    return [
        (target, names)
        for target, names, function in all_imports_of(path)
        if LAZY_UPWARD.get((module, function)) != target
        and not (run_time and function == TYPE_CHECKING_BLOCK)
    ]


GRAPH = {module_name(path): imports_of(path) for path in PACKAGE.rglob("*.py")}
# the imports Python runs: those for annotations only (under `if TYPE_CHECKING:`) left out
RUN_TIME_GRAPH = {
    module_name(path): imports_of(path, run_time=True) for path in PACKAGE.rglob("*.py")
}


def edges(module: str) -> set[str]:
    """The modules of medina_cli that `module` imports at run time."""
    out = set()
    for target, names in RUN_TIME_GRAPH[module]:
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


def test_no_modules_import_each_other():
    """No import circles (a lazy import inside a function counts too, the LAZY_UPWARD ones and those for
    annotations only apart): each module imports only what it does not serve."""
    circles = set()
    for start in GRAPH:
        seen, todo = {start: (start,)}, [start]
        while todo:
            module = todo.pop()
            for target in edges(module):
                if target == start:
                    circles.add(frozenset(seen[module]))
                elif target not in seen:
                    seen[target] = (*seen[module], target)
                    todo.append(target)
    assert circles == set()


def test_no_module_borrows_a_private_name_of_another():
    borrowed = [
        (module, target, name)
        for module, imports in GRAPH.items()
        for target, names in imports
        for name in names
        if name.startswith("_") and not name.startswith("__") and target != module
    ]
    assert borrowed == []


CLI_MODULES = {
    module: path for path in (PACKAGE / "cli").glob("*.py") if (module := module_name(path))
}


def test_no_cli_module_imports_the_engine():
    reaching = [
        (module, target)
        for module in CLI_MODULES
        for target, _ in GRAPH[module]
        if target.startswith("medina_cli.engine")
    ]
    assert reaching == []


def test_no_cli_module_reaches_for_what_a_game_keeps_inside():
    """A `Game`'s attributes that neither docs/api.md nor docs/format.md name (its geometry, bit masks,
    counters) are the engine's own: the CLI uses the documented ones, or the public surface gets what it
    lacks. (Names are compared, not objects: a documented field of another value is fine.)"""
    import medina_cli as medina

    docs = ROOT / "docs"
    documented = {
        *re.findall(r"`(\w+)", (docs / "api.md").read_text(encoding="utf-8")),
        *re.findall(r"\"(\w+)\"", (docs / "format.md").read_text(encoding="utf-8")),
    }
    rules = medina.load_ruleset("original-2001", players=3)
    game = medina.Game(rules, ["Anna", "Ben", "Cleo"], merchant="K7")
    inside = (
        {name for name in {*dir(game), *vars(game)} if not name.startswith("_")}
        - documented
        - set(dir(rules))
    )
    reached = [
        (module, node.attr)
        for module, path in CLI_MODULES.items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr in inside | {"_geo", "_palace_at", "_play"}
    ]
    assert inside == set() and reached == []  # every public name of a game is documented


# the packages from the bottom up: a module imports only from its own level or below
LEVELS = {
    "errors": 0,
    "yamlio": 0,
    "files": 0,
    "version": 0,
    "rules": 1,
    "engine": 2,
    "records": 3,
    "comparison": 4,
    "agents": 4,
    "study": 5,
    "render": 5,
    "session": 6,
    "api": 6,
    "medina_cli": 6,
    "cli": 7,
    "__main__": 8,
}


def package_of(module: str) -> str:
    """`medina_cli.engine.game` -> engine; the package's own `__init__` -> medina_cli."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "medina_cli"


def package_imports():
    """(package, imported package) for every import of medina_cli within a module of medina_cli, a lazy
    one inside a function too (the package's own `__init__`, the public surface that loads its names on
    first use, apart)."""
    for path in PACKAGE.rglob("*.py"):
        module = module_name(path)
        if module == "medina_cli":
            continue
        for target, _ in imports_of(path):
            if target.startswith("medina_cli"):
                yield package_of(module), package_of(target)


def test_dependencies_point_down_the_layers():
    found = set(package_imports())
    assert {package for package, _ in found} <= set(LEVELS)
    assert {(a, b) for a, b in found if LEVELS[b] > LEVELS[a]} == set(), (
        "an import goes up the layers"
    )


def test_only_the_documented_lazy_imports_go_up_the_layers():
    """The LAZY_UPWARD imports are where they are said to be, inside their method, and nowhere else
    does a module import from a layer above its own."""
    upward = {
        (module_name(path), function, target)
        for path in PACKAGE.rglob("*.py")
        if module_name(path) != "medina_cli"
        for target, _, function in all_imports_of(path)
        if target.startswith("medina_cli")
        and LEVELS[package_of(target)] > LEVELS[package_of(module_name(path))]
    }
    assert upward == {(module, method, target) for (module, method), target in LAZY_UPWARD.items()}


def loaded_by(statement: str) -> set[str]:
    """The modules a fresh interpreter has loaded after `statement`."""
    code = f"import sys\n{statement}\nprint(*sorted(sys.modules))"
    return set(
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.split()
    )


def test_the_engine_loads_neither_yaml_nor_the_layers_above_it():
    for statement in (
        "import medina_cli.engine",
        "import medina_cli.engine.game",
        "from medina_cli.engine.game import Game",
    ):
        loaded = loaded_by(statement)
        above = sorted(
            m
            for m in loaded
            if m.startswith("medina_cli.") and LEVELS[package_of(m)] > LEVELS["engine"]
        )
        assert above == [] and "yaml" not in loaded, statement
