from django.apps import AppConfig


class TabletopConfig(AppConfig):
    name = "vtt.tabletop"
    label = "tabletop"
    verbose_name = "Tabletop"

    def ready(self):
        from PIL import Image

        from vtt.pictures import images

        from . import event_kinds  # noqa: F401  (stored events read their payload through it)

        # Pillow's own guard for every picture the process opens: nothing of
        # ours is decoded past the largest kind's limit.
        Image.MAX_IMAGE_PIXELS = images.largest_pixel_limit()
