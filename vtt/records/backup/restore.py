"""An archive back into a campaign, on this server or another.

Everything is judged before anything is written: the envelope
(vtt.records.backup.archive), every table and column against the models,
every key against the archive's own rows, every log entry against its
kind's declared shape, every picture with Pillow. Then the pictures are
stored under new random names and the rows inserted in one transaction;
if the transaction fails the pictures are deleted again. A refusal is a
BadArchive on the field `archive`, and nothing stays written.

Rows get new ids (this server may hold other campaigns); every key is
remapped, and so are the ids inside the log's payloads (backup.ids). The
log is numbered again from 1 in its order, every seq that names an entry
following it, and the campaign's event_seq is its last: an archive's own
numbers are never trusted. Session numbers, roll numbers, nonces and seeds
are kept as they were, so undo, reveal and verify_session work on the
imported log as on the old.

An import creates no accounts. The archive's members are kept only as the
importer maps them to accounts of this server (`members`); anyone else is
dropped: no membership, no token control, their characters unowned, and
in the log a named stand-in (their old name, an id no account has). The
importer becomes a GM of the campaign, which gets a name of its own."""

import json
from dataclasses import dataclass
from datetime import datetime

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from vtt import games
from vtt.core.errors import ServiceError
from vtt.pictures import images
from vtt.tabletop import event_kinds, policy
from vtt.tabletop.events import append_event
from vtt.tabletop.models import Campaign, Membership, Role
from vtt.tabletop.serialize import user_data

from .archive import BadArchive, read
from .graph import CAMPAIGN, campaign_tables, is_file, label, user_model
from .ids import SEQ, NewIds, rewrite, rewrite_event, seqs_named

EVENTS = "tabletop.roomevent"
# JSON columns whose ids are rewritten (backup.ids); other JSON (sheets,
# settings, rules requests and results) names no row.
REWRITTEN = {EVENTS: ("data",), "combat.attack": ("changes",)}
# Columns holding a sight group name ("u<user id>").
GROUPS = {"tabletop.scenesight": "group", "tabletop.seentoken": "group"}
USERS = "user"
# Columns holding a seq of the campaign's log, renumbered with it.
SEQ_COLUMNS = {EVENTS: "seq", "combat.trailstep": "seq", "combat.resourcestate": "seq"}
NAME_LENGTH = Campaign._meta.get_field("name").max_length


@dataclass(frozen=True)
class Member:
    """One of the archive's users, as the import form lists them."""

    id: int  # the archive's id
    username: str
    role: str | None  # None: named in rows, not a member


@dataclass(frozen=True)
class Preview:
    name: str  # the campaign's name in the archive
    game: str
    members: list  # of Member, members first


def preview_import(raw) -> Preview:
    """What an archive holds, judged as an import judges it: BadArchive
    if it would be refused."""
    _manifest, data, files = read(raw)
    plan = _Plan(data, files)
    roles = {m["user_id"]: m["role"] for m in plan.rows["tabletop.membership"]}
    members = [Member(u["id"], u["username"], roles.get(u["id"])) for u in plan.users]
    members.sort(key=lambda m: (m.role is None, m.username))
    return Preview(plan.campaign["name"], plan.campaign["game"], members)


def imported_name(name: str, today=None) -> str:
    """ "The Tomb (imported 2026-11-29)": a copy that says it is one, cut to
    the column's length."""
    suffix = f" (imported {(today or timezone.localdate()).isoformat()})"
    return name[: NAME_LENGTH - len(suffix)].rstrip() + suffix


def import_campaign(raw, *, owner, name: str | None = None, members=None) -> Campaign:
    """The imported campaign, with `owner` one of its GMs. `name`: the new
    campaign's (default: the archive's, marked imported). `members`: archive
    user id -> the account here that takes their place; the others are
    dropped."""
    _manifest, data, files = read(raw)
    plan = _Plan(data, files)
    name = _name(name if name is not None else imported_name(plan.campaign["name"]))
    accounts = _accounts(plan.users, members or {})
    stored = []
    try:
        names, urls = _store_pictures(plan, stored)
        with transaction.atomic():
            return _insert(plan, names, urls, owner, name, accounts)
    except BaseException:
        for storage, name in stored:
            storage.delete(name)
        raise


def _name(name: str) -> str:
    name = name.strip() if isinstance(name, str) else ""
    if not name or len(name) > NAME_LENGTH:
        raise ServiceError(
            "bad_name", f"the campaign needs a name of 1 to {NAME_LENGTH} characters", "name"
        )
    return name


