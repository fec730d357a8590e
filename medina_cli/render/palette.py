"""Display colours shared by the terminal, SVG and HTML pictures.

Building colours follow the colour's name (a ruleset may name any colour; unknown names take a
fallback shade). Seats use the Okabe-Ito palette, which stays distinguishable with colour-blindness;
every picture also prints a letter or digit on each piece, so colour is never the only clue.
"""

from __future__ import annotations

NAMED_COLOURS = {
    "grey": "#a6a6a6",
    "gray": "#a6a6a6",
    "black": "#2e2e2e",
    "brown": "#8c5a2e",
    "orange": "#f39a2b",
    "purple": "#7e57c2",
    "violet": "#7e57c2",
    "red": "#c62828",
    "green": "#2e7d32",
    "blue": "#1565c0",
    "yellow": "#fdd835",
    "white": "#f5f5f5",
    "pink": "#ec87b8",
}
FALLBACK_COLOURS = ("#607d8b", "#795548", "#00838f", "#9e9d24", "#ad1457", "#4e342e")
SEATS = (
    ("blue", "#0072b2"),
    ("vermilion", "#d55e00"),
    ("green", "#009e73"),
    ("yellow", "#f0e442"),
    ("sky blue", "#56b4e9"),
    ("pink", "#cc79a7"),
)
NEUTRAL = ("white", "#ffffff")

# board furniture
SAND = "#f4e7c5"
RING = "#dcc89e"
STONE = "#8a8176"
TOWER = "#4a4036"
MERCHANT = "#1f7a7a"
WELL = "#2f7ed8"
OUTLINE = "#111111"  # palace edges; an owner's band runs between two of them, readable on any fill
TEA = "#7a4e2d"
LEGAL = "#00876a"
LAST = "#111111"
ILLEGAL = "#d00000"
PREFERRED = "#7b2cbf"


def building_colour(rules, colour: str) -> str:
    """Hex shade for a building colour of `rules`."""
    if colour in NAMED_COLOURS:
        return NAMED_COLOURS[colour]
    return FALLBACK_COLOURS[rules.colour_names.index(colour) % len(FALLBACK_COLOURS)]


def seat_colour(seat: int) -> tuple[str, str]:
    """(name, hex) of a player's roofs; a negative seat is the neutral roof."""
    return NEUTRAL if seat < 0 else SEATS[seat % len(SEATS)]


def ink(background: str) -> str:
    """Black or white, whichever reads better on `background`."""
    r, g, b = (int(background[i : i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"


def luminance(colour: str) -> float:
    """Relative luminance (WCAG 2) of a #rrggbb colour."""

    def linear(c: int) -> float:
        share = c / 255
        return share / 12.92 if share <= 0.04045 else ((share + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(colour[i : i + 2], 16)) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(first: str, second: str) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21)."""
    low, high = sorted((luminance(first), luminance(second)))
    return (high + 0.05) / (low + 0.05)


def lighten(colour: str, amount: float = 0.5) -> str:
    """`colour` mixed with white (0: unchanged, 1: white)."""
    parts = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in parts)


def ansi(colour: str, *, background: bool = False) -> str:
    """SGR parameters selecting the xterm-256 colour nearest to `colour`."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    steps = (0, 95, 135, 175, 215, 255)

    def nearest(value: int) -> int:
        return min(range(6), key=lambda k: abs(steps[k] - value))

    cube = (nearest(r), nearest(g), nearest(b))
    cube_error = sum((steps[k] - v) ** 2 for k, v in zip(cube, (r, g, b), strict=True))
    level = min(23, max(0, round(((r + g + b) / 3 - 8) / 10)))
    grey = 8 + 10 * level
    code = 16 + 36 * cube[0] + 6 * cube[1] + cube[2]
    if sum((grey - v) ** 2 for v in (r, g, b)) < cube_error:
        code = 232 + level
    return f"{48 if background else 38};5;{code}"
