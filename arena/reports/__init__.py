"""Reports over stored games: statistics (``stats``), pandas tables (``tables``,
``ricochet``) and their output as rich tables, Markdown and CSV (``render``)."""
