"""The admin site for every tabletop model. Saving goes through the same
services as the API and the rooms (acting as SYSTEM), so a token moved here
bumps its version and the room hears of it, a sheet is checked against its
game, and a campaign never loses its last GM. Forms check first, so a bad
value comes back on its field instead of failing the save."""

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model

from vtt.core.errors import ServiceError
from vtt.games import game_settings, sheets
from vtt.pictures.images import check_image
from vtt.tabletop import policy, services
from vtt.tabletop.models import (
    Campaign,
    Character,
    Invite,
    Membership,
    Role,
    Roll,
    RoomEvent,
    Scene,
    Token,
)
from vtt.tabletop.services import SYSTEM
from vtt.tabletop.services.scenes import clean_walls
from vtt.tabletop.services.tokens import campaign_character, check_footprint, clean_controllers


def add_service_error(form: forms.Form, error: ServiceError) -> None:
    """Show a service's refusal on the form field it names, if the form has it."""
    field = (error.field or "").split(".")[0].split("[")[0]
    field = {"owner_id": "owner", "character_id": "character"}.get(field, field)
    form.add_error(field if field in form.fields else None, error.message)


def checked(form: forms.Form, check, *args):
    """Run one service check inside a form's clean(); None when it refused."""
    try:
        return check(*args)
    except ServiceError as error:
        add_service_error(form, error)
        return None


# ------------------------------------------------------------------ campaigns


class CampaignAddForm(forms.ModelForm):
    gm = forms.ModelChoiceField(
        queryset=get_user_model().objects.order_by("username"),
        help_text="Becomes the campaign's first GM.",
    )

    class Meta:
        model = Campaign
        fields = ["name", "game", "settings"]

    def clean(self):
        data = super().clean()
        if data.get("game"):
            data["settings"] = checked(
                self, game_settings.clean_settings, data["game"], data.get("settings") or {}
            )
        return data


class CampaignChangeForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = ["name", "settings", "active_scene"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["active_scene"].queryset = Scene.objects.filter(campaign=self.instance)

    def clean_settings(self):
        return checked(
            self,
            game_settings.clean_settings,
            self.instance.game,
            self.cleaned_data.get("settings") or {},
            self.instance.settings,
        )


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    fields = ["user", "role", "joined_at"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "active_scene", "event_seq", "created_at"]
    list_filter = ["game"]
    search_fields = ["name"]
    readonly_fields = ["game", "event_seq", "created_at"]
    inlines = [MembershipInline]

    def get_form(self, request, obj=None, change=False, **kwargs):
        kwargs["form"] = CampaignChangeForm if obj else CampaignAddForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        return self.readonly_fields if obj else []

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["name", "game", "settings", "gm"]
        return ["name", "game", "settings", "active_scene", "event_seq", "created_at"]

    def get_inlines(self, request, obj):
        return self.inlines if obj else []

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        if not change:
            campaign = services.campaign_create(
                owner=data["gm"], name=data["name"], game=data["game"], settings=data["settings"]
            )
            obj.pk = campaign.pk
            obj.refresh_from_db()
            return
        fields = {name: data[name] for name in ("name", "settings") if name in form.changed_data}
        if fields:
            services.campaign_update(campaign_id=obj.pk, by=SYSTEM, **fields)
        if "active_scene" in form.changed_data and data["active_scene"] is not None:
            services.scene_activate(scene_id=data["active_scene"].pk, by=SYSTEM)
        obj.refresh_from_db()

    def save_related(self, request, form, formsets, change):
        pass  # memberships are shown, not edited, here


# ------------------------------------------------------------------ members


class MembershipForm(forms.ModelForm):
    class Meta:
        model = Membership
        fields = ["campaign", "user", "role"]

    def clean(self):
        data = super().clean()
        member = self.instance
        if member.pk and policy.runs_table(member) and data.get("role") != Role.GM:
            others = Membership.objects.filter(policy.gms_q(), campaign=member.campaign)
            if not others.exclude(pk=member.pk).exists():
                self.add_error("role", "A campaign must keep at least one GM.")
        return data


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    form = MembershipForm
    list_display = ["user", "campaign", "role", "joined_at"]
    list_filter = ["role"]
    search_fields = ["user__username", "campaign__name"]

    def get_readonly_fields(self, request, obj=None):
        return ["campaign", "user", "joined_at"] if obj else ["joined_at"]

    def save_model(self, request, obj, form, change):
        if change:
            services.membership_set_role(
                campaign_id=obj.campaign_id, by=SYSTEM, user_id=obj.user_id, role=obj.role
            )
        else:
            member = services.membership_add(
                campaign_id=obj.campaign_id, by=SYSTEM, user_id=obj.user_id, role=obj.role
            )
            obj.pk = member.pk
        obj.refresh_from_db()

    def get_deleted_objects(self, objs, request):
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        for member in objs:
            others = Membership.objects.filter(policy.gms_q(), campaign=member.campaign)
            if policy.runs_table(member) and not others.exclude(pk=member.pk).exists():
                protected = [*protected, f"{member}: the last GM of {member.campaign}"]
        return deleted, counts, perms_needed, protected

    def delete_model(self, request, obj):
        services.membership_remove(campaign_id=obj.campaign_id, by=SYSTEM, user_id=obj.user_id)

    def delete_queryset(self, request, queryset):
        for member in queryset:
            self.delete_model(request, member)


@admin.register(Invite)
class InviteAdmin(admin.ModelAdmin):
    list_display = ["code", "campaign", "role", "uses", "max_uses", "expires_at"]
    list_filter = ["role"]
    search_fields = ["code", "campaign__name"]
    fields = ["campaign", "role", "expires_at", "max_uses", "code", "uses", "created_by"]
    readonly_fields = ["code", "uses", "created_by"]

    def save_model(self, request, obj, form, change):
        if change:
            obj.save()
            return
        invite = services.invite_create(
            campaign=obj.campaign,
            by=SYSTEM,
            role=obj.role,
            expires_at=obj.expires_at,
            max_uses=obj.max_uses,
        )
        obj.pk = invite.pk
        obj.refresh_from_db()


# ------------------------------------------------------------------ characters


class CharacterForm(forms.ModelForm):
    class Meta:
        model = Character
        fields = ["campaign", "owner", "name", "kind", "sheet", "weapons", "resources", "gm_notes"]

    def clean(self):
        data = super().clean()
        campaign = data.get("campaign") or getattr(self.instance, "campaign", None)
        if campaign is None:
            return data
        owner = data.get("owner")
        if owner is not None:
            member = Membership.objects.filter(campaign=campaign, user=owner).first()
            if member is None or not policy.takes_part(member):
                self.add_error("owner", "The owner must be a GM or player of the campaign.")
        data["sheet"] = checked(
            self, sheets.clean_sheet, campaign.game, data.get("sheet"), campaign.settings
        )
        data["weapons"] = checked(self, sheets.clean_weapons, campaign.game, data.get("weapons"))
        base = self.instance.resources if self.instance.pk else None
        data["resources"] = checked(
            self,
            sheets.clean_resources,
            campaign.game,
            data.get("resources") or {},
            campaign.settings,
            base,
        )
        return data


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    form = CharacterForm
    list_display = ["name", "campaign", "kind", "owner", "updated_at"]
    list_filter = ["kind", "campaign__game"]
    search_fields = ["name", "campaign__name"]

    def get_readonly_fields(self, request, obj=None):
        return ["campaign"] if obj else []

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        owner_id = data["owner"].pk if data.get("owner") else None
        if not change:
            character = services.character_create(
                campaign_id=data["campaign"].pk,
                by=SYSTEM,
                name=data["name"],
                kind=data["kind"],
                owner_id=owner_id,
                sheet=data["sheet"],
                weapons=data["weapons"],
                resources=data["resources"],
                gm_notes=data["gm_notes"],
            )
            obj.pk = character.pk
        else:
            names = {"owner": "owner_id"}
            fields = {
                names.get(name, name): owner_id if name == "owner" else data[name]
                for name in form.changed_data
            }
            if fields:
                services.character_update(character_id=obj.pk, by=SYSTEM, **fields)
        obj.refresh_from_db()

    def delete_model(self, request, obj):
        services.character_delete(character_id=obj.pk, by=SYSTEM)

    def delete_queryset(self, request, queryset):
        for character in queryset:
            self.delete_model(request, character)


# ------------------------------------------------------------------ scenes and tokens


class SceneForm(forms.ModelForm):
    class Meta:
        model = Scene
        fields = ["campaign", "name", "width", "height", "walls", "background"]

    def clean(self):
        data = super().clean()
        width, height = data.get("width"), data.get("height")
        if width and height:
            data["walls"] = checked(self, clean_walls, data.get("walls"), width, height)
            if self.instance.pk:
                for token in self.instance.tokens.all():
                    if token.x + token.size > width or token.y + token.size > height:
                        self.add_error(None, f"Token {token.name} would fall outside the map.")
        image = data.get("background")
        if image and "background" in self.changed_data:
            checked(self, check_image, image)
        return data


@admin.register(Scene)
class SceneAdmin(admin.ModelAdmin):
    form = SceneForm
    list_display = ["name", "campaign", "width", "height"]
    search_fields = ["name", "campaign__name"]

    def get_readonly_fields(self, request, obj=None):
        return ["campaign"] if obj else []

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        shape = {name: data[name] for name in ("name", "width", "height", "walls")}
        if change:
            changed = {k: v for k, v in shape.items() if k in form.changed_data}
            if changed:
                services.scene_update(scene_id=obj.pk, by=SYSTEM, **changed)
        else:
            scene = services.scene_create(campaign_id=data["campaign"].pk, by=SYSTEM, **shape)
            obj.pk = scene.pk
        if "background" in form.changed_data:
            if data["background"]:
                services.scene_set_background(scene_id=obj.pk, by=SYSTEM, image=data["background"])
            else:
                services.scene_clear_background(scene_id=obj.pk, by=SYSTEM)
        obj.refresh_from_db()

    def delete_model(self, request, obj):
        services.scene_delete(scene_id=obj.pk, by=SYSTEM)

    def delete_queryset(self, request, queryset):
        for scene in queryset:
            self.delete_model(request, scene)


class TokenForm(forms.ModelForm):
    class Meta:
        model = Token
        fields = ["scene", "character", "name", "x", "y", "size", "hidden", "color", "controllers"]

    def clean(self):
        data = super().clean()
        scene = data.get("scene") or getattr(self.instance, "scene", None)
        if scene is None:
            return data
        if all(data.get(name) is not None for name in ("x", "y", "size")):
            checked(self, check_footprint, scene, data["x"], data["y"], data["size"])
        character = data.get("character")
        if character is not None:
            checked(self, campaign_character, scene.campaign_id, character.pk)
        controllers = [user.pk for user in data.get("controllers") or []]
        checked(self, clean_controllers, scene.campaign_id, controllers)
        return data


@admin.register(Token)
class TokenAdmin(admin.ModelAdmin):
    form = TokenForm
    list_display = ["name", "scene", "x", "y", "size", "hidden", "version"]
    list_filter = ["hidden"]
    search_fields = ["name", "scene__name"]

    def get_readonly_fields(self, request, obj=None):
        return ["scene", "version"] if obj else ["version"]

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        controllers = [user.pk for user in data.get("controllers") or []]
        character_id = data["character"].pk if data.get("character") else None
        if not change:
            token = services.token_create(
                scene_id=data["scene"].pk,
                by=SYSTEM,
                name=data["name"],
                x=data["x"],
                y=data["y"],
                size=data["size"],
                hidden=data["hidden"],
                color=data["color"],
                character_id=character_id,
                controllers=controllers,
            )
            obj.pk = token.pk
            obj.refresh_from_db()
            return
        changed = set(form.changed_data)
        # A smaller token first, so it fits where it goes; a bigger one after the move.
        update = {
            "name": data["name"],
            "size": data["size"],
            "color": data["color"],
            "character_id": character_id,
            "controllers": controllers,
        }
        update = {k: v for k, v in update.items() if k.removesuffix("_id") in changed}
        shrinking = "size" in update and update["size"] < form.initial.get("size", 1)
        if update and shrinking:
            services.token_update(token_id=obj.pk, by=SYSTEM, **update)
        if changed & {"x", "y"}:
            services.token_move(token_id=obj.pk, by=SYSTEM, x=data["x"], y=data["y"])
        if update and not shrinking:
            services.token_update(token_id=obj.pk, by=SYSTEM, **update)
        if "hidden" in changed:
            services.token_set_hidden(token_id=obj.pk, by=SYSTEM, hidden=data["hidden"])
        obj.refresh_from_db()

    def save_related(self, request, form, formsets, change):
        pass  # controllers were set by the service, with the version bumped

    def delete_model(self, request, obj):
        services.token_delete(token_id=obj.pk, by=SYSTEM)

    def delete_queryset(self, request, queryset):
        for token in queryset:
            self.delete_model(request, token)


# ------------------------------------------------------------------ the record


class ReadOnlyAdmin(admin.ModelAdmin):
    """An audit trail is read, never written, from here."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Roll)
class RollAdmin(ReadOnlyAdmin):
    list_display = [
        "__str__",
        "campaign",
        "roller",
        "character",
        "visibility",
        "physical",
        "created_at",
    ]
    list_filter = ["visibility", "physical"]
    search_fields = ["campaign__name", "roller__username"]
    # Its request (in the name) is read from its log entry.
    list_select_related = ["campaign", "roller", "character", "event"]


@admin.register(RoomEvent)
class RoomEventAdmin(ReadOnlyAdmin):
    list_display = ["campaign", "seq", "kind", "visibility", "actor", "created_at"]
    list_filter = ["kind", "visibility"]
    search_fields = ["campaign__name", "kind"]
