"""A Kaggle ensembling notebook (2020): its optimizers take `lr=`, a keyword only OptimizerV2
(TensorFlow before 2.11) reads and Keras 3 refuses, so the file ran on an OptimizerV2 Keras; the
bare `Adam()` made outside the scope has no variable until `fit` steps it under the model's
strategy."""
import tensorflow as tf

resolver = tf.distribute.cluster_resolver.TPUClusterResolver()
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)

with strategy.scope():
    dense_net = tf.keras.Sequential([
        tf.keras.applications.DenseNet201(input_shape=(512, 512, 3), weights="imagenet", include_top=False),
        tf.keras.layers.GlobalAveragePooling2D(),
        tf.keras.layers.Dense(104, activation="softmax"),
    ])
dense_net.compile(optimizer=tf.keras.optimizers.Adam(), loss="sparse_categorical_crossentropy")

with strategy.scope():
    inception = tf.keras.Sequential([
        tf.keras.applications.InceptionResNetV2(input_shape=(512, 512, 3), weights="imagenet", include_top=False),
        tf.keras.layers.GlobalAveragePooling2D(),
        tf.keras.layers.Dense(104, activation="softmax"),
    ])
    inception.compile(optimizer=tf.keras.optimizers.Adam(lr=0.0001), loss="sparse_categorical_crossentropy")
