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

    def make():
        quote = connection.ops.quote_name
        return ", ".join(f"{alias}.{quote(f.column)}" for f in model._meta.concrete_fields)

    return _once(("columns", model, alias, connection.vendor), make)


def from_row(model: type[Model], connection, values) -> Model:
    """An instance of `model` from the values of its `columns()`, converted
    as a queryset converts them (a date read from SQLite's text, JSON)."""
    values = list(values)
    for index, column, field in _converted(model, connection):
        if values[index] is not None:
            steps = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
            for convert in steps:
                values[index] = convert(values[index], column, connection)
    return model.from_db(connection.alias, _attnames(model), values)


def insert(connection, instance: Model) -> None:
    """Insert `instance` as `save(force_insert=True)` would: its fields'
    `pre_save` (auto_now_add) and database preparation, its id taken from
    the database unless it has one already. No signal is sent."""
    meta, given = instance._meta, instance.pk is not None
    fields = [f for f in meta.concrete_fields if given or not f.primary_key]

    def make():
        quote = connection.ops.quote_name
        return (
            f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)})"
            f" VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {quote(meta.pk.column)}"
        )

    statement = _once(("insert", type(instance), given, connection.vendor), make)
    values = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(statement, values)
        (instance.pk,) = cursor.fetchone()
    instance._state.adding = False
    instance._state.db = connection.alias


def partial(model: type[Model], connection, **values) -> Model:
    """An instance of `model` holding only `values` (by attname), as a
    queryset's only() gives: its other fields load from the database if
    read. from_db takes the values in the model's field order."""
    names = [f.attname for f in model._meta.concrete_fields if f.attname in values]
    return model.from_db(connection.alias, names, [values[name] for name in names])


def read_value(model: type[Model], name: str, value, connection):
    """Column `name` of `model` read by a written-out query, as the ORM
    would give it (a JSON column decoded)."""
    field = model._meta.get_field(name)
    if hasattr(field, "from_db_value"):
        return field.from_db_value(value, None, connection)
    return value


@functools.cache
def _attnames(model: type[Model]) -> tuple[str, ...]:
    return tuple(field.attname for field in model._meta.concrete_fields)


def _converted(model: type[Model], connection) -> tuple:
    """(position, column, field) of the fields that the backend or the
    field itself converts on the way out. Which fields depends only on the
    model and the kind of database; the converters themselves are asked
    for at each read, as they belong to the thread's connection."""

    def make():
        found = []
        for index, field in enumerate(model._meta.concrete_fields):
            column = field.get_col(model._meta.db_table)
            if connection.ops.get_db_converters(column) or field.get_db_converters(connection):
                found.append((index, column, field))
        return tuple(found)

    return _once(("converted", model, connection.vendor), make)


# Statements and conversions, made once: the same for every row of a model
# on one kind of database.
_made: dict = {}


def _once(key, make):
    found = _made.get(key)
    if found is None:
        found = _made[key] = make()
    return found
