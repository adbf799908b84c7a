"""Text classifiers on tf.keras or standalone Keras."""

__version__ = "0.3.0"
