"""A Kaggle TPU notebook of the TF 2.1-2.3 era: `lr=` and `decay=` are keywords only OptimizerV2
reads (TF 2.11's optimizers ignore `lr` and refuse `decay`; Keras 3 refuses both), so these are
OptimizerV2s, which make their variables at the first step, under the model's strategy."""
import tensorflow as tf

tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
tf.config.experimental_connect_to_cluster(tpu)
tf.tpu.experimental.initialize_tpu_system(tpu)
strategy = tf.distribute.experimental.TPUStrategy(tpu)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(104, activation="softmax", input_shape=(512,))])

model.compile(optimizer=tf.keras.optimizers.Adam(lr=1e-3), loss="sparse_categorical_crossentropy",
              metrics=["sparse_categorical_accuracy"])

with strategy.scope():
    head = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(512,))])
head.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.01, momentum=0.9, decay=1e-6), loss="mse")
