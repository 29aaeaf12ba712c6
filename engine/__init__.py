"""askapp's answer engine: pure Python, never imports Django, DRF or askapp."""
