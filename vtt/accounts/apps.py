from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "vtt.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self):
        from django.contrib.auth.signals import user_login_failed

        from .login_limits import count_failure

        user_login_failed.connect(count_failure, dispatch_uid="vtt.accounts.count_failure")
