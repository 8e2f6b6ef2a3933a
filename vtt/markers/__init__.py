"""Status markers on tokens: each game's declared conditions (and their
effect on rolls, `games/conditions.py`), and the GM's free and secret
markers; seen by whoever sees the token (`policy.may_mark_token`,
`policy.sees_marker`; the rows are the table's). docs/protocol.md,
"Status markers"."""
