"""Generated documentation matches the code it documents."""

import importlib.util

import pytest

from conftest import ROOT

spec = importlib.util.spec_from_file_location("generate", ROOT / "docs" / "generate.py")
generate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(generate)


@pytest.mark.parametrize("name", sorted(generate.OUTPUTS))
def test_generated_doc_is_current(name):
    on_disk = (ROOT / name).read_text(encoding="utf-8")
    assert on_disk == generate.OUTPUTS[name](), f"{name} is stale: run `python docs/generate.py`"
