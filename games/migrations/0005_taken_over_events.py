import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0004_seat_seen_at'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name='gameevent',
            name='kind',
            field=models.CharField(choices=[('day_given', 'A day given'), ('taken_over', 'A seat taken over by the house')], max_length=20),
        ),
        migrations.AlterField(
            model_name='seatmailsent',
            name='kind',
            field=models.CharField(choices=[('turn', 'Turn mail'), ('game_over', 'Game over'), ('reveal', 'Cards revealed')], default='turn', max_length=10),
        ),
        migrations.AddField(
            model_name='gameevent',
            name='user',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
    ]
