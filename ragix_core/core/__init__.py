"""What every layer shares: the run's record types, the named stop, the event
stream and how untrusted text is bounded. Nothing here imports another part
of ragix, so every layer may import it."""
