"""Commerce tools: declared in the shared registry (filled in by the checkout work)."""
