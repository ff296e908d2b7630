from django.apps import AppConfig


class SiteConfig(AppConfig):
    name = "sefirot_site"
    verbose_name = "Sefirot Online"

    def ready(self):
        from . import checks  # noqa: F401 - registers the deploy checks
        from . import pg_timestamps  # noqa: F401 - PostgreSQL's timestamps parsed in C
