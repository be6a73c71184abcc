"""Calibration: profiles that teach the vision a new look (resolution, palette, theme)."""