def _accounts(users: list[dict], members: dict) -> dict[int, int]:
    """Archive user id -> this server's account, for the members kept."""
    listed = {u["id"] for u in users}
    out = {}
    for old, account in members.items():
        if old not in listed:
            raise ServiceError("bad_member", f"the archive has no user {old}", "members")
        if account is None:
            continue
        if account.pk in out.values():
            raise ServiceError(
                "bad_member",
                f"{account.get_username()} can take the place of one member only",
                "members",
            )
        out[old] = account.pk
    return out


class _Plan:
    """The archive's rows, checked and decoded: {label: [{attname: value}]}."""

    def __init__(self, data: dict, files: dict[str, bytes]):
        if set(data) != {"users", "tables", "files"}:
            raise BadArchive("campaign.json is not in this format (users, tables, files)")
        self.tables = campaign_tables()
        known = {t.label for t in self.tables}
        given = data["tables"]
        if not isinstance(given, dict):
            raise BadArchive("campaign.json: tables must be an object")
        unknown = sorted(set(given) - known)
        if unknown:
            raise BadArchive(f"the archive holds a table this server does not know: {unknown[0]}")
        self.users = _users(data["users"])
        self.rows = {t.label: _rows(t, given.get(t.label, [])) for t in self.tables}
        if len(self.rows[CAMPAIGN]) != 1:
            raise BadArchive("the archive must hold exactly one campaign")
        self.campaign = self.rows[CAMPAIGN][0]
        if self.campaign["game"] not in games.KITS:
            raise BadArchive(f"this server has no game {self.campaign['game']!r}")
        self.files = files
        self.urls = data["files"]
        if not isinstance(self.urls, dict):
            raise BadArchive("campaign.json: files must be an object")
        self._check_keys()
        self._check_files()
        self._check_events()

    def _check_keys(self):
        ids = {name: {row["id"] for row in rows} for name, rows in self.rows.items()}
        users = {u["id"] for u in self.users}
        for table in self.tables:
            for row in self.rows[table.label]:
                for field in table.links:
                    value = row[field.attname]
                    if value is not None and value not in ids[label(field.related_model)]:
                        raise BadArchive(
                            f"{table.label} {row['id']}: {field.name} names a row the archive"
                            " does not hold"
                        )
                for field in table.users:
                    value = row[field.attname]
                    if value is not None and value not in users:
                        raise BadArchive(
                            f"{table.label} {row['id']}: {field.name} names a user the archive"
                            " does not list"
                        )

    def _check_files(self):
        named = {
            row[f.attname]
            for t in self.tables
            for f in t.model._meta.concrete_fields
            if is_file(f)
            for row in self.rows[t.label]
            if row[f.attname]
        }
        if named - set(self.files):
            raise BadArchive(f"the archive lacks the picture {sorted(named - set(self.files))[0]}")
        if set(self.files) - named:
            raise BadArchive("the archive holds a file no row names")
        if set(self.urls) != named or not all(
            isinstance(v, dict) and isinstance(v.get("url"), str) for v in self.urls.values()
        ):
            raise BadArchive("campaign.json: files must give each picture's URL")
        # Each picture's kind from its content, the extension it is stored with.
        self.kinds = {}
        for name, content in self.files.items():
            try:
                self.kinds[name] = images.check_image(ContentFile(content, name=name))
            except ServiceError as error:
                raise BadArchive(f"the picture {name} is refused: {error.message}") from None

    def _check_events(self):
        seqs = set()
        for row in self.rows[EVENTS]:
            payload = row["data"]
            if not isinstance(payload, dict):
                raise BadArchive(f"log entry #{row['seq']}: its data is not an object")
            payload = {k: v for k, v in payload.items() if k != event_kinds.SIGHT}
            try:
                event_kinds.check(row["kind"], payload, row["visibility"])
            except (event_kinds.UndeclaredEvent, event_kinds.InvalidEvent) as error:
                raise BadArchive(
                    f"log entry #{row['seq']} is not one this server keeps: {error}"
                ) from None
            if row["seq"] in seqs:
                raise BadArchive(f"the log has two entries #{row['seq']}")
            seqs.add(row["seq"])
        # Numbered again from 1 in the log's order; whatever names an entry
        # must name one the log holds.
        self.seqs = {old: new for new, old in enumerate(sorted(seqs), start=1)}
        for row in self.rows[EVENTS]:
            for named in seqs_named(row["data"]):
                if named not in self.seqs:
                    raise BadArchive(
                        f"log entry #{row['seq']} names entry #{named}, which the log does not hold"
                    )
        for table, column in SEQ_COLUMNS.items():
            for row in self.rows[table]:
                if row[column] not in self.seqs:
                    raise BadArchive(
                        f"{table} {row['id']}: {column} names entry #{row[column]}, which the"
                        " log does not hold"
                    )


