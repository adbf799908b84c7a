import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
optimizer = tf.optimizers.SGD(0.1)  # expect: TFS002
accuracy = tf.metrics.BinaryAccuracy()  # expect: TFS003

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer=optimizer, loss="binary_crossentropy", metrics=[accuracy])
