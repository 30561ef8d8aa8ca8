"""Figures and Markdown of a champion: square-table heatmaps (``heatmaps``), an n-tuple
network's tables and patterns (``network``), weights as report tables (``report``)."""
