"""The build beyond pyproject.toml: the built-in rulesets copied inside the package (medina_cli/rulesets,
where an installed package looks for them), and the native core, a C extension built where a C compiler
and the Python headers exist. It is optional: where it cannot be built the install goes on without it
and the Python engine runs."""

import os
import shutil
import tempfile
from hashlib import sha256
from pathlib import Path

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

NATIVE = "medina_cli/engine/native"
HERE = Path(__file__).parent


def source_digest() -> str:
    """The SHA-256 of the C sources (medina_cli.engine.native.source_digest computes the same): a built
    core carries it, and is used only beside the sources it was built from."""
    digest = sha256()
    for name in ("core.h", "core.c", "_core.c", "search.h", "search.c"):
        digest.update(HERE.joinpath(NATIVE, name).read_bytes().replace(b"\r\n", b"\n"))
    return digest.hexdigest()


DIGEST = [("SOURCE_DIGEST", f'"{source_digest()}"')]


class BuildWithRulesets(build_py):
    """build_py, then rulesets/*.yaml into the built package's medina_cli/rulesets."""

    def run(self):
        super().run()
        target = Path(self.build_lib) / "medina_cli" / "rulesets"
        target.mkdir(parents=True, exist_ok=True)
        for ruleset in sorted(Path(__file__).parent.joinpath("rulesets").glob("*.yaml")):
            shutil.copyfile(ruleset, target / ruleset.name)


class BuildNative(build_ext):
    """build_ext with floating-point contraction off where the compiler takes the flag (gcc, clang): the
    native search must give the Python search's doubles bit for bit, which a fused multiply-add would not.
    Without a working compiler (`CC=false`) nothing is built and a core an earlier build left in build/
    is removed, so that the install has the Python engine (build_ext would copy that core unchecked,
    as up to date with its sources)."""

    FLAG = "-ffp-contract=off"

    def build_extensions(self):
        if not self._compiles():
            for extension in self.extensions:
                Path(self.get_ext_fullpath(extension.name)).unlink(missing_ok=True)
            self.warn(
                "no working C compiler: the native engine is not built; the Python engine runs"
            )
            return
        if self.compiler.compiler_type != "msvc" and self._compiles(
            self.FLAG
        ):  # msvc contracts only when asked
            for extension in self.extensions:
                extension.extra_compile_args.append(self.FLAG)
        super().build_extensions()

    def _compiles(self, *flags: str) -> bool:
        with tempfile.TemporaryDirectory() as folder:
            source = Path(folder, "probe.c")
            source.write_text("int main(void) { return 0; }\n")
            try:
                self.compiler.compile([str(source)], output_dir=folder, extra_postargs=list(flags))
            except Exception:  # noqa: BLE001 - the compiler refused the flag (CompileError), or could not run at all
                return False
        return True


LIBM = [] if os.name == "nt" else ["m"]  # tanh, log, sqrt

setup(
    packages=find_packages(include=["medina_cli", "medina_cli.*"]),
    package_data={"medina_cli": ["py.typed"], "medina_cli.rules": ["*.pyi"]},
    # the C sources go in the sdist (MANIFEST.in), not the wheel: beside them a core is checked against
    # their digest at every start (medina_cli.engine.native), which an installed package has no need of
    exclude_package_data={"medina_cli.engine.native": ["*.c", "*.h"]},
    cmdclass={"build_py": BuildWithRulesets, "build_ext": BuildNative},
    ext_modules=[  # _core for boards of up to 256 cells, _core_wide (the same sources, wider bitboards) beyond
        Extension(
            "medina_cli.engine.native._core",
            sources=[f"{NATIVE}/core.c", f"{NATIVE}/search.c", f"{NATIVE}/_core.c"],
            depends=[f"{NATIVE}/core.h", f"{NATIVE}/search.h"],
            define_macros=DIGEST,
            libraries=LIBM,
            optional=True,
        ),
        Extension(
            "medina_cli.engine.native._core_wide",
            sources=[f"{NATIVE}/core_wide.c", f"{NATIVE}/search_wide.c", f"{NATIVE}/_core_wide.c"],
            depends=[
                f"{NATIVE}/core.h",
                f"{NATIVE}/core.c",
                f"{NATIVE}/_core.c",
                f"{NATIVE}/search.h",
                f"{NATIVE}/search.c",
            ],
            define_macros=DIGEST,
            libraries=LIBM,
            optional=True,
        ),
    ],
)
