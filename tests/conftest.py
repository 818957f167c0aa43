"""Suite-wide settings."""

import os

import platformdirs

# Tests isolate RAGIX_HOME in temporary directories; the assembled default model
# (1.1 GB, verified by sha256) must stay in one shared cache instead of being
# rebuilt under every temporary home.
os.environ.setdefault("RAGIX_MODELS", os.path.join(platformdirs.user_cache_dir("ragix"), "models"))
