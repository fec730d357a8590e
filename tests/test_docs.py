"""Generated documentation matches the code it documents."""

import importlib.util
import re

import pytest

from conftest import ROOT

spec = importlib.util.spec_from_file_location("generate", ROOT / "docs" / "generate.py")
generate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(generate)


@pytest.mark.parametrize("name", sorted(generate.OUTPUTS))
def test_generated_doc_is_current(name):
    on_disk = (ROOT / name).read_text(encoding="utf-8")
    assert on_disk == generate.OUTPUTS[name](), f"{name} is stale: run `python docs/generate.py`"


CITED_FILE_RE = re.compile(r"(?<![\w./\"-])((?:\.\./|[\w-]+/)*[\w-]+\.(?:md|py))\b(?!\")")  # a quoted name is data


def _cited_files():
    """(citing file, cited name) for every .md or .py file named in the docs, the package, the rulesets,
    the tests and their fixtures."""
    citing = [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "medina_cli").rglob("*.py"),
              *(ROOT / "rulesets").glob("*.yaml"), *(ROOT / "tests").rglob("*.py"), *(ROOT / "tests").rglob("*.yaml"),
              *(ROOT / "benchmarks").glob("*.py")]
    for path in citing:
        for name in CITED_FILE_RE.findall(path.read_text(encoding="utf-8")):
            yield path, name


WRITTEN_BY_THE_TOOL = {"report.md"}  # a study's report, in the folder the user names


def test_every_file_the_project_cites_is_shipped_with_it():
    names = {path.name for path in ROOT.rglob("*") if ".venv" not in path.parts}
    missing = []
    for path, name in _cited_files():
        if name.rsplit("/", 1)[-1] in WRITTEN_BY_THE_TOOL or name.split(".")[0].isupper():  # FILE.md: a placeholder
            continue
        places = (path.parent, ROOT, ROOT / "docs", ROOT / "medina_cli")
        found = any((place / name).exists() for place in places) if "/" in name else name in names
        if not found:
            missing.append(f"{path.relative_to(ROOT)}: {name}")
    assert not missing, missing


def test_every_install_line_installs_from_the_checkout_with_extras_that_exist():
    """The package is not published: README and the docs install it from a checkout (`.`, `'.[extra]'`)."""
    import tomllib
    extras = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"])
    lines = [line for doc in (ROOT / "README.md", *(ROOT / "docs").glob("*.md"))
             for line in doc.read_text(encoding="utf-8").splitlines() if "pip install" in line]
    assert len(lines) >= 4
    for line in lines:
        target = re.search(r"pip install (?:-e |-q )*(\S+)", line).group(1).strip("'\"`")
        assert target == "." or re.fullmatch(r"\.\[(\w+)\]", target), line
        assert target == "." or target[2:-1] in extras, line
