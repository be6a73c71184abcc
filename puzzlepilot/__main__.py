from puzzlepilot.cli import run

run()
