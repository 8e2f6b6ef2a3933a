"""Handouts: what the GM hands the players, a picture and Markdown text
rendered safely (`text.py`), shared with chosen members or everyone and
never reaching anyone else (`services.py`; the rows are the table's, the
rule is `policy.sees_handout`; docs/web.md, "Handouts")."""
