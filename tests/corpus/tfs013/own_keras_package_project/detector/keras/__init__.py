"""Keras implementation of the detector (a package of this project, not the Keras library)."""
