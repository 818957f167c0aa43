"""What every layer shares: the run's record types, the named stop, the event
stream, how untrusted text is bounded and the names of the engines. Nothing
here imports another part of ragix, so every layer may import it."""
