"""Written-out statements for the live rooms' busiest paths, with the
instances the ORM would have given.

Building a queryset, or a save(), costs the Python of a compiler: some
tenths of a millisecond for a statement the database answers in a few
hundredths, on every roll, chat line and move of every room. These read and
write rows as the ORM would (its field conversions both ways, its
`pre_save`), with statements written from the models' fields; the rest of
the code keeps the ORM."""

import functools

from django.db.models import Model


def columns(connection, model: type[Model], alias: str) -> str:
    """Every column of `model`, in field order, as `alias.column`."""
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(field.column)}" for field in model._meta.concrete_fields)


def from_row(model: type[Model], connection, values) -> Model:
    """An instance of `model` from the values of its `columns()`, converted
    as a queryset converts them (a date read from SQLite's text, JSON)."""
    values = list(values)
    ops = connection.ops
    for index, field in enumerate(model._meta.concrete_fields):
        if values[index] is None:
            continue
        column = field.get_col(model._meta.db_table)
        for convert in ops.get_db_converters(column) + field.get_db_converters(connection):
            values[index] = convert(values[index], column, connection)
    return model.from_db(connection.alias, _attnames(model), values)


def insert(connection, instance: Model) -> None:
    """Insert `instance` as `save(force_insert=True)` would: its fields'
    `pre_save` (auto_now_add) and database preparation, its id taken from
    the database unless it has one already. No signal is sent."""
    meta = instance._meta
    fields = [
        field for field in meta.concrete_fields if not (field.primary_key and instance.pk is None)
    ]
    values = [
        field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields
    ]
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)})"
            f" VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {quote(meta.pk.column)}",
            values,
        )
        (instance.pk,) = cursor.fetchone()
    instance._state.adding = False
    instance._state.db = connection.alias


@functools.cache
def _attnames(model: type[Model]) -> tuple[str, ...]:
    return tuple(field.attname for field in model._meta.concrete_fields)
