"""The installed command works from any directory: it finds its built-in rulesets and validates
records given by absolute path. A build without a compiler gives the Python engine."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EDITIONS, EXAMPLES

MEDINA = Path(sys.executable).with_name("medina")
pytestmark = pytest.mark.skipif(
    not MEDINA.exists(), reason=f"no installed `medina` next to {sys.executable}"
)

WELL = {"second-edition-2014": "  well: N10\n"}
FIRST_TURN = {"second-edition-2014": "  - Anna: wall A12\n"}


def run(*args, cwd):
    proc = subprocess.run(
        [str(MEDINA), *map(str, args)], capture_output=True, text=True, timeout=60, cwd=cwd
    )
    assert "Traceback" not in proc.stdout + proc.stderr
    return proc


@pytest.mark.slow
@pytest.mark.parametrize("example", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_validates_an_example_from_another_directory(tmp_path, example):
    proc = run("validate", example.resolve(), cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{example.resolve()}: valid (finished" in proc.stdout


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_every_built_in_ruleset_is_found(tmp_path, ruleset):
    record = tmp_path / "game.yaml"
    record.write_text(
        f"medina: record/1\nruleset: {ruleset}\nplayers: [Anna, Ben, Cleo]\nsetup:\n  merchant: J7\n"
        + WELL.get(ruleset, "")
        + "turns:\n"
        + FIRST_TURN.get(ruleset, "  - Anna: wall A12, wall A11\n")
    )
    proc = run("validate", record, "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f'"ruleset": "{ruleset}"' in proc.stdout


def test_a_ruleset_file_is_found_beside_the_record(tmp_path):
    (tmp_path / "records").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "records" / "house.yaml").write_text(
        "medina: ruleset/1\nextends: original-2001\nturns:\n  opening_single: {3: 1}\n"
    )
    record = tmp_path / "records" / "game.yaml"
    record.write_text(
        "medina: record/1\nruleset: house.yaml\nplayers: [Anna, Ben, Cleo]\nsetup:\n  merchant: J7\n"
        "turns:\n  - Anna: wall A12\n"
    )
    proc = run("validate", record, cwd=tmp_path / "elsewhere")
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.slow
def test_module_entry_point(tmp_path):
    example = (EXAMPLES / "original-2001-3p.yaml").resolve()
    proc = subprocess.run(
        [sys.executable, "-m", "medina_cli", "validate", example],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_installed_package_starts_without_reading_c_sources(tmp_path):
    """An installed (not editable) package carries the native core compiled, not its C sources (the sdist
    has them), so a start does not digest them: `medina validate` imports no hashlib."""
    probe = (
        "import sys; from pathlib import Path; import medina_cli.engine.native as native; "
        "print(Path(native.__file__).parent)"
    )
    package = Path(
        subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, check=True
        ).stdout.strip()
    )
    if (
        package == Path(__file__).resolve().parents[1] / "medina_cli" / "engine" / "native"
    ):  # (a venv may sit in it)
        pytest.skip("an editable install: the package is this checkout, C sources and all")
    assert not [p.name for p in package.iterdir() if p.suffix in (".c", ".h")]
    start = (
        "import sys; from medina_cli.cli.app import main; sys.argv = ['medina', 'validate', sys.argv[1]]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\nprint('hashlib' in sys.modules)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", start, str((EXAMPLES / "original-2001-4p.yaml").resolve())],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert proc.stdout.splitlines()[-1] == "False", proc.stdout + proc.stderr


@pytest.mark.slow
def test_without_a_compiler_a_core_left_in_build_is_not_installed(tmp_path):
    """`CC=false pip install .` in a checkout built once before: setuptools would take the core an earlier
    build left in build/ as up to date and put it in the wheel; setup.py removes it, so that the wheel has
    the Python engine, as README says."""
    import shutil
    import sysconfig
    import zipfile

    root = Path(__file__).resolve().parents[1]
    for name in ("setup.py", "pyproject.toml", "MANIFEST.in", "README.md", "LICENSE"):
        if (root / name).exists():
            shutil.copy(root / name, tmp_path / name)
    for folder in ("medina_cli", "rulesets"):
        shutil.copytree(
            root / folder,
            tmp_path / folder,
            ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"),
        )
    built = (
        tmp_path
        / "build"
        / f"lib.{sysconfig.get_platform()}-{sys.implementation.cache_tag}"
        / "medina_cli"
        / "engine"
        / "native"
    )
    built.mkdir(parents=True)
    for core in (
        "_core",
        "_core_wide",
    ):  # newer than the sources: an earlier build's, up to date for setuptools
        (built / f"{core}{sysconfig.get_config_var('EXT_SUFFIX')}").write_bytes(
            b"a core built before"
        )
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", "dist", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "CC": "false"},
    )
    if (
        done.returncode != 0
        and "setuptools" in done.stderr
        and "No matching distribution" in done.stderr
    ):
        pytest.skip("no package index to build with")
    assert done.returncode == 0, done.stderr
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    assert not [name for name in zipfile.ZipFile(wheel).namelist() if "/_core" in name]
