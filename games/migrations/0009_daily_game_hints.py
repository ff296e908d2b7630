from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0008_seat_mail_muted'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='hints',
            field=models.BooleanField(default=True, help_text='Whether the computer offers hints in this game.'),
        ),
    ]
