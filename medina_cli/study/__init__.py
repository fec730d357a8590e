"""Running many games: seeds per game (games.py), local processes or a Dask cluster (runner.py,
cluster.py), statistics with 95% intervals accumulated as games finish (results.py, stats.py), and
an output folder that a study can resume from (folder.py)."""
