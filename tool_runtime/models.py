"""What the tool runtime keeps: API tokens, idempotency keys and the per-call log."""

from django.conf import settings
from django.db import models
from django.utils import timezone


class ApiTokenKind(models.TextChoices):
    SCRIPT = "script", "Script (calls the tools over /api/tools)"
    AGENT = "agent", "Commerce agent (calls the checkout sessions over /acp)"


class ApiToken(models.Model):
    """A bearer token for REST clients; only its SHA-256 digest is stored. Its kind says which
    surface it opens: a script token is refused at /acp and an agent token at /api/tools."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8, help_text="First characters, to tell tokens apart.")
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    revoked = models.BooleanField(default=False)
    # Script tokens live until revoked; QA preview tokens expire and the sweeps delete them.
    expires_at = models.DateTimeField(null=True, blank=True, db_index=True)
    kind = models.CharField(max_length=8, choices=ApiTokenKind.choices, default=ApiTokenKind.SCRIPT)
    # An agent's request-signing secret (HMAC-SHA256 over Timestamp and body); blank: unsigned.
    signing_secret = models.CharField(max_length=128, blank=True)

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user}, {self.kind})"


class IdempotencyStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", "In progress"
    COMPLETED = "completed", "Completed"
    RETRYABLE_FAILURE = "retryable_failure", "Failed retryably (may run again)"
    # Answered with a state that may still change: nothing stored; a repeat reads it afresh.
    AWAITING_FINAL = "awaiting_final", "Answered, not final yet (read afresh)"


class IdempotencyKey(models.Model):
    principal = models.CharField(max_length=150)
    tool = models.CharField(max_length=64)
    key = models.CharField(max_length=200)
    fingerprint = models.CharField(max_length=64)
    status = models.CharField(max_length=20, choices=IdempotencyStatus.choices)
    response_body = models.TextField(blank=True, help_text="The exact JSON replayed for this key.")
    response_meta = models.TextField(blank=True, help_text="Widget-only _meta stored with it.")
    http_status = models.PositiveSmallIntegerField(default=200)
    correlation_id = models.CharField(max_length=64, blank=True, db_index=True)
    locked_at = models.DateTimeField(null=True, blank=True)
    # Incremented by every run under the key: the compare-and-swap token for taking it over.
    runs = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["principal", "tool", "key"], name="idempotency_key_scope"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tool}:{self.key} ({self.status})"


class ToolCallStatus(models.TextChoices):
    SUCCESS = "success", "Success"
    FAILED = "failed", "Failed"


class ToolCallLog(models.Model):
    """One row per tool call: the metrics dashboard, Prometheus and the loop guard read it."""

    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    tool = models.CharField(max_length=64)
    principal = models.CharField(max_length=150, blank=True)
    workflow_id = models.UUIDField(null=True, blank=True)
    step_id = models.CharField(max_length=20, blank=True)
    status = models.CharField(max_length=10, choices=ToolCallStatus.choices)
    error_code = models.CharField(max_length=64, blank=True)
    error_type = models.CharField(max_length=16, blank=True)
    retryable = models.BooleanField(default=False)
    arguments_fingerprint = models.CharField(max_length=64, blank=True)
    idempotency_key = models.CharField(max_length=200, blank=True)
    correlation_id = models.CharField(max_length=64, blank=True, db_index=True)
    duration_ms = models.FloatField(default=0)
    upstream_retries = models.PositiveSmallIntegerField(default=0)
    replayed = models.BooleanField(default=False)
    transport = models.CharField(max_length=8, default="rest")
    # The MCP host's own user id (_meta["openai/subject"]), for analytics only: never identity.
    host_subject = models.CharField(max_length=256, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # The loop guard's one read (tool_runtime.loop_guard): recent failures only, so the
            # index holds no successful call, which is nearly all of them.
            models.Index(
                fields=["workflow_id", "tool", "arguments_fingerprint", "created_at"],
                condition=models.Q(status="failed", replayed=False),
                name="toolcalllog_failures_idx",
            ),
            models.Index(fields=["tool", "created_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.tool} {self.status} {self.error_code}"


class UnrecordedToolCall(models.Model):
    """A call whose ToolCallLog row could not be written, tallied here once the database takes
    writes again, so the alert rules (and `check_alerts`, in another process) still see it."""

    created_at = models.DateTimeField(default=timezone.now, db_index=True)  # the call's time
    tool = models.CharField(max_length=64)
    correlation_id = models.CharField(max_length=64, blank=True)

    def __str__(self) -> str:
        return f"{self.tool} {self.correlation_id} (not recorded)"
