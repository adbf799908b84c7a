"""tfscope: static checks for tf.distribute strategy-scope placement."""

__version__ = "0.1.0"
