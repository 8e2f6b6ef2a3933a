"""The log's kinds for fights, declared at start (CombatConfig.ready): a
turn order started, rolled, changed, turned and ended; an attack, its
damage or its refusal; a weapon mended; an undo; a hidden entry revealed;
the trails cleared. Their names are the log's (vtt.tabletop.event_kinds),
their shapes and sight are declared here, with the part that writes them."""

from vtt.rules.schema import Bool, Choice, Int, List, Obj
from vtt.tabletop.event_kinds import (
    CHARACTER_UPDATED,
    COMBAT_ATTACK,
    COMBAT_DAMAGE,
    COMBAT_DECLINED,
    COMBAT_WEAPON_REPAIRED,
    DRAW,
    ENCOUNTER_ENDED,
    ENCOUNTER_INITIATIVE,
    ENCOUNTER_STARTED,
    ENCOUNTER_TURN,
    ENCOUNTER_UPDATED,
    EVERYONE,
    ID,
    NPC_GM,
    ON_A_SCENE,
    PUBLIC_OR_GM,
    REVEAL,
    ROLL,
    TOKEN_MOVED,
    TRAILS_CLEARED,
    UNDO,
    USER,
    Copy,
    Fog,
    Json,
    Kind,
    Nullable,
    Object,
    Sight,
    Text,
    on_the_room_scene,
    optional,
)
from vtt.tabletop.models import Visibility

ENCOUNTER = Obj(
    {
        "id": ID,
        "scene_id": ID,
        "round": Int(),
        "turns": Int(),
        "current": Nullable(ID),
        "turn": Nullable(Int(lo=0)),
        # The turn is a combatant this order leaves out (logged before: absent).
        "unseen_turn": optional(Bool()),
        "order": List(Object(), max_len=1000),
        "ended": Bool(),
        "game_time": Object(),
    }
)
INITIATIVE_ROLLS = List(Object(), max_len=1000)
ENCOUNTER_PLAYERS_VIEW = optional(
    Obj({"encounter": ENCOUNTER, "rolls": optional(INITIATIVE_ROLLS)})
)
SIDE = Obj({"token_id": Nullable(ID), "character_id": Nullable(ID), "name": Text()})
ATTACK = Obj(
    {
        "id": ID,
        "campaign_id": ID,
        "scene_id": Nullable(ID),
        "by": Nullable(USER),
        "attacker": SIDE,
        "target": SIDE,
        "system": Text(),
        "weapon": Object(),
        "measure": Object(),
        "sources": Object(),
        "steps": List(Object(), max_len=1000),
        "outcome": Json(),
        "status": Text(),
        "damage": Nullable(Int()),
        "changes": List(Object(), max_len=1000),
        "visibility": Choice(Visibility.PUBLIC, Visibility.GM),
        "physical": Bool(),
        # Attacks made before sessions were kept have none.
        "draw": Nullable(DRAW, default=None),
        "seq": Nullable(ID),
        # The attack in the game's words (vtt.games: the kit's attack_sentence).
        "sentence": optional(Text()),
    }
)
CHANGES = List(Object(), max_len=1000)

KINDS = (
    *(
        Kind(
            name,
            {"encounter": ENCOUNTER, "players_view": ENCOUNTER_PLAYERS_VIEW},
            Sight.PLAYERS_VIEW,
            PUBLIC_OR_GM,
            ON_A_SCENE + "; players get `players_view` (no hidden combatants) when present",
            players=Copy.FIGHT,
            fog=Fog.FIGHT,
        )
        for name in (ENCOUNTER_STARTED, ENCOUNTER_UPDATED, ENCOUNTER_TURN, ENCOUNTER_ENDED)
    ),
    Kind(
        ENCOUNTER_INITIATIVE,
        {
            "encounter": ENCOUNTER,
            "rolls": INITIATIVE_ROLLS,
            "physical": Bool(),
            "players_view": ENCOUNTER_PLAYERS_VIEW,
        },
        Sight.PLAYERS_VIEW,
        PUBLIC_OR_GM,
        ON_A_SCENE + "; players get `players_view` (no hidden combatants) when present",
        players=Copy.FIGHT,
        fog=Fog.FIGHT,
    ),
    Kind(
        COMBAT_ATTACK,
        {"attack": ATTACK},
        Sight.VISIBILITY,
        PUBLIC_OR_GM,
        "by the attack's visibility (hidden token, hidden attack or another scene: the GM)",
        # About its attacker and target: a group that sees either not (with
        # own vision, one player's tokens may not see what the party does)
        # does not see it.
        scene=on_the_room_scene,
    ),
    Kind(
        COMBAT_DAMAGE,
        {
            "attack": ATTACK,
            "changes": CHANGES,
            "status_before": Text(),
            "damage_before": Nullable(Int()),
        },
        Sight.VISIBILITY,
        PUBLIC_OR_GM,
        "as its attack",
        scene=on_the_room_scene,
    ),
    Kind(
        COMBAT_DECLINED,
        {"attack": ATTACK, "status_before": Text()},
        Sight.VISIBILITY,
        PUBLIC_OR_GM,
        "as its attack",
        scene=on_the_room_scene,
    ),
    Kind(
        COMBAT_WEAPON_REPAIRED,
        {"character_id": ID, "character": Text(), "weapon": Text()},
        Sight.VISIBILITY,
        PUBLIC_OR_GM,
        NPC_GM,
    ),
    Kind(
        UNDO,
        {
            "undo_of": ID,
            "undone": Choice(TOKEN_MOVED, CHARACTER_UPDATED, COMBAT_ATTACK, COMBAT_DAMAGE),
            "changes": CHANGES,
            "attack_id": optional(ID),
            "status": optional(Text()),
            "mended": optional(List(Text(), max_len=1000)),
        },
        Sight.VISIBILITY,
        PUBLIC_OR_GM,
        "as what it undoes (an NPC's resources: the GM)",
    ),
    Kind(
        REVEAL,
        {
            "of_seq": ID,
            "type": Choice(ROLL, COMBAT_ATTACK, COMBAT_DAMAGE, ENCOUNTER_INITIATIVE),
            "data": Object(),
        },
        Sight.VISIBILITY,
        EVERYONE,
        "everyone (it carries the hidden entry as it was)",
    ),
    Kind(TRAILS_CLEARED, {"scene_id": ID}, Sight.VISIBILITY, EVERYONE, "everyone"),
)
