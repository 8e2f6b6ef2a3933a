"""Combat's records in the admin site, to read: every change to them goes
through combat's services, which also write the room's log."""

from django.contrib import admin

from .models import Attack, BrokenWeapon, Combatant, Encounter, ResourceState, TrailStep, Undo


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class CombatantInline(admin.TabularInline):
    model = Combatant
    fields = ("name", "token", "initiative", "joined")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Encounter)
class EncounterAdmin(ReadOnly):
    list_display = ("id", "scene", "round", "turns", "current", "started_at", "ended_at")
    list_filter = ("campaign",)
    inlines = [CombatantInline]


@admin.register(Attack)
class AttackAdmin(ReadOnly):
    list_display = ("id", "campaign", "attacker_name", "target_name", "outcome", "status")
    list_filter = ("campaign", "system", "status", "visibility")


@admin.register(TrailStep)
class TrailStepAdmin(ReadOnly):
    list_display = ("token", "seq", "from_x", "from_y", "to_x", "to_y")


@admin.register(BrokenWeapon)
class BrokenWeaponAdmin(ReadOnly):
    list_display = ("character", "weapon", "attack")


@admin.register(ResourceState)
class ResourceStateAdmin(ReadOnly):
    list_display = ("character", "seq")


@admin.register(Undo)
class UndoAdmin(ReadOnly):
    list_display = ("event", "undone_by", "created_at")
