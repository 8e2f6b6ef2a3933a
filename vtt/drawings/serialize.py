from vtt.tabletop.serialize import user_data


def drawing_data(drawing) -> dict:
    """A drawing as events, snapshots and the REST API carry it (`by` read
    with it: select_related("by"))."""
    return {
        "id": drawing.pk,
        "scene": drawing.scene_id,
        "by": user_data(drawing.by),
        "shape": drawing.shape,
        "layer": drawing.layer,
        "color": drawing.color,
        "width": drawing.width,
        "points": drawing.points,
        "text": drawing.text,
    }