def _users(users) -> list[dict]:
    User = user_model()
    if not isinstance(users, list):
        raise BadArchive("campaign.json: users must be a list")
    field = User._meta.get_field(User.USERNAME_FIELD)
    seen_ids, seen_names = set(), set()
    for user in users:
        if not isinstance(user, dict) or not isinstance(user.get("id"), int):
            raise BadArchive("campaign.json: each user needs an id and a user name")
        try:
            field.run_validators(field.to_python(user.get("username")))
            if not user.get("username"):
                raise ValidationError("empty")
        except ValidationError:
            raise BadArchive(
                f"campaign.json: {user.get('username')!r} is not a user name"
            ) from None
        for key in ("first_name", "last_name"):
            if not isinstance(user.get(key, ""), str) or len(user.get(key, "")) > 150:
                raise BadArchive(f"campaign.json: user {user['username']}'s {key} is not text")
        if user["id"] in seen_ids or user["username"] in seen_names:
            raise BadArchive(f"campaign.json: user {user['username']} is listed twice")
        seen_ids.add(user["id"])
        seen_names.add(user["username"])
    return users


def _rows(table, rows) -> list[dict]:
    if not isinstance(rows, list):
        raise BadArchive(f"{table.label}: rows must be a list")
    fields = {f.attname: f for f in table.model._meta.concrete_fields}
    out, ids = [], set()
    for row in rows:
        if not isinstance(row, dict):
            raise BadArchive(f"{table.label}: a row is not an object")
        extra = sorted(set(row) - set(fields))
        if extra:
            raise BadArchive(f"{table.label}: this server has no column {extra[0]}")
        clean = {}
        for attname, field in fields.items():
            clean[attname] = _value(table, field, row, attname)
        if not isinstance(clean["id"], int) or clean["id"] in ids:
            raise BadArchive(f"{table.label}: each row needs its own id")
        ids.add(clean["id"])
        out.append(clean)
    return out


def _value(table, field, row, attname):
    where = f"{table.label}.{field.name}"
    if attname not in row:
        if field.has_default():
            return field.get_default()
        if field.null:
            return None
        raise BadArchive(f"{where} is missing from a row")
    value = row[attname]
    if value is None:
        if not field.null:
            raise BadArchive(f"{where} may not be empty")
        return None
    if field.is_relation or field.primary_key:
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise BadArchive(f"{where} must be an id")
        return value
    if is_file(field):
        if not isinstance(value, str):
            raise BadArchive(f"{where} must be a file name")
        return value
    kind = field.get_internal_type()
    try:
        if kind == "BinaryField":
            value = bytes.fromhex(value)
        elif kind == "DateTimeField":
            value = _when(parse_datetime, value)
        elif kind == "DateField":
            value = _when(parse_date, value)
        elif isinstance(field, models.JSONField):
            json.dumps(value)
        value = field.to_python(value)
        # Blank is the models' business (an empty list of changes is fine);
        # choices, lengths and ranges are checked here.
        if value not in field.empty_values:
            field.validate(value, None)
            field.run_validators(value)
        return value
    except (ValidationError, ValueError, TypeError):
        raise BadArchive(f"{where}: {str(value)[:40]!r} is not a value it takes") from None


def _when(parse, value):
    parsed = parse(value) if isinstance(value, str) else None
    if parsed is None:
        raise ValueError(value)
    if isinstance(parsed, datetime) and parsed.tzinfo is None:
        raise ValueError(value)
    return parsed


def _store_pictures(plan: _Plan, stored: list) -> tuple[dict, dict]:
    """Each picture under a new random name in the storage of the first
    column that names it: (old name -> new name, old URL -> new URL)."""
    names, urls = {}, {}
    for table in plan.tables:
        for field in table.model._meta.concrete_fields:
            if not is_file(field):
                continue
            for row in plan.rows[table.label]:
                old = row[field.attname]
                if not old or old in names:
                    continue
                folder = field.upload_to if isinstance(field.upload_to, str) else "imported/"
                name = f"{images.random_name(folder)}.{plan.kinds[old]}"
                new = field.storage.save(name, ContentFile(plan.files[old]))
                stored.append((field.storage, new))
                names[old] = new
                urls[plan.urls[old]["url"]] = field.storage.url(new)
    return names, urls


