"""Print pip constraints that pin the oldest release every dependency allows: each `>=` bound of
pyproject.toml (the build, the core and every extra), and the bounds of what the oldest typer allowed draws in
itself (its help, usage errors and completion scripts are the command's words)."""

import re
import tomllib
from pathlib import Path

TYPER_DRAWS = {"rich": "13.8.0", "shellingham": "1.3.0"}  # typer 0.28.0's own lower bounds
REQUIREMENT_RE = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*([^;#]*)")

pyproject = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())
project = pyproject["project"]
requirements = [
    *pyproject["build-system"]["requires"],
    *project["dependencies"],
    *(r for extra in project["optional-dependencies"].values() for r in extra),
]
pins = {}
for requirement in requirements:
    name, _, spec = REQUIREMENT_RE.match(requirement).groups()
    lower = re.search(r">=\s*([^,\s]+)", spec)
    if lower and name.lower() != project["name"]:
        pins[name.lower()] = lower.group(1)
pins.update(TYPER_DRAWS)
for name, version in pins.items():
    print(f"{name}=={version}")
