"""Start-up imports what every analysis needs; what only some files or settings need loads with them."""

import subprocess
import sys

ANALYSE_A_PLAIN_FILE = """
import sys
from tfscope import engine
from tfscope.source import Source
engine.analyze(Source(text="import tensorflow as tf\\nstrategy = tf.distribute.MirroredStrategy()\\n"))
print(" ".join(sorted(name for name in sys.argv[1:] if name in sys.modules)))
"""

# reading an environment's installed packages, a declared version bound, a TOML file, and fixes
ON_DEMAND = ("importlib.metadata", "packaging.utils", "packaging.tags", "packaging.requirements", "tomllib",
             "tfscope.fixes.candidates", "tfscope.fixes.move", "tfscope.fixes.validate")


def test_a_plain_file_is_analysed_without_the_modules_only_environments_bounds_toml_and_fixes_need():
    done = subprocess.run([sys.executable, "-c", ANALYSE_A_PLAIN_FILE, *ON_DEMAND],
                          capture_output=True, text=True, check=True)
    assert done.stdout.split() == []
