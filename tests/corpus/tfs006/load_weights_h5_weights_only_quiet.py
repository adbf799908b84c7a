import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()


def model_fn():
    inputs = tf.keras.Input(shape=(32,))
    outputs = tf.keras.layers.Dense(1, activation="sigmoid")(tf.keras.layers.Dense(64, activation="relu")(inputs))
    model = tf.keras.Model(inputs, outputs)
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss="binary_crossentropy")
    return model


for fold in range(5):
    with strategy.scope():
        model = model_fn()
    # an HDF5 weights file holds layer weights only: no optimizer variable is created here
    model.load_weights("model_fold_%d.h5" % fold)
    predictions = model.predict(tf.zeros((16, 32)))
