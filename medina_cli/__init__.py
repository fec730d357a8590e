"""medina-cli: the rules of Medina (three editions) as one engine driven by YAML rulesets."""

__version__ = "0.1.0"
