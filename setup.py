"""The build beyond pyproject.toml: the built-in rulesets inside the package (medina_cli/rulesets), and
the native core, a C extension built where a C compiler and the Python headers exist. It is optional:
where it cannot be built the install goes on without it and the Python engine runs."""

from setuptools import Extension, find_packages, setup

NATIVE = "medina_cli/engine/native"

setup(
    packages=[*find_packages(include=["medina_cli", "medina_cli.*"]), "medina_cli.rulesets"],
    package_dir={"medina_cli.rulesets": "rulesets"},
    package_data={"medina_cli": ["py.typed"], "medina_cli.rules": ["*.pyi"], "medina_cli.rulesets": ["*.yaml"]},
    ext_modules=[Extension("medina_cli.engine.native._core", sources=[f"{NATIVE}/core.c", f"{NATIVE}/_core.c"],
                           depends=[f"{NATIVE}/core.h"], optional=True)],
)
