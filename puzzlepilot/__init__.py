"""puzzlepilot: reads puzzle games from the screen, solves them exactly, shows hints or plays."""

__version__ = "0.1.0"
