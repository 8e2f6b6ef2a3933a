"""Make a Universal VTT map file a scene (docs/maps.md).

    python manage.py import_map FILE --campaign ID [--scene ID] [--name NAME]
        [--simplify TOL] [--dry-run] [--yes]

A new scene of the campaign, or with --scene that scene's map: its walls,
doors and map lights replaced, which --yes must confirm when it has any
(without it the command says what would go and stops); its tokens stay.
--dry-run only counts. A bad file, or a refusal, is said with exit 2 and
nothing is written."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from vtt.core.errors import ServiceError
from vtt.maps.importing import (
    DEFAULT_SIMPLIFY,
    map_import,
    map_preview,
    read_upload,
)
from vtt.tabletop.services import SYSTEM


class Command(BaseCommand):
    help = "Import a Universal VTT map (.dd2vtt, .uvtt, .df2vtt) as a scene."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the map file")
        parser.add_argument("--campaign", type=int, required=True, help="the campaign's id")
        parser.add_argument("--scene", type=int, help="replace this scene's map instead")
        parser.add_argument("--name", help="the new scene's name (default: the file's)")
        parser.add_argument(
            "--simplify",
            type=float,
            default=DEFAULT_SIMPLIFY,
            help=f"squares a corner may stray from a straight wall (default {DEFAULT_SIMPLIFY})",
        )
        parser.add_argument("--dry-run", action="store_true", help="only count")
        parser.add_argument(
            "--yes", action="store_true", help="replace the scene's walls, doors and lights"
        )

    def handle(self, *args, file, campaign, scene, name, simplify, dry_run, yes, **options):
        path = Path(file)
        asked = {
            "by": SYSTEM,
            "campaign_id": campaign,
            "scene_id": scene,
            "name": name or path.stem[:120],
            "simplify": simplify,
        }
        try:
            with path.open("rb") as source:
                asked["data"] = read_upload(source)
            plan = map_preview(**asked)
            self.stdout.write(_said(plan))
            if dry_run:
                return
            if plan.replaces and any(plan.replaces.values()) and not yes:
                raise CommandError(
                    "not imported: the import replaces what the scene has; "
                    "run again with --yes to go on",
                    returncode=2,
                )
            made, _ = map_import(**asked, replace=yes)
        except ServiceError as error:
            where = f"{error.field}: " if error.field not in (None, "file") else ""
            raise CommandError(f"not imported: {where}{error.message}", returncode=2) from None
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}", returncode=2) from None
        self.stdout.write(f"imported as scene {made.pk} ({made.name})")


def _said(plan) -> str:
    lines = [
        f"{plan.name}: {plan.width} x {plan.height} squares, format {plan.format:g}, "
        f"{plan.lighting}{' (light painted in)' if plan.baked_lighting else ''}",
        f"  {plan.segments:,} wall segments in the file become {plan.walls:,} walls "
        f"(simplified at {plan.simplify:g} squares); {plan.doors} doors; {plan.lights} lights",
    ]
    if plan.replaces is not None:
        now = plan.replaces
        lines.append(
            f"  replaces the scene's {now['walls']} walls, {now['doors']} doors and "
            f"{now['lights']} lights; its tokens stay"
        )
    return "\n".join(lines)
