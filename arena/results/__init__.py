"""The results store: one SQLite database per tournament (`docs/storage.md`).

The schema and its writes (`writing`, `store`), the readers (`reading`, `aggregates`; the
typed reader `reader`, its frozen values `records` and the stored settings `settings`), the
versions the games were played under (`versions`), ratings kept with the games (`ratings`,
`rating_state`; what a report reads, `snapshot`) and the bracket and rounds read back from
stored games (`standings`). No SQL is written outside this package.
"""
