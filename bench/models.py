"""The baseline: a plain table as wide as the logbook's Entry, with no chain, signature or trigger."""

from django.db import models
from django.utils import timezone

from compliance.casinos.models import GamingTable


class BaselineRow(models.Model):
    """Column for column a logbook Entry: the same kinds and sizes, none of its rules."""

    property = models.BigIntegerField()
    seq = models.PositiveBigIntegerField()
    table = models.ForeignKey(GamingTable, on_delete=models.PROTECT, related_name="+")
    table_number = models.CharField(max_length=20)
    kind = models.CharField(max_length=20)
    occurred_at = models.DateTimeField()
    recorded_at = models.DateTimeField(default=timezone.now)
    recorded_by = models.BigIntegerField()
    description = models.TextField(blank=True)
    passed = models.BooleanField(null=True, blank=True)
    details = models.JSONField(default=dict, blank=True)
    amends = models.BigIntegerField(null=True, blank=True)
    prev_hash = models.CharField(max_length=64)
    entry_hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["occurred_at", "id"]
        indexes = [models.Index(fields=["table", "occurred_at"], name="baseline_table_time")]

    def __str__(self) -> str:
        return f"baseline row {self.pk}"
