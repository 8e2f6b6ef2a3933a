"""The room log's payload column: JSON stored as its text (PostgreSQL's
`json`, written compact) rather than `jsonb`. The log is appended and read
whole, never updated; its payloads (a roll's dice, a move) take about a
third less room as text than as jsonb, whose per-key headers and
alignment cost more than they save on values this small.

Filters still read it as jsonb: the column is cast (`::jsonb`) wherever a
query names it, so key lookups (`data__sight__groups__has_key`, ...) keep
jsonb's operators and what a read returns is what it returned as jsonb.
Elsewhere (SQLite) it is the ordinary JSONField."""

import json
from functools import cached_property

from django.db import models
from django.db.models.expressions import Col


class JsonbCol(Col):
    def as_sql(self, compiler, connection):
        sql, params = super().as_sql(compiler, connection)
        if connection.vendor == "postgresql":
            return f"({sql})::jsonb", params
        return sql, params


class LogJSONField(models.JSONField):
    def db_type(self, connection):
        if connection.vendor == "postgresql":
            return "json"
        return super().db_type(connection)

    def get_col(self, alias, output_field=None):
        if output_field is None:
            output_field = self
        if alias == self.model._meta.db_table and output_field is self:
            return self.cached_col
        return JsonbCol(alias, self, output_field)

    @cached_property
    def cached_col(self):
        return JsonbCol(self.model._meta.db_table, self)

    def get_db_prep_save(self, value, connection):
        if connection.vendor != "postgresql" or value is None or hasattr(value, "as_sql"):
            return super().get_db_prep_save(value, connection)
        from psycopg.types.json import Json

        return Json(value, dumps=self._compact)

    def _compact(self, value) -> str:
        return json.dumps(value, cls=self.encoder, separators=(",", ":"))
