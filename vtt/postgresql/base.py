"""Django's PostgreSQL backend, with one change. With server-side binding
a statement carries at most 65,535 parameters, and Django 5.2 splits bulk
inserts, bulk updates and the deletion of related rows into batches only
for a backend that says how many objects a batch may hold: without this,
any of them past the limit would be refused whole."""

from django.db.backends.postgresql import base, operations

MAX_PARAMETERS = 65_535


class DatabaseOperations(operations.DatabaseOperations):
    def bulk_batch_size(self, fields, objs):
        if not fields or not self.connection.features.uses_server_side_binding:
            return super().bulk_batch_size(fields, objs)
        # Two a field: bulk_update names each value with its key (CASE WHEN
        # pk = %s THEN %s) where inserts and deletions need one.
        return max(1, MAX_PARAMETERS // (2 * len(fields)))


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
