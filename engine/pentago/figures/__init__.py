"""Figures of a genome: feature-weight heatmaps (``heatmaps``) and an n-tuple network's tables
and patterns (``network``)."""
