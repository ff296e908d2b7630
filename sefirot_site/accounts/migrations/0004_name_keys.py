from django.db import migrations, models

from sefirot_site.accounts.names import name_key


def fill_keys(apps, schema_editor):
    """The keys of every account made before the keys were kept."""
    User = apps.get_model("accounts", "User")
    users = list(User.objects.only("pk", "username", "display_name"))
    for user in users:
        user.username_key, user.display_name_key = name_key(user.username), name_key(user.display_name)
    User.objects.bulk_update(users, ["username_key", "display_name_key"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0003_user_manager_reads_by_id"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="display_name_key",
            field=models.TextField(blank=True, db_index=True, default="", editable=False),
        ),
        migrations.AddField(
            model_name="user",
            name="username_key",
            field=models.TextField(blank=True, db_index=True, default="", editable=False),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
