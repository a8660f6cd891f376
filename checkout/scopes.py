"""The OAuth scope checkout's writing tools require (the ACP tools' as well as the gift
workflow's)."""

ORDERS_WRITE = "orders:write"
