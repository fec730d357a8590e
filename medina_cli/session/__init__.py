"""A game at the table: the terminal session of `medina play`, which seats people and agents and writes
the game to its record as it goes. It sits above the agents and the records it uses, below the CLI."""
