"""Which tables a campaign is made of, found by walking the foreign keys
rather than listed by hand: a model added later with a path to Campaign
(directly or through a scene, a token, a character, an encounter...) is
exported without anyone remembering to add it. The few tables deliberately
left out are named in LEFT_OUT with the reason."""

from dataclasses import dataclass

from django.apps import apps
from django.conf import settings
from django.db import models

CAMPAIGN = "tabletop.campaign"

# Tables with a path to a campaign that an archive does not carry.
LEFT_OUT = {
    # Codes to join by: credentials of the server they were made on; the
    # GM makes new ones where the campaign now lives.
    "tabletop.invite": "invite codes are the old server's credentials",
    # Spectator links, likewise: a restored campaign opens no door to
    # watchers that its GM has not opened where it now lives.
    "spectators.spectatorlink": "spectator links are the old server's credentials",
    # Answers to intents kept 15 minutes against a client's repeat.
    "live.intentreceipt": "short-lived answers to repeated intents",
}


def label(model) -> str:
    return model._meta.label_lower


def user_model():
    return apps.get_model(settings.AUTH_USER_MODEL)


@dataclass(frozen=True)
class Table:
    model: type
    # The ORM lookup from a row to its campaign ("scene__campaign").
    path: str
    # Foreign keys to other tables of the campaign: set at insert time when
    # the column may not be null, afterwards when it may (cycles such as
    # Campaign.active_scene, Encounter.current).
    links: tuple  # of Field
    # Foreign keys to users, remapped by user name.
    users: tuple  # of Field

    @property
    def label(self) -> str:
        return label(self.model)

    @property
    def early(self):
        return [f for f in self.links if not f.null]

    @property
    def late(self):
        return [f for f in self.links if f.null]


def _foreign_keys(model):
    return [
        f for f in model._meta.concrete_fields if f.is_relation and (f.many_to_one or f.one_to_one)
    ]


def _all_models():
    return [m for m in apps.get_models(include_auto_created=True) if not m._meta.proxy]


def campaign_tables() -> list[Table]:
    """Every table of a campaign, each after the tables its non-null keys
    point to (the order rows can be inserted in)."""
    paths = {CAMPAIGN: "pk"}
    found = True
    while found:
        found = False
        for model in _all_models():
            name = label(model)
            if name in paths or name in LEFT_OUT:
                continue
            keys = sorted(_foreign_keys(model), key=lambda f: f.null)  # non-null first
            for field in keys:
                target = label(field.related_model)
                if target in paths:
                    rest = paths[target]
                    paths[name] = field.name if rest == "pk" else f"{field.name}__{rest}"
                    found = True
                    break
    by_label = {label(m): m for m in _all_models()}
    users = label(user_model())
    tables = {}
    for name, path in paths.items():
        model = by_label[name]
        keys = _foreign_keys(model)
        tables[name] = Table(
            model,
            path,
            tuple(f for f in keys if label(f.related_model) in paths),
            tuple(f for f in keys if label(f.related_model) == users),
        )
    return _in_insert_order(tables)


def _in_insert_order(tables: dict) -> list[Table]:
    ordered, placed = [], set()
    while len(ordered) < len(tables):
        ready = [
            t
            for name, t in sorted(tables.items())
            if name not in placed
            and all(label(f.related_model) in placed | {name} for f in t.early)
        ]
        if not ready:  # a cycle of non-null keys: no model has one today
            raise RuntimeError("the campaign's tables have a cycle of required keys")
        for table in ready:
            ordered.append(table)
            placed.add(table.label)
    return ordered


def outside_keys() -> list[str]:
    """Keys from a campaign table to a table that is neither the campaign's
    nor the users': the archive could not carry what they point to."""
    names = {t.label for t in campaign_tables()}
    users = label(user_model())
    return [
        f"{t.label}.{f.name}"
        for t in campaign_tables()
        for f in _foreign_keys(t.model)
        if label(f.related_model) not in names | {users}
    ]


def is_file(field) -> bool:
    return isinstance(field, models.FileField)
