"""One module per bench target, each with ``run(bench: puzzlepilot.bench.Bench)``."""
