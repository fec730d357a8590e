"""The pieces every ruleset has besides its buildings. Plain names, no YAML: the engine imports them
without the schema."""

from __future__ import annotations

# the pieces other than buildings, in the order the engine lists them, with the supply entry of each
FIXED_PIECES = {
    "roof": "roofs",
    "neutral": "neutral_roofs",
    "stable": "stables",
    "merchant": "merchants",
    "wall": "walls",
}
