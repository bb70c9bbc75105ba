"""API tokens were kept in plain text (rest_framework.authtoken); they are now django-rest-knox's,
kept as a hash, with an expiry. The old ones are deleted: whoever holds one asks for a new token."""

from django.db import migrations


def plaintext_tokens_delete(apps, schema_editor):
    connection = schema_editor.connection
    if "authtoken_token" in connection.introspection.table_names():
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM authtoken_token")


class Migration(migrations.Migration):
    dependencies = [("compliance", "0011_printable_text")]

    operations = [migrations.RunPython(plaintext_tokens_delete, migrations.RunPython.noop, elidable=True)]
