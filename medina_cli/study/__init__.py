"""Running many games: seeds per game (games.py), the package's one parallel map in this process, in
local processes or on a Dask cluster (parallel.py, backend.py, cluster.py), a study's games on it
(runner.py, simulate.py), statistics with 95% intervals gathered as tasks finish (results.py,
stats.py), an output folder that a study can resume from (folder.py), and analyse's placements
(analysis.py)."""
