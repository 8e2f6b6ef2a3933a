"""Pictures of the table: a character's portrait and a token's art.

Each is one picture and its square thumbnails (vtt.pictures.images), stored
through the field's storage under one random name, and swapped on the row
in one transaction: the new files are deleted again when the change fails,
the old ones once it has committed. A token without art of its own shows
its character's portrait, so a portrait change also announces every such
token, each through its own token event (the policy keeps a hidden token's
news to the GM).

Who may: a portrait, the character's owner (a player) or a GM; a token's
art, a GM or the owner of the token's character, if they see the token."""

from django.db import transaction

from vtt.pictures import images

from .. import event_kinds, policy
from ..models import Character, Token
from .characters import character_event, character_for
from .errors import NotAllowed
from .tokens import token_changed, token_for

PORTRAIT_FIELDS = Character.PICTURE_FIELDS
ART_FIELDS = Token.PICTURE_FIELDS


def _storage(row, fields):
    return getattr(row, fields[0]).storage


def _store(row, fields, image) -> list[str]:
    """Re-encode the upload and write its files: [picture, 128, 256] names.
    Checked and written before any row is locked (it is the slow part)."""
    kind = images.PORTRAIT if fields == PORTRAIT_FIELDS else images.TOKEN_ART
    encoded = images.reencode_art(image, kind=kind)
    storage = _storage(row, fields)
    stored = images.save_files(storage, getattr(row, fields[0]).field.upload_to, encoded)
    return [stored["image"], stored[128], stored[256]]


def _swap(row, fields, names: list[str | None]) -> list[str]:
    """Point the row at the new files; the old names, to forget."""
    old = images.stored_names(row, fields)
    for field, name in zip(fields, names, strict=True):
        getattr(row, field).name = name
    return old


def _in_transaction(storage, stored: list[str], change):
    """Run `change` atomically; if it fails the new files must not linger."""
    try:
        with transaction.atomic():
            return change()
    except BaseException:
        images.delete_files(storage, stored)
        raise


# ------------------------------------------------------------------ portraits


def _portrait_character(character_id: int, by) -> Character:
    character, member = character_for(character_id, by)
    if not policy.may_edit_character(member, character):
        raise NotAllowed("only the character's owner or a GM may change its portrait", "image")
    return character


def _locked_character(character_id: int) -> Character:
    # Only the character's row is locked (its owner may be null: no outer join locks).
    rows = Character.objects.select_for_update(of=("self",)).select_related("campaign", "owner")
    return rows.get(pk=character_id)


def _announce_portrait(character: Character, by) -> None:
    """The character's event, and each token showing its portrait."""
    character_event(character, event_kinds.CHARACTER_UPDATED, by)
    tokens = (
        Token.objects.select_for_update(of=("self",))
        .filter(character_id=character.pk)
        .select_related("scene__campaign")
        .order_by("pk")
    )
    for token in tokens:
        if token.art:
            continue  # its own art stays what the map shows
        token.character = character
        token_changed(token, by)


def character_set_portrait(*, character_id: int, by, image) -> Character:
    character = _portrait_character(character_id, by)
    storage = _storage(character, PORTRAIT_FIELDS)
    stored = _store(character, PORTRAIT_FIELDS, image)

    def change():
        locked = _locked_character(character_id)
        images.forget_files(storage, _swap(locked, PORTRAIT_FIELDS, stored))
        locked.save(update_fields=[*PORTRAIT_FIELDS, "updated_at"])
        _announce_portrait(locked, by)
        return locked

    return _in_transaction(storage, stored, change)


def character_clear_portrait(*, character_id: int, by) -> Character:
    _portrait_character(character_id, by)
    with transaction.atomic():
        locked = _locked_character(character_id)
        if not locked.portrait:
            return locked
        storage = _storage(locked, PORTRAIT_FIELDS)
        images.forget_files(storage, _swap(locked, PORTRAIT_FIELDS, [None, None, None]))
        locked.save(update_fields=[*PORTRAIT_FIELDS, "updated_at"])
        _announce_portrait(locked, by)
    return locked


# ------------------------------------------------------------------ token art


def _art_token(token_id: int, by) -> Token:
    """The token if `by` sees it (else not_found) and may change its art."""
    token, member = token_for(token_id, by)
    if policy.runs_table(member):
        return token
    character = Character.objects.filter(pk=token.character_id).only("owner_id").first()
    if character is None or not policy.may_edit_character(member, character):
        raise NotAllowed("only a GM or the owner of the token's character may change its art")
    return token


def _save_art(token: Token, by, names: list[str] | None) -> Token:
    """Point the token at new files, or at none (`names` None): clearing
    art a token does not have changes nothing and says nothing."""
    locked = Token.objects.select_for_update(of=("self",)).select_related("character")
    locked = locked.get(pk=token.pk)
    locked.scene = token.scene
    if names is None:
        if not locked.art:
            return locked
        names = [None, None, None]
    storage = _storage(locked, ART_FIELDS)
    images.forget_files(storage, _swap(locked, ART_FIELDS, names))
    token_changed(locked, by, ART_FIELDS)
    return locked


def token_set_art(*, token_id: int, by, image) -> Token:
    token = _art_token(token_id, by)
    storage = _storage(token, ART_FIELDS)
    stored = _store(token, ART_FIELDS, image)
    return _in_transaction(storage, stored, lambda: _save_art(token, by, stored))


def token_clear_art(*, token_id: int, by) -> Token:
    token = _art_token(token_id, by)
    with transaction.atomic():
        return _save_art(token, by, None)
