from django.db import models


class LoginFailure(models.Model):
    """One failed log-in: the username tried, the client's address (an
    IPv6 client by its /64 network) and when. Rows live in the database so
    that every worker process counts the same failures; those older than
    the cool-off are deleted as new ones come in."""

    username = models.CharField(max_length=150)
    address = models.CharField(max_length=64)
    at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["address", "at"], name="login_failure_address"),
            models.Index(fields=["address", "username", "at"], name="login_failure_account"),
            models.Index(fields=["username", "at"], name="login_failure_username"),
            models.Index(fields=["at"], name="login_failure_at"),
        ]

    def __str__(self):
        return f"{self.username!r} from {self.address} at {self.at:%Y-%m-%d %H:%M:%S}"


class JoinFailure(models.Model):
    """One invite code tried that was no invite: who tried it (a user id;
    this app knows no other table) from which address, and when. Counted
    like failed log-ins, in the database for every worker; rows older than
    the cool-off go as new ones come in."""

    user_id = models.BigIntegerField()
    address = models.CharField(max_length=64)
    at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["address", "at"], name="join_failure_address"),
            models.Index(fields=["user_id", "at"], name="join_failure_user"),
            models.Index(fields=["at"], name="join_failure_at"),
        ]

    def __str__(self):
        return f"user {self.user_id} from {self.address} at {self.at:%Y-%m-%d %H:%M:%S}"
