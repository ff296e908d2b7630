from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "sefirot_site.accounts"
    label = "accounts"
    verbose_name = "Accounts"
