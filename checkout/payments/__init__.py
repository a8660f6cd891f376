"""Payment provider adapter (Stripe-like) and its built-in simulator."""
