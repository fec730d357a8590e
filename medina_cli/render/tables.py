"""Text tables with aligned columns, the same with every tabulate the package allows."""

from __future__ import annotations

from tabulate import tabulate


def aligned_table(rows: list, headers: list, colalign: tuple) -> str:
    """tabulate's "simple" table of `rows`, cells as given (never read as numbers), column i aligned
    by colalign[i]. A table without rows is its headers alone (tabulate 0.9.0 fails to align no
    columns)."""
    return tabulate(
        rows,
        headers=headers,
        tablefmt="simple",
        disable_numparse=True,
        colalign=colalign if rows else None,
    )