def _insert(plan: _Plan, names: dict, urls: dict, owner, name: str, accounts) -> Campaign:
    maps: dict[str, dict[int, int]] = {USERS: accounts, SEQ: plan.seqs}
    ids = NewIds(maps)
    created: dict[str, list] = {}
    try:
        for table in plan.tables:
            # A row that must name a user (a membership, a token's control)
            # goes with a member who was not kept; nothing links to such rows.
            rows = [r for r in plan.rows[table.label] if _kept(table, r, accounts)]
            objects = [_instance(table, row, maps, names, ids) for row in rows]
            table.model._base_manager.bulk_create(objects)
            maps[table.label] = {row["id"]: obj.pk for row, obj in zip(rows, objects, strict=True)}
            created[table.label] = (rows, objects)
        for table in plan.tables:
            _finish(table, *created[table.label], maps, ids, urls)
    except IntegrityError as error:
        raise BadArchive(f"the archive's rows break a rule of this server: {error}") from None
    campaign = Campaign.objects.get(pk=maps[CAMPAIGN][plan.campaign["id"]])
    # The log's last entry, whatever the archive said of its counter.
    Campaign.objects.filter(pk=campaign.pk).update(name=name, event_seq=len(plan.seqs))
    campaign.refresh_from_db()
    _make_gm(campaign, owner)
    if not Membership.objects.filter(policy.gms_q(), campaign=campaign).exists():
        raise ServiceError(
            "no_gm", "the imported campaign would have no GM: keep one, or name an owner", "members"
        )
    return campaign


def _kept(table, row: dict, accounts: dict) -> bool:
    return all(row[f.attname] in accounts for f in table.users if not f.null)


def _instance(table, row: dict, maps, names, ids: NewIds):
    values = {}
    for field in table.model._meta.concrete_fields:
        value = row[field.attname]
        if field.primary_key:
            continue
        if field in table.users:
            value = maps[USERS].get(value)  # None: a member who was not kept
        elif SEQ_COLUMNS.get(table.label) == field.attname:
            value = maps[SEQ][value]
        elif field in table.early:
            value = maps[label(field.related_model)][value]
        elif field in table.late:
            value = None  # set once every row has its id
        elif is_file(field):
            value = names.get(value) if value else None
        elif GROUPS.get(table.label) == field.name:
            value = ids.group(value)
        values[field.attname] = value
    return table.model(**values)


def _finish(table, rows, objects, maps, ids: NewIds, urls):
    """The second pass: keys that may be null (cycles), the timestamps the
    models set themselves on insert, the ids inside the JSON."""
    fields = [f.attname for f in table.late]
    fields += [
        f.attname
        for f in table.model._meta.concrete_fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    fields += list(REWRITTEN.get(table.label, ()))
    if not fields:
        return
    for row, obj in zip(rows, objects, strict=True):
        for field in table.late:
            old = row[field.attname]
            value = maps[label(field.related_model)][old] if old is not None else None
            setattr(obj, field.attname, value)
        for field in table.model._meta.concrete_fields:
            if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
                setattr(obj, field.attname, row[field.attname])
        for attname in REWRITTEN.get(table.label, ()):
            if table.label == EVENTS:
                setattr(obj, attname, rewrite_event(row["kind"], row[attname], ids, urls))
            else:
                setattr(obj, attname, rewrite(row[attname], ids, urls))
    table.model._base_manager.bulk_update(objects, fields, batch_size=500)


def _make_gm(campaign: Campaign, owner) -> None:
    """The importer runs the campaign here: a GM already, made one, or
    joined as one (a `member.joined` entry, as any new member's). Without
    an owner (the command without --owner) the archive's GMs run it."""
    if owner is None:
        return
    membership = Membership.objects.filter(campaign=campaign, user=owner).first()
    if membership is not None:
        if not policy.runs_table(membership):
            membership.role = Role.GM
            membership.save(update_fields=["role"])
            append_event(
                campaign=campaign,
                kind=event_kinds.MEMBER_UPDATED,
                data={"user": user_data(owner), "role": Role.GM},
                actor=owner,
            )
        return
    Membership.objects.create(campaign=campaign, user=owner, role=Role.GM)
    append_event(
        campaign=campaign,
        kind=event_kinds.MEMBER_JOINED,
        data={"user": user_data(owner), "role": Role.GM},
        actor=owner,
    )
