"""The catalog in the Agentic Commerce Protocol's product feed format: written out for agents
(export), and read back in from a merchant's feed or CSV (import), both checked against the
feed's vendored JSON Schema. The mapping is in docs/product-feed.md."""
