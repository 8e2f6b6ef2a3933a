"""Words a player of each game uses for the tray's actions and fields.
Anything not named here falls back to the field's own name."""

ARTIFICE_DIFFICULTY = "Automatic 0, Easy 1, Moderate 2, Hard 3, Difficult 4, Monstrous 5"
RD6_DIFFICULTY = (
    "Successes needed: Very Easy 0, Easy 1, Moderate 2, Difficult 3, Very Difficult 4, "
    "Heroic 5, Legendary 6+"
)

ACTION_LABELS = {
    "artifice": {
        "check": "Check (against a Difficulty)",
        "test": "Test (against an opponent)",
        "passive": "Passive value",
        "attack": "Attack (combat and wound)",
        "range": "Range",
    },
    "fgr": {
        "roll": "Skill roll",
        "numeric": "Numeric roll (sum)",
        "reduce_damage": "Reduce damage with Action Points",
    },
    "xerosum": {
        "check": "Check",
        "first_impression": "First Impression",
        "gut_instinct": "Gut Instinct",
        "gambit": "Gambit",
        "rebuttal": "Rebuttal",
        "reroll": "Reroll with Insight Dice",
        "opposed": "Opposed check",
        "group": "Group check",
    },
    "rd6": {"roll": "Roll a die code", "opposed": "Opposed roll"},
    "apocalyptia": {"roll": "Roll", "opposed": "Opposed roll", "attack": "Attack (ATK vs DEF)"},
}

FIELD_LABELS = {
    "artifice": {
        "pool": "Dice (ability + skill)",
        "modifier": "Pip modifier",
        "difficulty": "Difficulty",
        "automatic": "Automatic (take half the dice, no roll)",
        "cascade": "Cascade successes",
        "actor": "You",
        "opponent": "Opponent",
        "kind": "Kind of Test",
        "ability": "Ability dice",
        "attacker": "Attacker",
        "defender": "Defender",
        "finesse": "Finesse dice",
        "might": "Might dice",
        "lethality": "Weapon Lethality",
        "agility": "Agility dice",
        "toughness": "Toughness dice",
        "condition": "Condition",
        "advantage": "Advantage",
        "range": "Range category",
    },
    "fgr": {
        "skill": "Skill dice",
        "modifier_dice": "Help (+) or hindrance (-) dice",
        "difficulty": "Difficulty (successes needed)",
        "action_points": "Action Points to spend",
        "dice": "Dice",
        "damage": "Damage",
    },
    "xerosum": {
        "amod": "AMod (attribute)",
        "smod": "SMod (skill)",
        "cmod": "CMod (conditions)",
        "insight_extra_die": "Spend Insight: roll 3d6",
        "insight_cmod": "Spend Insight: +3 CMod",
        "rebuttal_cmod": "CMod from the Gambit",
        "actor": "You",
        "opponent": "Opponent",
        "participants": "Participants",
    },
    "rd6": {
        "dice": "Dice (D)",
        "pips": "Pips (+)",
        "modifier_dice": "Modifier dice (±D)",
        "equipment_dice": "Equipment dice",
        "equipment_pips": "Equipment pips",
        "character_points": "Character Points",
        "fate_point": "Fate Point (double dice and pips)",
        "rolling_up": "Rolling Up (second wild die)",
        "complication": "On a Complication",
        "catastrophic_failure": "Catastrophic Failure rule",
        "difficulty": "Difficulty",
        "difficulty_modifier": "Difficulty modifier",
        "retry": "Second Chance (retry)",
        "previous_true_critical_failure": "Last try was a True Critical Failure",
        "result_dice": "Result points to damage dice",
        "actor": "You",
        "opponent": "Opponent",
    },
    "apocalyptia": {
        "bonus": "Bonus (Trait or Skill + modifiers)",
        "difficulty": "Difficulty",
        "kind": "Kind of roll",
        "stressful": "Stressful situation",
        "actor": "You",
        "opponent": "Opponent",
        "atk_bonus": "ATK bonus (Melee or Projectile)",
        "def_bonus": "DEF bonus (Dodge or Block)",
        "weapon_dmg": "Weapon damage",
        "defense": "Defence",
    },
}

FIELD_HINTS = {
    "artifice": {
        "difficulty": ARTIFICE_DIFFICULTY,
        "modifier": "Added to the highest failing die; a minus comes off the lowest success.",
    },
    "fgr": {"modifier_dice": "+1/+2 help, -1/-2 hindrance; at 0 dice or less it is a Luck Roll."},
    "xerosum": {
        "amod": "-2 Lame to +4 Human Peak",
        "cmod": "-5 Doomed to Failure to +5 Divine Intervention",
    },
    "rd6": {"difficulty": RD6_DIFFICULTY},
    "apocalyptia": {"difficulty": "The total must beat it; equal fails."},
}

# Fields drawn by a widget of their own rather than from their declaration.
FIELD_WIDGETS = {"artifice": {"defender.condition": "condition"}}
