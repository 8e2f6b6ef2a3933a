"""Every table with a path to a campaign goes into the archive, or is left
out by name with a reason: a model added later cannot be forgotten."""

from django.apps import apps

from vtt.records.backup.graph import LEFT_OUT, campaign_tables, outside_keys


def _reaches_campaign(model, seen=frozenset()) -> bool:
    """Any chain of foreign keys, null or not, from `model` to Campaign."""
    if model._meta.label_lower == "tabletop.campaign":
        return True
    for field in model._meta.concrete_fields:
        target = field.related_model if field.is_relation else None
        if target is not None and target not in seen:
            if _reaches_campaign(target, seen | {model}):
                return True
    return False


def test_every_table_reaching_a_campaign_is_exported_or_left_out_by_name():
    covered = {t.label for t in campaign_tables()}
    for model in apps.get_models(include_auto_created=True):
        name = model._meta.label_lower
        if _reaches_campaign(model):
            assert name in covered or name in LEFT_OUT, f"{name} is not in the archive"


def test_left_out_tables_are_real_and_not_also_exported():
    labels = {m._meta.label_lower for m in apps.get_models(include_auto_created=True)}
    assert set(LEFT_OUT) <= labels
    assert not set(LEFT_OUT) & {t.label for t in campaign_tables()}


def test_no_campaign_table_points_outside_the_campaign_but_to_users():
    assert outside_keys() == []
