"""The shared core: roles, the one error format, idempotent POSTs."""
