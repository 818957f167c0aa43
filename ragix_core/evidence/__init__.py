"""Evidence: what the tools showed, as every engine judges it and shows it to a
model (steps), cut to what the goal is about (excerpt), with ragix's hints for
wrong paths (path_hints), and answers kept faithful to it (grounding)."""
