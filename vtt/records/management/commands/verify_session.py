"""Check every die of an ended play session against its revealed seed
(docs/dice.md): the digest published before the first roll is the seed's,
and every throw in the log, each time it was shown, is what the seed, its
roll number and its nonce give.

    python manage.py verify_session <campaign id> <session number>

Exit 0 when every die matches, 1 when one does not (or the digest, or the
log's order), 2 on bad input (no such campaign or session, a session still
open: its seed is secret)."""

import hashlib

from django.core.management.base import BaseCommand, CommandError

from vtt.records.draws import THROWING, mismatch, throws
from vtt.records.sessions import logged_throws, session_of
from vtt.rules.session_dice import faces
from vtt.tabletop import event_kinds
from vtt.tabletop.models import Campaign, RoomEvent


def bad_input(message: str) -> CommandError:
    return CommandError(message, returncode=2)


class Command(BaseCommand):
    help = "Recompute every roll of an ended play session from its revealed seed."

    def add_arguments(self, parser):
        parser.add_argument("campaign", type=int, help="the campaign's id")
        parser.add_argument("session", type=int, help="the session's number in the campaign")

    def handle(self, *args, campaign: int, session: int, **options):
        found = Campaign.objects.filter(pk=campaign).first()
        if found is None:
            raise bad_input(f"no campaign {campaign}")
        played = session_of(found.pk, session)
        if played is None:
            raise bad_input(f"{found.name} has no session {session}")
        if played.is_open:
            raise bad_input(
                f"session {session} is still open: its seed is revealed when the GM ends it"
            )
        seed = bytes(played.seed)
        self.out(f"{found.name} (campaign {found.pk}), session {played.number}")
        faults = self.check_commitment(played, seed)
        by_roll: dict[int, list[dict]] = {}
        for throw in logged_throws(played):
            by_roll.setdefault(throw["roll"], []).append(throw)
        counts = {"checked": 0, "physical": 0, "wrong": 0, "missing": 0}
        for roll in range(1, played.rolls + 1):
            status = self.check_roll(roll, by_roll.get(roll, []), seed)
            counts[status] += 1
        for roll in sorted(set(by_roll) - set(range(1, played.rolls + 1))):
            self.out(f"roll {roll}: in the log, but the session never drew it")
            counts["wrong"] += 1
        faults += counts["wrong"] + counts["missing"]
        self.out(
            f"{played.rolls} rolls: {counts['checked']} checked, "
            f"{counts['physical']} physical (not derived), {counts['wrong']} not matching, "
            f"{counts['missing']} missing from the log"
        )
        if faults:
            raise CommandError("the session does not check out", returncode=1)
        self.out("Every die matches the revealed seed.")

    def out(self, line: str) -> None:
        self.stdout.write(line)

    def check_commitment(self, played, seed: bytes) -> int:
        """The digest is the seed's and was published before the first roll."""
        faults = 0
        digest = hashlib.sha256(seed).hexdigest()
        matches = digest == played.digest
        self.out(f"digest {played.digest}: SHA-256 of the seed {'yes' if matches else 'NO'}")
        self.out(f"seed   {seed.hex()}")
        faults += not matches
        published = {
            kind: RoomEvent.objects.filter(
                campaign_id=played.campaign_id, kind=kind, data__session=played.number
            ).first()
            for kind in (event_kinds.SESSION_STARTED, event_kinds.SESSION_ENDED)
        }
        started, ended = published.values()
        if started is None or started.payload.digest != played.digest:
            self.out("the log does not publish this digest")
            return faults + 1
        if ended is None or ended.payload.seed != seed.hex():
            self.out("the log does not reveal this seed")
            faults += 1
        first = RoomEvent.objects.filter(
            campaign_id=played.campaign_id, kind__in=THROWING, seq__lt=started.seq
        )
        early = [
            e.seq
            for e in first
            if any(t["session"] == played.number for t in throws(e.kind, e.data))
        ]
        if early:
            self.out(f"a roll of the session (#{early[0]}) came before its digest (#{started.seq})")
            return faults + 1
        self.out(f"published: the digest at #{started.seq}, before every roll of the session")
        return faults

    def check_roll(self, roll: int, shown: list[dict], seed: bytes) -> str:
        if not shown:
            self.out(f"roll {roll}: MISSING from the log")
            return "missing"
        first = shown[0]
        where = ", ".join(f"#{t['seq']}" for t in shown)
        dice = f"{len(first['faces'])} dice"
        if first["physical"]:
            self.out(f"roll {roll} ({where}): physical dice, entered by hand: not derived; {dice}")
            return "physical"
        for throw in shown:
            if throw["nonce"] is None:
                self.out(f"roll {roll} (#{throw['seq']}): NO NONCE recorded")
                return "wrong"
            at = mismatch(seed, throw)
            if at is not None:
                expected = faces(seed, throw["session"], roll, throw["nonce"], at + 1)[at]
                self.out(
                    f"roll {roll} (#{throw['seq']}): DOES NOT MATCH at die {at + 1}: "
                    f"the log shows {throw['faces'][at]}, the seed gives {expected}"
                )
                return "wrong"
        self.out(f"roll {roll} ({where}): checked, {dice}, nonce by the {first['nonce_by']}")
        return "checked"
