"""`manage.py demo`: the Artifice campaign "The Tomb", ready to play.

A GM (username gm) and a player (username player); Tenrec, the player's
human warrior; Kobor, a sorcerer waiting for a player; a zombie guarding the
tomb; the tomb entrance as the active scene, walls and all, with a token for
each of the three. Safe to run again: what exists is left alone, and
passwords are made (and printed, and written to .demo-passwords) only for
users this run creates."""

import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from vtt.tabletop import services
from vtt.tabletop.models import Campaign, Character, Membership, Role, Scene, Token

CAMPAIGN = "The Tomb"
SCENE = "Tomb entrance"

TENREC = {
    "name": "Tenrec",
    "sheet": {
        "race": "Human",
        "class": "Warrior",
        "level": 1,
        "attributes": {"Strength": 3, "Dexterity": 2, "Intelligence": 2, "Will Power": 2},
        "abilities": {
            "Might": {"dice": 2, "kind": "class", "pips": 1},
            "Finesse": {"dice": 4, "kind": "class"},
            "Toughness": {"dice": 2},
            "Agility": {"dice": 2},
        },
        "skills": ["Swordsmanship"],
    },
    "weapons": [{"name": "Long sword", "kind": "melee", "lethality": 2}],
}
KOBOR = {
    "name": "Kobor",
    "sheet": {
        "race": "Human",
        "class": "Sorcerer",
        "level": 1,
        "attributes": {"Strength": 1, "Dexterity": 2, "Intelligence": 2, "Will Power": 3},
        "abilities": {
            "Arcanum": {"dice": 2, "kind": "class"},
            "Lore": {"dice": 2, "kind": "class"},
            "Perception": {"dice": 2},
        },
        "skills": ["Sorcery", "Old Tongue"],
    },
    "weapons": [
        {"name": "Fire dart", "kind": "spell", "range_ft": 60, "lethality": 1},
        {"name": "Eye of ruin", "kind": "spell", "range_ft": "line_of_sight", "lethality": 2},
    ],
}
ZOMBIE = {
    "name": "Zombie",
    "kind": "npc",
    "sheet": {
        "class": "Undead",
        "abilities": {
            "Agility": {"dice": 2},
            "Toughness": {"dice": 3},
            "Might": {"dice": 2},
            "Finesse": {"dice": 2},
        },
    },
    "weapons": [{"name": "Claws", "kind": "melee", "lethality": 1}],
    "gm_notes": "Guards the entrance. Slow, but it does not stop at Incapacitated.",
}
# The entrance: a corridor between two walls that opens into the tomb.
SCENE_SHAPE = {
    "width": 24,
    "height": 16,
    "walls": [
        [0, 6, 10, 6],
        [0, 10, 10, 10],
        [10, 2, 10, 6],
        [10, 10, 10, 14],
        [10, 2, 22, 2],
        [10, 14, 22, 14],
        [22, 2, 22, 14],
    ],
}
TOKENS = [("Tenrec", 3, 7, "#2b6cb0"), ("Kobor", 2, 8, "#6b46c1"), ("Zombie", 14, 8, "#2f855a")]


class Command(BaseCommand):
    help = "Create the demo campaign The Tomb (safe to run again; changes nothing then)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--passwords-file",
            default=str(Path(settings.BASE_DIR) / ".demo-passwords"),
            help="Where the new users' passwords are written (default: .demo-passwords).",
        )

    def handle(self, *args, passwords_file, **options):
        with transaction.atomic():
            created, users = self._users()
            made = self._campaign(users["gm"], users["player"])
        if created:
            self._write_passwords(Path(passwords_file), created)
        if made or created:
            self.stdout.write(self.style.SUCCESS(f"The demo campaign {CAMPAIGN!r} is ready."))
        else:
            self.stdout.write(f"The demo campaign {CAMPAIGN!r} is already there; nothing changed.")

    def _users(self):
        created, users = {}, {}
        for username in ("gm", "player"):
            user = get_user_model().objects.filter(username=username).first()
            if user is None:
                password = secrets.token_urlsafe(9)
                user = get_user_model().objects.create_user(username=username, password=password)
                created[username] = password
            users[username] = user
        return created, users

    def _campaign(self, gm, player) -> bool:
        campaign = Campaign.objects.filter(name=CAMPAIGN, memberships__user=gm).first()
        made = campaign is None
        if made:
            campaign = services.campaign_create(owner=gm, name=CAMPAIGN, game="artifice")
        if not Membership.objects.filter(campaign=campaign, user=player).exists():
            services.membership_add(
                campaign_id=campaign.pk, by=gm, user_id=player.pk, role=Role.PLAYER
            )
            made = True
        characters = {}
        for spec, owner in ((TENREC, player), (KOBOR, None), (ZOMBIE, None)):
            character = Character.objects.filter(campaign=campaign, name=spec["name"]).first()
            if character is None:
                character = services.character_create(
                    campaign_id=campaign.pk,
                    by=gm,
                    owner_id=owner.pk if owner else None,
                    **spec,
                )
                made = True
            characters[spec["name"]] = character
        scene = Scene.objects.filter(campaign=campaign, name=SCENE).first()
        if scene is None:
            scene = services.scene_create(campaign_id=campaign.pk, by=gm, name=SCENE, **SCENE_SHAPE)
            made = True
        campaign.refresh_from_db()
        if campaign.active_scene_id is None:
            services.scene_activate(scene_id=scene.pk, by=gm)
            made = True
        for name, x, y, color in TOKENS:
            if not Token.objects.filter(scene=scene, name=name).exists():
                services.token_create(
                    scene_id=scene.pk,
                    by=gm,
                    name=name,
                    x=x,
                    y=y,
                    color=color,
                    character_id=characters[name].pk,
                )
                made = True
        return made

    def _write_passwords(self, path: Path, created: dict):
        lines = [f"{username}: {password}" for username, password in created.items()]
        self.stdout.write(f"Demo users (these passwords are shown once; also in {path.name}):")
        for line in lines:
            self.stdout.write(f"  {line}")
        with path.open("a", encoding="utf-8") as file:
            file.write("\n".join(lines) + "\n")
        path.chmod(0o600)
