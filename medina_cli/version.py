"""The package's version (at the bottom of the layers: the HTML viewer and `medina --version` name it)."""

__version__ = "0.1.0"
