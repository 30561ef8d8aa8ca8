"""What a run writes into its folder and reads back: checkpoints (``checkpoint``) and which
settings a resumed run takes from them (``resume``), the CSV tables and champion files
(``hooks``), ``fitness.png`` (``figure``), ``objective.json`` (``objective``) and the MLflow
record (``tracking``)."""
