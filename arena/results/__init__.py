"""The results store: one SQLite database per tournament (`docs/storage.md`).

The schema and its writes (`writing`, `store`), the readers (`reading`, `aggregates`), the
versions the games were played under (`versions`), ratings kept with the games
(`ratings`, `rating_state`) and the bracket and rounds read back from stored games
(`standings`).
"""
