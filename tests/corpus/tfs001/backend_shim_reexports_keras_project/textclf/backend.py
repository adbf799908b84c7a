"""One import site for the Keras the package runs on: tf.keras, or standalone Keras with TF_KERAS=0."""
import os

import tensorflow as tf

if os.environ.get("TF_KERAS", "1") == "1":
    import tensorflow.keras as keras
    import tensorflow.keras.backend as K
    from tensorflow.keras import layers as L
else:
    import keras
    import keras.backend as K
    from keras import layers as L

TF_VERSION = int(tf.__version__.split(".")[0])
