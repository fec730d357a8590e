"""Generated documentation matches the code it documents."""

import importlib.util
import re

import pytest
from conftest import ROOT
from scorekit import run

spec = importlib.util.spec_from_file_location("generate", ROOT / "docs" / "generate.py")
generate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(generate)


@pytest.mark.parametrize("name", sorted(generate.OUTPUTS))
def test_generated_doc_is_current(name):
    on_disk = (ROOT / name).read_text(encoding="utf-8")
    assert on_disk == generate.OUTPUTS[name](), f"{name} is stale: run `python docs/generate.py`"


CITED_FILE_RE = re.compile(
    r"(?<![\w./\"-])((?:\.\./|[\w-]+/)*[\w-]+\.(?:md|py))\b(?!\")"
)  # a quoted name is data


def _cited_files():
    """(citing file, cited name) for every .md or .py file named in the docs, the package, the rulesets,
    the tests and their fixtures."""
    citing = [
        ROOT / "README.md",
        *(ROOT / "docs").glob("*.md"),
        *(ROOT / "medina_cli").rglob("*.py"),
        *(ROOT / "rulesets").glob("*.yaml"),
        *(ROOT / "tests").rglob("*.py"),
        *(ROOT / "tests").rglob("*.yaml"),
        *(ROOT / "benchmarks").glob("*.py"),
    ]
    for path in citing:
        for name in CITED_FILE_RE.findall(path.read_text(encoding="utf-8")):
            yield path, name


WRITTEN_BY_THE_TOOL = {"report.md"}  # a study's report, in the folder the user names


def test_every_file_the_project_cites_is_shipped_with_it():
    names = {path.name for path in ROOT.rglob("*") if ".venv" not in path.parts}
    missing = []
    for path, name in _cited_files():
        if (
            name.rsplit("/", 1)[-1] in WRITTEN_BY_THE_TOOL or name.split(".")[0].isupper()
        ):  # FILE.md: a placeholder
            continue
        places = (path.parent, ROOT, ROOT / "docs", ROOT / "medina_cli")
        found = any((place / name).exists() for place in places) if "/" in name else name in names
        if not found:
            missing.append(f"{path.relative_to(ROOT)}: {name}")
    assert not missing, missing


def test_every_install_line_installs_from_the_checkout_with_extras_that_exist():
    """The package is not published: README and the docs install it from a checkout (`.`, `'.[extra]'`)."""
    import tomllib

    extras = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    )
    lines = [
        line
        for doc in (ROOT / "README.md", *(ROOT / "docs").glob("*.md"))
        for line in doc.read_text(encoding="utf-8").splitlines()
        if "pip install" in line
    ]
    assert len(lines) >= 4
    for line in lines:
        target = re.search(r"pip install (?:-e |-q )*(\S+)", line).group(1).strip("'\"`")
        assert target == "." or re.fullmatch(r"\.\[\w+(,\w+)*\]", target), line
        assert target == "." or set(target[2:-1].split(",")) <= extras, line


# --- README's quick start: its commands still print what it shows -------------------------------------


def _quick_start() -> tuple[str, str]:
    """(README before the quick start, the quick start section)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("\n## Quick start")
    return readme[:start], readme[start : readme.index("\n## ", start + 1)]


def _shown_commands() -> list[tuple[str, list[str]]]:
    """(command line, the lines shown after it) of every `$ medina ...` in the quick start's console blocks."""
    blocks = re.findall(r"^( *)```console\n(.*?)^\1```", _quick_start()[1], flags=re.S | re.M)
    shown: list[tuple[str, list[str]]] = []
    for indent, block in blocks:
        for line in block.splitlines():
            line = line[len(indent) :]
            if line.startswith("$ "):
                shown.append((line[2:], []))
            else:
                shown[-1][1].append(line)
    return shown


def _prints(shown: list[str], printed: list[str]) -> bool:
    """Do the `printed` lines read as `shown`: each run of shown lines between `…` lines printed whole and in
    order, and the first and last runs at the start and end unless a `…` stands before or after them?"""
    pattern = "".join(".*" if line == "…" else re.escape(line.rstrip() + "\n") for line in shown)
    return (
        re.fullmatch(pattern, "".join(line.rstrip() + "\n" for line in printed), flags=re.S)
        is not None
    )


def test_the_quick_start_comes_right_after_the_two_set_up_commands():
    before, _ = _quick_start()
    first, second = re.findall(r"```sh\n(.*?)```", before, flags=re.S)[:2]
    assert "pip install . &&" in first and "pip install '.[test]'" in second
    assert "\n## " not in before  # the quick start is the first section
    assert len(_shown_commands()) >= 5 and all(
        command.startswith("medina ") for command, _ in _shown_commands()
    )


@pytest.mark.slow
def test_the_quick_start_commands_print_what_it_shows(tmp_path):
    import shlex
    import subprocess
    import sys
    from pathlib import Path

    (tmp_path / "examples").symlink_to(ROOT / "examples")
    medina = Path(sys.executable).parent / "medina"
    for command, shown in _shown_commands():
        done = subprocess.run(
            [str(medina), *shlex.split(command)[1:]],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=600,
        )
        printed = (done.stdout + done.stderr).splitlines()
        assert done.returncode == 0 and _prints(shown, printed), f"$ {command}\n" + "\n".join(
            printed
        )


# --- README's command table: what it says a command prints -------------------------------------------


def test_the_validate_message_form_readme_shows_is_what_validate_prints(tmp_path):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = re.search(r"`(file:line: turn N placement K, Player: [^`]*)`", readme)
    assert shown, "README shows the form of a validate message with a placement"
    pattern = (
        re.escape(shown.group(1))
        .replace("file", r"\S+")
        .replace("line", r"\d+")
        .replace("N", r"\d+")
        .replace("K", r"\d+")
        .replace("Player", r"\w+")
        .replace(r"what\ is\ wrong", ".+")
        .replace("code", r"[a-z-]+")
    )
    game = ROOT / "examples" / "original-2001-3p.yaml"
    bad = tmp_path / "bad.yaml"
    bad.write_text(game.read_text().replace("black B9", "black B99", 1))
    code, out, _ = run("validate", bad)
    assert code == 1 and re.fullmatch(pattern, out.splitlines()[0]), out


def test_readme_counts_the_rows_rules_diff_shows_for_bsw_dm_2003():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    said = re.search(r"the (\w+) rows of `medina rules diff original-2001 bsw-dm-2003`", readme)
    assert said, "README's bsw-dm-2003 row says how many rows `rules diff` shows"
    code, out, _ = run("rules", "diff", "original-2001", "bsw-dm-2003")
    rows = out.strip().splitlines()[2:]  # after the header and its rule
    assert code == 0
    assert said.group(1) == ["one", "two", "three", "four", "five", "six"][len(rows) - 1]
