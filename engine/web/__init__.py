"""Play, watch and replay every registered game in the browser (``python -m engine.web``)."""
